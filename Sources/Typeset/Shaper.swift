import Raster

/// One glyph shaped and spaced, in points (y down, origin on the baseline at the pen).
struct PlacedGlyph {
  let face: FontFace
  let id: UInt32
  /// Byte offset in the styled text of the character(s) it draws.
  let cluster: Int
  /// The pen's advance after it: the font's, plus the span's tracking and kerning after the
  /// last glyph of each character cluster.
  var advance: Double
  let offset: Point
  let span: Int
  /// Whether it is the Apple logo drawn with our own mark (U+F8FF, which no free font has).
  let isAppleMark: Bool
}

/// A run of glyphs of one span, one face and one embedding level, in visual order inside it.
struct GlyphRun {
  let span: Int
  let face: FontFace
  let level: UInt8
  /// Its bytes in the styled text.
  let range: Range<Int>
  var glyphs: [PlacedGlyph]
  var advance: Double { glyphs.reduce(0) { $0 + $1.advance } }
}

/// Itemizes styled text into runs — by span, by the font that has each character (the span's,
/// else a fallback), and by bidi level — and shapes each with HarfBuzz in the context of the
/// whole text.
enum Shaper {
  /// The runs in logical order; `rightToLeft` is the paragraph's direction (nil: from its
  /// first strong character).
  static func runs(of text: StyledText, rightToLeft: Bool? = nil) -> [GlyphRun] {
    let string = text.string
    guard !string.isEmpty, !text.spans.isEmpty else { return [] }
    // Per scalar: its byte offset and bidi level.
    var scalars: [UInt32] = []
    var offsets: [Int] = []
    var offset = 0
    for scalar in string.unicodeScalars {
      scalars.append(scalar.value)
      offsets.append(offset)
      offset += UTF8.width(scalar)
    }
    let levels = Bidi.levels(scalars, rightToLeft: rightToLeft)
    // Per character (grapheme cluster): the face that draws it.
    struct Item {
      var start: Int
      var span: Int
      var face: FontFace
      var level: UInt8
    }
    var items: [Item] = []
    var scalarIndex = 0
    offset = 0
    for character in string {
      let span = text.span(at: offset)
      let face = Self.face(for: character, in: text.spans[span])
      let level = levels[scalarIndex]
      if let last = items.last, last.span == span, last.face === face, last.level == level {
        // The same run.
      } else {
        items.append(Item(start: offset, span: span, face: face, level: level))
      }
      scalarIndex += character.unicodeScalars.count
      offset += character.utf8.count
    }
    let length = string.utf8.count
    return string.utf8CString.withUnsafeBufferPointer { chars -> [GlyphRun] in
      // A String's C copy always has storage (its terminating NUL at least).
      guard let base = chars.baseAddress else { return [] }
      return items.indices.map { i in
        let item = items[i]
        let end = i + 1 < items.count ? items[i + 1].start : length
        let span = text.spans[item.span]
        var features: [(tag: String, value: UInt32)] = []
        if span.monospacedDigit { features.append(("tnum", 1)) }
        if span.noLigatures { features += [("liga", 0), ("clig", 0)] }
        let shaped = item.face.shape(
          base, length: length, range: item.start..<end,
          rightToLeft: item.level & 1 == 1, features: features)
        let scale = span.size / item.face.unitsPerEm
        let spacing = span.tracking + span.kerning
        var glyphs: [PlacedGlyph] = []
        glyphs.reserveCapacity(shaped.count)
        for (k, glyph) in shaped.enumerated() {
          let first = Self.scalar(at: glyph.cluster, scalars: scalars, offsets: offsets)
          let mark = glyph.id == 0 && first == 0xF8FF
          // A character no font has is left out: no glyph, no advance, no spacing. So are
          // the spacing after invisible characters (joiners, bidi marks, controls).
          let invisible = first.flatMap(Unicode.Scalar.init).map(Self.isInvisible) ?? false
          let missing = glyph.id == 0 && !mark && !invisible
          var advance =
            mark ? AppleMark.advance * span.size / 1000 : missing ? 0 : glyph.advance * scale
          var offset = Point(glyph.offset.x * scale, -glyph.offset.y * scale)
          // Tabular figures: a digit drawn alone takes the face's widest digit advance,
          // centred in it, where the face's own `tnum` leaves them uneven. A cluster's glyphs
          // lie side by side, so its neighbours say whether it is alone.
          let alone =
            (k == 0 || shaped[k - 1].cluster != glyph.cluster)
            && (k + 1 == shaped.count || shaped[k + 1].cluster != glyph.cluster)
          if span.monospacedDigit, alone, let digit = first, (0x30...0x39).contains(digit),
            let tabular = item.face.tabularFigureAdvance.map({ $0 * scale }),
            abs(tabular - glyph.advance * scale) > 1e-9
          {
            offset.x += (tabular - glyph.advance * scale) / 2
            advance = tabular
          }
          // Invisible characters no font has (controls) and line and paragraph separators
          // take no room; a tab takes a space's advance (TextLayout moves it to a tab stop
          // where one is left).
          if first == 0x09, k == 0 || shaped[k - 1].cluster != glyph.cluster {
            advance = item.face.spaceAdvance * scale
          } else if invisible, !mark, glyph.id == 0 || Self.isLineSeparator(first) {
            advance = 0
          }
          // Spacing once per character cluster, after its last glyph.
          if k == shaped.count - 1 || shaped[k + 1].cluster != glyph.cluster,
            !missing, !invisible || mark
          {
            advance += spacing
          }
          glyphs.append(
            PlacedGlyph(
              face: item.face, id: glyph.id, cluster: glyph.cluster, advance: advance,
              offset: offset, span: item.span,
              isAppleMark: mark))
        }
        return GlyphRun(
          span: item.span, face: item.face, level: item.level, range: item.start..<end,
          glyphs: glyphs)
      }
    }
  }

