import Raster

/// One line of text shaped and turned into outlines, in points: the path's origin is the left end
/// of the baseline, y down. Glyphs are unhinted outlines, so the text scales, moves by fractions
/// of a pixel and casts shadows like any other path. Runs of right-to-left text are shown in their
/// visual order (UAX #9); characters the spans' fonts lack come from fallback fonts.
public struct TextLayout: Hashable, Sendable {
  /// The outlines of one paint (the spans' `paint`, `underlinePaint`, `strikethroughPaint`):
  /// its glyphs and its underlines and strikethroughs.
  public struct Piece: Hashable, Sendable {
    public let paint: Int
    public let path: Path

    public init(paint: Int, path: Path) {
      self.paint = paint
      self.path = path
    }
  }

  /// A colour glyph (an emoji): its bitmap and the rectangle it fills, in points.
  public struct Image: Hashable, Sendable {
    public let image: RasterImage
    public let rect: Rect
  }

  /// Where a glyph's advance lies on the line and which character it draws: for splitting a line
  /// by characters (a numeric text transition rolls only the characters that change).
  public struct GlyphSpan: Hashable, Sendable {
    /// The byte offset, in the shaped text, of the character cluster the glyph belongs to.
    public let cluster: Int
    /// The advance's ends, points from the line's left end (tracking and kerning included).
    public let minX: Double
    public let maxX: Double
  }

  /// Every glyph's outline and every underline and strikethrough, in points.
  public let path: Path
  /// Every glyph's advance, in visual order.
  public let glyphSpans: [GlyphSpan]
  /// The same outlines by paint, in the order each paint first appears.
  public let pieces: [Piece]
  /// The colour glyphs, drawn over the outlines in their own colours.
  public let images: [Image]
  /// The advance width in points: glyph advances plus tracking between character clusters and
  /// kerning after each.
  public let width: Double
  /// The line's ascender and descender in points, both positive: the largest of its spans'
  /// fonts at their sizes and of the fallback fonts that drew any of its glyphs, at the sizes of
  /// their spans. CoreText's line is as tall as every run in it (`CTLineGetTypographicBounds`:
  /// the largest ascent and descent of its runs, a fallback font's run among them).
  public let ascender: Double
  public let descender: Double

  /// The line's height: ascender + descender, in points.
  public var lineHeight: Double { ascender + descender }

  /// Shapes `text` with `font` at `size` points, adding `tracking` points after every glyph but
  /// the last (SwiftUI's `.tracking`, as Apple's fonts apply by size).
  public init(_ text: String, font: FontFace, size: Double, tracking: Double = 0) {
    self.init(StyledText(text, TextSpan(font: font, size: size, tracking: tracking)))
  }

