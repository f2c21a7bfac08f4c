/// A drop shadow's blurred silhouette drawn once for a layer's content and resampled to where,
/// and at what size, each frame places it: a shadowed card that a spring moves or scales is not
/// blurred again frame after frame.
///
/// The definition, the same whatever was drawn before (so a frame stays a pure function of its
/// time), for a shadow of σ ≥ `minimumSigma` device pixels whose layer is drawn under the linear
/// map P (its transform after its parent's, translation aside):
/// - P a similarity (a uniform scale with a rotation, perhaps mirrored): the silhouette is
///   rasterized under `canonicalSigma`/σ · P (entries rounded to 2⁻²⁰) and blurred with σ =
///   `canonicalSigma`. A Gaussian scales with the shape (σ is the radius times P's scale, as
///   SwiftUI scales a shadow with the modifiers after it), so this is the same shadow drawn at
///   another resolution; each frame samples it through the exact affine map to its pixels.
/// - P anything else: the silhouette is rasterized under P itself and blurred with σ; each frame
///   samples it at the fractional translation.
/// Samples are bilinear in Float and rounded once. For a blurred edge of height A the
/// interpolation errs by at most max|f″|/8 = 0.242·A/(8σ²) in the plane's own pixels: 0.12 of a
/// level for an opaque edge at σ 8 (every similarity), 0.48 at σ 4 (the least, other maps). The
/// pixel box filter's variance differs by (s² − 1)/12 px², s ≤ 2 the scale between the two, a
/// change of σ below 0.8 % at σ 4. Smaller σ keeps the direct blur, where the interpolation
/// would show.
struct ResampledShadow {
  /// Below this σ (device pixels) shadows are blurred where they fall.
  static let minimumSigma = 4.0
  /// The σ, in its own pixels, at which a similarity's silhouette is drawn and blurred.
  static let canonicalSigma = 8.0

  /// What a blurred silhouette depends on: the content (opacity 1, no shadow of its own), the
  /// linear map it is rasterized under, and σ in that map's pixels.
  struct Key: Hashable {
    var content: Layer
    var linear: Transform
    var sigma: Double
  }

  /// The blurred silhouette under `key.linear`: Float samples (0...255) over `box`, in the
  /// device space of that map.
  struct Silhouette {
    var plane: FloatPlane
    var box: IntRect
  }

  /// The key for a shadow of `sigma` device pixels of `content` under the linear map `linear`.
  static func key(content: Layer, linear: Transform, sigma: Double) -> Key {
    let scale = abs(linear.determinant).squareRoot()
    let tolerance = 1e-9 * scale
    let rotation = abs(linear.a - linear.d) <= tolerance && abs(linear.b + linear.c) <= tolerance
    let mirrored = abs(linear.a + linear.d) <= tolerance && abs(linear.b - linear.c) <= tolerance
    guard rotation || mirrored, scale > 0, scale.isFinite else {
      return Key(content: content, linear: linear, sigma: sigma)
    }
    let k = canonicalSigma / sigma
    func grid(_ v: Double) -> Double { (v * k * 1_048_576).rounded() / 1_048_576 }
    let canonical = Transform(
      a: grid(linear.a), b: grid(linear.b), c: grid(linear.c), d: grid(linear.d), tx: 0, ty: 0)
    return Key(content: content, linear: canonical, sigma: canonicalSigma)
  }
}

/// The blurred silhouettes a compositor drew recently, most recent first, within a bound on the
/// samples held.
struct ResampledShadowCache {
  /// Samples held at most (4 bytes each): 16 MB. A silhouette larger than this is not kept.
  static let sampleBudget = 4 << 20
  static let entryLimit = 8

  private var entries: [(key: ResampledShadow.Key, silhouette: ResampledShadow.Silhouette)] = []

  /// The silhouette for `key`, moved to the front when found.
  mutating func take(_ key: ResampledShadow.Key) -> ResampledShadow.Silhouette? {
    guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
    let entry = entries.remove(at: index)
    entries.insert(entry, at: 0)
    return entry.silhouette
  }

  mutating func keep(_ silhouette: ResampledShadow.Silhouette, for key: ResampledShadow.Key) {
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
  /// with σ `sigma` device pixels, by `ResampledShadow`'s definition; nil when σ is below its
  /// minimum or the silhouette would be far larger than the offscreen (a huge layer mostly off
  /// screen), where the caller blurs in place.
  mutating func resampledShadow(
    of layer: Layer, parent outer: Transform, sigma: Double, width: Int, height: Int
  ) -> Mask? {
    // The content's own transform joins the map (a scale the animation changes is then part
    // of the similarity, not of the key's content).
    var content = layer
    content.transform = .identity
    let parent = layer.transform.concatenating(outer)
    guard sigma >= ResampledShadow.minimumSigma, parent.tx.isFinite, parent.ty.isFinite else {
      return nil
    }
    var linear = parent
    linear.tx = 0
    linear.ty = 0
    let key = ResampledShadow.key(content: content, linear: linear, sigma: sigma)
    // Offscreen point p = P·q + t; the silhouette's point c = Pc·q − box.min; so
    // c = Pc·P⁻¹·(p − t) − box.min, and sample indices sit half a pixel inside both.
    guard let inverse = linear.inverted else { return nil }
    let toCanonical = inverse.concatenating(key.linear)
    // A silhouette far larger than the offscreen is not worth drawing: the caller blurs in
    // place. Asked of a kept one too, so that what a frame gets does not depend on the frames
    // drawn before it (a large offscreen earlier kept a silhouette a small one would refuse).
    func fits(_ box: IntRect) -> Bool { box.width * box.height <= 4 * width * height + (1 << 16) }
    let silhouette: ResampledShadow.Silhouette
    if let kept = shadowCache.take(key) {
      guard fits(kept.box) else { return nil }
      silhouette = kept
    } else {
      guard let bounds = content.bounds(under: key.linear) else { return nil }
      let box = bounds.roundedOut.outset(by: GaussianBlur.margin(for: key.sigma) + 1)
      guard !box.isEmpty, fits(box),
        let mask = self.silhouette(
          of: content, width: box.width, height: box.height,
          parent: key.linear.concatenating(.translation(Double(-box.minX), Double(-box.minY))))
      else { return nil }
      silhouette = ResampledShadow.Silhouette(
        plane: blurrer.blurredPlane(of: mask, sigma: key.sigma), box: box)
      shadowCache.keep(silhouette, for: key)
    }
    guard var result = Mask(width: width, height: height) else { return nil }
    let m = toCanonical
    let identity = key.linear == linear
    // index = M·(x + ½ − tx, y + ½ − ty) − box.min − ½, written as M·(x, y) + o.
    let (cx, cy) = (0.5 - parent.tx, 0.5 - parent.ty)
    let map =
      identity
      ? PlaneMap(
        m00: 1, m01: 0, m10: 0, m11: 1, ox: -Double(silhouette.box.minX) - parent.tx,
        oy: -Double(silhouette.box.minY) - parent.ty)
      : PlaneMap(
        m00: m.a, m01: m.c, m10: m.b, m11: m.d,
        ox: m.a * cx + m.c * cy - Double(silhouette.box.minX) - 0.5,
        oy: m.b * cx + m.d * cy - Double(silhouette.box.minY) - 0.5)
    GaussianBlur.resample(silhouette.plane, through: map, into: &result)
    return result
  }
}
