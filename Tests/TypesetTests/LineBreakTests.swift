import Foundation
import Testing

@testable import Typeset

/// Line breaking: libunibreak's UAX #14 opportunities against Unicode's own test data, its
/// robustness over every scalar value, and the paragraph filler's rules.
@Suite struct LineBreakTests {
  /// `LineBreakTest.txt` of Debian's unicode-data (Unicode 15, installed by scripts/setup.sh):
  /// each case's breaks against libunibreak's. Debian 12's libunibreak 1.1 follows Unicode 6's
  /// rules, so the newer rules (emoji modifiers and ZWJ sequences, LB25's number rules) differ:
  /// measured 2026-12-01, 6997 of 7654 cases agree (91.4 %), 661 of 686 of the ASCII-only ones
  /// (96.4 %). Spaces, hyphens and punctuation — what wraps prose — agree in every ASCII case
  /// but the LB25 number rules.
  @Test func agreesWithUnicodesTestData() throws {
    let file = "/usr/share/unicode/auxiliary/LineBreakTest.txt"
    let text = try String(contentsOfFile: file, encoding: .utf8)
    var (total, agreeing, ascii, asciiAgreeing) = (0, 0, 0, 0)
    for line in text.split(separator: "\n") {
      let data = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
      guard !data.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
      var scalars: [Unicode.Scalar] = []
      var expected: [Bool] = []  // after each scalar but the last: may a line break?
      for token in data.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
        if token == "÷" || token == "×" {
          if !scalars.isEmpty { expected.append(token == "÷") }
        } else if let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) {
          scalars.append(scalar)
        }
      }
      guard scalars.count > 1 else { continue }
      expected.removeLast()  // the break at the end
      var string = ""
      string.unicodeScalars.append(contentsOf: scalars)
      let breaks = LineBreaks.opportunities(in: string)
      var ends: [Int] = []
      var offset = 0
      for scalar in scalars {
        offset += String(scalar).utf8.count
        ends.append(offset - 1)
      }
      let actual = ends.dropLast().map { breaks[$0] != .none }
      total += 1
      let agrees = actual == expected
      if agrees { agreeing += 1 }
      if scalars.allSatisfy({ $0.value < 0x80 }) {
        ascii += 1
        if agrees { asciiAgreeing += 1 }
      }
    }
    #expect(total > 7000, "the test file has \(total) cases")
    #expect(Double(agreeing) / Double(total) >= 0.91, "\(agreeing) of \(total)")
    #expect(Double(asciiAgreeing) / Double(ascii) >= 0.96, "\(asciiAgreeing) of \(ascii)")
  }

  /// libunibreak 1.1 aborts on characters it has no class for (regional indicators, U+FFFF);
  /// `LineBreaks` replaces them first. Every scalar value between two letters and after a
  /// space: the process would end here if one were missed.
  @Test func everyScalarValueIsSafe() {
    var mandatory = 0
    for value in UInt32(1)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "A" + String(scalar) + " " + String(scalar) + "A"
      let breaks = LineBreaks.opportunities(in: text)
      if breaks.last == .mandatory { mandatory += 1 }
    }
    #expect(mandatory > 1_000_000)
  }

  static func face() -> FontFace? {
    guard let file = FontLocator.locate(family: "Inter", weight: .regular) else { return nil }
    return try? FontFace(file)
  }

  /// The greedy fill: as many words as fit on each line, never a line wider than the width
  /// unless one word is (then broken between characters), `\n` always ending a line, and the
  /// text read back whole from its lines.
  @Test func linesFillGreedilyAndNeverOverflow() throws {
    let face = try #require(Self.face())
    let words = ["a", "wrap", "SwiftUI", "text", "greedy", "of", "lines", "extraordinarily"]
    var seed: UInt64 = 7
    func next(_ n: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(n))
    }
    for _ in 0..<300 {
      let text = (0..<(1 + next(14))).map { _ in words[next(words.count)] }.joined(separator: " ")
      let width = Double(20 + next(200))
      let p = Paragraph(text, font: face, size: 17, maxWidth: width)
      for (i, line) in p.lines.enumerated() {
        let oneWord = !line.text.contains(" ")
        #expect(line.layout.width <= width + 1e-6 || oneWord, "\(line.text) in \(width)")
        // Greedy: the next line's first word would not have fitted on this one.
        if i + 1 < p.lines.count, !line.text.isEmpty,
          let nextWord = p.lines[i + 1].text.split(separator: " ").first, line.layout.width <= width
        {
          let joined = Paragraph(line.text + " " + nextWord, font: face, size: 17)
          let brokeInsideAWord = !words.contains(String(nextWord))
          #expect(joined.width > width || brokeInsideAWord, "\(line.text) | \(nextWord)")
        }
      }
      #expect(
        p.lines.map(\.text).joined(separator: " ").replacingOccurrences(of: " ", with: "")
          == text.replacingOccurrences(of: " ", with: ""))
    }
  }

  @Test func lineFeedsLimitsAndEllipses() throws {
    let face = try #require(Self.face())
    let explicit = Paragraph("one\ntwo\n\nfour", font: face, size: 17)
    #expect(explicit.lines.map(\.text) == ["one", "two", "", "four"])
    let limited = Paragraph(
      "the quick brown fox jumps over the lazy dog", font: face, size: 17, maxWidth: 90,
      lineLimit: 2)
    #expect(limited.lines.count == 2)
    #expect(limited.lines[1].text.hasSuffix("…"))
    #expect(limited.lines.allSatisfy { $0.layout.width <= 90 })
    let oneLine = Paragraph("one\ntwo", font: face, size: 17, lineLimit: 1)
    #expect(oneLine.lines.map(\.text) == ["one…"])
    // Head and middle truncation keep the end, or both ends, around the "…".
    let text = "the quick brown fox jumps over the lazy dog"
    let head = Paragraph(text, font: face, size: 17, maxWidth: 120, lineLimit: 1, truncation: .head)
    #expect(head.lines.count == 1 && head.isTruncated)
    #expect(head.lines[0].text.hasPrefix("…") && head.lines[0].text.hasSuffix("lazy dog"))
    #expect(head.lines[0].layout.width <= 120)
    let middle = Paragraph(
      text, font: face, size: 17, maxWidth: 120, lineLimit: 1, truncation: .middle)
    let parts = middle.lines[0].text.components(separatedBy: "…")
    #expect(parts.count == 2 && text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]))
    #expect(abs(parts[0].count - parts[1].count) <= 2)
    #expect(middle.lines[0].layout.width <= 120)
    #expect(!Paragraph("short", font: face, size: 17, maxWidth: 120, lineLimit: 1).isTruncated)
    // A word wider than the line is broken between its characters.
    let long = Paragraph("extraordinarily", font: face, size: 17, maxWidth: 40)
    #expect(long.lines.count > 2)
    #expect(long.lines.map(\.text).joined() == "extraordinarily")
  }
}
