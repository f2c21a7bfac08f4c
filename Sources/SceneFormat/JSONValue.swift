/// A parsed JSON value with where it starts in the text (1-based line and column, in characters),
/// so errors about it can point there. Objects keep their keys in file order.
public struct JSONValue: Hashable, Sendable {
  public indirect enum Kind: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])
  }

  /// One `"key": value` pair of an object.
  public struct Member: Hashable, Sendable {
    public var key: String
    public var value: JSONValue
  }

  public var kind: Kind
  public var line: Int
  public var column: Int

  /// A short rendering for error messages: strings quoted, containers summarised.
  public var summary: String {
    switch kind {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return JSONValue.format(n)
    case .string(let s):
      let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
      return "\"\(shown)\""
    case .array(let items):
      return items.count == 1 ? "an array of 1 item" : "an array of \(items.count) items"
    case .object: return "an object"
    }
  }

  /// A number as JSON would write it: integers without a fraction.
  static func format(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int(n)) }
    return String(n)
  }
}
