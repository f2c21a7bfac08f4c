/// Draws layer trees into pixmaps: fills, isolated groups with group opacity, drop shadows.
///
/// It keeps a rasterizer and a blurrer, so drawing frame after frame reuses their scratch. A
/// value: copies do not share scratch.
public struct Compositor: Sendable {
  var rasterizer = Rasterizer()
  var blurrer = GaussianBlurrer()
  /// Blurred shadow silhouettes of recent frames, moved instead of blurred again.
  var shadowCache = ResampledShadowCache()
  /// Whether a shadow's silhouette is taken from the content already drawn offscreen, moved by
  /// the offset, where that gives the same pixels (`Isolation.shift`); otherwise the content
  /// is drawn again where the shadow falls (tests compare the two).
  var reusesDrawnContentForShadows = true

  public init() {}

  /// Draws `layer` source-over into `pixmap`; `transform` maps the layer's parent space to the
  /// pixmap's pixels.
  public mutating func render(
    _ layer: Layer, into pixmap: inout Pixmap, transform: Transform = .identity
  ) {
    draw(layer, into: &pixmap, parent: transform)
  }

  // MARK: - Private

  mutating func draw(_ layer: Layer, into target: inout Pixmap, parent: Transform) {
    guard layer.opacity > 0 else { return }
    if layer.opacity >= 1, layer.shadow == nil, !layer.hasEffects {
      drawContent(layer, into: &target, parent: parent)
    } else {
      drawIsolated(layer, into: &target, parent: parent)
    }
  }

  private mutating func drawContent(_ layer: Layer, into target: inout Pixmap, parent: Transform) {
    let t = layer.transform.concatenating(parent)
    switch layer.content {
    case .fill(let path, let paint, let rule):
      rasterizer.fill(path, transform: t, rule: rule, paint: paint, into: &target)
    case .stroke(let path, let style, let paint):
      rasterizer.stroke(path, style: style, transform: t, paint: paint, into: &target)
    case .image(let image, let rect, let interpolation):
      ImageDrawing(image: image, rect: rect, interpolation: interpolation).draw(
        under: t, into: &target, rasterizer: &rasterizer)
    case .group(let children):
      for child in children { draw(child, into: &target, parent: t) }
    case .projected(let child, let projection):
      drawProjected(
        child, under: projection.concatenating(t), flatScale: t.maxScale, into: &target)
    }
  }

  /// The alpha of `layer`'s content drawn under `parent`, as coverage. Plain fills and groups of
  /// them go straight into the mask; anything with its own opacity or shadow is drawn as pixels
  /// first and its alpha taken.
  mutating func silhouette(
    of layer: Layer, width: Int, height: Int, parent: Transform
  ) -> Mask? {
    guard var mask = Mask(width: width, height: height) else { return nil }
    if Self.isPlain(layer.content) {
      accumulateCoverage(layer, into: &mask, parent: parent)
      return mask
    }
    guard var pixels = Pixmap(width: width, height: height) else { return nil }
    drawContent(layer, into: &pixels, parent: parent)
    Kernels.extractAlpha(pixels, into: &mask)
    return mask
  }

  static func isPlain(_ content: LayerContent) -> Bool {
    switch content {
    case .fill(_, let paint, _), .stroke(_, _, let paint): return paint.solidColor != nil
    case .image, .projected: return false
    case .group(let children):
      return children.allSatisfy {
        $0.opacity >= 1 && $0.shadow == nil && !$0.hasEffects && isPlain($0.content)
      }
    }
  }

  private mutating func accumulateCoverage(_ layer: Layer, into mask: inout Mask, parent: Transform)
  {
    let t = layer.transform.concatenating(parent)
    switch layer.content {
    case .fill(let path, let paint, let rule):
      // Only solid paints reach here (`isPlain`).
      rasterizer.accumulateCoverage(
        of: path, transform: t, rule: rule, alpha: (paint.solidColor ?? .clear).premultiplied.a,
        into: &mask)
    case .stroke(let path, let style, let paint):
      rasterizer.accumulateStrokeCoverage(
        of: path, style: style, transform: t, alpha: (paint.solidColor ?? .clear).premultiplied.a,
        into: &mask)
    case .image, .projected: break  // never plain: `isPlain` sends them through pixels
    case .group(let children):
      for child in children { accumulateCoverage(child, into: &mask, parent: t) }
    }
  }

