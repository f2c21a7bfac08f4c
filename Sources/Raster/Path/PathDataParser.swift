/// Parses SVG 2 path data (the `d` attribute) into a `Path` of absolute move/line/quad/cubic/close
/// elements: relative commands are resolved, H/V become lines, S/T reflections are made explicit
/// and arcs become cubics.
///
/// The input is untrusted: its length and element count are bounded, every number must be finite,
/// and the first error stops parsing (SVG would draw up to the error; we refuse the whole path, so
/// a pipeline never silently draws half of one).
public struct PathDataParser: Sendable {
  /// The longest path data accepted, in bytes.
  public static let maximumLength = 16 << 20
  /// The most path elements one path data string may produce.
  public static let maximumElements = 4_000_000

  private let text: [UInt8]
  private var index = 0
  private var builder = PathBuilder()
  /// The previous segment's second control point (cubic) or control point (quadratic), for S/T.
  private var lastCubicControl: Point?
  private var lastQuadControl: Point?

  private init(_ text: [UInt8]) { self.text = text }

  /// Parses `data`; throws the first problem with its position.
  public static func parse(_ data: some StringProtocol) throws(PathDataError) -> Path {
    try parse(utf8: Array(data.utf8))
  }

  /// Parses UTF-8 encoded path data; throws the first problem with its position.
  public static func parse(utf8 bytes: [UInt8]) throws(PathDataError) -> Path {
    guard bytes.count <= maximumLength else {
      throw PathDataError(.tooLong(limit: maximumLength), offset: maximumLength, in: [])
    }
    var parser = PathDataParser(bytes)
    try parser.parseAll()
    return parser.builder.build() ?? .empty
  }

  // MARK: - Commands

  private mutating func parseAll() throws(PathDataError) {
    skipWhitespace()
    var first = true
    while index < text.count {
      let letter = text[index]
      if first, letter | 0x20 != UInt8(ascii: "m") {
        throw error(.expectedMoveTo)
      }
      first = false
      guard let command = PathCommand(letter) else { throw error(.expectedCommand) }
      index += 1
      skipWhitespace()
      try parseArguments(of: command)
      guard builder.count <= Self.maximumElements else {
        throw error(.tooManyElements(limit: Self.maximumElements))
      }
    }
  }

  /// Parses one command's argument groups: the first is required, more repeat the command
  /// (after a moveto they are linetos).
  private mutating func parseArguments(of command: PathCommand) throws(PathDataError) {
    if command.kind == .close {
      close()
      return
    }
    var current = command
    while true {
      try parseGroup(of: current)
      if current.kind == .move { current = PathCommand(.line, relative: current.relative) }
      if skipCommaWhitespace() {
        guard isNumberStart else { throw error(.expectedNumber) }
      } else if !isNumberStart {
        return
      }
    }
  }

  private mutating func parseGroup(of command: PathCommand) throws(PathDataError) {
    let origin = command.relative ? builder.currentPoint : .zero
    switch command.kind {
    case .move:
      let p = try point(origin)
      builder.move(to: p)
      forgetControls()
    case .line:
      builder.line(to: try point(origin))
      forgetControls()
    case .horizontal:
      let x = try number() + origin.x
      builder.line(to: Point(x, builder.currentPoint.y))
      forgetControls()
    case .vertical:
      let y = try number() + origin.y
      builder.line(to: Point(builder.currentPoint.x, y))
      forgetControls()
    case .cubic:
      let c1 = try point(origin)
      try separator()
      try cubic(c1, origin)
    case .smoothCubic:
      let c1 = reflected(lastCubicControl)
      try cubic(c1, origin)
    case .quad:
      let c = try point(origin)
      try separator()
      try quad(c, origin)
    case .smoothQuad:
      try quad(reflected(lastQuadControl), origin)
    case .arc:
      try arc(origin)
    case .close:
      close()
    }
  }

  private mutating func cubic(_ c1: Point, _ origin: Point) throws(PathDataError) {
    let c2 = try point(origin)
    try separator()
    let p = try point(origin)
    builder.cubic(to: p, control1: c1, control2: c2)
    lastCubicControl = c2
    lastQuadControl = nil
  }

  private mutating func quad(_ c: Point, _ origin: Point) throws(PathDataError) {
    let p = try point(origin)
    builder.quad(to: p, control: c)
    lastQuadControl = c
    lastCubicControl = nil
  }

  private mutating func arc(_ origin: Point) throws(PathDataError) {
    let rx = try number()
    try separator()
    let ry = try number()
    try separator()
    let rotation = try number()
    try separator()
    let large = try flag()
    try separator()
    let sweep = try flag()
    try separator()
    let end = try point(origin)
    let arc = EllipticalArc(
      from: builder.currentPoint, to: end, radii: Point(rx, ry), rotationDegrees: rotation,
      largeArc: large, sweep: sweep)
    arc.append(to: &builder)
    forgetControls()
  }

  private mutating func close() {
    builder.close()
    forgetControls()
  }

  private func reflected(_ control: Point?) -> Point {
    let current = builder.currentPoint
    guard let control else { return current }
    return current + (current - control)
  }

  private mutating func forgetControls() {
    lastCubicControl = nil
    lastQuadControl = nil
  }

  // MARK: - Tokens

  private mutating func point(_ origin: Point) throws(PathDataError) -> Point {
    let x = try number()
    try separator()
    let y = try number()
    return Point(x + origin.x, y + origin.y)
  }

  /// Optional comma-whitespace between two arguments of one group.
  private mutating func separator() throws(PathDataError) {
    _ = skipCommaWhitespace()
  }

