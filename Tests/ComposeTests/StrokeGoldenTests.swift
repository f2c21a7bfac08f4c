import Foundation
import Raster
import Testing

/// Strokes of every cap, join and dash kind, drawn by `Stroker` and the fill, at 100 % and 300 %:
/// compared with recorded goldens that were looked at.
@Suite struct StrokeGoldenTests {
  static let suite = "Strokes"

  /// One sheet, 160×120 user units: each entry is path data, a colour and a style.
  static let sheet: [(String, Color, StrokeStyle)] = [
    // A zigzag with miter joins (the sharpest bevelled past the limit of 4).
    (
      "M 8 40 L 24 12 L 40 40 L 48 12 L 52 40", Color(red: 0.2, green: 0.4, blue: 0.8),
      StrokeStyle(width: 4, join: .miter, miterLimit: 4)
    ),
    // The same with round joins and caps, and with bevels and square caps.
    (
      "M 60 40 L 76 12 L 92 40 L 100 12 L 104 40", Color(red: 0.8, green: 0.3, blue: 0.2),
      StrokeStyle(width: 4, cap: .round, join: .round)
    ),
    (
      "M 112 40 L 128 12 L 144 40 L 152 12 L 156 40", Color(red: 0.2, green: 0.6, blue: 0.3),
      StrokeStyle(width: 4, cap: .square, join: .bevel)
    ),
    // A dashed circle with round caps, and dots of zero-length dashes.
    (
      "M 50 80 A 22 22 0 1 1 49.99 79.9 Z", Color(red: 0.5, green: 0.2, blue: 0.7),
      StrokeStyle(width: 3, cap: .round, dash: [8, 4, 0, 4], dashPhase: 2)
    ),
    // A curve with a cusp, wide, translucent: no overlap shows darker.
    (
      "M 80 110 C 150 50 70 50 150 110", Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.6),
      StrokeStyle(width: 10, cap: .butt, join: .round)
    ),
    // A hairline (0.25 units) and a tight circle under a wide stroke.
    ("M 4 116 L 156 100", .black, StrokeStyle(width: 0.25)),
    ("M 16 80 A 2 2 0 1 1 15.99 79.9 Z", .black, StrokeStyle(width: 10)),
  ]

  static func render(scale: Double) throws -> Pixmap {
    let width = Int(160 * scale)
    let height = Int(120 * scale)
    var pixmap = try #require(
      Pixmap(width: width, height: height, filledWith: Color.white.premultiplied))
    let map = Transform.scale(scale, scale)
    let stroker = Stroker(transform: map)
    var rasterizer = Rasterizer()
    for (data, color, style) in sheet {
      let outline = stroker.outline(of: try PathDataParser.parse(data), style: style)
      rasterizer.fill(outline, transform: map, color: color.premultiplied, into: &pixmap)
    }
    return pixmap
  }

  @Test(arguments: [1.0, 3.0])
  func strokeSheet(scale: Double) throws {
    try assertGolden(
      Self.render(scale: scale), named: "sheet@\(Int(scale))x", suite: Self.suite, .exact)
  }
}
