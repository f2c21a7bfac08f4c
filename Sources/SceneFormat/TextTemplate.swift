#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text computed from state: a Swift string literal with interpolations, written in a scene file
/// as `"=\"\\(count) likes\""` — `Text("\(count) likes")`. Each `\(…)` holds an expression of
/// state and, optionally, how its number is written: `format: .number`, `.percent`, either with
/// `.precision(.fractionLength(n))`, or `specifier: "%.1f"` (SwiftUI's `Text` interpolation).
struct TextTemplate: Hashable, Sendable {
  enum Part: Hashable, Sendable {
    case literal(String)
    case value(Expression, NumberFormat)
    /// `condition ? "A" : "B"`: one text or the other, as `Text(on ? "On" : "Off")`.
    indirect case choice(Expression, TextTemplate, TextTemplate)
  }

  /// How an interpolated number is written (en_US, as the SwiftUI previews' default locale).
  enum NumberFormat: Hashable, Sendable {
    /// `\(x)`: a whole number without decimals, else Swift's shortest description ("2.5").
    case plain
    /// `format: .number`: grouped thousands ("1,234.5"), at most `fraction` decimals (6 by
    /// default, trailing zeros dropped) or exactly `exact` decimals.
    case number(exact: Int?)
    /// `format: .percent`: the value × 100 with "%", grouped, as `.number`.
    case percent(exact: Int?)
    /// `specifier: "%d"`, `"%.2f"`, `"%f"`, `"%.1f%%"`: printf's, for one number.
    case specifier(String)
  }

  let parts: [Part]

  /// Every name the interpolations read.
  var names: Set<String> {
    parts.reduce(into: []) { names, part in
      switch part {
      case .literal: break
      case .value(let e, _): names.formUnion(e.names)
      case .choice(let c, let a, let b): names.formUnion(c.names.union(a.names).union(b.names))
      }
    }
  }

  /// The conditions of its choices of texts (`on ? "A" : "B"`), nested ones included.
  var conditions: [Expression] {
    parts.flatMap { part -> [Expression] in
      guard case .choice(let c, let a, let b) = part else { return [] }
      return [c] + a.conditions + b.conditions
    }
  }

  /// The text in `scope`; a `booleans` state interpolated alone, without a format, writes
  /// `true` or `false`.
  func evaluate(
    _ scope: ExpressionScope, booleans: Set<String> = []
  ) throws(ExpressionError) -> String {
    var out = ""
    for part in parts {
      switch part {
      case .literal(let s): out += s
      case .choice(let condition, let a, let b):
        let value = try condition.evaluate(scope)
        guard value.count == 1 else {
          throw ExpressionError(
            "a text's condition must be true or false, got \(value.count) components")
        }
        out += try (value[0] != 0 ? a : b).evaluate(scope, booleans: booleans)
      case .value(let e, let format):
        let value = try e.evaluate(scope)
        if case .name(let name) = e, case .plain = format, booleans.contains(name),
          value.count == 1
        {
          out += value[0] != 0 ? "true" : "false"
          continue
        }
        guard value.count == 1 else {
          throw ExpressionError(
            "an interpolated value must be one number, got \(value.count) components")
        }
        out += Self.format(value[0], format)
      }
    }
    return out
  }

