import Raster

/// A strict JSON parser (RFC 8259) over UTF-8 bytes that records every value's line and column
/// and rejects duplicate keys, trailing commas, comments, and nesting deeper than `maximumDepth`.
public struct JSONParser {
  /// Texts longer than this (bytes) are refused before parsing.
  public static let maximumLength = SceneLimits.jsonBytes
  public static let maximumDepth = SceneLimits.jsonNesting

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  /// The column at byte `columnIndex` of the current line, so columns are counted once.
  private var columnIndex = 0
  private var columnValue = 1

  /// Parses one JSON document.
  public static func parse(_ text: String) throws(SceneFileError) -> JSONValue {
    let bytes = Array(text.utf8)
    guard bytes.count <= maximumLength else {
      throw SceneFileError(
        path: "", "the scene is \(bytes.count) bytes; at most \(maximumLength) are accepted")
    }
    var parser = JSONParser(bytes: bytes)
    // A UTF-8 byte order mark, which some editors write, is skipped (RFC 8259 §8.1 allows it);
    // columns count from after it, as editors show them.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      parser.index = 3
      parser.lineStart = 3
      parser.columnIndex = 3
    }
    parser.skipSpace()
    let value = try parser.value()
    parser.skipSpace()
    guard parser.index == bytes.count else { throw parser.error("expected the end of the file") }
    return value
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  // MARK: - Positions and errors

  /// The current column in characters (UTF-8 continuation bytes do not count), counted on from
  /// the last position asked for, so a long line costs its length once, not once per value.
  private mutating func currentColumn() -> Int {
    if columnIndex < lineStart || columnIndex > index {
      (columnIndex, columnValue) = (lineStart, 1)
    }
    columnValue += bytes[columnIndex..<index].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    columnIndex = index
    return columnValue
  }

  /// The current column without updating the count (for errors).
  private var column: Int {
    let (from, start) =
      columnIndex >= lineStart && columnIndex <= index
      ? (columnIndex, columnValue) : (lineStart, 1)
    return bytes[from..<index].reduce(start) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
  }

  private func error(_ message: String) -> SceneFileError {
    let found: String
    if index >= bytes.count {
      found = "the end of the file"
    } else {
      var end = min(index + 12, bytes.count)
      while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
      found = VisibleText.quoted(String(decoding: bytes[index..<end], as: UTF8.self))
    }
    return SceneFileError(
      path: "", "invalid JSON: \(message), found \(found)", line: line, column: column)
  }

  private mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D: index += 1
      case 0x0A:
        index += 1
        line += 1
        lineStart = index
      default: return
      }
    }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(SceneFileError) {
    guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
    index += 1
  }

  // MARK: - Values

  private mutating func value() throws(SceneFileError) -> JSONValue {
    let (startLine, startColumn) = (line, currentColumn())
    func make(_ kind: JSONValue.Kind) -> JSONValue {
      JSONValue(kind: kind, line: startLine, column: startColumn)
    }
    guard index < bytes.count else { throw error("expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return make(.object(try object()))
    case UInt8(ascii: "["): return make(.array(try array()))
    case UInt8(ascii: "\""): return make(.string(try string()))
    case UInt8(ascii: "t"): try keyword("true"); return make(.bool(true))
    case UInt8(ascii: "f"): try keyword("false"); return make(.bool(false))
    case UInt8(ascii: "n"): try keyword("null"); return make(.null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return make(.number(try number()))
    default: throw error("expected a value")
    }
  }

  private mutating func keyword(_ word: String) throws(SceneFileError) {
    let utf8 = Array(word.utf8)
    guard bytes.count - index >= utf8.count, Array(bytes[index..<(index + utf8.count)]) == utf8
    else { throw error("expected a value") }
    index += utf8.count
  }

  private mutating func enter() throws(SceneFileError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw error("nested deeper than \(Self.maximumDepth) levels")
    }
  }

  private mutating func object() throws(SceneFileError) -> [JSONValue.Member] {
    try enter()
    index += 1
    var members: [JSONValue.Member] = []
    var seen: Set<String> = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return members
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a key in double quotes")
      }
      let (keyLine, keyColumn) = (line, currentColumn())
      let key = try string()
      guard seen.insert(key).inserted else {
        throw SceneFileError(
          path: "", "invalid JSON: the key \"\(key)\" appears twice in one object", line: keyLine,
          column: keyColumn)
      }
      skipSpace()
      try expect(UInt8(ascii: ":"), "':' after the key")
      skipSpace()
      members.append(JSONValue.Member(key: key, value: try value()))
      skipSpace()
      guard index < bytes.count else { throw error("expected ',' or '}'") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "}"), "',' or '}'")
      depth -= 1
      return members
    }
  }

  private mutating func array() throws(SceneFileError) -> [JSONValue] {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return elements
    }
    while true {
      skipSpace()
      elements.append(try value())
      skipSpace()
      guard index < bytes.count else { throw error("expected ',' or ']'") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "]"), "',' or ']'")
      depth -= 1
      return elements
    }
  }

  private mutating func number() throws(SceneFileError) -> Double {
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      return index - from
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let integer = digits()
    guard integer > 0 else { throw error("expected a digit") }
    guard !leadingZero || integer == 1 else {
      index = start
      throw error("a number may not start with 0 followed by digits")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("expected a digit after '.'") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { throw error("expected a digit in the exponent") }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      index = start
      throw error("the number is out of range")
    }
    return value
  }

  private mutating func string() throws(SceneFileError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush() {
      if runStart < index {
        scalars.append(
          contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars)
      }
    }
    while true {
      guard index < bytes.count else { throw error("expected '\"' to end the string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush()
        index += 1
        return String(scalars)
      }
      guard byte >= 0x20 else { throw error("control characters must be escaped in strings") }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      flush()
      index += 1
      guard index < bytes.count else { throw error("expected an escape") }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { throw error("expected the second half of a surrogate pair") }
          index += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw error("expected a low surrogate")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate") }
        scalars.append(scalar)
      default:
        index -= 2
        throw error("unknown escape")
      }
      runStart = index
    }
  }

  private mutating func hex4() throws(SceneFileError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw error("expected four hex digits") }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index] | 0x20
      let digit: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
      default: throw error("expected four hex digits")
      }
      code = code << 4 | UInt32(digit)
      index += 1
    }
    return code
  }
}
