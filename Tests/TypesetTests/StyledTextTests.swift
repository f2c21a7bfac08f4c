import Raster
import Testing

@testable import Typeset

/// Styled runs, fallback fonts per character and mixed-direction text.
@Suite struct StyledTextTests {
  static func inter(_ weight: FontWeight = .regular, italic: Bool = false) throws -> FontFace {
    try FontFace(
      try #require(FontLocator.locate(family: "Inter", weight: weight, italic: italic)))
  }

  /// Runs in one style lay out as the plain string does: the same width, the same outlines.
  @Test func runsOfOneStyleEqualThePlainText() throws {
    let face = try Self.inter()
    let span = TextSpan(font: face, size: 17, tracking: -0.43)
    var runs = StyledText()
    for word in ["Cats ", "and ", "dogs"] { runs.append(word, span) }
    let plain = TextLayout("Cats and dogs", font: face, size: 17, tracking: -0.43)
    let styled = TextLayout(runs)
    #expect(abs(styled.width - plain.width) < 1e-9)
    #expect(styled.path == plain.path)
    #expect(styled.pieces.count == 1)
  }

  /// Kerning comes after every character, the last too; tracking between them only (Apple's
  /// `Text.kerning` "affects the trailing edge"; tracking is trailing white space).
  @Test func kerningCountsTheTrailingEdgeAndTrackingDoesNot() throws {
    let face = try Self.inter()
    let plain = TextLayout(StyledText("ABCD", TextSpan(font: face, size: 20))).width
    let kerned = TextLayout(StyledText("ABCD", TextSpan(font: face, size: 20, kerning: 3))).width
    let tracked = TextLayout(StyledText("ABCD", TextSpan(font: face, size: 20, tracking: 3)))
      .width
    #expect(abs(kerned - plain - 4 * 3) < 1e-9)
    #expect(abs(tracked - plain - 3 * 3) < 1e-9)
  }

  /// `monospacedDigit`: Inter's tabular figures give every digit one advance.
  @Test func monospacedDigitsShareOneWidth() throws {
    let face = try Self.inter()
    func width(_ s: String, _ tabular: Bool) -> Double {
      TextLayout(StyledText(s, TextSpan(font: face, size: 20, monospacedDigit: tabular))).width
    }
    #expect(abs(width("1111", false) - width("8888", false)) > 1)
    #expect(abs(width("1111", true) - width("8888", true)) < 1e-9)
  }

  /// From 20 pt text takes Inter's Display cut, whose `tnum` digits still differ (1028–1220
  /// units in Debian 12's 4.0 beta): each digit is set in the widest one's advance, centred, so
  /// a counter does not wobble at `title` sizes (found by a hostile walkthrough, 2026-12-05).
  @Test func monospacedDigitsShareOneWidthInEveryCut() throws {
    let display = try FontFace(
      try #require(FontLocator.locate(family: "Inter Display", weight: .regular)))
    for face in [try Self.inter(), display] {
      let advance = try #require(face.tabularFigureAdvance)
      for size in [11.0, 20, 34, 60] {
        let widths = (0...9).map { d in
          TextLayout(
            StyledText(
              String(repeating: String(d), count: 3),
              TextSpan(font: face, size: size, monospacedDigit: true))
          ).width
        }
        for w in widths {
          #expect(
            abs(w - 3 * advance * size / face.unitsPerEm) < 1e-9, "\(face.file.path) at \(size)")
        }
      }
    }
  }

  /// Controls no font draws take no room, and line and paragraph separators, vertical tab, form
  /// feed and next line end a line without adding to its width, as a line feed does (U+2028 was
  /// a space's width, U+0000 and U+000B a missing glyph's).
  @Test func controlsAndSeparatorsTakeNoRoom() throws {
    let face = try Self.inter()
    func lines(_ s: String) -> [Paragraph.Line] {
      Paragraph(StyledText(s, TextSpan(font: face, size: 17))).lines
    }
    let plain = lines("ab")[0].layout.width
    for control in ["\u{0}", "\u{8}", "\u{1B}", "\u{7F}", "\u{200B}"] {
      let shown = lines("a" + control + "b")
      #expect(
        shown.count == 1 && abs(shown[0].layout.width - plain) < 1e-9,
        "\(control.unicodeScalars.first!.value)")
    }
    let a = lines("a")[0].layout.width
    for separator in ["\n", "\r\n", "\u{B}", "\u{C}", "\u{85}", "\u{2028}", "\u{2029}"] {
      let shown = lines("a" + separator + "b")
      #expect(shown.count == 2, "\(separator.unicodeScalars.first!.value)")
      #expect(abs(shown[0].layout.width - a) < 1e-9, "\(separator.unicodeScalars.first!.value)")
    }
  }