  /// Offscreen: the content with its clip, mask and blur, and beneath it the shadow; then one
  /// blend with the layer's opacity.
  private mutating func drawIsolated(_ layer: Layer, into target: inout Pixmap, parent: Transform) {
    guard let isolation = Self.isolation(of: layer, parent: parent, target: target.bounds) else {
      return
    }
    // Where the shadow is taken from the drawn content, the offscreen also holds what moves
    // into the box (`Isolation.canvas`).
    let reused = reusesDrawnContentForShadows ? isolation.shift : nil
    let box = reused == nil ? isolation.box : isolation.canvas
    guard var offscreen = Pixmap(width: box.width, height: box.height) else { return }
    let opacity = UInt32((min(max(layer.opacity, 0), 1) * 255).rounded())
    let toOffscreen = Transform.translation(Double(-box.minX), Double(-box.minY))
    var content = layer
    content.opacity = 1
    content.shadow = nil
    drawProcessed(content, into: &offscreen, parent: parent.concatenating(toOffscreen))
    if let shadow = layer.shadow, let geometry = isolation.shadow {
      let shifted = parent.concatenating(toOffscreen).concatenating(
        .translation(geometry.offset.x, geometry.offset.y))
      var silhouette: Mask?
      var blurred = false
      if let shift = reused, var mask = Mask(width: box.width, height: box.height) {
        // The content drawn above, moved by the offset: drawing it again (and its shadowed
        // children, each again for its own shadow) made nested shadows cost 2^depth.
        if shift.isWhole {
          Kernels.extractAlpha(offscreen, shiftedBy: (shift.dx, shift.dy), into: &mask)
        } else {
          Kernels.extractAlpha(
            offscreen, shiftedBy: (shift.dx, shift.dy), fraction: (shift.fx, shift.fy),
            into: &mask)
        }
        silhouette = mask
      } else if content.hasEffects {
        // The shadow of what the effects left: drawn again where the shadow falls.
        if var moved = Pixmap(width: box.width, height: box.height),
          var mask = Mask(width: box.width, height: box.height)
        {
          drawProcessed(content, into: &moved, parent: shifted)
          Kernels.extractAlpha(moved, into: &mask)
          silhouette = mask
        }
      } else if let moved = resampledShadow(
        of: content, parent: shifted, sigma: geometry.sigma, width: box.width,
        height: box.height)
      {
        silhouette = moved
        blurred = true
      } else {
        silhouette = self.silhouette(
          of: content, width: box.width, height: box.height, parent: shifted)
      }
      guard var mask = silhouette else { return }
      if !blurred { blurrer.blur(&mask, sigma: geometry.sigma) }
      Kernels.composite(
        offscreen, shadow: mask, color: shadow.color.premultiplied, at: (box.minX, box.minY),
        onto: &target, opacity: opacity)
      return
    }
    Kernels.composite(offscreen, at: (box.minX, box.minY), onto: &target, opacity: opacity)
  }

  /// The layer's content, then its colour map, clip, mask and blur, into `pixmap` (which starts
  /// clear).
  private mutating func drawProcessed(_ layer: Layer, into pixmap: inout Pixmap, parent: Transform)
  {
    drawContent(layer, into: &pixmap, parent: parent)
    if let matrix = layer.colorMatrix { Kernels.applyColorMatrix(matrix, to: &pixmap) }
    let t = layer.transform.concatenating(parent)
    if let clip = layer.clip {
      if let coverage = rasterizer.mask(
        of: clip.path, transform: t, rule: clip.rule, width: pixmap.width, height: pixmap.height)
      {
        Kernels.multiply(&pixmap, by: coverage)
      }
    }
    if let mask = layer.mask, var alpha = Pixmap(width: pixmap.width, height: pixmap.height) {
      draw(mask.layer, into: &alpha, parent: t)
      Kernels.multiply(&pixmap, byAlphaOf: alpha)
    }
    if let blur = layer.blur {
      let sigma = blur.sigma(under: t)
      if blur.opaque {
        guard
          let frame = blur.bounds.map({ Layer.deviceBounds(of: $0, under: t) })
            ?? layer.contentBounds(under: parent)
        else { return }
        // Frames sit on the pixel grid; far ones are clamped before they become Ints.
        func edge(_ v: Double) -> Int { Int(min(max(v, -1e9), 1e9).rounded()) }
        let rect = IntRect(
          minX: edge(frame.minX), minY: edge(frame.minY), maxX: edge(frame.maxX),
          maxY: edge(frame.maxY))
        blurrer.blurOpaque(&pixmap, within: rect, sigma: sigma)
      } else {
        blurrer.blur(&pixmap, sigma: sigma)
      }
    }
  }

