import Testing

@testable import SceneFormat

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValueWithPositions() throws {
    let value = try JSONParser.parse(
      """
      {"a": [1, -2.5e3, 0, true, false, null],
        "s": "q\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00x", "é": {}}
      """)
    guard case .object(let members) = value.kind else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["a", "s", "é"])
    guard case .array(let items) = members[0].value.kind else {
      Issue.record("not an array")
      return
    }
    #expect(
      items.map(\.kind) == [
        .number(1), .number(-2500), .number(0), .bool(true), .bool(false), .null,
      ])
    #expect(members[1].value.kind == .string("q\"\\/\u{08}\u{0C}\n\r\té😀x"))
    // Line 2, column 8: positions count characters, not bytes.
    #expect(members[1].value.line == 2 && members[1].value.column == 8)
    #expect(members[2].value.line == 2 && members[2].value.column == 53)
  }

  @Test(arguments: [
    ("", "expected a value", 1, 1),
    ("{\"a\": 1,}", "expected a key in double quotes", 1, 9),
    ("[1, 2,]", "expected a value", 1, 7),
    ("{\"a\": 1, \"a\": 2}", "the key \"a\" appears twice", 1, 10),
    ("{\"a\" 1}", "expected ':' after the key", 1, 6),
    ("[01]", "may not start with 0", 1, 2),
    ("[1.]", "expected a digit after '.'", 1, 4),
    ("[1e]", "expected a digit in the exponent", 1, 4),
    ("[1e999]", "out of range", 1, 2),
    ("\"abc", "expected '\"' to end the string", 1, 5),
    ("\"a\\qb\"", "unknown escape", 1, 3),
    ("\"a\u{01}\"", "control characters", 1, 3),
    ("\"\\ud800x\"", "second half of a surrogate pair", 1, 8),
    ("{}\n  x", "expected the end of the file", 2, 3),
    ("[true, fals]", "expected a value", 1, 8),
    ("// comment\n{}", "expected a value", 1, 1),
  ])
  func rejectsInvalidJSONWithThePosition(text: String, problem: String, line: Int, column: Int) {
    #expect {
      _ = try JSONParser.parse(text)
    } throws: { error in
      guard let error = error as? SceneFileError else { return false }
      return error.message.contains(problem) && error.line == line && error.column == column
    }
  }

  /// A UTF-8 byte order mark at the start (Windows editors write one) is skipped, and columns
  /// count from after it; anywhere else it is an error.
  @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
    #expect(try JSONParser.parse("\u{FEFF}{\"a\": 1}").kind != .null)
    #expect {
      _ = try JSONParser.parse("\u{FEFF}{\"a\": x}")
    } throws: { error in
      guard let error = error as? SceneFileError else { return false }
      return error.line == 1 && error.column == 7
    }
    #expect(throws: SceneFileError.self) { try JSONParser.parse("[1, \u{FEFF}2]") }
  }

  @Test func boundsNestingAndSize() {
    let limit = JSONParser.maximumDepth
    let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
    #expect(throws: SceneFileError.self) { _ = try JSONParser.parse(deep) }
    let fine = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    #expect(throws: Never.self) { _ = try JSONParser.parse(fine) }
    let huge = "\"" + String(repeating: "a", count: JSONParser.maximumLength) + "\""
    #expect(throws: SceneFileError.self) { _ = try JSONParser.parse(huge) }
  }

  /// Columns are counted on as the parser goes, so a minified file on one line costs its length
  /// once (counting from the line's start for every value took minutes for 650 KB).
  @Test func longSingleLinesKeepExactColumns() throws {
    let items = (0..<100_000).map { "\($0 % 10)" }
    let text = "[\"é\", " + items.joined(separator: ",") + "]"
    let value = try JSONParser.parse(text)
    guard case .array(let elements) = value.kind, let last = elements.last else {
      Issue.record("not an array")
      return
    }
    #expect(elements.count == 100_001)
    // "[", "\"é\"" (3 characters), ", ", then 100,000 digits with commas between them.
    #expect(last.line == 1 && last.column == 1 + 3 + 2 + 2 * 99_999 + 1)
  }
}
