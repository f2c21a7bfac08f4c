/// Fills paths with exact-area anti-aliasing.
///
/// A pixel's coverage is the area of it the shape covers (for the nonzero rule, clamped to 1; for
/// even-odd, folded), computed exactly for the flattened outline — not estimated from samples.
/// The rasterizer keeps its scratch cells between calls, so filling many paths allocates only
/// when a larger region than before is needed. It is a value: copies do not share scratch.
public struct Rasterizer: Sendable {
  /// Internal, not private, so that tests can set its switches.
  var accumulator = CoverageAccumulator()
  /// The last fill colour, scaled by every coverage (made again when the colour changes).
  private var scaledColor: CoverageScaledColor?
  /// Flattening tolerance in device pixels.
  public var tolerance: Double

  public init(tolerance: Double = Flattener.defaultTolerance) {
    self.tolerance = tolerance
  }

  /// Fills `path` (user space, mapped to device pixels by `transform`) with `color`, blended
  /// source-over into `pixmap`.
  public mutating func fill(
    _ path: Path, transform: Transform = .identity, rule: FillRule = .nonzero,
    color: PremultipliedRGBA8, into pixmap: inout Pixmap
  ) {
    let flat = Flattener(width: pixmap.width, height: pixmap.height, tolerance: tolerance)
      .flatten(path, transform: transform)
    guard let region = Self.region(of: flat.lines, canvasWidth: pixmap.width) else { return }
    let width = pixmap.width
    let scaledColor =
      self.scaledColor.flatMap { $0.packed == color.packed ? $0 : nil }
      ?? CoverageScaledColor(color)
    self.scaledColor = scaledColor
    pixmap.withUnsafeMutablePixels { pixels in
      scaledColor.entries.withUnsafeBufferPointer { scaled in
        guard let scaled = scaled.baseAddress else { return }
        var sink = PlaneSink(first: SolidColorRow(pixels: pixels, width: width, scaled: scaled))
        accumulator.rasterize(flat, region: region, rule: rule, into: &sink)
      }
    }
  }

  /// Fills `path` with `paint`, whose geometry is in the path's user space (both mapped to
  /// device pixels by `transform`), blended source-over into `pixmap`. A gradient's colour is
  /// computed at each pixel's centre.
  public mutating func fill(
    _ path: Path, transform: Transform = .identity, rule: FillRule = .nonzero, paint: Paint,
    into pixmap: inout Pixmap
  ) {
    guard let shader = GradientShader(paint, transform: transform) else {
      fill(
        path, transform: transform, rule: rule,
        color: (paint.solidColor ?? .clear).premultiplied, into: &pixmap)
      return
    }
    let flat = Flattener(width: pixmap.width, height: pixmap.height, tolerance: tolerance)
      .flatten(path, transform: transform)
    guard let region = Self.region(of: flat.lines, canvasWidth: pixmap.width) else { return }
    let width = pixmap.width
    let ramp = GradientRamp(shader.gradient)
    pixmap.withUnsafeMutablePixels { pixels in
      var sink = PlaneSink(
        first: GradientRow(pixels: pixels, width: width, y: 0, shader: shader, ramp: ramp))
      accumulator.rasterize(flat, region: region, rule: rule, into: &sink)
    }
  }

  /// The coverage of `path` over a `width`×`height` device-pixel canvas; nil for sizes `Pixmap`
  /// refuses.
  public mutating func mask(
    of path: Path, transform: Transform = .identity, rule: FillRule = .nonzero, width: Int,
    height: Int
  ) -> Mask? {
    guard var mask = Mask(width: width, height: height) else { return nil }
    let flat = Flattener(width: width, height: height, tolerance: tolerance)
      .flatten(path, transform: transform)
    guard let region = Self.region(of: flat.lines, canvasWidth: width) else { return mask }
    mask.withUnsafeMutableValues { values in
      var sink = PlaneSink(first: MaskRow(values: values, width: width))
      accumulator.rasterize(flat, region: region, rule: rule, into: &sink)
    }
    return mask
  }

  /// Adds the coverage of `path` (times `alpha`/255) to `mask` the way alpha composites:
  /// m = c + m·(255 − c)/255, so overlapping fills union rather than sum.
  public mutating func accumulateCoverage(
    of path: Path, transform: Transform = .identity, rule: FillRule = .nonzero, alpha: UInt8 = 255,
    into mask: inout Mask
  ) {
    let flat = Flattener(width: mask.width, height: mask.height, tolerance: tolerance)
      .flatten(path, transform: transform)
    guard let region = Self.region(of: flat.lines, canvasWidth: mask.width) else { return }
    let width = mask.width
    mask.withUnsafeMutableValues { values in
      var sink = PlaneSink(first: MaskOverRow(values: values, width: width, alpha: UInt32(alpha)))
      accumulator.rasterize(flat, region: region, rule: rule, into: &sink)
    }
  }

  /// The pixels the lines can cover; nil when there are none. The region runs to the canvas's
  /// right edge: edges right of the canvas were dropped, so a shape reaching past it still covers
  /// the pixels after its last visible edge.
  private static func region(of lines: [Line], canvasWidth: Int) -> IntRect? {
    guard let first = lines.first else { return nil }
    var minX = first.x0
    var minY = first.y0
    var maxY = first.y0
    // Plain comparisons (the lines are finite): they compile to minss and maxss.
    for line in lines {
      let lowX = line.x0 < line.x1 ? line.x0 : line.x1
      let lowY = line.y0 < line.y1 ? line.y0 : line.y1
      let highY = line.y0 < line.y1 ? line.y1 : line.y0
      minX = lowX < minX ? lowX : minX
      minY = lowY < minY ? lowY : minY
      maxY = highY > maxY ? highY : maxY
    }
    let region = IntRect(
      minX: Int(minX.rounded(.down)), minY: Int(minY.rounded(.down)),
      maxX: canvasWidth, maxY: Int(maxY.rounded(.up)))
    return region.height > 0 ? region : nil
  }
}
