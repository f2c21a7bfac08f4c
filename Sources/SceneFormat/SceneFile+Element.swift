extension SceneFile {
  /// One layer (by `id`) or definition of a scene file, drawn alone and still: centred on a
  /// canvas of `width` × `height` points with the file's background, without the modifiers that
  /// place or animate it (`position`, `offset`, `scaleEffect`, `rotationEffect`), state at its
  /// initial values. `render-anim still` draws the demos' cats and cards this way.
  public static func element(
    _ id: String, of text: String, width: Double, height: Double, settings: SceneSettings
  ) throws(SceneFileError) -> LoadedScene {
    let json = try JSONParser.parse(text)
    guard case .object(let members) = json.kind else {
      throw SceneFileError(path: "", "expected an object")
    }
    func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
    var found: JSONValue?
    if let definitions = member("definitions"), case .object(let named) = definitions.kind {
      found = named.first { $0.key == id }.map {
        JSONValue(
          kind: .object([
            .init(
              key: "use",
              value: JSONValue(kind: .string(id), line: $0.value.line, column: $0.value.column))
          ]), line: $0.value.line, column: $0.value.column)
      }
    }
    if found == nil, let layers = member("layers") { found = Self.layer(id, in: layers) }
    guard let layer = found, case .object(let keys) = layer.kind else {
      throw SceneFileError(path: "", "no layer or definition is named \"\(id)\"")
    }
    let placing: Set<String> = [
      "position", "offset", "scaleEffect", "rotationEffect", "rotation3DEffect",
    ]
    let alone = JSONValue(
      kind: .object(keys.filter { !placing.contains($0.key) }), line: layer.line,
      column: layer.column)
    func value(_ kind: JSONValue.Kind) -> JSONValue { JSONValue(kind: kind, line: 1, column: 1) }
    var canvas: [JSONValue.Member] = [
      .init(key: "width", value: value(.number(width))),
      .init(key: "height", value: value(.number(height))),
    ]
    if let original = member("canvas"), case .object(let entries) = original.kind,
      let background = entries.first(where: { $0.key == "background" })
    {
      canvas.append(background)
    }
    var document: [JSONValue.Member] = [
      .init(key: "canvas", value: value(.object(canvas))),
      .init(key: "layers", value: value(.array([alone]))),
    ]
    document += members.filter { ["state", "definitions"].contains($0.key) }
    var still = settings
    still.device = nil
    still.taps = []
    return try build(value(.object(document)), folder: "", settings: still)
  }

  /// The layer object whose `id` is `id`, searching stacks depth first.
  private static func layer(_ id: String, in value: JSONValue) -> JSONValue? {
    switch value.kind {
    case .array(let items):
      for item in items { if let found = layer(id, in: item) { return found } }
    case .object(let members):
      if members.contains(where: { $0.key == "id" && $0.value.kind == .string(id) }) {
        return value
      }
      for member in members where ["zstack", "vstack", "hstack"].contains(member.key) {
        if let found = layer(id, in: member.value) { return found }
      }
    default: break
    }
    return nil
  }
}
