import TestSupport
import Testing

@testable import Raster

/// A stroke's pieces (`PieceGroup`) let the rasterizer keep the summed area where pieces that
/// cannot overlap share a pixel. Held against the same outline filled as a plain path, where
/// every pixel shared by two unconnected lines is resolved exactly: a missed overlap would show
/// as a pixel tens of levels too dark or too light.
@Suite struct StrokePieceTests {
  /// Random strokes: 2–7 elements of lines, quadratics and cubics (some closed, some dots),
  /// widths from hairlines to wider than the shape, every cap and join, dashes in a quarter of
  /// them, under a random rotation and scale.
  static func randomStrokes(count: Int, seed: UInt64) -> [(Path, StrokeStyle, Transform)] {
    var random = SeededGenerator(seed: seed)
    func coordinate() -> Double { Double.random(in: -8...72, using: &random) }
    func point() -> Point { Point(coordinate(), coordinate()) }
    var strokes: [(Path, StrokeStyle, Transform)] = []
    while strokes.count < count {
      var builder = PathBuilder()
      builder.move(to: point())
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: builder.line(to: point())
        case 4..<6: builder.quad(to: point(), control: point())
        case 6..<9: builder.cubic(to: point(), control1: point(), control2: point())
        default:
          builder.close()
          builder.move(to: point())
        }
      }
      if Bool.random(using: &random) { builder.close() }
      guard let path = builder.build(), !path.isEmpty else { continue }
      let width =
        [0.3, 1, 2, 4, 9, 24][Int.random(in: 0..<6, using: &random)]
        * Double.random(
          in: 0.8...1.25, using: &random)
      let dash: [Double] =
        Int.random(in: 0..<4, using: &random) == 0
        ? [Double.random(in: 0...12, using: &random), Double.random(in: 0.5...9, using: &random)]
        : []
      let style = StrokeStyle(
        width: width,
        cap: LineCap.allCases[Int.random(in: 0..<LineCap.allCases.count, using: &random)],
        join: LineJoin.allCases[Int.random(in: 0..<LineJoin.allCases.count, using: &random)],
        miterLimit: Double.random(in: 1...10, using: &random), dash: dash,
        dashPhase: Double.random(in: -5...5, using: &random))
      let scale = Double.random(in: 0.5...1.5, using: &random)
      let angle = Double.random(in: 0...(2 * .pi), using: &random)
      let transform = Transform.translation(-32, -32)
        .concatenating(.rotation(angle))
        .concatenating(.scale(scale, scale))
        .concatenating(.translation(32, 32))
      strokes.append((path, style, transform))
    }
    return strokes
  }

  /// Where the pieces' coverage differs from the plain fill's by more than 2 levels, it is no
  /// further from the true stroke region (`StrokeReference`) than the plain fill's, give or take
  /// 2 levels (the plain fill is not exact everywhere either: rows over the exact resolver's
  /// budget, outlines that trace a region twice).
  @Test func piecesKeepTheExactCoverage() throws {
    for (index, (path, style, transform)) in Self.randomStrokes(count: 600, seed: 13).enumerated() {
      let outline = Stroker(transform: transform).outline(of: path, style: style)
      var rasterizer = Rasterizer()
      let drawn = rasterizer.mask(of: outline, transform: transform, width: 64, height: 64)
      let filled = rasterizer.mask(of: outline.path, transform: transform, width: 64, height: 64)
      let pieces = try #require(drawn)
      let plain = try #require(filled)
      let differing = (0..<pieces.values.count).filter {
        abs(Int(pieces.values[$0]) - Int(plain.values[$0])) > 2
      }
      guard !differing.isEmpty else { continue }
      // The stroke in device pixels (the transforms scale uniformly).
      let scale = transform.maxScale
      let devicePath = try #require(path.applying(transform))
      var deviceStyle = style
      deviceStyle.width *= scale
      deviceStyle.dash = style.dash.map { $0 * scale }
      deviceStyle.dashPhase *= scale
      let reference = StrokeReference(path: devicePath, style: deviceStyle)
        .coverage(width: 64, height: 64)
      for i in differing {
        let truth = reference[i] * 255
        let ours = abs(Double(pieces.values[i]) - truth)
        let theirs = abs(Double(plain.values[i]) - truth)
        // Where the plain fill is itself far from the reference, the outline and the reference
        // disagree about the region (dashes shorter than a pixel): no judge of the pieces there.
        guard theirs <= 32 else { continue }
        #expect(
          ours <= theirs + 2,
          "stroke \(index), pixel (\(i % 64), \(i / 64)): \(pieces.values[i]) against the plain fill's \(plain.values[i]) and the true \(truth); \(style)"
        )
      }
    }
  }

  /// `Rasterizer.stroke` and `accumulateStrokeCoverage` trace the outline straight into lines:
  /// the same bytes as filling `Stroker.outline`.
  @Test func directStrokesMatchTheOutline() throws {
    let colour = PremultipliedRGBA8(r: 40, g: 90, b: 160, a: 200)
    for (path, style, transform) in Self.randomStrokes(count: 150, seed: 14) {
      let outline = Stroker(transform: transform).outline(of: path, style: style)
      var rasterizer = Rasterizer()
      var viaOutline = try #require(Pixmap(width: 64, height: 64))
      var direct = try #require(Pixmap(width: 64, height: 64))
      rasterizer.fill(outline, transform: transform, color: colour, into: &viaOutline)
      rasterizer.stroke(path, style: style, transform: transform, color: colour, into: &direct)
      #expect(viaOutline == direct, "\(style)")
      var mask = try #require(Mask(width: 64, height: 64))
      rasterizer.accumulateStrokeCoverage(of: path, style: style, transform: transform, into: &mask)
      let drawn = rasterizer.mask(of: outline, transform: transform, width: 64, height: 64)
      let expected = try #require(drawn)
      #expect(mask.values == expected.values, "\(style)")
    }
  }

  /// `adjoins` against its statement, over every pair of small ids and partners.
  @Test func adjoiningGroups() {
    for a in Int32(0)...6 {
      for pa in Int32(0)...6 {
        for b in Int32(0)...6 {
          for pb in Int32(0)...6 {
            let x = PieceGroup(id: a, partner: pa)
            let y = PieceGroup(id: b, partner: pb)
            let expected = abs(a - b) <= 1 || pa == b || pb == a
            #expect(x.adjoins(y) == expected)
            #expect(x.adjoins(y) == y.adjoins(x))
          }
        }
      }
    }
  }
}
