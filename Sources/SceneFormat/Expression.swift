#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value computed from state, written in a scene file as a string starting with `=`
/// (`"=expanded ? -400 : -40"`, `"=min(tap.y - safeArea.top, safeArea.height)"`).
///
/// Values are vectors of numbers: a number has one component, a point (`position`, `tap`) two,
/// a colour (`#34C759`, straight red, green, blue, alpha in 0...1) four. Arithmetic works
/// component by component, a single number applying to every component; `true` is 1, `false` 0.
public indirect enum Expression: Hashable, Sendable {
  case constant([Double])
  case vector([Expression])
  case name(String)
  case negate(Expression)
  case not(Expression)
  case binary(BinaryOperator, Expression, Expression)
  case conditional(Expression, Expression, Expression)
  case call(String, [Expression])

  public enum BinaryOperator: String, Hashable, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case equal = "==", notEqual = "!="
    case and = "&&", or = "||"
  }

  /// The functions expressions may call, with their argument counts.
  static let functions: [String: ClosedRange<Int>] = [
    "min": 2...16, "max": 2...16, "abs": 1...1, "clamp": 3...3, "round": 1...1, "floor": 1...1,
    "ceil": 1...1, "sqrt": 1...1, "mix": 3...3, "sin": 1...1, "cos": 1...1, "hsb": 3...4,
  ]

  /// `hsb()` as a colour object's `{"hue", "saturation", "brightness", "opacity"}` calls it: the
  /// same conversion, whose errors name the keys rather than the function (a name no expression
  /// can write).
  static let hsbInitializer = "Color(hue:saturation:brightness:opacity:)"

  /// Every name the expression reads.
  public var names: Set<String> {
    switch self {
    case .constant: return []
    case .name(let n): return [n]
    case .negate(let e), .not(let e): return e.names
    case .vector(let es), .call(_, let es): return es.reduce(into: []) { $0.formUnion($1.names) }
    case .binary(_, let a, let b): return a.names.union(b.names)
    case .conditional(let c, let a, let b): return c.names.union(a.names).union(b.names)
    }
  }

  /// What an expression's value is, as far as its form tells: true or false (a comparison,
  /// `!`, `&&`, `||`, a Bool state), a number (arithmetic, a function, a number state), either
  /// (a constant — `true` is 1 — or another name), or a conditional whose two sides differ.
  enum ValueType: Equatable { case boolean, number, unknown, mixed }

  /// The expression's `ValueType`, with the Bool states `booleans` and the number states
  /// `numbers`.
  func valueType(booleans: Set<String>, numbers: Set<String>) -> ValueType {
    switch self {
    case .constant, .vector: return .unknown
    case .name(let n):
      return booleans.contains(n) ? .boolean : numbers.contains(n) ? .number : .unknown
    case .not: return .boolean
    case .negate, .call: return .number
    case .binary(let op, _, _):
      switch op {
      case .add, .subtract, .multiply, .divide: return .number
      default: return .boolean
      }
    case .conditional(_, let a, let b):
      // A branch written as a number (`on ? 1 : 0`) is a number: only the parser builds a
      // choice, and its constants are literals (true and false are parsed as `!0`, `!1`).
      func branch(_ e: Expression) -> ValueType {
        if case .constant(let v) = e, v.count == 1 { return .number }
        return e.valueType(booleans: booleans, numbers: numbers)
      }
      let x = branch(a)
      let y = branch(b)
      if x == .mixed || y == .mixed { return .mixed }
      if x == .unknown { return y }
      if y == .unknown || x == y { return x }
      return .mixed
    }
  }

  /// Whether the expression reads any of `values` — a point's component (`p.x`, `p.y`)
  /// reading the point `p` — as an animated value must when `values` are the state's names.
  public func reads(anyOf values: Set<String>) -> Bool {
    names.contains { name in
      if values.contains(name) { return true }
      guard name.hasSuffix(".x") || name.hasSuffix(".y") else { return false }
      return values.contains(String(name.dropLast(2)))
    }
  }

  /// The expression with each name `constants` holds replaced by its value.
  public func substituting(_ constants: [String: [Double]]) -> Expression {
    switch self {
    case .constant: return self
    case .name(let n): return constants[n].map { .constant($0) } ?? self
    case .vector(let es): return .vector(es.map { $0.substituting(constants) })
    case .negate(let e): return .negate(e.substituting(constants))
    case .not(let e): return .not(e.substituting(constants))
    case .binary(let op, let a, let b):
      return .binary(op, a.substituting(constants), b.substituting(constants))
    case .conditional(let c, let a, let b):
      return .conditional(
        c.substituting(constants), a.substituting(constants), b.substituting(constants))
    case .call(let f, let args): return .call(f, args.map { $0.substituting(constants) })
    }
  }

  /// The value with names looked up in `scope`.
  public func evaluate(_ scope: ExpressionScope) throws(ExpressionError) -> [Double] {
    switch self {
    case .constant(let v): return v
    case .vector(let es):
      var out: [Double] = []
      for e in es { out.append(try e.evaluate(scope).scalar("a component of [ … ]")) }
      return out
    case .name(let n):
      guard let v = scope.value(of: n) else {
        throw ExpressionError("unknown name '\(n)'" + scope.suggestion(for: n))
      }
      return v
    case .negate(let e): return try e.evaluate(scope).map { -$0 }
    case .not(let e): return [try e.evaluate(scope).scalar("the operand of !") == 0 ? 1 : 0]
    case .conditional(let c, let a, let b):
      return try c.evaluate(scope).scalar("a condition") != 0
        ? a.evaluate(scope) : b.evaluate(scope)
    case .binary(let op, let a, let b):
      return try Self.apply(op, a.evaluate(scope), b.evaluate(scope))
    case .call(let f, let args):
      var values: [[Double]] = []
      for a in args { values.append(try a.evaluate(scope)) }
      return try Self.call(f, values)
    }
  }

  /// How many components the value has, found without computing it: what `evaluate` would
  /// refuse whatever the values (an unknown name, sides of different sizes, a vector where a
  /// number must be) is thrown with `evaluate`'s message; nil where it depends on the values
  /// (the sides of `?:` differ in size). `size` gives a name's components, nil for a name not
  /// known; `scope` only words the suggestion for one.
  func components(
    _ size: (String) -> Int?, scope: ExpressionScope
  ) throws(ExpressionError) -> Int? {
    func scalar(_ e: Expression, _ role: String) throws(ExpressionError) {
      if let n = try e.components(size, scope: scope), n != 1 {
        throw ExpressionError("\(role) must be a single number, got \(n) components")
      }
    }
    func zipped(_ a: Int?, _ b: Int?, _ what: String) throws(ExpressionError) -> Int? {
      guard let a, let b else { return a == 1 ? b : b == 1 ? a : nil }
      if a == b || b == 1 { return a }
      if a == 1 { return b }
      throw ExpressionError("\(what) needs values of the same size, got \(a) and \(b) components")
    }
    switch self {
    case .constant(let v): return v.count
    case .vector(let es):
      for e in es { try scalar(e, "a component of [ … ]") }
      return es.count
    case .name(let n):
      guard let count = size(n) else {
        throw ExpressionError("unknown name '\(n)'" + scope.suggestion(for: n))
      }
      return count
    case .negate(let e): return try e.components(size, scope: scope)
    case .not(let e):
      try scalar(e, "the operand of !")
      return 1
    case .conditional(let c, let a, let b):
      try scalar(c, "a condition")
      let (x, y) = (try a.components(size, scope: scope), try b.components(size, scope: scope))
      return x == y ? x : nil
    case .binary(let op, let a, let b):
      let (x, y) = (try a.components(size, scope: scope), try b.components(size, scope: scope))
      switch op {
      case .add, .subtract, .multiply, .divide: return try zipped(x, y, "'\(op.rawValue)'")
      case .equal, .notEqual: return 1
      case .less, .lessOrEqual, .greater, .greaterOrEqual, .and, .or:
        // The sizes found above, not found again: each operand is sized once, so that the
        // work is linear in the expression (sizing both again doubled it at every level).
        for n in [x, y] {
          if let n, n != 1 {
            throw ExpressionError(
              "an operand of \(op.rawValue) must be a single number, got \(n) components")
          }
        }
        return 1
      }
    case .call(let f, let args):
      var counts: [Int?] = []
      for a in args { counts.append(try a.components(size, scope: scope)) }
      switch f {
      case "min", "max":
        var result = counts.first ?? 1
        for next in counts.dropFirst() { result = try zipped(result, next, "\(f)()") }
        return result
      case "clamp", "mix":
        guard counts.count == 3 else { return nil }
        let bounds = try zipped(counts[1], counts[2], "\(f)()")
        return try zipped(counts[0], bounds, "\(f)()")
      case "hsb", Self.hsbInitializer:
        for a in args { try scalar(a, f == "hsb" ? "an argument of hsb()" : "a component") }
        return 4
      default: return counts.first ?? nil
      }
    }
  }

  private static func apply(
    _ op: BinaryOperator, _ a: [Double], _ b: [Double]
  ) throws(ExpressionError) -> [Double] {
    switch op {
    case .add: return try zip(a, b, op) { $0 + $1 }
    case .subtract: return try zip(a, b, op) { $0 - $1 }
    case .multiply: return try zip(a, b, op) { $0 * $1 }
    case .divide:
      let q = try zip(a, b, op) { $0 / $1 }
      guard q.allSatisfy(\.isFinite) else { throw ExpressionError("division by zero") }
      return q
    case .equal: return [a == b ? 1 : 0]
    case .notEqual: return [a != b ? 1 : 0]
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      let (x, y) = (
        try a.scalar("an operand of \(op.rawValue)"), try b.scalar("an operand of \(op.rawValue)")
      )
      switch op {
      case .less: return [x < y ? 1 : 0]
      case .lessOrEqual: return [x <= y ? 1 : 0]
      case .greater: return [x > y ? 1 : 0]
      default: return [x >= y ? 1 : 0]
      }
    case .and, .or:
      let x = try a.scalar("an operand of \(op.rawValue)") != 0
      let y = try b.scalar("an operand of \(op.rawValue)") != 0
      return [(op == .and ? x && y : x || y) ? 1 : 0]
    }
  }

  /// Component-wise, a one-component side applying to every component of the other. `what`
  /// is what the message names: the operator, or the function whose arguments these are.
  private static func zip(
    _ a: [Double], _ b: [Double], _ what: String, _ f: (Double, Double) -> Double
  ) throws(ExpressionError) -> [Double] {
    if a.count == b.count { return (0..<a.count).map { f(a[$0], b[$0]) } }
    if a.count == 1 { return b.map { f(a[0], $0) } }
    if b.count == 1 { return a.map { f($0, b[0]) } }
    throw ExpressionError(
      "\(what) needs values of the same size, got \(a.count) and \(b.count) components")
  }

  private static func zip(
    _ a: [Double], _ b: [Double], _ op: BinaryOperator, _ f: (Double, Double) -> Double
  ) throws(ExpressionError) -> [Double] {
    try zip(a, b, "'\(op.rawValue)'", f)
  }

  private static func call(_ f: String, _ args: [[Double]]) throws(ExpressionError) -> [Double] {
    func each(_ g: (Double) -> Double) -> [Double] { args[0].map(g) }
    switch f {
    case "min", "max":
      var result = args[0]
      for next in args.dropFirst() {
        result = try zip(result, next, "\(f)()") {
          f == "min" ? Swift.min($0, $1) : Swift.max($0, $1)
        }
      }
      return result
    case "abs": return each { Swift.abs($0) }
    case "round": return each { $0.rounded() }
    case "floor": return each { $0.rounded(.down) }
    case "ceil": return each { $0.rounded(.up) }
    case "sqrt": return each { $0.squareRoot() }
    case "sin": return each { sin($0) }
    case "cos": return each { cos($0) }
    case "hsb", hsbInitializer:
      // Color(hue:saturation:brightness:opacity:): straight red, green, blue, alpha.
      let function = f == "hsb" ? "hsb(): " : ""
      var parts: [Double] = []
      for (k, role) in ["hue", "saturation", "brightness", "opacity"].prefix(args.count)
        .enumerated()
      {
        let v = try args[k].scalar(f == "hsb" ? "hsb()'s \(role)" : "the \(role)")
        guard (0...1).contains(v) else {
          throw ExpressionError("\(function)the \(role) \(JSONValue.format(v)) is not in 0…1")
        }
        parts.append(v)
      }
      let (r, g, b) = HueSaturationBrightness.rgb(
        hue: parts[0], saturation: parts[1], brightness: parts[2])
      return [r, g, b, parts.count > 3 ? parts[3] : 1]
    case "clamp":
      // As Swift's `ClosedRange`, whose lower bound may not lie above its upper one.
      let gaps = try zip(args[1], args[2], "clamp()") { $0 - $1 }
      if let k = gaps.firstIndex(where: { $0 > 0 }) {
        let lower = args[1][args[1].count == 1 ? 0 : k]
        let upper = args[2][args[2].count == 1 ? 0 : k]
        throw ExpressionError(
          "clamp(): the lower bound \(JSONValue.format(lower)) is above the upper bound "
            + "\(JSONValue.format(upper))")
      }
      let low = try zip(args[0], args[1], "clamp()") { Swift.max($0, $1) }
      return try zip(low, args[2], "clamp()") { Swift.min($0, $1) }
    default:  // mix(a, b, t) = a + (b − a)·t
      let delta = try zip(args[1], args[0], "mix()") { $0 - $1 }
      let scaled = try zip(delta, args[2], "mix()") { $0 * $1 }
      return try zip(args[0], scaled, "mix()") { $0 + $1 }
    }
  }
}

