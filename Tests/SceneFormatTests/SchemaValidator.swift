@testable import SceneFormat

/// A JSON Schema (draft 2020-12) validator for the keywords `Schemas/scene.schema.json` uses, so
/// that tests can hold scene files to the schema without a package. A keyword it does not know is
/// an error, never silently passed: the schema may use only what this checks.
struct SchemaValidator {
  /// One failure: the JSON path of the value (`layers[0].frame`) and what is wrong.
  struct Failure: CustomStringConvertible {
    var path: String
    var message: String
    var description: String { "\(path.isEmpty ? "(root)" : path): \(message)" }
  }

  let root: JSONValue

  /// Keywords that say nothing about validity.
  static let annotations: Set<String> = [
    "$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples",
  ]

  /// The failures of `value` against the whole schema (empty: valid).
  func failures(of value: JSONValue) -> [Failure] {
    var failures: [Failure] = []
    check(value, root, path: "", into: &failures)
    return failures
  }

  private static func members(_ value: JSONValue) -> [JSONValue.Member]? {
    if case .object(let members) = value.kind { return members }
    return nil
  }

  private static func items(_ value: JSONValue) -> [JSONValue]? {
    if case .array(let items) = value.kind { return items }
    return nil
  }

  private static func number(_ value: JSONValue) -> Double? {
    if case .number(let n) = value.kind { return n }
    return nil
  }

  /// The schema a `$ref` of the form `#/$defs/name/…` points at.
  private func resolve(_ reference: String) -> JSONValue? {
    guard reference.hasPrefix("#/") else { return nil }
    var current = root
    for key in reference.dropFirst(2).split(separator: "/") {
      guard let members = Self.members(current),
        let next = members.first(where: { $0.key == String(key) })
      else { return nil }
      current = next.value
    }
    return current
  }

  private func valid(_ value: JSONValue, _ schema: JSONValue) -> Bool {
    var failures: [Failure] = []
    check(value, schema, path: "", into: &failures)
    return failures.isEmpty
  }