  /// An isolated layer's offscreen (`isolation(of:parent:target:)`): `box`, the pixels it must
  /// hold; the shadow's σ, offset and margin in pixels; and where the shadow's silhouette can be
  /// taken from the content as drawn, moved by the offset (`shift`, whole pixels), the larger
  /// `canvas` to draw into instead, which also holds the content that moves into the box.
  typealias Isolation = (
    box: IntRect, shadow: (sigma: Double, offset: Point, margin: Int)?, shift: Shift?,
    canvas: IntRect
  )

  /// How a shadow's silhouette is moved from the drawn content: `dx`, `dy` whole pixels (the
  /// offset rounded down) and the fractions `fx`, `fy` (0 ≤ f < 1) left, moved bilinearly.
  struct Shift: Equatable {
    var dx: Int, dy: Int
    var fx = 0.0, fy = 0.0
    var isWhole: Bool { fx == 0 && fy == 0 }
  }

  /// The least σ (device pixels) of a shadow whose silhouette may be moved by a fraction of a
  /// pixel bilinearly: a bilinear move blurs an edge by at most a pixel's tent, which a
  /// Gaussian of σ ≥ 1 swamps (`NestedShadowTests` measures the difference).
  static let bilinearShiftSigma = 1.0

  /// Where an isolated layer is drawn offscreen: whole device pixels around its content and its
  /// shadow, grown for anti-aliasing and the blur, kept within reach of the target (a shape just
  /// outside still casts its shadow in), with the shadow's geometry. Nil when nothing of it can
  /// show.
  ///
  /// A shadow's silhouette is the content's alpha moved by the offset. Drawing the content again
  /// there (with every shadowed layer inside, each again for its own shadow) made nested shadows
  /// cost 2^depth; where the offset is whole pixels, moving the drawn content gives the same
  /// pixels (a shape moved by whole pixels covers the same areas), so the content is drawn once,
  /// into a `canvas` that also holds what moves into the box (at most twice the box, else the
  /// content is drawn again). Plain fills keep their cheaper coverage-only silhouette.
  static func isolation(
    of layer: Layer, parent: Transform, target: IntRect
  ) -> Isolation? {
    guard let contentBounds = layer.bounds(under: parent) else { return nil }
    let t = layer.transform.concatenating(parent)
    var area = contentBounds
    let shadowGeometry = layer.shadowGeometry(under: t)
    if let offset = shadowGeometry?.offset {
      let moved = Rect(
        minX: contentBounds.minX + offset.x, minY: contentBounds.minY + offset.y,
        maxX: contentBounds.maxX + offset.x, maxY: contentBounds.maxY + offset.y)
      area = area.union(moved)
    }
    // Content outside the target reaches in through its shadow's blur and its own.
    let blurMargin = layer.blur.map { GaussianBlur.margin(for: $0.sigma(under: t)) } ?? 0
    let reach = (shadowGeometry?.margin ?? 0) + blurMargin + 1
    let box = area.roundedOut.outset(by: reach).intersection(target.outset(by: reach))
    guard !box.isEmpty else { return nil }
    guard let geometry = shadowGeometry, layer.hasEffects || !isPlain(layer.content),
      abs(geometry.offset.x) < 1e6, abs(geometry.offset.y) < 1e6
    else { return (box, shadowGeometry, nil, box) }
    let offset = geometry.offset
    let (x, y) = (offset.x.rounded(.down), offset.y.rounded(.down))
    let shift = Shift(dx: Int(x), dy: Int(y), fx: offset.x - x, fy: offset.y - y)
    // A fraction of a pixel: moved bilinearly only where drawing again is what costs (shadows
    // nested inside, each drawn again for this one: 2^depth) and the blur hides the move.
    guard
      shift.isWhole
        || (geometry.sigma >= bilinearShiftSigma && layer.content.containsShadow)
    else { return (box, shadowGeometry, nil, box) }
    let (dx, dy) = (shift.dx, shift.dy)
    // What the content (blurred, if it is) covers, with a pixel for anti-aliasing, where it
    // moves into the box from (a pixel more up and left for a fraction).
    let drawn = contentBounds.roundedOut.outset(by: blurMargin + 1)
    let source = IntRect(
      minX: box.minX - dx - (shift.fx > 0 ? 1 : 0), minY: box.minY - dy - (shift.fy > 0 ? 1 : 0),
      maxX: box.maxX - dx, maxY: box.maxY - dy
    ).intersection(drawn)
    let canvas =
      source.isEmpty
      ? box
      : IntRect(
        minX: min(box.minX, source.minX), minY: min(box.minY, source.minY),
        maxX: max(box.maxX, source.maxX), maxY: max(box.maxY, source.maxY))
    guard canvas.width * canvas.height <= 2 * box.width * box.height + (1 << 16) else {
      return (box, shadowGeometry, nil, box)
    }
    return (box, shadowGeometry, shift, canvas)
  }
}
