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

  public let lines: [Line]
  /// The widest line's advance width.
  public let width: Double
  public let ascender: Double
  public let descender: Double
  /// Whether `lineLimit` cut the text (the "…" is in its lines).
  public let isTruncated: Bool
  /// Whether a word wider than the width was broken between its characters.
  public let breaksWords: Bool

  /// One line's height: ascender + descender.
  public var lineHeight: Double { ascender + descender }

  /// The lines of `text` in `font` at `size` points with `tracking`, at most `maxWidth` wide
  /// (nil: only `\n` breaks) and at most `lineLimit` lines (nil: any number), text that does not
  /// fit cut at its `truncation` end.
  public init(
    _ text: String, font: FontFace, size: Double, tracking: Double = 0, maxWidth: Double? = nil,
    lineLimit: Int? = nil, truncation: Truncation = .tail
  ) {
    func shaped(_ s: String) -> TextLayout {
      TextLayout(s, font: font, size: size, tracking: tracking)
    }
    let bytes = Array(text.utf8)
    let breaks = LineBreaks.opportunities(in: text)
    // The advance before each byte, from one shaping of the whole text.
    let scale = size / font.unitsPerEm
    var before = [Double](repeating: 0, count: bytes.count + 1)
    var advance = [Double](repeating: 0, count: bytes.count + 1)
    for glyph in font.shape(text) where glyph.cluster < bytes.count {
      advance[glyph.cluster] +=
        TextLayout.advance(of: glyph, in: bytes, scale: scale, size: size) + tracking
    }
    for i in 0..<bytes.count { before[i + 1] = before[i] + advance[i] }
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    /// The end of [start, end) without its trailing spaces and line feeds.
    func trimmed(_ start: Int, _ end: Int) -> Int {
      var e = end
      while e > start, isSpace(bytes[e - 1]) { e -= 1 }
      return e
    }
    func measured(_ start: Int, _ end: Int) -> Double {
      let e = trimmed(start, end)
      return e > start ? before[e] - before[start] - tracking : 0
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

    func string(_ r: Range<Int>) -> String {
      String(decoding: bytes[r.lowerBound..<trimmed(r.lowerBound, r.upperBound)], as: UTF8.self)
    }
    var lines = ranges.map { r in Line(text: string(r), layout: shaped(string(r))) }
    var truncated = false
    if let lineLimit, lines.count > max(lineLimit, 1) {
      // The last line kept holds the rest of the text, cut to fit around "…".
      truncated = true
      let keep = max(lineLimit, 1)
      let restStart = ranges[keep - 1].lowerBound
      let rest = Array(
        String(decoding: bytes[restStart...], as: UTF8.self)
          .map { $0 == "\n" ? " " : $0 })
      /// The rest with `n` of its characters kept around the "…".
      func cut(_ n: Int) -> String {
        switch truncation {
        case .tail: return String(rest[0..<n]).trimmingTrailingSpaces() + "…"
        case .head: return "…" + String(rest[(rest.count - n)...]).trimmingLeadingSpaces()
        case .middle:
          let front = (n + 1) / 2
          return String(rest[0..<front]).trimmingTrailingSpaces() + "…"
            + String(rest[(rest.count - (n - front))...]).trimmingLeadingSpaces()
        }
      }
      // Without a width only lines are cut: the kept line, the text's last line, or both.
      let final = lines[lines.count - 1].text
      var last =
        switch truncation {
        case .tail: lines[keep - 1].text + "…"
        case .head: "…" + final
        case .middle: lines[keep - 1].text + "…" + final
        }
      if let maxWidth {
        var low = 0
        var high = rest.count
        while low < high {
          let mid = (low + high + 1) / 2
          if shaped(cut(mid)).width <= maxWidth { low = mid } else { high = mid - 1 }
        }
        last = cut(low)
      }
      lines = Array(lines[0..<(keep - 1)]) + [Line(text: last, layout: shaped(last))]
    }
    self.lines = lines
    isTruncated = truncated
    breaksWords = brokeWords
    width = lines.map(\.layout.width).max() ?? 0
    let metrics = shaped("")
    ascender = metrics.ascender
    descender = metrics.descender
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