  /// Parses `"…"` (the text after the `=`): a Swift string literal with `\"`, `\\`, `\n`, `\t`,
  /// `\u{…}` escapes and `\(expression[, format: …|, specifier: "…"])` interpolations.
  static func parse(_ written: String) throws(ExpressionError) -> TextTemplate {
    var trimmed = Substring(written)
    while trimmed.first == " " { trimmed.removeFirst() }
    while trimmed.last == " " { trimmed.removeLast() }
    let source = String(trimmed)
    if let inner = enclosed(source) { return try parse(inner) }
    if !source.hasPrefix("\""), let choice = try choice(source) { return choice }
    let chars = Array(source)
    guard chars.count >= 2, chars.first == "\"", chars.last == "\"" else {
      throw ExpressionError(
        "a text from state is a string literal after the =, as =\"\\(count) likes\", or a "
          + "choice of two, as =on ? \"On\" : \"Off\"")
    }
    var parts: [Part] = []
    var literal = ""
    var i = 1
    let end = chars.count - 1
    while i < end {
      let c = chars[i]
      if c == "\"" {
        throw ExpressionError(
          "an unescaped \" at column \(i + 2) of the text: a text is one string literal (write "
            + "\\\" for a quote inside it; texts are not joined with +)")
      }
      guard c == "\\" else {
        literal.append(c)
        i += 1
        continue
      }
      guard i + 1 < end else { throw ExpressionError("a lone \\ at the end of the text") }
      let next = chars[i + 1]
      switch next {
      case "\"", "\\": literal.append(next)
      case "n": literal.append("\n")
      case "t": literal.append("\t")
      case "u":
        guard i + 2 < end, chars[i + 2] == "{", let close = chars[(i + 3)...].firstIndex(of: "}"),
          close < end, let value = UInt32(String(chars[(i + 3)..<close]), radix: 16),
          let scalar = Unicode.Scalar(value)
        else { throw ExpressionError("a bad \\u{…} escape at column \(i + 2) of the text") }
        literal.unicodeScalars.append(scalar)
        i = close + 1
        continue
      case "(":
        // The interpolation runs to its matching parenthesis, outside string literals.
        guard let close = closingParenthesis(chars, at: i + 1, before: end) else {
          throw ExpressionError("an interpolation \\( at column \(i + 2) is not closed")
        }
        let j = close + 1
        if !literal.isEmpty { parts.append(.literal(literal)) }
        literal = ""
        let inside = String(chars[(i + 2)..<(j - 1)])
        // `\(on ? "yes" : "no")`: a choice of texts inside the literal, as Swift takes it.
        if inside.contains("\""), let choice = try choice(inside) {
          parts += choice.parts
        } else {
          parts.append(try interpolation(inside))
        }
        i = j
        continue
      default:
        throw ExpressionError("an unknown escape \\\(next) at column \(i + 2) of the text")
      }
      i += 2
    }
    if !literal.isEmpty || parts.isEmpty { parts.append(.literal(literal)) }
    return TextTemplate(parts: parts)
  }

  /// What lies inside parentheses that enclose all of `source` (`(on ? "A" : "B")`), or nil.
  private static func enclosed(_ source: String) -> String? {
    let chars = Array(source)
    guard chars.first == "(",
      closingParenthesis(chars, at: 0, before: chars.count) == chars.count - 1
    else { return nil }
    return String(chars[1..<(chars.count - 1)])
  }

  /// The index of the `)` that closes the `(` at `open`, outside string literals, before index
  /// `end`; nil when none does.
  private static func closingParenthesis(
    _ chars: [Character], at open: Int, before end: Int
  )
    -> Int?
  {
    let body = Array(chars[(open + 1)..<end])
    var depth = 1
    for (k, outside) in outsideStrings(body).enumerated() where outside {
      if body[k] == "(" { depth += 1 }
      if body[k] == ")" {
        depth -= 1
        if depth == 0 { return open + 1 + k }
      }
    }
    return nil
  }

  /// For each character, whether it lies outside the string literals (`"…"`, with `\"` and
  /// `\\` escapes inside) — a literal's quotes count as inside.
  private static func outsideStrings(_ chars: [Character]) -> [Bool] {
    var (inString, escaped) = (false, false)
    return chars.map { c in
      if inString {
        if escaped {
          escaped = false
        } else if c == "\\" {
          escaped = true
        } else if c == "\"" {
          inString = false
        }
        return false
      }
      if c == "\"" { inString = true }
      return !inString
    }
  }

