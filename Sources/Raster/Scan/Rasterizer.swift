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
  /// The lines of the last stroke, kept for their storage.
  private var strokeLines = FlattenedPath()

  public init(tolerance: Double = Flattener.defaultTolerance) {
    self.tolerance = tolerance
  }

  /// Fills `path` (user space, mapped to device pixels by `transform`) with `color`, blended
  /// source-over into `pixmap`.
  public mutating func fill(
    _ path: Path, transform: Transform = .identity, rule: FillRule = .nonzero,
    color: PremultipliedRGBA8, into pixmap: inout Pixmap
  ) {
    fill(flatten(path, transform, pixmap.width, pixmap.height), rule, color, &pixmap)
  }

  /// Fills a stroke's outline (`Stroker.outline`) with `color`, as `fill(outline.path, …)` with
  /// the nonzero rule does.
  public mutating func fill(
    _ outline: StrokeOutline, transform: Transform = .identity, color: PremultipliedRGBA8,
    into pixmap: inout Pixmap
  ) {
    let flat = lines(of: outline, transform, pixmap.width, pixmap.height)
    fill(flat, .nonzero, color, &pixmap)
    strokeLines = flat
  }

  /// Fills `path` with `paint`, whose geometry is in the path's user space (both mapped to
  /// device pixels by `transform`), blended source-over into `pixmap`. A gradient's colour is
  /// computed at each pixel's centre.
  public mutating func fill(
    _ path: Path, transform: Transform = .identity, rule: FillRule = .nonzero, paint: Paint,
    into pixmap: inout Pixmap
  ) {
    let flat = flatten(path, transform, pixmap.width, pixmap.height)
    fill(flat, rule, paint: paint, transform: transform, into: &pixmap)
  }

  /// Fills a stroke's outline with `paint`, as `fill(outline.path, …)` with the nonzero rule
  /// does.
  public mutating func fill(
    _ outline: StrokeOutline, transform: Transform = .identity, paint: Paint,
    into pixmap: inout Pixmap
  ) {
    let flat = lines(of: outline, transform, pixmap.width, pixmap.height)
    fill(flat, .nonzero, paint: paint, transform: transform, into: &pixmap)
    strokeLines = flat
  }

  /// The coverage of `path` over a `width`×`height` device-pixel canvas; nil for sizes `Pixmap`
  /// refuses.
  public mutating func mask(
    of path: Path, transform: Transform = .identity, rule: FillRule = .nonzero, width: Int,
    height: Int
  ) -> Mask? {
    guard var mask = Mask(width: width, height: height) else { return nil }
    let flat = flatten(path, transform, width, height)
    guard let region = Self.region(of: flat.lines, canvasWidth: width) else { return mask }
    mask.withUnsafeMutableValues { values in
      var sink = PlaneSink(first: MaskRow(values: values, width: width))
      accumulator.rasterize(flat, region: region, rule: rule, into: &sink)
    }
    return mask
  }

  /// The coverage of a stroke's outline, as `mask(of: outline.path, …)` with the nonzero rule.
  public mutating func mask(
    of outline: StrokeOutline, transform: Transform = .identity, width: Int, height: Int
  ) -> Mask? {
    guard var mask = Mask(width: width, height: height) else { return nil }
    accumulateCoverage(of: outline, transform: transform, into: &mask)
    return mask
  }

  /// Adds the coverage of `path` (times `alpha`/255) to `mask` the way alpha composites:
  /// m = c + m·(255 − c)/255, so overlapping fills union rather than sum.
  public mutating func accumulateCoverage(
    of path: Path, transform: Transform = .identity, rule: FillRule = .nonzero, alpha: UInt8 = 255,
    into mask: inout Mask
  ) {
    accumulateCoverage(
      flatten(path, transform, mask.width, mask.height), rule: rule, alpha: alpha, into: &mask)
  }

  /// `accumulateCoverage(of: outline.path, …)` with the nonzero rule, for a stroke's outline.
  public mutating func accumulateCoverage(
    of outline: StrokeOutline, transform: Transform = .identity, alpha: UInt8 = 255,
    into mask: inout Mask
  ) {
    let flat = lines(of: outline, transform, mask.width, mask.height)
    accumulateCoverage(flat, rule: .nonzero, alpha: alpha, into: &mask)
    strokeLines = flat
  }

  // MARK: - Strokes

  /// Strokes `path` (user space) with `style`, whose width is in user units, and fills the
  /// stroke with `color`, blended source-over into `pixmap` — the pixels of filling
  /// `Stroker(transform:deviceTolerance:).outline(of:style:)`, made without building the outline
  /// as a path. The stroker's curves are as accurate as this rasterizer's `tolerance`.
  public mutating func stroke(
    _ path: Path, style: StrokeStyle, transform: Transform = .identity,
    color: PremultipliedRGBA8, into pixmap: inout Pixmap
  ) {
    let flat = strokeOutline(path, style, transform, pixmap.width, pixmap.height)
    fill(flat, .nonzero, color, &pixmap)
    strokeLines = flat
  }

  /// `stroke(_:style:transform:color:into:)` with a paint, whose geometry is in the path's user
  /// space.
  public mutating func stroke(
    _ path: Path, style: StrokeStyle, transform: Transform = .identity, paint: Paint,
    into pixmap: inout Pixmap
  ) {
    let flat = strokeOutline(path, style, transform, pixmap.width, pixmap.height)
    fill(flat, .nonzero, paint: paint, transform: transform, into: &pixmap)
    strokeLines = flat
  }

  /// Adds the stroke's coverage (times `alpha`/255) to `mask` as `accumulateCoverage` does.
  public mutating func accumulateStrokeCoverage(
    of path: Path, style: StrokeStyle, transform: Transform = .identity, alpha: UInt8 = 255,
    into mask: inout Mask
  ) {
    let flat = strokeOutline(path, style, transform, mask.width, mask.height)
    accumulateCoverage(flat, rule: .nonzero, alpha: alpha, into: &mask)
    strokeLines = flat
  }

  /// The stroke's outline as lines, in `strokeLines`' storage.
  private mutating func strokeOutline(
    _ path: Path, _ style: StrokeStyle, _ transform: Transform, _ width: Int, _ height: Int
  ) -> FlattenedPath {
    let stroker = Stroker(transform: transform, deviceTolerance: tolerance)
    return traceOutline(transform, width, height) { stroker.trace(path, style: style, into: &$0) }
  }

  // MARK: - Private

  private func flatten(
    _ path: Path, _ transform: Transform, _ width: Int, _ height: Int
  )
    -> FlattenedPath
  {
    Flattener(width: width, height: height, tolerance: tolerance).flatten(
      path, transform: transform)
  }

  /// A stroke's outline as lines with their pieces, in `strokeLines`' storage.
  private mutating func lines(
    of outline: StrokeOutline, _ transform: Transform, _ width: Int, _ height: Int
  ) -> FlattenedPath {
    traceOutline(transform, width, height) { $0.add(outline) }
  }

  /// Runs `body` on a sink for a stroke's outline, in `strokeLines`' storage, with its pending
  /// lines on the stack, and ends the outline.
  private mutating func traceOutline(
    _ transform: Transform, _ width: Int, _ height: Int,
    _ body: (inout FlatteningOutlineSink) -> Void
  ) -> FlattenedPath {
    var reused = FlattenedPath()
    swap(&reused, &strokeLines)
    let flattener = Flattener(width: width, height: height, tolerance: tolerance)
    let capacity = FlatteningOutlineSink.pendingCapacity
    return withUnsafeTemporaryAllocation(of: Line.self, capacity: capacity) { lines in
      withUnsafeTemporaryAllocation(of: PieceGroup.self, capacity: capacity) { groups in
        var sink = FlatteningOutlineSink(
          flattener: flattener, transform: transform, reusing: reused,
          pending: .init(
            lines: lines.baseAddress.unsafelyUnwrapped,
            groups: groups.baseAddress.unsafelyUnwrapped, capacity: capacity))
        body(&sink)
        sink.finish()
        return sink.flat
      }
    }
  }

  private mutating func fill(
    _ flat: FlattenedPath, _ rule: FillRule, _ color: PremultipliedRGBA8, _ pixmap: inout Pixmap
  ) {
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

  /// `flat` filled with `paint`, whose geometry `transform` maps to device pixels.
  private mutating func fill(
    _ flat: FlattenedPath, _ rule: FillRule, paint: Paint, transform: Transform,
    into pixmap: inout Pixmap
  ) {
    guard let shader = GradientShader(paint, transform: transform) else {
      fill(flat, rule, (paint.solidColor ?? .clear).premultiplied, &pixmap)
      return
    }
    guard let region = Self.region(of: flat.lines, canvasWidth: pixmap.width) else { return }
    let width = pixmap.width
    let ramp = GradientRamp(shader.gradient)
    pixmap.withUnsafeMutablePixels { pixels in
      var sink = PlaneSink(
        first: GradientRow(pixels: pixels, width: width, y: 0, shader: shader, ramp: ramp))
      accumulator.rasterize(flat, region: region, rule: rule, into: &sink)
    }
  }

  private mutating func accumulateCoverage(
    _ flat: FlattenedPath, rule: FillRule, alpha: UInt8, into mask: inout Mask
  ) {
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