  /// The face for one character: the span's own when it has every visible scalar of it (or the
  /// character is a control, which no font draws, or the Apple mark), else the first fallback
  /// that has its first missing scalar; the span's own when none has (the fallbacks then list it
  /// as missing).
  static func face(for character: Character, in span: TextSpan) -> FontFace {
    if let fallbacks = span.fallbacks, fallbacks.searches,
      let first = character.unicodeScalars.first, wantsEmojiPresentation(character),
      let emoji = fallbacks.face(
        for: first, weight: span.weight, italic: span.italic, color: true),
      emoji.hasColorBitmaps
    {
      return emoji
    }
    var lacking: Unicode.Scalar?
    for scalar in character.unicodeScalars where !isInvisible(scalar) {
      if span.font.glyph(forCodePoint: scalar.value) == nil {
        lacking = scalar
        break
      }
    }
    guard let lacking, let fallbacks = span.fallbacks else { return span.font }
    return fallbacks.face(for: lacking, weight: span.weight, italic: span.italic) ?? span.font
  }

  /// Whether a character is shown as a colour emoji: it asks for it (U+FE0F), or its first
  /// scalar is emoji by default (Unicode's Emoji_Presentation) and it does not ask for text
  /// (U+FE0E). Keycaps, flags and ZWJ sequences count by their first scalar or their U+FE0F.
  static func wantsEmojiPresentation(_ character: Character) -> Bool {
    let scalars = character.unicodeScalars
    if scalars.contains("\u{FE0E}") { return false }
    if scalars.contains("\u{FE0F}") { return true }
    guard let first = scalars.first else { return false }
    return first.properties.isEmojiPresentation
      || (0x1F1E6...0x1F1FF).contains(first.value)
  }

  /// Scalars no font need draw: controls (line feeds, tabs), the Apple mark (drawn with our own
  /// outline), format characters (joiners, bidi marks), variation selectors.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0...0x1F, 0x7F...0x9F, 0xF8FF, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F,
      0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF:
      return true
    default: return false
    }
  }

  /// Whether a scalar ends a line (Unicode's mandatory breaks: line feed, vertical tab, form
  /// feed, carriage return, next line, line and paragraph separators).
  static func isLineSeparator(_ scalar: UInt32?) -> Bool {
    guard let scalar else { return false }
    return (0x0A...0x0D).contains(scalar) || scalar == 0x85 || scalar == 0x2028
      || scalar == 0x2029
  }

  /// The scalar that starts at byte `offset`, from the text's scalars and their byte offsets
  /// (ascending): a binary search, not a walk through the string per glyph.
  static func scalar(at offset: Int, scalars: [UInt32], offsets: [Int]) -> UInt32? {
    var low = 0
    var high = offsets.count
    while low < high {
      let mid = (low + high) / 2
      if offsets[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return low < offsets.count && offsets[low] == offset ? scalars[low] : nil
  }
}
