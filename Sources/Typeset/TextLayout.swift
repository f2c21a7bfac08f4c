import Raster

/// One line of text shaped and turned into outlines, in points: the path's origin is the left end
/// of the baseline, y down. Glyphs are unhinted outlines, so the text scales, moves by fractions
/// of a pixel and casts shadows like any other path.
public struct TextLayout: Hashable, Sendable {
  /// Every glyph's outline, in points.
  public let path: Path
  /// The advance width in points: glyph advances plus tracking between glyphs.
  public let width: Double
  /// The font's ascender and descender at this size, in points, both positive.
  public let ascender: Double
  public let descender: Double

  /// The height of a one-line Text: ascender + descender, in points.
  public var lineHeight: Double { ascender + descender }

  /// Shapes `text` with `font` at `size` points, adding `tracking` points after every glyph but
  /// the last (SwiftUI's `.tracking`, as Apple's fonts apply by size).
  public init(_ text: String, font: FontFace, size: Double, tracking: Double = 0) {
    let scale = size / font.unitsPerEm
    let glyphs = font.shape(text)
    let utf8 = Array(text.utf8)
    var builder = PathBuilder()
    var penX = 0.0
    for (i, glyph) in glyphs.enumerated() {
      let origin = Point(penX + glyph.offset.x * scale, -glyph.offset.y * scale)
      let advance = Self.advance(of: glyph, in: utf8, scale: scale, size: size)
      if glyph.id == 0, Self.scalar(in: utf8, at: glyph.cluster) == 0xF8FF {
        Self.append(AppleMark.path, scale: size / 1000, at: origin, to: &builder)
      } else if glyph.id != 0 {
        Self.append(font.outline(of: glyph.id), scale: scale, at: origin, to: &builder)
      }
      penX += advance + (i == glyphs.count - 1 ? 0 : tracking)
    }
    path = builder.build() ?? .empty
    width = penX
    ascender = font.ascender * scale
    descender = -font.descender * scale
  }

  private static func append(
    _ glyph: Path, scale: Double, at origin: Point, to builder: inout PathBuilder
  ) {
    let t = Transform.scale(scale, scale).concatenating(.translation(origin.x, origin.y))
    for element in glyph.elements {
      switch element {
      case .move(let p): builder.move(to: t.apply(p))
      case .line(let p): builder.line(to: t.apply(p))
      case .quad(let c, let p): builder.quad(to: t.apply(p), control: t.apply(c))
      case .cubic(let c1, let c2, let p):
        builder.cubic(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
      case .close: builder.close()
      }
    }
  }

  /// A shaped glyph's advance in points: the font's, or the Apple mark's where the font has no
  /// glyph for U+F8FF (which it is drawn with).
  static func advance(
    of glyph: ShapedGlyph, in utf8: [UInt8], scale: Double, size: Double
  ) -> Double {
    if glyph.id == 0, scalar(in: utf8, at: glyph.cluster) == 0xF8FF {
      return AppleMark.advance * size / 1000
    }
    return glyph.advance * scale
  }

  /// The Unicode scalar starting at byte `offset` of UTF-8 text.
  private static func scalar(in utf8: [UInt8], at offset: Int) -> UInt32? {
    guard offset < utf8.count else { return nil }
    var end = offset + 1
    while end < utf8.count, utf8[end] & 0xC0 == 0x80 { end += 1 }
    return String(decoding: utf8[offset..<end], as: UTF8.self).unicodeScalars.first?.value
  }
}