  /// `condition ? A : B`, each of A and B a string literal or another choice (the `:` that
  /// matches the first `?` outside string literals and parentheses); nil when there is no `?`.
  private static func choice(_ source: String) throws(ExpressionError) -> TextTemplate? {
    let chars = Array(source)
    var (depth, pending) = (0, 0)
    var question: Int?
    for (i, outside) in outsideStrings(chars).enumerated() where outside {
      let c = chars[i]
      switch c {
      case "(": depth += 1
      case ")": depth -= 1
      case "?" where depth == 0:
        if question == nil { question = i }
        pending += 1
      case ":" where depth == 0 && question != nil:
        pending -= 1
        guard pending == 0, let q = question else { continue }
        let condition = try ExpressionParser.parse(String(chars[..<q]))
        return TextTemplate(parts: [
          .choice(
            condition, try parse(String(chars[(q + 1)..<i])), try parse(String(chars[(i + 1)...]))
          )
        ])
      default: break
      }
    }
    guard question == nil else {
      throw ExpressionError("a choice of texts needs its \":\", as =on ? \"On\" : \"Off\"")
    }
    return nil
  }

  /// `expression`, `expression, format: …` or `expression, specifier: "…"`.
  private static func interpolation(_ text: String) throws(ExpressionError) -> Part {
    var expression = text
    var format = NumberFormat.plain
    if let comma = Self.topLevelComma(in: text) {
      expression = String(text[..<comma])
      let option = text[text.index(after: comma)...].trimmingCharacters(in: " ")
      if option.hasPrefix("format:") {
        format = try numberFormat(option.dropFirst(7).trimmingCharacters(in: " "))
      } else if option.hasPrefix("specifier:") {
        let spec = option.dropFirst(10).trimmingCharacters(in: " ")
        guard spec.count >= 2, spec.first == "\"", spec.last == "\"" else {
          throw ExpressionError("specifier: takes a string such as \"%.1f\"")
        }
        let inner = String(spec.dropFirst().dropLast())
        guard isSpecifier(inner) else {
          throw ExpressionError(
            "specifier \"\(inner)\" is not one of %d, %i, %f, %.Nf, %e, %.Ne, %g (N from 0 to 15; with text and %% around it)"
          )
        }
        format = .specifier(inner)
      } else {
        throw ExpressionError(
          "after the value an interpolation takes format: or specifier:, found \"\(option)\"")
      }
    }
    return .value(try ExpressionParser.parse(expression), format)
  }

  private static func numberFormat(_ text: String) throws(ExpressionError) -> NumberFormat {
    var rest = Substring(text)
    let percent: Bool
    if rest.hasPrefix(".number") {
      percent = false
      rest = rest.dropFirst(7)
    } else if rest.hasPrefix(".percent") {
      percent = true
      rest = rest.dropFirst(8)
    } else {
      throw ExpressionError("format: takes .number or .percent, found \"\(text)\"")
    }
    var exact: Int?
    if !rest.isEmpty {
      let prefix = ".precision(.fractionLength("
      guard rest.hasPrefix(prefix), rest.hasSuffix("))"),
        let n = Int(rest.dropFirst(prefix.count).dropLast(2)), (0...15).contains(n)
      else {
        throw ExpressionError(
          "a format may add .precision(.fractionLength(n)) with n from 0 to 15, found \"\(text)\"")
      }
      exact = n
    }
    return percent ? .percent(exact: exact) : .number(exact: exact)
  }

  /// The first comma outside parentheses, brackets and string literals.
  private static func topLevelComma(in text: String) -> String.Index? {
    var depth = 0
    var inString = false
    for i in text.indices {
      let c = text[i]
      if c == "\"" {
        inString.toggle()
      } else if !inString {
        if c == "(" || c == "[" { depth += 1 }
        if c == ")" || c == "]" { depth -= 1 }
        if c == ",", depth == 0 { return i }
      }
    }
    return nil
  }

  /// Whether a printf format holds exactly one conversion of those allowed.
  static func isSpecifier(_ s: String) -> Bool {
    var conversions = 0
    var chars = Array(s)[...]
    while let c = chars.popFirst() {
      guard c == "%" else { continue }
      if chars.first == "%" {
        chars.removeFirst()
        continue
      }
      var precision = ""
      if chars.first == "." {
        chars.removeFirst()
        while let d = chars.first, d.isNumber {
          precision.append(d)
          chars.removeFirst()
        }
        guard !precision.isEmpty, Int(precision).map({ $0 <= 15 }) == true else { return false }
      }
      guard let conversion = chars.popFirst(), "dfieg".contains(conversion) else { return false }
      if "di".contains(conversion), !precision.isEmpty { return false }
      conversions += 1
    }
    return conversions == 1
  }

