extension Compositor {
  /// The largest side, in pixels, of the flat drawing of a projected layer that is resampled.
  static let maximumFlatSide = 4096

  /// Draws `layer` through `map` (the layer's parent space → device pixels, projective).
  ///
  /// Geometry keeps its exactness where it can: a plain fill or stroke of a solid colour is
  /// flattened in its own space at the tolerance the map's largest stretch over it asks for,
  /// cut to what is in front of the eye, projected point by point (lines stay lines) and
  /// filled with exact-area coverage; groups of such layers recurse. Anything else — gradients
  /// (their colour varies along the projected plane), images, shadows, blurs, clips, masks,
  /// group opacity — is drawn flat, with every effect as without the projection, at the map's
  /// largest scale over it but no finer than `flatScale` (pixels per unit of the layer's parent
  /// space without the projection: what Core Animation does too, which renders a layer at its
  /// contents scale and then maps the texture, so parts the perspective magnifies are as soft
  /// as there), and resampled through the map (`ProjectiveResampler`).
  mutating func drawProjected(
    _ layer: Layer, under map: Projection, flatScale: Double, into target: inout Pixmap
  ) {
    guard layer.opacity > 0 else { return }
    if let affine = map.affine {
      draw(layer, into: &target, parent: affine)
      return
    }
    let full = map.after(layer.transform)
    let plain = layer.opacity >= 1 && layer.shadow == nil && !layer.hasEffects
    switch layer.content {
    case .fill(let path, let paint, let rule) where plain && paint.solidColor != nil:
      guard let box = path.bounds else { return }
      let tolerance = rasterizer.tolerance / max(full.maxScale(over: box), 1e-9)
      if let projected = path.projected(by: full, tolerance: tolerance) {
        rasterizer.fill(projected, rule: rule, paint: paint, into: &target)
      }
    case .stroke(let path, let style, let paint) where plain && paint.solidColor != nil:
      guard let box = path.bounds, style.width > 0 else { return }
      let reach = style.reach
      let grown = Rect(
        minX: box.minX - reach, minY: box.minY - reach, maxX: box.maxX + reach,
        maxY: box.maxY + reach)
      let tolerance = rasterizer.tolerance / max(full.maxScale(over: grown), 1e-9)
      let outline = Stroker(tolerance: tolerance).outline(of: path, style: style)
      if let projected = outline.path.projected(by: full, tolerance: tolerance) {
        rasterizer.fill(projected, rule: .nonzero, paint: paint, into: &target)
      }
    case .group(let children) where plain:
      let scale = flatScale * layer.transform.maxScale
      for child in children {
        drawProjected(child, under: full, flatScale: scale, into: &target)
      }
    case .projected(let child, let inner) where plain:
      drawProjected(
        child, under: inner.concatenating(full), flatScale: flatScale * layer.transform.maxScale,
        into: &target)
    default:
      drawFlatThenProjected(layer, under: map, flatScale: flatScale, into: &target)
    }
  }

  /// `layer` drawn as it would be without the projection into a flat pixmap, then resampled
  /// through `map` within the exact-area coverage of its flat box's image.
  private mutating func drawFlatThenProjected(
    _ layer: Layer, under map: Projection, flatScale: Double, into target: inout Pixmap
  ) {
    guard let box = layer.boundsWithShadow(under: .identity), box.width > 0, box.height > 0,
      let inverse = map.inverted,
      let deviceBox = map.bounds(of: box)
    else { return }
    let device = deviceBox.roundedOut.outset(by: 1).intersection(target.bounds)
    guard !device.isEmpty else { return }
    // The map's largest stretch, at most the contents scale and the flat side.
    let side = Double(Self.maximumFlatSide - 2)
    let scale = max(
      min(
        map.maxScale(over: box), flatScale, side / max(box.width, 1e-9),
        side / max(box.height, 1e-9)), 1e-3)
    let flatWidth = Int((box.width * scale).rounded(.up)) + 2
    let flatHeight = Int((box.height * scale).rounded(.up)) + 2
    guard var flat = Pixmap(width: flatWidth, height: flatHeight) else { return }
    // Parent space → flat pixels, with a clear pixel of margin all round.
    let toFlat = Transform.translation(-box.minX, -box.minY).concatenating(.scale(scale, scale))
      .concatenating(.translation(1, 1))
    draw(layer, into: &flat, parent: toFlat)
    // The flat box (its margin included) as seen on the target, for the edge's coverage.
    let flatBox = Rect(
      minX: box.minX - 1 / scale, minY: box.minY - 1 / scale, maxX: box.maxX + 1 / scale,
      maxY: box.maxY + 1 / scale)
    let toDevice = map.concatenating(
      .translation(Double(-device.minX), Double(-device.minY)))
    guard
      let outline = Path.rect(flatBox).projected(by: toDevice, tolerance: 1),
      let coverage = rasterizer.mask(of: outline, width: device.width, height: device.height)
    else { return }
    ProjectiveResampler.draw(
      flat, through: inverse.concatenating(toFlat), box: device, coverage: coverage,
      onto: &target)
  }
}
