import SceneFormat

/// JSON text for a parsed value, for round-trip checks of `JSONParser`.
enum JSONText {
  static func write(_ value: JSONValue) -> String {
    var out = ""
    write(value, into: &out)
    return out
  }

  private static func write(_ value: JSONValue, into out: inout String) {
    switch value.kind {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += "\(n)"
    case .string(let s): quote(s, into: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        write(item, into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, member) in members.enumerated() {
        if i > 0 { out += "," }
        quote(member.key, into: &out)
        out += ":"
        write(member.value, into: &out)
      }
      out += "}"
    }
  }

  private static func quote(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// Whether two values are the same JSON, positions aside.
  static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a.kind, b.kind) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && zip(x, y).allSatisfy {
          $0.key.unicodeScalars.elementsEqual($1.key.unicodeScalars) && same($0.value, $1.value)
        }
    default: return false
    }
  }

  /// Every value has a 1-based position.
  static func positionsValid(_ value: JSONValue) -> Bool {
    guard value.line >= 1, value.column >= 1 else { return false }
    switch value.kind {
    case .array(let items): return items.allSatisfy(positionsValid)
    case .object(let members): return members.allSatisfy { positionsValid($0.value) }
    default: return true
    }
  }
}