  private mutating func flag() throws(PathDataError) -> Bool {
    guard index < text.count else { throw error(.expectedFlag) }
    switch text[index] {
    case UInt8(ascii: "0"):
      index += 1
      return false
    case UInt8(ascii: "1"):
      index += 1
      return true
    default: throw error(.expectedFlag)
    }
  }

  /// Reads `sign? (digits ('.' digits?)? | '.' digits) ([eE] sign? digits)?`.
  private mutating func number() throws(PathDataError) -> Double {
    let start = index
    var i = index
    if i < text.count, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") { i += 1 }
    let integerStart = i
    i = digits(from: i)
    var sawDigits = i > integerStart
    if i < text.count, text[i] == UInt8(ascii: ".") {
      let fractionStart = i + 1
      let fractionEnd = digits(from: fractionStart)
      if fractionEnd > fractionStart || sawDigits {
        i = fractionEnd
        sawDigits = true
      }
    }
    guard sawDigits else { throw error(.expectedNumber) }
    if i < text.count, text[i] | 0x20 == UInt8(ascii: "e") {
      var e = i + 1
      if e < text.count, text[e] == UInt8(ascii: "+") || text[e] == UInt8(ascii: "-") { e += 1 }
      let exponentEnd = digits(from: e)
      if exponentEnd > e { i = exponentEnd }
    }
    index = i
    if let value = Self.exactValue(text, start, i) { return value }
    let literal = String(decoding: text[start..<i], as: UTF8.self)
    guard let value = Double(literal), value.isFinite else {
      index = start
      throw error(.numberOutOfRange)
    }
    return value
  }

  /// Powers of ten that a Double holds exactly (10^0 ... 10^22).
  private static let exactPowersOfTen: [Double] = (0...22).reduce(into: []) { powers, k in
    powers.append(k == 0 ? 1 : powers[k - 1] * 10)
  }

  /// The value of the number literal `text[start..<end]` (already checked by `number`) when it
  /// has at most 15 significant digits and a decimal exponent of at most 22 either way: then the
  /// digits and the power of ten are exact Doubles, and one correctly rounded multiplication or
  /// division gives the correctly rounded value, the one `Double(String)` gives. Nil otherwise.
  @inline(__always)
  private static func exactValue(_ text: [UInt8], _ start: Int, _ end: Int) -> Double? {
    var i = start
    let negative = text[i] == UInt8(ascii: "-")
    if negative || text[i] == UInt8(ascii: "+") { i += 1 }
    var digits: UInt64 = 0
    var count = 0
    var exponent = 0
    var inFraction = false
    while i < end {
      let c = text[i]
      if c == UInt8(ascii: ".") {
        inFraction = true
      } else if c &- UInt8(ascii: "0") < 10 {
        if digits != 0 || c != UInt8(ascii: "0") { count += 1 }
        guard count <= 15 else { return nil }
        digits = digits * 10 + UInt64(c &- UInt8(ascii: "0"))
        if inFraction { exponent -= 1 }
      } else {
        break  // the exponent
      }
      i += 1
    }
    if i < end {
      i += 1  // e or E
      var exponentNegative = false
      if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
        exponentNegative = text[i] == UInt8(ascii: "-")
        i += 1
      }
      guard end - i <= 4 else { return nil }
      var value = 0
      while i < end {
        value = value * 10 + Int(text[i] &- UInt8(ascii: "0"))
        i += 1
      }
      exponent += exponentNegative ? -value : value
    }
    guard exponent >= -22, exponent <= 22 else { return nil }
    let mantissa = Double(digits)  // < 10^15 < 2^53: exact
    let value =
      exponent < 0
      ? mantissa / exactPowersOfTen[-exponent] : mantissa * exactPowersOfTen[exponent]
    return negative ? -value : value
  }

  private func digits(from start: Int) -> Int {
    var i = start
    while i < text.count, text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
    return i
  }

  private var isNumberStart: Bool {
    guard index < text.count else { return false }
    let c = text[index]
    return c &- UInt8(ascii: "0") < 10 || c == UInt8(ascii: ".") || c == UInt8(ascii: "-")
      || c == UInt8(ascii: "+")
  }

  private mutating func skipWhitespace() {
    while index < text.count, Self.isWhitespace(text[index]) { index += 1 }
  }

  /// Skips whitespace with at most one comma in it; returns whether there was a comma.
  private mutating func skipCommaWhitespace() -> Bool {
    skipWhitespace()
    guard index < text.count, text[index] == UInt8(ascii: ",") else { return false }
    index += 1
    skipWhitespace()
    return true
  }

  private static func isWhitespace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D
  }

  private func error(_ problem: PathDataError.Problem) -> PathDataError {
    PathDataError(problem, offset: index, in: text)
  }
}

/// A path data command letter, split into what it draws and whether it is relative.
private struct PathCommand {
  enum Kind {
    case move, line, horizontal, vertical, cubic, smoothCubic, quad, smoothQuad, arc, close
  }
  let kind: Kind
  let relative: Bool

  init(_ kind: Kind, relative: Bool) {
    self.kind = kind
    self.relative = relative
  }

  init?(_ letter: UInt8) {
    let kind: Kind
    switch letter | 0x20 {
    case UInt8(ascii: "m"): kind = .move
    case UInt8(ascii: "l"): kind = .line
    case UInt8(ascii: "h"): kind = .horizontal
    case UInt8(ascii: "v"): kind = .vertical
    case UInt8(ascii: "c"): kind = .cubic
    case UInt8(ascii: "s"): kind = .smoothCubic
    case UInt8(ascii: "q"): kind = .quad
    case UInt8(ascii: "t"): kind = .smoothQuad
    case UInt8(ascii: "a"): kind = .arc
    case UInt8(ascii: "z"): kind = .close
    default: return nil
    }
    self.kind = kind
    self.relative = letter & 0x20 != 0
  }
}