extension [Double] {
  func scalar(_ role: String) throws(ExpressionError) -> Double {
    guard count == 1 else {
      throw ExpressionError("\(role) must be a single number, got \(count) components")
    }
    return self[0]
  }
}

/// Values an expression may read, by name: state, the screen, the tap.
public struct ExpressionScope: Sendable {
  public var values: [String: [Double]]

  public init(_ values: [String: [Double]] = [:]) { self.values = values }

  /// `name`, or a component of a point: `position.x`, `tap.y`.
  func value(of name: String) -> [Double]? {
    if let v = values[name] { return v }
    for (suffix, component) in [(".x", 0), (".y", 1)] where name.hasSuffix(suffix) {
      if let v = values[String(name.dropLast(2))], v.count == 2 { return [v[component]] }
    }
    return nil
  }

  func suggestion(for name: String) -> String {
    let known = values.keys.sorted()
    let hint = JSONField.didYouMean(name, among: known, quote: "'")
    guard hint.isEmpty else { return hint }
    guard !known.isEmpty else { return "" }
    // The scene's own names first; the colour names, a long list, only counted.
    let colors = known.filter { NamedColors.table[$0] != nil }
    let own = known.filter { NamedColors.table[$0] == nil }
    let named = colors.isEmpty ? "" : "\(own.isEmpty ? "" : "; ")and \(colors.count) colour names"
    return " (known: " + own.joined(separator: ", ") + named + ")"
  }
}

/// Why an expression could not be read or computed.
public struct ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
