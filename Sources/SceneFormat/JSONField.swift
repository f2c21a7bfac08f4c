/// A JSON value being read as part of a scene, with its JSON path, so that every complaint about
/// it names where it is (`layers[2].shadow.radius`) and what was expected.
struct JSONField {
  let value: JSONValue
  let path: String

  init(_ value: JSONValue, path: String) {
    self.value = value
    self.path = path
  }

  func error(_ message: String) -> SceneFileError {
    SceneFileError(path: path, message, line: value.line, column: value.column)
  }

  /// A null says "none" in much JSON; scene files say it by leaving the key out.
  func expected(_ what: String) -> SceneFileError {
    // Only a key can be left out: an array's item (`colors[1]`) or the document cannot.
    let null = value.kind == .null && !path.isEmpty && !path.hasSuffix("]")
    return error(
      "expected \(what), got \(value.summary)"
        + (null ? " (to give none, leave the key out)" : "") + stateHint)
  }

  /// For an `=expression` where only a constant is taken: why, and what to write instead.
  var stateHint: String {
    guard case .string(let s) = value.kind, s.hasPrefix("=") else { return "" }
    return " (this value does not come from state: give it as it is, or give two layers whose "
      + "\"if\" switches between them)"
  }

  func number(in range: ClosedRange<Double>) throws(SceneFileError) -> Double {
    guard case .number(let n) = value.kind, range.contains(n) else {
      throw expected(Self.describe(range))
    }
    return n
  }

  func integer(in range: ClosedRange<Int>) throws(SceneFileError) -> Int {
    guard case .number(let n) = value.kind, n == n.rounded(), n >= Double(range.lowerBound),
      n <= Double(range.upperBound)
    else { throw expected("a whole number from \(range.lowerBound) to \(range.upperBound)") }
    return Int(n)
  }

  func string(maxLength: Int = 10_000) throws(SceneFileError) -> String {
    guard case .string(let s) = value.kind else { throw expected("a string") }
    guard s.utf8.count <= maxLength else {
      throw error("the string is \(s.utf8.count) bytes long; at most \(maxLength) are accepted")
    }
    return s
  }

  func bool() throws(SceneFileError) -> Bool {
    guard case .bool(let b) = value.kind else { throw expected("true or false") }
    return b
  }

  /// A case of a closed set of names (`"spring"`, `"evenodd"`), among `cases` (all of them by
  /// default). Any other string is an error that lists the valid names, with the nearest one
  /// when it is close — never a silent fallback.
  func choice<Choice: CaseIterable & RawRepresentable>(
    _ type: Choice.Type, among cases: [Choice]? = nil
  ) throws(SceneFileError) -> Choice where Choice.RawValue == String {
    try choice(cases ?? Array(Choice.allCases), name: \.rawValue)
  }

  /// One of `cases`, each known by `name`.
  func choice<Choice>(_ cases: [Choice], name: (Choice) -> String) throws(SceneFileError) -> Choice
  {
    let names = cases.map(name)
    let list = "one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    guard case .string(let s) = value.kind else { throw expected(list) }
    if let index = names.firstIndex(of: s) { return cases[index] }
    throw error(
      "unknown name \(value.summary)\(Self.didYouMean(s, among: names)): expected \(list)"
        + stateHint)
  }

  /// " (did you mean "a" or "b"?)" with `nearest`'s names (quoted by `quote`), or "" when none is
  /// near.
  static func didYouMean(
    _ s: String, among names: [String], quote: String = "\""
  ) -> String {
    let near = nearest(s, among: names)
    guard !near.isEmpty else { return "" }
    return " (did you mean " + near.map { quote + $0 + quote }.joined(separator: " or ") + "?)"
  }

  /// The names within two edits of `s`: the nearest, all of them when several are as near
  /// ("fil": "fit" or "fill"), at most three; none for an empty `s`.
  static func nearest(_ s: String, among names: [String]) -> [String] {
    guard !s.isEmpty else { return [] }
    let best = names.map { distance($0, s) }.min() ?? .max
    guard best <= 2 else { return [] }
    return Array(names.filter { distance($0, s) == best }.prefix(3))
  }

  func array(maxCount: Int) throws(SceneFileError) -> [JSONField] {
    guard case .array(let elements) = value.kind else { throw expected("an array") }
    guard elements.count <= maxCount else {
      throw error("\(elements.count) elements; at most \(maxCount) are accepted")
    }
    return elements.enumerated().map { JSONField($1, path: "\(path)[\($0)]") }
  }

  /// The value as an object whose keys must all be in `keys`: an unknown key is an error, so a
  /// typo never passes silently.
  func object(keys: [String]) throws(SceneFileError) -> JSONObject {
    guard case .object(let members) = value.kind else { throw expected("an object") }
    for member in members where !keys.contains(member.key) {
      let near = Self.didYouMean(member.key, among: keys)
      let hint =
        Self.spelledOtherwise[member.key].flatMap { keys.contains($0.key) ? $0.hint : nil }
        ?? (near.isEmpty ? nil : near)
      let list = "; known keys here: " + keys.sorted().joined(separator: ", ")
      throw SceneFileError(
        path: Self.join(path, member.key),
        "unknown key \"\(member.key)\"\(hint ?? "")\(hint == nil ? list : "")",
        line: member.value.line, column: member.value.column)
    }
    return JSONObject(field: self, members: members)
  }

  /// SwiftUI names a scene file says another way, with the key that must be here for the hint
  /// to apply.
  static let spelledOtherwise: [String: (key: String, hint: String)] = [
    "foregroundStyle": (
      "foregroundColor",
      " (SwiftUI's foregroundStyle is \"foregroundColor\" for a colour, \"fill\" for a gradient)"
    ),
    "border": (
      "strokeBorder", " (give the shape a \"strokeBorder\", or an \"overlay\" that has one)"
    ),
    "tint": ("foregroundColor", " (did you mean \"foregroundColor\"?)"),
    "width": ("lineWidth", " (a stroke's width is \"lineWidth\", as in StrokeStyle(lineWidth:))"),
  ]

  static func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }

  static func describe(_ range: ClosedRange<Double>) -> String {
    let (low, high) = (range.lowerBound, range.upperBound)
    if low == -.greatestFiniteMagnitude || low == -.infinity {
      return high == .greatestFiniteMagnitude || high == .infinity
        ? "a number" : "a number ≤ \(JSONValue.format(high))"
    }
    if high == .greatestFiniteMagnitude || high == .infinity {
      return "a number ≥ \(JSONValue.format(low))"
    }
    return "a number from \(JSONValue.format(low)) to \(JSONValue.format(high))"
  }

  /// Edit distance, for "did you mean" hints.
  static func distance(_ a: String, _ b: String) -> Int {
    let (x, y) = (Array(a.lowercased()), Array(b.lowercased()))
    var row = Array(0...y.count)
    for i in 1...max(x.count, 1) where !x.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: y.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return x.isEmpty ? y.count : row[y.count]
  }
}

/// An object whose keys have been checked; its members by key.
struct JSONObject {
  let field: JSONField
  let members: [JSONValue.Member]

  var path: String { field.path }

  func has(_ key: String) -> Bool { members.contains { $0.key == key } }

  subscript(_ key: String) -> JSONField? {
    members.first { $0.key == key }.map { JSONField($0.value, path: JSONField.join(path, key)) }
  }

  func required(_ key: String) throws(SceneFileError) -> JSONField {
    guard let value = self[key] else { throw field.error("missing the key \"\(key)\"") }
    return value
  }
}
