/// Why SVG path data was refused, and where: a byte offset into the UTF-8 text plus its 1-based
/// line and column (columns count characters, not bytes).
public struct PathDataError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Problem: Hashable, Sendable {
    /// The data does not start with a moveto (`M` or `m`).
    case expectedMoveTo
    /// A command letter was expected (`M m L l H h V v C c S s Q q T t A a Z z`).
    case expectedCommand
    /// A number was expected.
    case expectedNumber
    /// An arc flag (`0` or `1`) was expected.
    case expectedFlag
    /// The number is too large to represent as a finite Double.
    case numberOutOfRange
    /// The text is longer than `PathDataParser.maximumLength` bytes.
    case tooLong(limit: Int)
    /// The path has more than `PathDataParser.maximumElements` elements.
    case tooManyElements(limit: Int)
  }

  public let problem: Problem
  /// Byte offset into the UTF-8 text, from 0.
  public let offset: Int
  /// Line number, from 1.
  public let line: Int
  /// Column in characters, from 1.
  public let column: Int
  /// What stood at the offset, for the message: a quoted character or "end of data".
  public let found: String

  public init(_ problem: Problem, offset: Int, in text: [UInt8]) {
    self.problem = problem
    self.offset = offset
    var line = 1
    var column = 1
    for byte in text[..<min(offset, text.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    self.line = line
    self.column = column
    self.found = Self.describe(text, at: offset)
  }

  public var description: String {
    guard let what = expectation else { return location }
    return "\(what) \(location), found \(found)"
  }

  /// The message without what stood at the offset, for data from a file the user may not be
  /// shown (a scene's `pathFile` outside the scene itself).
  public var descriptionWithoutInput: String {
    guard let what = expectation else { return location }
    return "\(what) \(location)"
  }

  /// `at 1:14 (byte offset 13)`, or the whole message for problems with no position.
  private var location: String {
    switch problem {
    case .tooLong(let limit): return "path data longer than \(limit) bytes"
    case .tooManyElements(let limit):
      return "path data has more than \(limit) segments (at \(line):\(column))"
    default: return "at \(line):\(column) (byte offset \(offset))"
    }
  }

  /// What was expected, for problems found at a position.
  private var expectation: String? {
    let what: String
    switch problem {
    case .expectedMoveTo: what = "expected a moveto command (M or m)"
    case .expectedCommand: what = "expected a path command (one of MLHVCSQTAZ, either case)"
    case .expectedNumber: what = "expected a number"
    case .expectedFlag: what = "expected an arc flag (0 or 1)"
    case .numberOutOfRange: what = "number out of range"
    case .tooLong, .tooManyElements: return nil
    }
    return what
  }

  private static func describe(_ text: [UInt8], at offset: Int) -> String {
    guard offset < text.count else { return "end of data" }
    var end = offset + 1
    while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
    return VisibleText.quoted(String(decoding: text[offset..<end], as: UTF8.self))
  }
}