  /// `value` written as `format` asks.
  static func format(_ value: Double, _ format: NumberFormat) -> String {
    switch format {
    case .plain:
      if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    case .number(let exact): return grouped(value, exact: exact)
    case .percent(let exact): return grouped(value * 100, exact: exact) + "%"
    case .specifier(let spec):
      let isInteger = spec.contains { "di".contains($0) } && !spec.contains { "feg".contains($0) }
      // An integer conversion of a value no Int holds: printf's words for it, or the nearest
      // Int (converting it would trap).
      if isInteger, !value.isFinite {
        return specifierText(spec, value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
      }
      let value =
        isInteger ? min(max(value, -9.2e18), 9.2e18) : value
      var buffer = [CChar](repeating: 0, count: 512)
      let count: Int32 =
        isInteger
        ? withVaList([Int(value.rounded(.towardZero))]) {
          vsnprintf(&buffer, buffer.count, Self.long(spec), $0)
        }
        : withVaList([value]) { vsnprintf(&buffer, buffer.count, spec, $0) }
      guard count >= 0 else { return "" }
      return String(
        decoding: buffer.prefix(Int(min(count, 511))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// The specifier with its conversion replaced by `text` (and `%%` by `%`).
  static func specifierText(_ spec: String, _ text: String) -> String {
    var out = ""
    var chars = Array(spec)[...]
    while let c = chars.popFirst() {
      guard c == "%" else {
        out.append(c)
        continue
      }
      if chars.first == "%" {
        chars.removeFirst()
        out.append("%")
        continue
      }
      while let d = chars.first, d == "." || d.isNumber { chars.removeFirst() }
      _ = chars.popFirst()
      out += text
    }
    return out
  }

  /// The specifier with its integer conversion widened to `long` (%d → %ld), for an `Int`.
  static func long(_ spec: String) -> String {
    var out = ""
    var chars = Array(spec)[...]
    while let c = chars.popFirst() {
      out.append(c)
      guard c == "%" else { continue }
      if chars.first == "%" {
        out.append(chars.removeFirst())
      } else if let next = chars.first, next == "d" || next == "i" {
        out.append("l")
      }
    }
    return out
  }

  /// Grouped thousands with at most 6 decimals (trailing zeros dropped) or exactly `exact`,
  /// rounded half to even as Foundation's number format styles round.
  static func grouped(_ value: Double, exact: Int?) -> String {
    // Foundation's words for the values that are not numbers.
    guard value.isFinite else { return value.isNaN ? "NaN" : value < 0 ? "-∞" : "∞" }
    let digits = exact ?? 6
    let scale = pow(10, Double(digits))
    let rounded = (abs(value) * scale).rounded(.toNearestOrEven) / scale
    var text = String(format: digits, rounded)
    if exact == nil, text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    var whole = String(parts[0])
    var groups: [String] = []
    while whole.count > 3 {
      groups.insert(String(whole.suffix(3)), at: 0)
      whole.removeLast(3)
    }
    groups.insert(whole, at: 0)
    var out = groups.joined(separator: ",")
    if parts.count > 1 { out += "." + parts[1] }
    let negative = value < 0 && rounded != 0
    return (negative ? "-" : "") + out
  }
}

extension String {
  /// A non-negative number with `digits` decimals, as `%.*f` writes it.
  fileprivate init(format digits: Int, _ value: Double) {
    var buffer = [CChar](repeating: 0, count: 400)
    let count = withVaList([Int32(digits), value]) { vsnprintf(&buffer, 400, "%.*f", $0) }
    let length = Int(Swift.max(0, Swift.min(count, 399)))
    self = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(self).trimmingCharacters(in: set)
  }
}