  /// Shapes styled text; `rightToLeft` is the paragraph's direction (nil: from its first strong
  /// character).
  public init(_ text: StyledText, rightToLeft: Bool? = nil) {
    let runs = Shaper.runs(of: text, rightToLeft: rightToLeft)
    var all = PathBuilder()
    var byPaint: [(paint: Int, builder: PathBuilder)] = []
    func add(_ paint: Int, _ draw: (inout PathBuilder) -> Void) {
      draw(&all)
      if let i = byPaint.firstIndex(where: { $0.paint == paint }) {
        draw(&byPaint[i].builder)
      } else {
        var builder = PathBuilder()
        draw(&builder)
        byPaint.append((paint, builder))
      }
    }
    // Tabs go to the next tab stop, counted from the line's left end in a left-to-right
    // paragraph; in a right-to-left one they take a space's advance (the shaper's).
    let bytes = Array(text.string.utf8)
    let tabStops =
      bytes.contains(0x09)
      && !(rightToLeft ?? Bidi.isRightToLeft(text.string.unicodeScalars.map(\.value)))
    var penX = 0.0
    var lastCluster = -1
    var ascender = text.ascender
    var descender = text.descender
    var spans: [GlyphSpan] = []
    var images: [Image] = []
    // Lines under and through each run, drawn after the glyphs.
    var decorations: [(paint: Int, rect: Rect, pattern: LinePattern)] = []
    for index in Bidi.visualOrder(runs.map(\.level)) {
      let run = runs[index]
      let span = text.spans[run.span]
      let start = penX
      for glyph in run.glyphs {
        let origin = Point(penX + glyph.offset.x, glyph.offset.y)
        if glyph.id != 0, !glyph.isAppleMark, glyph.face !== span.font {
          let scale = span.size / glyph.face.unitsPerEm
          ascender = max(ascender, glyph.face.ascender * scale)
          descender = max(descender, -glyph.face.descender * scale)
        }
        if glyph.isAppleMark {
          add(span.paint) {
            Self.append(AppleMark.path, scale: span.size / 1000, oblique: 0, at: origin, to: &$0)
          }
        } else if glyph.id != 0, glyph.face.hasColorBitmaps {
          if let bitmap = glyph.face.colorBitmap(of: glyph.id) {
            let scale = span.size / glyph.face.unitsPerEm
            let side = bitmap.pixelSize * scale
            images.append(
              Image(
                image: bitmap.image,
                rect: Rect(
                  x: origin.x + bitmap.left * scale, y: origin.y + bitmap.top * scale,
                  width: Double(bitmap.image.width) * side,
                  height: Double(bitmap.image.height) * side)))
          }
        } else if glyph.id != 0 {
          let outline = glyph.face.outline(of: glyph.id)
          let scale = span.size / glyph.face.unitsPerEm
          // A fallback font without an italic is sheared like the span's own would be.
          let oblique =
            glyph.face === span.font
            ? span.oblique
            : span.italic && !glyph.face.isItalic ? TextSpan.syntheticOblique : 0
          add(span.paint) {
            Self.append(outline, scale: scale, oblique: oblique, at: origin, to: &$0)
          }
        }
        // A tab's cluster goes to the stop once, by its first glyph (a mark after it keeps its
        // own advance).
        let advance =
          tabStops && glyph.cluster < bytes.count && bytes[glyph.cluster] == 0x09
            && glyph.cluster != lastCluster
          ? TabStops.advance(at: penX, natural: glyph.advance) : glyph.advance
        lastCluster = glyph.cluster
        spans.append(GlyphSpan(cluster: glyph.cluster, minX: penX, maxX: penX + advance))
        penX += advance
      }
      let scale = span.size / span.font.unitsPerEm
      if span.underline {
        let (position, thickness) = span.font.underline
        decorations.append(
          (
            span.underlinePaint,
            Rect(
              x: start, y: (position - thickness / 2) * scale, width: penX - start,
              height: thickness * scale), span.underlinePattern
          ))
      }
      if span.strikethrough {
        let (position, thickness) = span.font.strikethrough
        decorations.append(
          (
            span.strikethroughPaint,
            Rect(
              x: start, y: -(position + thickness / 2) * scale, width: penX - start,
              height: thickness * scale), span.strikethroughPattern
          ))
      }
    }
    for (paint, rect, pattern) in decorations where rect.width > 0 && rect.height > 0 {
      for piece in pattern.pieces(of: rect) { add(paint) { $0.add(Path.rect(piece)) } }
    }
    self.images = images
    glyphSpans = spans
    path = all.build() ?? .empty
    pieces = byPaint.map { Piece(paint: $0.paint, path: $0.builder.build() ?? .empty) }
    // Tracking after the last character cluster is trailing white space, not width.
    if let last = runs.max(by: { $0.range.upperBound < $1.range.upperBound }) {
      penX -= text.spans[last.span].tracking
    }
    width = runs.isEmpty ? 0 : penX
    self.ascender = ascender
    self.descender = descender
  }

  private static func append(
    _ glyph: Path, scale: Double, oblique: Double, at origin: Point,
    to builder: inout PathBuilder
  ) {
    let t =
      oblique == 0
      ? Transform.scale(scale, scale).concatenating(.translation(origin.x, origin.y))
      : Transform(
        a: scale, b: 0, c: -oblique * scale, d: scale, tx: origin.x, ty: origin.y)
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
}
