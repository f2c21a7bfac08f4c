/// Text broken into lines the way SwiftUI's `Text` fills its width: greedily, at the line-break
/// opportunities of UAX #14 (`LineBreaks`), a word longer than the width broken between its
/// characters, `\n` always ending a line, no hyphenation; with `lineLimit`, the last line kept ends
/// in "…" when text was cut. Widths and heights in points.
public struct Paragraph: Hashable, Sendable {
  /// Where the "…" of cut text goes: SwiftUI's `Text.TruncationMode`.
  public enum Truncation: String, CaseIterable, Hashable, Sendable {
    /// The end of the text is cut: "The quick br…".
    case tail
    /// The start: "…the lazy dog".
    case head
    /// The middle: "The qui…zy dog".
    case middle
  }

  public struct Line: Hashable, Sendable {
    /// The line's characters, without the spaces or line feed it ended with.
    public let text: String
    /// The line shaped: its path's origin is the left end of its baseline.
    public let layout: TextLayout
  }

  /// At least one line.
  public let lines: [Line]
  /// The widest line's advance width.
  public let width: Double
  /// Whether `lineLimit` cut the text (the "…" is in its lines).
  public let isTruncated: Bool
  /// Whether a word wider than the width was broken between its characters.
  public let breaksWords: Bool

  /// The lines' height with `lineSpacing` points between each two, in points. Each line is as
  /// tall as its own fonts make it (its layout's `lineHeight`): a line of a bigger run, or of
  /// characters from a taller fallback font, is taller than the others, as CoreText's lines are.
  public func height(lineSpacing: Double) -> Double {
    lines.reduce(0) { $0 + $1.layout.lineHeight } + Double(lines.count - 1) * lineSpacing
  }

  /// Line `index`'s baseline, points below the top of the first line: the lines above it and
  /// the spacing after each, then its own ascender.
  public func baseline(ofLine index: Int, lineSpacing: Double) -> Double {
    var top = 0.0
    for line in lines[..<index] { top += line.layout.lineHeight + lineSpacing }
    return top + lines[index].layout.ascender
  }

  /// Every line's baseline, as `baseline(ofLine:lineSpacing:)` gives each.
  public func baselines(lineSpacing: Double) -> [Double] {
    var top = 0.0
    return lines.map { line in
      defer { top += line.layout.lineHeight + lineSpacing }
      return top + line.layout.ascender
    }
  }

  /// How many of the first lines fit in `height` points with `lineSpacing` between them (at
  /// least one).
  public func linesFitting(height: Double, lineSpacing: Double) -> Int {
    var used = lines[0].layout.lineHeight
    var count = 1
    // A hair of slack: a height measured from these lines and rounded up holds them again.
    while count < lines.count {
      let next = used + lineSpacing + lines[count].layout.lineHeight
      guard next <= height + 1e-7 else { break }
      used = next
      count += 1
    }
    return count
  }

  /// The lines of `text` in `font` at `size` points with `tracking`, at most `maxWidth` wide
  /// (nil: only `\n` breaks) and at most `lineLimit` lines (nil: any number), text that does not
  /// fit cut at its `truncation` end.
  public init(
    _ text: String, font: FontFace, size: Double, tracking: Double = 0, maxWidth: Double? = nil,
    lineLimit: Int? = nil, truncation: Truncation = .tail
  ) {
    self.init(
      StyledText(text, TextSpan(font: font, size: size, tracking: tracking)), maxWidth: maxWidth,
      lineLimit: lineLimit, truncation: truncation)
  }

