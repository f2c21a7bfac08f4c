/// How one stretch of a text is set: its font and the `Text` modifiers that change its glyphs,
/// their spacing or the lines drawn with them. Lengths in points.
public struct TextSpan {
  /// The font asked for; characters it lacks come from `fallbacks`.
  public var font: FontFace
  public var fallbacks: FontFallbacks?
  /// The weight and slant fallback fonts are chosen by.
  public var weight: FontWeight
  public var italic: Bool
  public var size: Double
  /// Space after every character cluster but the line's last (`.tracking`, and SF Pro's default
  /// tracking by size): Apple treats it as trailing white space.
  public var tracking: Double
  /// Space after every character cluster, the line's last too (`.kerning`: "the kerning affects
  /// the trailing edge of the text view as well").
  public var kerning: Double
  /// Nonessential ligatures off: a nonzero `.tracking` "disables nonessential ligatures".
  public var noLigatures: Bool
  /// Digits of one width (`.monospacedDigit()`, OpenType `tnum`).
  public var monospacedDigit: Bool
  /// The horizontal shear of synthesized italic (x grows by this times the height above the
  /// baseline) where the face has no italic of its own; 0 otherwise.
  public var oblique: Double
  public var underline: Bool
  public var strikethrough: Bool
  /// How the underline and strikethrough are drawn: solid, or in dashes and dots.
  public var underlinePattern = LinePattern.solid
  public var strikethroughPattern = LinePattern.solid
  /// The caller's paint for the glyphs, and for the underline and strikethrough.
  public var paint: Int
  public var underlinePaint: Int
  public var strikethroughPaint: Int

  public init(
    font: FontFace, fallbacks: FontFallbacks? = nil, weight: FontWeight = .regular,
    italic: Bool = false, size: Double, tracking: Double = 0, kerning: Double = 0,
    noLigatures: Bool = false, monospacedDigit: Bool = false, oblique: Double = 0,
    underline: Bool = false, strikethrough: Bool = false, paint: Int = 0,
    underlinePaint: Int? = nil, strikethroughPaint: Int? = nil
  ) {
    self.font = font
    self.fallbacks = fallbacks
    self.weight = weight
    self.italic = italic
    self.size = size
    self.tracking = tracking
    self.kerning = kerning
    self.noLigatures = noLigatures
    self.monospacedDigit = monospacedDigit
    self.oblique = oblique
    self.underline = underline
    self.strikethrough = strikethrough
    self.paint = paint
    self.underlinePaint = underlinePaint ?? paint
    self.strikethroughPaint = strikethroughPaint ?? paint
  }

  /// The shear FreeType gives a synthesized oblique (`FT_GlyphSlot_Oblique`: 0x0366A / 0x10000,
  /// about 12°), which CoreText's synthetic italic resembles.
  public static let syntheticOblique = 0.2126

  /// The same span at `factor` times its size and spacing (`minimumScaleFactor`).
  public func scaled(by factor: Double) -> TextSpan {
    var s = self
    s.size *= factor
    s.tracking *= factor
    s.kerning *= factor
    return s
  }
}

/// Text in spans of different styles (`Text("a") + Text("b").bold()`): one string, and for each
/// span the bytes of it that it sets.
public struct StyledText {
  public private(set) var string: String
  /// The spans, and where each one's bytes end in `string` (ascending; the last is the length).
  public private(set) var spans: [TextSpan]
  public private(set) var ends: [Int]

  public init() {
    string = ""
    spans = []
    ends = []
  }

  /// One span.
  public init(_ text: String, _ span: TextSpan) {
    self.init()
    append(text, span)
  }

  public mutating func append(_ text: String, _ span: TextSpan) {
    guard !text.isEmpty else {
      if spans.isEmpty {
        spans.append(span)
        ends.append(0)
      }
      return
    }
    if let last = ends.last, last == 0, spans.count == 1 {
      // An empty first span only keeps the style for an empty text.
      spans = []
      ends = []
    }
    string += text
    spans.append(span)
    ends.append(string.utf8.count)
  }

  /// The span index setting byte `offset` (the last span past the end).
  public func span(at offset: Int) -> Int {
    var low = 0
    var high = ends.count - 1
    while low < high {
      let mid = (low + high) / 2
      if ends[mid] > offset { high = mid } else { low = mid + 1 }
    }
    return max(0, low)
  }

  /// The largest ascender and descender of its spans' fonts at their sizes, in points, both
  /// positive: a line's height is their sum.
  public var ascender: Double {
    spans.map { $0.font.ascender * $0.size / $0.font.unitsPerEm }.max() ?? 0
  }
  public var descender: Double {
    spans.map { -$0.font.descender * $0.size / $0.font.unitsPerEm }.max() ?? 0
  }

  /// Bytes `range` (on character boundaries) with their spans; an empty range keeps the style
  /// at its start.
  public func slice(_ range: Range<Int>) -> StyledText {
    var out = StyledText()
    let bytes = Array(string.utf8)
    var start = range.lowerBound
    guard !spans.isEmpty else { return out }
    if range.isEmpty {
      out.append("", spans[span(at: min(start, max(0, bytes.count - 1)))])
      return out
    }
    while start < range.upperBound {
      let index = span(at: start)
      let end = min(ends[index], range.upperBound)
      out.append(String(decoding: bytes[start..<end], as: UTF8.self), spans[index])
      start = end
    }
    return out
  }

  /// This text followed by `other`.
  public func appending(_ other: StyledText) -> StyledText {
    var out = self
    var start = 0
    let bytes = Array(other.string.utf8)
    for (span, end) in zip(other.spans, other.ends) {
      out.append(String(decoding: bytes[start..<end], as: UTF8.self), span)
      start = end
    }
    if other.string.isEmpty, out.spans.isEmpty, let first = other.spans.first {
      out.append("", first)
    }
    return out
  }

  /// The text with every span scaled (`TextSpan.scaled`).
  public func scaled(by factor: Double) -> StyledText {
    var out = self
    out.spans = spans.map { $0.scaled(by: factor) }
    return out
  }

  /// The text with `transform` applied to each span's characters (which keeps their byte count,
  /// as replacing a line feed by a space does).
  func mapping(_ transform: (String) -> String) -> StyledText {
    var out = StyledText()
    var start = 0
    let bytes = Array(string.utf8)
    for (span, end) in zip(spans, ends) {
      out.append(transform(String(decoding: bytes[start..<end], as: UTF8.self)), span)
      start = end
    }
    if string.isEmpty, let first = spans.first { out.append("", first) }
    return out
  }
}
