/// A drop shadow's blurred silhouette drawn once for a layer's content and linear transform, and
/// moved to where each frame places it: a layer that only moves (a spring carrying a shadowed
/// card) is not blurred again frame after frame.
///
/// The definition, the same whatever was drawn before (so a frame stays a pure function of its
/// time): for a blur of σ ≥ `minimumSigma` device pixels, the silhouette is rasterized under the
/// transform's linear part alone (no translation), blurred in Float, and sampled at the true,
/// fractional translation with bilinear weights, rounded once. The Gaussian is shift-invariant, so
/// this equals blurring the silhouette rasterized at its place, up to the interpolation: for a
/// blurred edge of height A the error is at most max|f″|/8 = 0.242·A/(8σ²) — 0.48 of a level for
/// a fully opaque edge at σ = 4, 0.12 at σ = 8 (a 4-point shadow at 2×), and a shadow's colour
/// alpha scales it further. Smaller σ keeps the direct blur, where the interpolation would show.
struct TranslatedShadow {
  /// Below this σ (device pixels) shadows are blurred where they fall.
  static let minimumSigma = 4.0

  /// What a blurred silhouette depends on: the content (opacity 1, no shadow of its own), the
  /// linear part of its device transform, and σ.
  struct Key: Hashable {
    var content: Layer
    var linear: Transform
    var sigma: Double
  }

  /// The blurred silhouette under the linear part: Float samples (0...255) over `box`, in the
  /// device space of the untranslated transform.
  struct Silhouette {
    var plane: FloatPlane
    var box: IntRect
  }
}

/// The blurred silhouettes a compositor drew recently, most recent first, within a bound on the
/// samples held.
struct TranslatedShadowCache {
  /// Samples held at most (4 bytes each): 16 MB. A silhouette larger than this is not kept.
  static let sampleBudget = 4 << 20
  static let entryLimit = 8

  private var entries: [(key: TranslatedShadow.Key, silhouette: TranslatedShadow.Silhouette)] = []

  /// The silhouette for `key`, moved to the front when found.
  mutating func take(_ key: TranslatedShadow.Key) -> TranslatedShadow.Silhouette? {
    guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
    let entry = entries.remove(at: index)
    entries.insert(entry, at: 0)
    return entry.silhouette
  }

  mutating func keep(_ silhouette: TranslatedShadow.Silhouette, for key: TranslatedShadow.Key) {
    let samples = silhouette.plane.values.count
    guard samples <= Self.sampleBudget else { return }
    entries.insert((key, silhouette), at: 0)
    var total = 0
    var kept = 0
    for entry in entries {
      total += entry.silhouette.plane.values.count
      if total > Self.sampleBudget || kept == Self.entryLimit { break }
      kept += 1
    }
    entries.removeSubrange(kept...)
  }
}

extension Compositor {
  /// The blurred shadow mask of `content` (opacity 1, no shadow) drawn under `parent` (which maps
  /// the layer's parent space to a `width`×`height` offscreen, the shadow's offset included),
  /// by `TranslatedShadow`'s definition; nil when σ is below its minimum or the untranslated
  /// silhouette would be far larger than the offscreen (a huge layer mostly off screen), where
  /// the caller blurs in place.
  mutating func translatedShadow(
    of content: Layer, parent: Transform, sigma: Double, width: Int, height: Int
  ) -> Mask? {
    guard sigma >= TranslatedShadow.minimumSigma, parent.tx.isFinite, parent.ty.isFinite else {
      return nil
    }
    var linear = parent
    linear.tx = 0
    linear.ty = 0
    let key = TranslatedShadow.Key(content: content, linear: linear, sigma: sigma)
    let silhouette: TranslatedShadow.Silhouette
    if let kept = shadowCache.take(key) {
      silhouette = kept
    } else {
      guard let bounds = content.bounds(under: linear) else { return nil }
      let box = bounds.roundedOut.outset(by: GaussianBlur.margin(for: sigma) + 1)
      guard !box.isEmpty, box.width * box.height <= 2 * width * height + (1 << 16),
        let mask = self.silhouette(
          of: content, width: box.width, height: box.height,
          parent: linear.concatenating(.translation(Double(-box.minX), Double(-box.minY))))
      else { return nil }
      silhouette = TranslatedShadow.Silhouette(
        plane: blurrer.blurredPlane(of: mask, sigma: sigma), box: box)
      shadowCache.keep(silhouette, for: key)
    }
    guard var result = Mask(width: width, height: height) else { return nil }
    // Offscreen pixel x has its centre at box.minX + k + ½ + tx in the plane's index k.
    GaussianBlur.shift(
      silhouette.plane,
      by: (-Double(silhouette.box.minX) - parent.tx, -Double(silhouette.box.minY) - parent.ty),
      into: &result)
    return result
  }
}