  /// The lines of styled text, as `init(_:font:size:…)` breaks one style's. Each paragraph
  /// between line feeds (UAX #9's, `Bidi.paragraphs`) takes its own direction, its first strong
  /// character's, for each of its lines; a "…" takes the style of the character beside it.
  public init(
    _ text: StyledText, maxWidth: Double? = nil, lineLimit: Int? = nil,
    truncation: Truncation = .tail
  ) {
    let bytes = Array(text.string.utf8)
    // Each paragraph's direction, by its first strong character: UAX #9 splits the text into
    // paragraphs at its paragraph separators before rules P2 and P3 find their levels.
    let bidiParagraphs = Bidi.paragraphs(in: bytes)
    let directions = bidiParagraphs.map { range in
      Bidi.isRightToLeft(
        String(decoding: bytes[range], as: UTF8.self).unicodeScalars.map(\.value))
    }
    /// The direction of the paragraph byte `offset` lies in.
    func isRightToLeft(at offset: Int) -> Bool {
      var low = 0
      var high = bidiParagraphs.count - 1
      while low < high {
        let mid = (low + high + 1) / 2
        if bidiParagraphs[mid].lowerBound <= offset { low = mid } else { high = mid - 1 }
      }
      return directions[low]
    }
    func shaped(_ t: StyledText, at offset: Int) -> TextLayout {
      TextLayout(t, rightToLeft: isRightToLeft(at: offset))
    }
    let breaks = LineBreaks.opportunities(in: text.string)
    // The advance before each byte, from one shaping of each paragraph.
    var before = [Double](repeating: 0, count: bytes.count + 1)
    var advance = [Double](repeating: 0, count: bytes.count + 1)
    for (range, rightToLeft) in zip(bidiParagraphs, directions) where !range.isEmpty {
      let runs =
        bidiParagraphs.count == 1
        ? Shaper.runs(of: text, rightToLeft: rightToLeft)
        : Shaper.runs(of: text.slice(range), rightToLeft: rightToLeft)
      for run in runs {
        for glyph in run.glyphs where range.lowerBound + glyph.cluster < bytes.count {
          advance[range.lowerBound + glyph.cluster] += glyph.advance
        }
      }
    }
    for i in 0..<bytes.count { before[i + 1] = before[i] + advance[i] }
    /// How many bytes of trailing space or line separator end `bytes[..<e]`: a space, tab,
    /// line feed, vertical tab, form feed or carriage return (one byte), a next line (U+0085,
    /// two) or a line or paragraph separator (U+2028, U+2029, three); 0 for anything else.
    func spaceLength(endingAt e: Int, after start: Int) -> Int {
      let b = bytes[e - 1]
      if b == 0x20 || (0x09...0x0D).contains(b) { return 1 }
      if e - 2 >= start, bytes[e - 2] == 0xC2, b == 0x85 { return 2 }
      if e - 3 >= start, bytes[e - 3] == 0xE2, bytes[e - 2] == 0x80, b == 0xA8 || b == 0xA9 {
        return 3
      }
      return 0
    }
    /// The end of [start, end) without its trailing spaces and line separators.
    func trimmed(_ start: Int, _ end: Int) -> Int {
      var e = end
      while e > start {
        let n = spaceLength(endingAt: e, after: start)
        guard n > 0 else { break }
        e -= n
      }
      return e
    }
    // Tabs in a left-to-right paragraph go to tab stops counted from the line's start
    // (`TabStops`, as TextLayout places them), so a stretch holding one is measured by walking
    // it; the walk goes on from where the last one for the same start ended.
    let tabStops = bytes.contains(0x09)
    var tabsBefore = [Int](repeating: 0, count: tabStops ? bytes.count + 1 : 0)
    if tabStops {
      for i in 0..<bytes.count { tabsBefore[i + 1] = tabsBefore[i] + (bytes[i] == 0x09 ? 1 : 0) }
    }
    var walked = (start: -1, end: 0, pen: 0.0)
    func measured(_ start: Int, _ end: Int) -> Double {
      let e = trimmed(start, end)
      guard e > start else { return 0 }
      let tracking = text.spans[text.span(at: e - 1)].tracking
      guard tabStops, tabsBefore[e] > tabsBefore[start], !isRightToLeft(at: start) else {
        return before[e] - before[start] - tracking
      }
      if walked.start != start || walked.end > e { walked = (start, start, 0) }
      while walked.end < e {
        let i = walked.end
        walked.pen +=
          bytes[i] == 0x09 ? TabStops.advance(at: walked.pen, natural: advance[i]) : advance[i]
        walked.end += 1
      }
      return walked.pen - tracking
    }
    func isCharacterStart(_ i: Int) -> Bool { i >= bytes.count || bytes[i] & 0xC0 != 0x80 }

    var ranges: [Range<Int>] = []
    var brokeWords = false
    var start = 0
    var lastFit: Int? = nil
    var position = 0
    while position < bytes.count {
      let opportunity = breaks[position]
      position += 1
      guard opportunity != .none || position == bytes.count else { continue }
      let end = position
      if let maxWidth, measured(start, end) > maxWidth {
        if let fit = lastFit {
          ranges.append(start..<fit)
          start = fit
          lastFit = nil
          position = fit  // look at this stretch again from the new line's start
          continue
        }
        // A word wider than the line: break between characters, one at least.
        var cut = start + 1
        while !isCharacterStart(cut) { cut += 1 }
        var next = cut + 1
        while next < end {
          while next < end, !isCharacterStart(next) { next += 1 }
          guard measured(start, next) <= maxWidth else { break }
          cut = next
          next += 1
        }
        ranges.append(start..<cut)
        brokeWords = true
        start = cut
        position = cut
        continue
      }
      if opportunity == .mandatory || end == bytes.count {
        ranges.append(start..<end)
        start = end
        lastFit = nil
      } else {
        lastFit = end
      }
    }
    if ranges.isEmpty { ranges = [0..<0] }

    func piece(_ r: Range<Int>) -> StyledText {
      text.slice(r.lowerBound..<trimmed(r.lowerBound, r.upperBound))
    }
    var lines = ranges.map { r in
      let line = piece(r)
      return Line(text: line.string, layout: shaped(line, at: r.lowerBound))
    }
    var truncated = false
    if let lineLimit, lines.count > max(lineLimit, 1) {
      // The last line kept holds the rest of the text, cut to fit around "…".
      truncated = true
      let keep = max(lineLimit, 1)
      let restStart = ranges[keep - 1].lowerBound
      // Where the rest's first paragraph ends and its last begins (a line ended by `\n` or
      // another mandatory break): a tail cut keeps from the first, a head cut from the last, a
      // middle cut from both, so that "…" never stands where nothing was left out and text
      // from after a break is not drawn on the line before it.
      func endsParagraph(_ r: Range<Int>) -> Bool {
        r.upperBound < bytes.count && r.upperBound > r.lowerBound
          && breaks[r.upperBound - 1] == .mandatory
      }
      let hardBreaks = ranges.indices.filter { $0 >= keep - 1 && endsParagraph(ranges[$0]) }
      // The rest, without the line feed or spaces that may end the text.
      var frontSource = text.slice(restStart..<trimmed(restStart, bytes.count))
      var backSource = frontSource
      var backStart = restStart
      var shared = true
      if !hardBreaks.isEmpty {
        // The rest's paragraphs; the back source is the last with something in it (a text
        // ending in `\n` keeps its last words, not an empty line).
        let ends = hardBreaks.map { ranges[$0].upperBound }
        let starts = [restStart] + ends
        let paragraphs = zip(starts, ends + [bytes.count]).map { $0..<trimmed($0, $1) }
        let last = paragraphs.lastIndex { !$0.isEmpty } ?? 0
        frontSource = text.slice(paragraphs[0])
        backSource = last > 0 ? text.slice(paragraphs[last]) : frontSource
        backStart = paragraphs[last].lowerBound
        shared = last == 0
      }
      /// A source's characters: where each ends, and whether it is a space.
      func characters(_ source: StyledText) -> (ends: [Int], spaces: [Bool]) {
        var ends: [Int] = []
        var spaces: [Bool] = []
        var offset = 0
        for character in source.string {
          offset += character.utf8.count
          ends.append(offset)
          spaces.append(character == " " || character == "\t")
        }
        return (ends, spaces)
      }
      let front = characters(frontSource)
      let back = shared ? front : characters(backSource)
      func chars(_ source: StyledText, _ ends: [Int], _ a: Int, _ b: Int) -> StyledText {
        source.slice((a == 0 ? 0 : ends[a - 1])..<(b == 0 ? 0 : ends[b - 1]))
      }
      /// "…" in the style of byte `at` of `source`.
      func ellipsis(styleAt at: Int, of source: StyledText) -> StyledText {
        let style = source.spans.isEmpty ? text.spans[0] : source.spans[source.span(at: at)]
        return StyledText("…", style)
      }
      let (frontCount, backCount) = (front.ends.count, back.ends.count)
      // The most characters a cut can keep.
      let most: Int
      switch truncation {
      case .tail: most = frontCount
      case .head: most = backCount
      case .middle: most = shared ? frontCount : frontCount + backCount
      }
      /// The rest with `n` of its characters kept around the "…": the first ones of the front
      /// source, the last ones of the back source, or both.
      func cut(_ n: Int) -> StyledText {
        var kept = (front: 0, back: 0)
        switch truncation {
        case .tail: kept.front = n
        case .head: kept.back = n
        case .middle:
          kept.front = min((n + 1) / 2, frontCount)
          kept.back = min(n - kept.front, backCount)
          kept.front = min(n - kept.back, frontCount)
        }
        var frontEnd = kept.front
        while frontEnd > 0, front.spaces[frontEnd - 1] { frontEnd -= 1 }
        var backStart = backCount - kept.back
        while backStart < backCount, back.spaces[backStart] { backStart += 1 }
        let mark =
          frontEnd > 0
          ? ellipsis(styleAt: front.ends[frontEnd - 1] - 1, of: frontSource)
          : backStart < backCount
            ? ellipsis(styleAt: back.ends[backStart] - 1, of: backSource)
            : ellipsis(styleAt: 0, of: frontSource)
        let head = chars(frontSource, front.ends, 0, frontEnd)
        let tail = chars(backSource, back.ends, backStart, backCount)
        switch truncation {
        case .tail: return head.appending(mark)
        case .head: return mark.appending(tail)
        case .middle: return head.appending(mark).appending(tail)
        }
      }
      // Without a width only lines are cut: the kept line, the text's last line, or both.
      let kept = piece(ranges[keep - 1])
      let final = piece(ranges[ranges.count - 1])
      var last: StyledText
      switch truncation {
      case .tail:
        last = kept.appending(ellipsis(styleAt: max(0, kept.string.utf8.count - 1), of: kept))
      case .head: last = ellipsis(styleAt: 0, of: final).appending(final)
      case .middle:
        last = kept.appending(ellipsis(styleAt: max(0, kept.string.utf8.count - 1), of: kept))
          .appending(final)
      }
      // The cut line takes the direction of the paragraph it starts with.
      let lastStart = truncation == .head ? backStart : restStart
      if let maxWidth {
        var low = 0
        var high = most
        while low < high {
          let mid = (low + high + 1) / 2
          if shaped(cut(mid), at: lastStart).width <= maxWidth { low = mid } else { high = mid - 1 }
        }
        last = cut(low)
      }
      lines =
        Array(lines[0..<(keep - 1)])
        + [Line(text: last.string, layout: shaped(last, at: lastStart))]
    }
    self.lines = lines
    isTruncated = truncated
    breaksWords = brokeWords
    width = lines.map(\.layout.width).max() ?? 0
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var s = self
    while let last = s.last, last == " " || last == "\t" { s.removeLast() }
    return s
  }

  fileprivate func trimmingLeadingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" })
  }
}
