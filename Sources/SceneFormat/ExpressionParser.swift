import Raster

/// Reads the text of an expression (after its `=`): numbers, `#RRGGBB[AA]` colours, names with
/// dots, `[a, b]` points, calls, `!` and unary `-`, `* /`, `+ -`, comparisons, `== !=`, `&&`,
/// `||` and `c ? a : b`, loosest last. Errors name the column within the expression.
struct ExpressionParser {
  static let maximumLength = SceneLimits.expressionBytes
  static let maximumDepth = SceneLimits.expressionNesting

  private let chars: [Character]
  private var index = 0
  private var depth = 0

  static func parse(_ text: String) throws(ExpressionError) -> Expression {
    guard text.utf8.count <= maximumLength else {
      throw ExpressionError(
        "the expression is \(text.utf8.count) bytes long; at most \(maximumLength) are accepted")
    }
    var parser = ExpressionParser(chars: Array(text))
    let e = try parser.conditional()
    parser.skipSpace()
    guard parser.index == parser.chars.count else { throw parser.error("expected an operator") }
    return e
  }

  private init(chars: [Character]) { self.chars = chars }

  private func error(_ message: String) -> ExpressionError {
    let found = index < chars.count ? VisibleText.quoted(String(chars[index])) : "the end"
    return ExpressionError("\(message) at column \(index + 1) of the expression, found \(found)")
  }

  private mutating func skipSpace() {
    while index < chars.count, chars[index].isWhitespace { index += 1 }
  }

  /// Consumes `token` if it comes next.
  private mutating func take(_ token: String) -> Bool {
    skipSpace()
    let t = Array(token)
    guard chars.count - index >= t.count, Array(chars[index..<(index + t.count)]) == t else {
      return false
    }
    // `<` must not eat the start of `<=`, nor `!` of `!=`, nor `=` anything.
    if t.count == 1, "<>!=".contains(t[0]), index + 1 < chars.count, chars[index + 1] == "=" {
      return false
    }
    index += t.count
    return true
  }

  private mutating func nested<T>(
    _ body: (inout ExpressionParser) throws(ExpressionError) -> T
  )
    throws(ExpressionError) -> T
  {
    depth += 1
    guard depth <= Self.maximumDepth else { throw error("nested too deeply") }
    defer { depth -= 1 }
    return try body(&self)
  }

  private mutating func conditional() throws(ExpressionError) -> Expression {
    try nested { (p: inout ExpressionParser) throws(ExpressionError) -> Expression in
      let c = try p.binary(level: 0)
      guard p.take("?") else { return c }
      let a = try p.conditional()
      guard p.take(":") else { throw p.error("expected ':'") }
      let b = try p.conditional()
      return .conditional(c, a, b)
    }
  }

  /// Binary operators by precedence, loosest first.
  private static let levels: [[Expression.BinaryOperator]] = [
    [.or], [.and], [.equal, .notEqual], [.lessOrEqual, .greaterOrEqual, .less, .greater],
    [.add, .subtract], [.multiply, .divide],
  ]

  private mutating func binary(level: Int) throws(ExpressionError) -> Expression {
    guard level < Self.levels.count else { return try unary() }
    var left = try binary(level: level + 1)
    while true {
      guard let op = Self.levels[level].first(where: { take($0.rawValue) }) else { return left }
      left = .binary(op, left, try binary(level: level + 1))
    }
  }

  private mutating func unary() throws(ExpressionError) -> Expression {
    if take("-") {
      return .negate(
        try nested { (p: inout ExpressionParser) throws(ExpressionError) in try p.unary() })
    }
    if take("!") {
      return .not(
        try nested { (p: inout ExpressionParser) throws(ExpressionError) in try p.unary() })
    }
    if take("+") { return try unary() }
    return try primary()
  }

  private mutating func primary() throws(ExpressionError) -> Expression {
    skipSpace()
    guard index < chars.count else { throw error("expected a value") }
    let c = chars[index]
    if take("(") {
      let e = try conditional()
      guard take(")") else { throw error("expected ')'") }
      return e
    }
    if take("[") {
      var items: [Expression] = []
      repeat { items.append(try conditional()) } while take(",")
      guard take("]") else { throw error("expected ',' or ']'") }
      guard (2...4).contains(items.count) else {
        throw ExpressionError("[ … ] holds 2 to 4 numbers, not \(items.count)")
      }
      return .vector(items)
    }
    if c == "#" {
      let start = index
      index += 1
      while index < chars.count, chars[index].isHexDigit { index += 1 }
      let text = String(chars[start..<index])
      do {
        let color = try Color(hex: text)
        return .constant([color.red, color.green, color.blue, color.alpha])
      } catch {
        index = start
        throw self.error("invalid colour \(text)")
      }
    }
    if c.isNumber || c == "." { return .constant([try number()]) }
    if c.isLetter || c == "_" {
      let start = index
      while index < chars.count,
        chars[index].isLetter || chars[index].isNumber || chars[index] == "_" || chars[index] == "."
      {
        index += 1
      }
      let name = String(chars[start..<index])
      // `true` is 1 and `false` 0, written as !0 and !1 so that they keep their type (a Bool,
      // `Expression.valueType`) where a ?: or a `set` is checked.
      if name == "true" { return .not(.constant([0])) }
      if name == "false" { return .not(.constant([1])) }
      if take("(") {
        guard let arity = Expression.functions[name] else {
          index = start
          throw error(
            "unknown function '\(name)' (known: "
              + Expression.functions.keys.sorted().joined(separator: ", ") + ")")
        }
        var args: [Expression] = []
        if !take(")") {
          repeat { args.append(try conditional()) } while take(",")
          guard take(")") else { throw error("expected ',' or ')'") }
        }
        guard arity.contains(args.count) else {
          let (low, high) = (arity.lowerBound, arity.upperBound)
          let takes = low == high ? "\(low)" : "\(low) to \(high)"
          throw ExpressionError("\(name)() takes \(takes) arguments, not \(args.count)")
        }
        return .call(name, args)
      }
      return .name(name)
    }
    throw error("expected a value")
  }

  private mutating func number() throws(ExpressionError) -> Double {
    let start = index
    while index < chars.count, chars[index].isNumber || chars[index] == "." { index += 1 }
    if index < chars.count, chars[index] == "e" || chars[index] == "E" {
      index += 1
      if index < chars.count, chars[index] == "+" || chars[index] == "-" { index += 1 }
      while index < chars.count, chars[index].isNumber { index += 1 }
    }
    guard let value = Double(String(chars[start..<index])), value.isFinite else {
      index = start
      throw error("invalid number")
    }
    return value
  }
}