  /// A cut across a `\n`: the tail keeps the first paragraph, the head the last, the middle
  /// both; "…" marks what is left out even where the rest would fit (the paragraphs were joined
  /// with a space, so "first second…" stood for nothing cut; found by a hostile walkthrough,
  /// 2026-12-05). Within a paragraph, a cut is as before: as much as fits.
  @Test func aCutAcrossALineBreakKeepsWholeParagraphsApart() throws {
    let face = try Self.inter()
    func cut(
      _ s: String, _ mode: Paragraph.Truncation, width: Double = 390, limit: Int = 1
    )
      -> [String]
    {
      Paragraph(
        StyledText(s, TextSpan(font: face, size: 17)), maxWidth: width, lineLimit: limit,
        truncation: mode
      ).lines.map(\.text)
    }
    #expect(cut("first\nsecond", .tail) == ["first…"])
    #expect(cut("first\nsecond", .head) == ["…second"])
    #expect(cut("first\nsecond", .middle) == ["first…second"])
    #expect(cut("first\u{2029}second\nthird", .head) == ["…third"])
    #expect(cut("one\ntwo\nthree", .tail, limit: 2) == ["one", "two…"])
    // A text ending in a line feed does not carry it into the cut line.
    let ended = cut("a long sentence that wraps and is cut\n", .tail, width: 120)
    #expect(ended.count == 1 && !ended[0].contains("\n") && ended[0].hasSuffix("…"), "\(ended)")
    // A text ending in line breaks keeps its last words, not an empty line.
    #expect(cut("a\n\n", .head) == ["…a"])
    #expect(cut("x\nb\n  \n", .head) == ["…b"])
    #expect(cut("a\n\n", .middle).first?.contains("a") == true)
    let narrow = cut("first\nsecond", .middle, width: 70)
    #expect(
      narrow.count == 1 && narrow[0].hasPrefix("fi") && narrow[0].hasSuffix("nd"), "\(narrow)")
    let long = cut("a long sentence that wraps and is cut at the end", .tail, width: 120)
    #expect(long.count == 1 && long[0].hasPrefix("a long") && long[0].hasSuffix("…"), "\(long)")
  }

  /// SwiftUI's lightest weight is `ultraLight` (UIFont −0.8), then `thin` (−0.6): Inter's Thin
  /// and ExtraLight faces, in that order (they were swapped).
  @Test func ultraLightIsLighterThanThin() throws {
    #expect(FontWeight.allCases.first == .ultraLight && FontWeight.allCases[1] == .thin)
    let ultraLight = try #require(FontLocator.locate(family: "Inter", weight: .ultraLight))
    let thin = try #require(FontLocator.locate(family: "Inter", weight: .thin))
    #expect(ultraLight.path.hasSuffix("Inter-Thin.otf"), "\(ultraLight.path)")
    #expect(thin.path.hasSuffix("Inter-ExtraLight.otf"), "\(thin.path)")
  }

  /// Italic finds the family's italic face; a synthesized oblique shears the outlines right above
  /// the baseline and leaves the advance alone.
  @Test func italicIsTheFacesOwnOrSheared() throws {
    #expect(try Self.inter(italic: true).isItalic)
    #expect(try !Self.inter().isItalic)
    let face = try Self.inter()
    let upright = TextLayout(StyledText("I", TextSpan(font: face, size: 100)))
    let sheared = TextLayout(
      StyledText("I", TextSpan(font: face, size: 100, oblique: TextSpan.syntheticOblique)))
    let a = try #require(upright.path.bounds)
    let b = try #require(sheared.path.bounds)
    #expect(sheared.width == upright.width)
    // The stem's top moves right by its height times the shear.
    #expect(abs((b.maxX - a.maxX) - (-a.minY) * TextSpan.syntheticOblique) < 0.5)
  }

  /// Underline and strikethrough are bars as wide as the run, below the baseline and through the
  /// x-height, in their own paints.
  @Test func underlineAndStrikethroughSpanTheRun() throws {
    let face = try Self.inter()
    let span = TextSpan(
      font: face, size: 20, underline: true, strikethrough: true, paint: 0, underlinePaint: 1,
      strikethroughPaint: 2)
    let layout = TextLayout(StyledText("under", span))
    #expect(layout.pieces.map(\.paint) == [0, 1, 2])
    let under = try #require(layout.pieces[1].path.bounds)
    let strike = try #require(layout.pieces[2].path.bounds)
    #expect(abs(under.minX) < 1e-9 && abs(under.maxX - layout.width) < 1e-9)
    #expect(under.minY > 0 && under.maxY < layout.descender)
    #expect(strike.maxY < 0 && strike.minY > -layout.ascender / 2)
  }

  /// Patterned lines: dashes of the pattern's lengths in line thicknesses, counted from x = 0,
  /// covering only the bar, never past its ends.
  @Test func patternedLinesAreCutIntoDashes() {
    let bar = Rect(x: 3, y: 10, width: 40, height: 2)
    #expect(LinePattern.solid.pieces(of: bar) == [bar])
    let dashes = LinePattern.dash.pieces(of: bar)
    // Period 12 (8 on, 4 off) from x = 0: 3…8, 12…20, 24…32, 36…43.
    #expect(dashes.map(\.minX) == [3, 12, 24, 36] && dashes.map(\.maxX) == [8, 20, 32, 43])
    for pattern in LinePattern.allCases {
      let pieces = pattern.pieces(of: bar)
      #expect(pieces.allSatisfy { $0.minX >= bar.minX && $0.maxX <= bar.maxX && $0.height == 2 })
      #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.maxX <= $1.minX })
    }
  }

  /// A character the font lacks comes from a fallback font with it (CJK from Noto CJK, Hebrew
  /// from a Hebrew font); without fallbacks it is left out. A character no font has is listed.
  @Test func fallbackFontsDrawWhatTheFontLacks() throws {
    let face = try Self.inter()
    #expect(face.glyph(forCodePoint: 0x4F60) == nil)
    let alone = TextLayout(StyledText("你好", TextSpan(font: face, size: 20)))
    #expect(alone.path.isEmpty)
    let fallbacks = FontFallbacks()
    let found = TextLayout(StyledText("你好", TextSpan(font: face, fallbacks: fallbacks, size: 20)))
    #expect(!found.path.isEmpty)
    let hebrew = TextLayout(
      StyledText("שלום", TextSpan(font: face, fallbacks: fallbacks, size: 20)))
    #expect(!hebrew.path.isEmpty)
    #expect(fallbacks.missing.isEmpty)
    _ = TextLayout(StyledText("a\u{0378}b", TextSpan(font: face, fallbacks: fallbacks, size: 20)))
    #expect(fallbacks.missing == ["\u{0378}"])
  }

  /// Emoji come from the colour font as bitmaps sized to the text and placed on the baseline by
  /// the font's bearings; sequences (flags, skin tones, ZWJ families, keycaps) are one glyph;
  /// U+FE0F asks for the colour glyph, a bare ❤ (text by default) stays an outline.
  @Test func emojiAreColourBitmapsOnTheBaseline() throws {
    let face = try Self.inter()
    let fallbacks = FontFallbacks()
    func layout(_ s: String, size: Double = 20) -> TextLayout {
      TextLayout(StyledText(s, TextSpan(font: face, fallbacks: fallbacks, size: size)))
    }
    let cat = layout("a😺b")
    #expect(cat.images.count == 1)
    let rect = try #require(cat.images.first?.rect)
    // Noto Color Emoji: 136 × 128 pixels at 109 ppem, 101 above the baseline.
    #expect(abs(rect.height - 20 * 128 / 109) < 0.01)
    #expect(abs(rect.minY + 20 * 101 / 109) < 0.01)
    #expect(rect.maxY > 0 && rect.minX > 0 && rect.maxX < cat.width)
    #expect(layout("🇫🇷").images.count == 1)
    #expect(layout("👍🏽").images.count == 1)
    #expect(layout("👨‍👩‍👧").images.count == 1)
    #expect(layout("1️⃣").images.count == 1)
    #expect(layout("❤️").images.count == 1)
    let bare = layout("❤")
    #expect(bare.images.isEmpty && !bare.path.isEmpty)
    // Twice the size, twice the rectangle: the same bitmap resampled.
    let big = try #require(layout("😺", size: 40).images.first)
    #expect(abs(big.rect.width - 2 * rect.width) < 1e-9 && big.image == cat.images[0].image)
    #expect(fallbacks.missing.isEmpty)
  }

  /// Rule L2 on run levels, and an RTL paragraph shown right to left: the first run's paint is
  /// rightmost.
  @Test func rightToLeftRunsAreShownInVisualOrder() throws {
    #expect(Bidi.visualOrder([0, 0, 0]) == [0, 1, 2])
    #expect(Bidi.visualOrder([0, 1, 1, 0]) == [0, 2, 1, 3])
    #expect(Bidi.visualOrder([1, 2, 1]) == [2, 1, 0])
    #expect(Bidi.visualOrder([1, 2, 2, 1, 0]) == [3, 1, 2, 0, 4])
    let face = try Self.inter()
    let fallbacks = FontFallbacks()
    var text = StyledText()
    text.append("שלום ", TextSpan(font: face, fallbacks: fallbacks, size: 20, paint: 1))
    text.append("עולם", TextSpan(font: face, fallbacks: fallbacks, size: 20, paint: 2))
    let layout = TextLayout(text)
    let first = try #require(layout.pieces.first { $0.paint == 1 }?.path.bounds)
    let second = try #require(layout.pieces.first { $0.paint == 2 }?.path.bounds)
    #expect(first.minX > second.maxX)
    #expect(Bidi.isRightToLeft(Array("abc שלום".unicodeScalars.map(\.value))) == false)
    #expect(Bidi.isRightToLeft(Array("שלום abc".unicodeScalars.map(\.value))))
    // Rule P2 skips isolates: the first strong character outside RLI…PDI sets the direction.
    #expect(Bidi.isRightToLeft(Array("\u{2067}abc\u{2069} שלום".unicodeScalars.map(\.value))))
    #expect(!Bidi.isRightToLeft(Array("\u{2068}שלום\u{2069} abc".unicodeScalars.map(\.value))))
    // Inside an LTR paragraph a Hebrew word keeps its place, its letters reversed.
    let levels = Bidi.levels(Array("ab שלום cd".unicodeScalars.map(\.value)), rightToLeft: nil)
    #expect(levels == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0])
  }

  /// Styled paragraphs break as plain ones do, and a "…" takes its neighbour's style.
  @Test func styledParagraphsBreakAndTruncate() throws {
    let face = try Self.inter()
    let bold = try Self.inter(.bold)
    var text = StyledText()
    text.append("one two ", TextSpan(font: face, size: 17))
    text.append("three four five", TextSpan(font: bold, size: 17, paint: 1))
    let styled = Paragraph(text, maxWidth: 90)
    let plainLines = Paragraph("one two three four five", font: face, size: 17, maxWidth: 90)
      .lines.map(\.text)
    #expect(styled.lines.count >= 2)
    #expect(styled.lines.map(\.text).joined(separator: " ") == plainLines.joined(separator: " "))
    let cut = Paragraph(text, maxWidth: 120, lineLimit: 1)
    #expect(cut.isTruncated && cut.lines.count == 1 && cut.lines[0].text.hasSuffix("…"))
    #expect(cut.lines[0].layout.width <= 120)
  }

  /// Each line is as tall as its own runs make it (CoreText's line: the largest ascent and
  /// descent of its runs): a line of a bigger run is taller than the others, not every line.
  @Test func eachLineIsAsTallAsItsOwnRuns() throws {
    let face = try Self.inter()
    let big = TextSpan(font: face, size: 34)
    let small = TextSpan(font: face, size: 17)
    var text = StyledText()
    text.append("Title\n", big)
    text.append("body\nmore", small)
    let p = Paragraph(text)
    #expect(p.lines.map(\.text) == ["Title", "body", "more"])
    let heights = p.lines.map(\.layout.lineHeight)
    let em = face.ascender - face.descender
    #expect(abs(heights[0] - 34 * em / face.unitsPerEm) < 1e-9)
    #expect(abs(heights[1] - 17 * em / face.unitsPerEm) < 1e-9)
    #expect(heights[1] == heights[2])
    // Baselines step by each line's own height and the spacing after it.
    let baselines = p.baselines(lineSpacing: 4)
    #expect(abs(baselines[0] - p.lines[0].layout.ascender) < 1e-9)
    #expect(abs(baselines[1] - (heights[0] + 4 + p.lines[1].layout.ascender)) < 1e-9)
    #expect(abs(baselines[2] - (heights[0] + heights[1] + 8 + p.lines[2].layout.ascender)) < 1e-9)
    for i in p.lines.indices {
      #expect(p.baseline(ofLine: i, lineSpacing: 4) == baselines[i])
    }
    #expect(abs(p.height(lineSpacing: 4) - (heights.reduce(0, +) + 8)) < 1e-9)
    // How many lines fit a height: the first always, the others while their sum does.
    #expect(p.linesFitting(height: 0, lineSpacing: 4) == 1)
    #expect(p.linesFitting(height: heights[0] + 4 + heights[1], lineSpacing: 4) == 2)
    #expect(p.linesFitting(height: heights[0] + 4 + heights[1] - 0.01, lineSpacing: 4) == 1)
    #expect(p.linesFitting(height: p.height(lineSpacing: 4), lineSpacing: 4) == 3)
  }

  /// A line with characters from a fallback font is as tall as that font makes it: Noto Sans
  /// CJK's ascender and descender (1.16 and 0.288 em) exceed Inter's (0.969 and 0.241 em). The
  /// Latin lines around it keep Inter's height.
  @Test func aFallbackFontMakesItsLineTaller() throws {
    let face = try Self.inter()
    let span = TextSpan(font: face, fallbacks: FontFallbacks(), size: 20)
    let p = Paragraph(StyledText("Cats\n猫\nDogs", span))
    let heights = p.lines.map(\.layout.lineHeight)
    let inter = 20 * (face.ascender - face.descender) / face.unitsPerEm
    #expect(abs(heights[0] - inter) < 1e-9 && abs(heights[2] - inter) < 1e-9)
    let cjk = try #require(
      Shaper.runs(of: StyledText("猫", span), rightToLeft: false).first?.face)
    #expect(cjk !== face)
    let expected =
      20
      * (max(cjk.ascender / cjk.unitsPerEm, face.ascender / face.unitsPerEm)
        + max(-cjk.descender / cjk.unitsPerEm, -face.descender / face.unitsPerEm))
    #expect(abs(heights[1] - expected) < 1e-9)
    #expect(heights[1] > inter + 4)
  }

  /// A tab moves to the next of Apple's default tab stops (12 of them, 28 points apart, from
  /// the line's start); past the last, and in a right-to-left paragraph, it keeps its font's
  /// advance.
  @Test func tabsGoToTheNextTabStop() throws {
    let face = try Self.inter()
    func layout(_ s: String) -> TextLayout {
      TextLayout(StyledText(s, TextSpan(font: face, size: 17)))
    }
    let a = layout("a").width
    let b = layout("b").width
    #expect(abs(layout("a\tb").width - (28 + b)) < 1e-9)
    #expect(abs(layout("\t\tb").width - (56 + b)) < 1e-9)
    // A pen just at a stop goes on to the next one.
    #expect(abs(TabStops.advance(at: 28, natural: 5) - 28) < 1e-9)
    #expect(abs(TabStops.advance(at: 0, natural: 5) - 28) < 1e-9)
    #expect(abs(TabStops.advance(at: 335, natural: 5) - 1) < 1e-9)
    #expect(TabStops.advance(at: 336, natural: 5) == 5)
    // A mark after a tab rides on it: one stop, not two (found by a review).
    #expect(abs(layout("ab\t\u{301}c").width - layout("ab\tc").width) < 1e-6)
    // The glyph after the tab starts at the stop.
    let spans = layout("a\tb").glyphSpans
    #expect(abs(spans[2].minX - 28) < 1e-9 && abs(spans[1].minX - a) < 1e-9)
    // Past the last stop: the font's own advance.
    let long = String(repeating: "m", count: 40)
    let natural = try #require(
      Shaper.runs(of: StyledText("\t", TextSpan(font: face, size: 17))).first?.glyphs.first?
        .advance)
    #expect(natural > 0 && natural < 28)
    let tabbed = layout(long + "\tb").width - layout(long).width - b
    #expect(layout(long).width > 336)
    #expect(abs(tabbed - natural) < 1e-6)
    // Right to left: no stops.
    let hebrew = layout("א\tב").width
    #expect(abs(hebrew - layout("א").width - natural - layout("ב").width) < 1e-6)
  }

  /// Each paragraph (text between line feeds) takes its own direction from its first strong
  /// character, as UAX #9's rule P1 splits paragraphs before P2 and P3: a Latin paragraph after
  /// a Hebrew one reads left to right ("abc!", not "!abc"), and its tabs go to the stops (found
  /// by a walkthrough).
  @Test func eachParagraphHasItsOwnDirection() throws {
    let face = try Self.inter()
    let span = TextSpan(font: face, fallbacks: FontFallbacks(), size: 17)
    func width(_ s: String) -> Double { TextLayout(StyledText(s, span)).width }
    let mixed = Paragraph(StyledText("שלום\nabc!", span))
    #expect(mixed.lines.map(\.text) == ["שלום", "abc!"])
    // Visual order left to right: the "!" (byte 3 of its line) last.
    #expect(mixed.lines[1].layout.glyphSpans.map(\.cluster) == [0, 1, 2, 3])
    let tabbed = Paragraph(StyledText("שלום\nabc\tX", span))
    #expect(abs(tabbed.lines[1].layout.width - (56 + width("X"))) < 1e-9)
    // A right-to-left paragraph after a left-to-right one keeps its tab's own advance.
    let natural = try #require(
      Shaper.runs(of: StyledText("\t", span)).first?.glyphs.first?.advance)
    let back = Paragraph(StyledText("abc\n\tשלום", span))
    #expect(abs(back.lines[1].layout.width - (natural + width("שלום"))) < 1e-6)
    #expect(Bidi.paragraphs(in: Array("a\r\nb\u{2029}c\n".utf8)) == [0..<3, 3..<7, 7..<9])
    #expect(Bidi.paragraphs(in: []) == [0..<0])
  }

  /// Lines wrap by the widths tabs take at their stops: no line is wider than the width, and
  /// every line but the last would be wider with the next word.
  @Test func linesWithTabsWrapByTheirStops() throws {
    let face = try Self.inter()
    let span = TextSpan(font: face, size: 17)
    let text = "Name\tCat\tAge\t3 Food\ttuna\tand\tmilk every\tday\tat\tnoon"
    for width in stride(from: 60.0, through: 400, by: 7) {
      let p = Paragraph(StyledText(text, span), maxWidth: width)
      for line in p.lines where !p.breaksWords {
        #expect(line.layout.width <= width + 1e-9, "\(width): \(line.text)")
      }
    }
    let one = Paragraph(StyledText("Name\tCat\tAge", span))
    #expect(abs(one.width - TextLayout(StyledText("Name\tCat\tAge", span)).width) < 1e-9)
    #expect(one.width > 56)
  }
}