  private static func typeMatches(_ value: JSONValue, _ type: String) -> Bool {
    switch (type, value.kind) {
    case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string),
      ("array", .array), ("object", .object):
      return true
    case ("integer", .number(let n)): return n == n.rounded()
    default: return false
    }
  }

  private func check(
    _ value: JSONValue, _ schema: JSONValue, path: String, into failures: inout [Failure]
  ) {
    func fail(_ message: String) { failures.append(Failure(path: path, message: message)) }
    if case .bool(let allowed) = schema.kind {
      if !allowed { fail("no value is allowed here") }
      return
    }
    guard let keywords = Self.members(schema) else {
      fail("the schema here is neither an object nor a boolean")
      return
    }
    let properties = keywords.first { $0.key == "properties" }.flatMap { Self.members($0.value) }
    for keyword in keywords {
      let k = keyword.value
      switch keyword.key {
      case _ where Self.annotations.contains(keyword.key): continue
      case "$ref":
        guard case .string(let reference) = k.kind, let target = resolve(reference) else {
          fail("unresolved $ref")
          continue
        }
        check(value, target, path: path, into: &failures)
      case "type":
        let types: [String] =
          if case .string(let t) = k.kind { [t] } else {
            (Self.items(k) ?? []).compactMap { if case .string(let t) = $0.kind { t } else { nil } }
          }
        if !types.contains(where: { Self.typeMatches(value, $0) }) {
          fail("\(value.summary) is not of type \(types.joined(separator: " or "))")
        }
      case "enum":
        if !(Self.items(k) ?? []).contains(where: { $0.kind == value.kind }) {
          fail("\(value.summary) is not one of the enum's values")
        }
      case "const":
        if k.kind != value.kind { fail("\(value.summary) is not \(k.summary)") }
      case "minimum":
        if let n = Self.number(value), let m = Self.number(k), n < m { fail("\(n) < \(m)") }
      case "maximum":
        if let n = Self.number(value), let m = Self.number(k), n > m { fail("\(n) > \(m)") }
      case "exclusiveMinimum":
        if let n = Self.number(value), let m = Self.number(k), n <= m { fail("\(n) ≤ \(m)") }
      case "exclusiveMaximum":
        if let n = Self.number(value), let m = Self.number(k), n >= m { fail("\(n) ≥ \(m)") }
      case "maxLength", "minLength":
        if case .string(let s) = value.kind, let m = Self.number(k) {
          // JSON Schema counts code points.
          let count = Double(s.unicodeScalars.count)
          if keyword.key == "maxLength" ? count > m : count < m {
            fail("a string of \(Int(count)) code points breaks \(keyword.key) \(Int(m))")
          }
        }
      case "pattern":
        if case .string(let s) = value.kind, case .string(let p) = k.kind {
          guard let regex = try? Regex(p) else {
            fail("the pattern \(p) does not compile")
            continue
          }
          if (try? regex.firstMatch(in: s)) == nil { fail("\"\(s)\" does not match \(p)") }
        }
      case "maxItems", "minItems":
        if let items = Self.items(value), let m = Self.number(k) {
          let count = Double(items.count)
          if keyword.key == "maxItems" ? count > m : count < m {
            fail("\(items.count) items break \(keyword.key) \(Int(m))")
          }
        }
      case "maxProperties", "minProperties":
        if let members = Self.members(value), let m = Self.number(k) {
          let count = Double(members.count)
          if keyword.key == "maxProperties" ? count > m : count < m {
            fail("\(members.count) keys break \(keyword.key) \(Int(m))")
          }
        }
      case "items":
        for (i, item) in (Self.items(value) ?? []).enumerated() {
          check(item, k, path: path + "[\(i)]", into: &failures)
        }
      case "required":
        if let members = Self.members(value) {
          for case .string(let name) in (Self.items(k) ?? []).map(\.kind)
          where !members.contains(where: { $0.key == name }) {
            fail("missing the required key \"\(name)\"")
          }
        }
      case "properties":
        for member in Self.members(value) ?? [] {
          if let sub = properties?.first(where: { $0.key == member.key }) {
            check(member.value, sub.value, path: JSONField.join(path, member.key), into: &failures)
          }
        }
      case "additionalProperties":
        for member in Self.members(value) ?? []
        where !(properties ?? []).contains(where: { $0.key == member.key }) {
          check(member.value, k, path: JSONField.join(path, member.key), into: &failures)
        }
      case "propertyNames":
        for member in Self.members(value) ?? [] {
          let name = JSONValue(kind: .string(member.key), line: 0, column: 0)
          check(name, k, path: JSONField.join(path, member.key), into: &failures)
        }
      case "dependentRequired":
        guard let members = Self.members(value) else { continue }
        for rule in Self.members(k) ?? [] where members.contains(where: { $0.key == rule.key }) {
          for case .string(let name) in (Self.items(rule.value) ?? []).map(\.kind)
          where !members.contains(where: { $0.key == name }) {
            fail("\"\(rule.key)\" needs \"\(name)\"")
          }
        }
      case "dependentSchemas":
        guard let members = Self.members(value) else { continue }
        for rule in Self.members(k) ?? [] where members.contains(where: { $0.key == rule.key }) {
          check(value, rule.value, path: path, into: &failures)
        }
      case "allOf":
        for sub in Self.items(k) ?? [] { check(value, sub, path: path, into: &failures) }
      case "anyOf":
        if !(Self.items(k) ?? []).contains(where: { valid(value, $0) }) {
          fail("\(value.summary) matches none of anyOf's schemas")
        }
      case "oneOf":
        let matches = (Self.items(k) ?? []).filter { valid(value, $0) }.count
        if matches != 1 { fail("\(value.summary) matches \(matches) of oneOf's schemas, not 1") }
      case "not":
        if valid(value, k) { fail("\(value.summary) matches a schema it must not") }
      case "if":
        let branch = valid(value, k) ? "then" : "else"
        if let sub = keywords.first(where: { $0.key == branch }) {
          check(value, sub.value, path: path, into: &failures)
        }
      case "then", "else": continue  // with "if"
      default: fail("the validator does not know the keyword \"\(keyword.key)\"")
      }
    }
  }
}
