import FileIO
import Raster
import Typeset

extension SceneDecoder {
  static let contentKeys = [
    "text", "path", "pathFile", "shape", "zstack", "vstack", "hstack", "spacer",
  ]
  static let modifierKeys = [
    "id", "frame", "padding", "position", "offset", "scaleEffect", "rotationEffect", "opacity",
    "shadow", "fill", "foregroundColor", "zIndex", "ignoresSafeArea",
  ]
  static let contentParameters: [String: [String]] = [
    "text": ["font", "bold", "weight"], "path": ["viewBox", "fillRule"],
    "pathFile": ["viewBox", "fillRule"],
    "shape": ["cornerRadius", "cornerStyle", "lineWidth", "trim", "lineCap"],
    "zstack": ["alignment"],
    "vstack": ["alignment", "spacing"], "hstack": ["alignment", "spacing"],
  ]

  /// One layer; `inheritedColor` is a container's `foregroundColor`, which its children use
  /// unless they set their own (as SwiftUI's environment does).
  mutating func layer(
    _ field: JSONField, inheritedColor: Bound?
  ) throws(SceneFileError)
    -> LayerDescription
  {
    layerCount += 1
    guard layerCount <= SceneLimits.layers else {
      throw field.error("more than \(SceneLimits.layers) layers")
    }
    guard nesting < SceneLimits.layerNesting else {
      throw field.error("layers nested more than \(SceneLimits.layerNesting) deep")
    }
    nesting += 1
    defer { nesting -= 1 }
    guard case .object(var members) = field.value.kind else {
      throw field.expected("a layer object")
    }
    var field = field
    var usesDefinition = false
    if let use = members.first(where: { $0.key == "use" }) {
      // `{"use": "cat", "opacity": 0.3}`: the definition's keys, overridden by the layer's own.
      let useField = JSONField(use.value, path: JSONField.join(field.path, "use"))
      let name = try useField.string()
      guard !expanding.contains(name) else {
        throw useField.error("the definition \"\(name)\" uses itself")
      }
      guard let definition = definitions[name], case .object(let base) = definition.kind else {
        throw useField.expected(
          "the name of a definition (" + definitions.keys.sorted().joined(separator: ", ") + ")")
      }
      let own = members.filter { $0.key != "use" }
      members = base.filter { b in !own.contains { $0.key == b.key } } + own
      field = JSONField(
        JSONValue(kind: .object(members), line: field.value.line, column: field.value.column),
        path: field.path)
      expanding.append(name)
      usesDefinition = true
    }
    defer { if usesDefinition { expanding.removeLast() } }
    let contents = members.map(\.key).filter(Self.contentKeys.contains)
    guard contents.count == 1, let kind = contents.first else {
      if contents.isEmpty {
        // A key the format does not know (`"image"`) is the likelier mistake than a missing one.
        let known = Set(
          Self.contentKeys + Self.contentParameters.values.joined() + Self.modifierKeys)
        if let unknown = members.first(where: { !known.contains($0.key) }) {
          _ = try field.object(keys: Array(known))  // throws "unknown key", with a near name
          throw SceneFileError(
            path: JSONField.join(field.path, unknown.key), "unknown key \"\(unknown.key)\"",
            line: unknown.value.line, column: unknown.value.column)
        }
      }
      throw field.error(
        (contents.isEmpty
          ? "missing the layer's content"
          : "more than one content ("
            + contents.joined(separator: ", ") + ")")
          + ": give exactly one of " + Self.contentKeys.joined(separator: ", "))
    }
    let o = try field.object(
      keys: [kind] + (Self.contentParameters[kind] ?? []) + Self.modifierKeys)
    if o.has("fill"), o.has("foregroundColor") {
      throw field.error("give \"fill\" or \"foregroundColor\", not both")
    }
    let ownColor = try (o["fill"] ?? o["foregroundColor"]).map(Self.color)
    let black = Bound(expression: .constant([0, 0, 0, 1]), path: field.path, line: 0, column: 0)
    let color = ownColor ?? inheritedColor ?? black
    let content: LayerDescription.Content
    let source = try o.required(kind)
    switch kind {
    case "text":
      let text = try source.string(maxLength: SceneLimits.textBytes)
      textBytes += text.utf8.count
      guard textBytes <= SceneLimits.totalTextBytes else {
        throw source.error(
          "the scene's texts add up to more than \(SceneLimits.totalTextBytes) bytes")
      }
      content = .text(text, try Self.font(o))
    case "path", "pathFile":
      let path: Path
      if kind == "path" {
        let data = try source.string(maxLength: SceneLimits.pathStringBytes)
        try countPathData(data.utf8.count, at: source)
        do { path = try PathDataParser.parse(data) } catch {
          throw source.error("invalid path data: \(error)")
        }
      } else {
        path = try pathFile(source)
      }
      var viewBox: Rect?
      if let box = o["viewBox"] {
        let numbers = try box.array(maxCount: 4)
        guard numbers.count == 4 else { throw box.expected("[x, y, width, height]") }
        var v: [Double] = []
        for n in numbers { v.append(try n.number(in: -1e7...1e7)) }
        guard v[2] > 0, v[3] > 0 else { throw box.error("the width and height must be > 0") }
        viewBox = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
      }
      let rule = try o["fillRule"]?.choice(FillRule.self) ?? .nonzero
      content = .path(path, viewBox: viewBox, rule: rule)
    case "spacer":
      guard try source.bool() else { throw source.expected("true") }
      content = .spacer
    case "shape":
      let kind = try source.choice(LayerDescription.ShapeKind.self)
      let rectangular = kind == .rectangle || kind == .roundedRectangle
      for key in ["cornerRadius", "cornerStyle"] where o.has(key) && !rectangular {
        throw field.error("\(key) applies to rectangles only")
      }
      for key in ["lineWidth", "trim", "lineCap"] where o.has(key) && kind != .ring {
        throw field.error("\(key) applies to rings only")
      }
      if kind == .ring {
        let lineWidth = try o["lineWidth"]?.number(in: 0...SceneLimits.canvasSide) ?? 1
        var from = Bound.constant([0], at: source)
        var to = Bound.constant([1], at: source)
        if let trim = o["trim"] {
          let ends = try trim.array(maxCount: 2)
          guard ends.count == 2 else { throw trim.expected("[from, to]") }
          from = try Self.scalar(ends[0], in: 0...1)
          to = try Self.scalar(ends[1], in: 0...1)
        }
        let cap = try o["lineCap"]?.choice(LayerDescription.RingCap.self) ?? .butt
        content = .ring(lineWidth: lineWidth, from: from, to: to, roundCaps: cap == .round)
      } else {
        let radius = try o["cornerRadius"]?.number(in: 0...SceneLimits.canvasSide) ?? 0
        let style = try o["cornerStyle"]?.choice(CornerStyle.self)
        content = .shape(kind, cornerRadius: radius, style: style)
      }
    default:
      let axis: LayerDescription.StackAxis =
        kind == "vstack" ? .vstack : kind == "hstack" ? .hstack : .zstack
      var children: [LayerDescription] = []
      for child in try source.array(maxCount: SceneLimits.layers) {
        children.append(try layer(child, inheritedColor: ownColor ?? inheritedColor))
      }
      let alignments: [LayerDescription.StackAlignment] =
        switch axis {
        case .zstack: [.center]
        case .vstack: [.center, .leading, .trailing]
        case .hstack: [.center, .top, .bottom]
        }
      let alignment =
        try o["alignment"]?.choice(LayerDescription.StackAlignment.self, among: alignments)
        ?? .center
      content = .stack(
        axis, children, alignment: alignment,
        spacing: try o["spacing"]?.number(in: 0...SceneLimits.canvasSide) ?? 8)
    }
    var frame: (Double?, Double?) = (nil, nil)
    if let f = o["frame"] {
      let fo = try f.object(keys: ["width", "height"])
      frame = (
        try fo["width"]?.number(in: 0...SceneLimits.canvasSide),
        try fo["height"]?.number(in: 0...SceneLimits.canvasSide)
      )
    }
    let zero = Bound.constant([0], at: field)
    return LayerDescription(
      path: field.path, line: field.value.line, column: field.value.column,
      id: try o["id"]?.string(maxLength: 200), content: content,
      frameWidth: frame.0, frameHeight: frame.1,
      padding: try o["padding"].map(Self.padding) ?? (0, 0, 0, 0),
      position: try o["position"].map { (f) throws(SceneFileError) in try Self.point(f) },
      offset: try o["offset"].map { (f) throws(SceneFileError) in try Self.point(f, defaultValue: 0)
      }
        ?? Bound.constant([0, 0], at: field),
      scale: try o["scaleEffect"].map { (f) throws(SceneFileError) in
        try Self.scalar(f, in: 0...1000)
      }
        ?? Bound.constant([1], at: field),
      rotation: try o["rotationEffect"].map { (f) throws(SceneFileError) in try Self.scalar(f) }
        ?? zero,
      opacity: try o["opacity"].map { (f) throws(SceneFileError) in try Self.scalar(f, in: 0...1) }
        ?? Bound.constant([1], at: field),
      shadow: try o["shadow"].map(Self.shadow), color: color,
      zIndex: try o["zIndex"]?.number(in: -1e6...1e6) ?? 0,
      ignoresSafeArea: try o["ignoresSafeArea"]?.bool() ?? false)
  }

  /// Adds `count` bytes to the scene's path data, refusing more than the limit in all.
  mutating func countPathData(_ count: Int, at field: JSONField) throws(SceneFileError) {
    pathBytes += count
    guard pathBytes <= SceneLimits.totalPathDataBytes else {
      throw field.error(
        "the scene's path data adds up to more than \(byteCountText(SceneLimits.totalPathDataBytes))"
      )
    }
  }

  /// The path in the file a `pathFile` names: inside the scene's folder (unless files outside
  /// are allowed), read up to what is left of the path-data limit. Messages never show the
  /// file's bytes: it is not the scene, and may not be the user's to see.
  mutating func pathFile(_ source: JSONField) throws(SceneFileError) -> Path {
    let name = try source.string(maxLength: 4096)
    let resolved: String
    switch files.resolve(name) {
    case .success(let path): resolved = path
    case .failure(let refusal): throw source.error("\"\(name)\": \(refusal)")
    }
    let left = SceneLimits.totalPathDataBytes - pathBytes
    let bytes: [UInt8]?
    do { bytes = try FileReader.read(resolved, atMost: left) } catch {
      throw source.error("cannot read \"\(name)\": \(error.reason)")
    }
    guard let bytes else {
      throw source.error(
        "the scene's path data adds up to more than \(byteCountText(SceneLimits.totalPathDataBytes))"
      )
    }
    try countPathData(bytes.count, at: source)
    do { return try PathDataParser.parse(utf8: bytes) } catch {
      throw source.error("invalid path data in \"\(name)\": \(error.descriptionWithoutInput)")
    }
  }

  /// A number (every edge), `true` (SwiftUI's default 16 pt), or edges by name.
  static func padding(_ field: JSONField) throws(SceneFileError) -> (Double, Double, Double, Double)
  {
    switch field.value.kind {
    case .bool(true): return (16, 16, 16, 16)
    case .number:
      let p = try field.number(in: 0...SceneLimits.canvasSide)
      return (p, p, p, p)
    case .object:
      let o = try field.object(keys: [
        "top", "leading", "bottom", "trailing", "horizontal", "vertical",
      ])
      func edge(_ key: String, _ axis: String) throws(SceneFileError) -> Double {
        if let value = o[key] { return try value.number(in: 0...SceneLimits.canvasSide) }
        return try o[axis]?.number(in: 0...SceneLimits.canvasSide) ?? 0
      }
      return (
        try edge("top", "vertical"), try edge("leading", "horizontal"),
        try edge("bottom", "vertical"), try edge("trailing", "horizontal")
      )
    default: throw field.expected("a number of points, true, or {\"top\", \"leading\", …}")
    }
  }

  static func shadow(_ field: JSONField) throws(SceneFileError) -> LayerDescription.Shadow {
    let o = try field.object(keys: ["color", "opacity", "radius", "x", "y"])
    let color = try o["color"].map(staticColor)
    // SwiftUI's default shadow colour is black at 33 %; an explicit colour is taken as it is.
    let opacity = try o["opacity"]?.number(in: 0...1) ?? (color == nil ? 0.33 : 1)
    return LayerDescription.Shadow(
      color: (color ?? .black).opacity(opacity),
      radius: Bound.constant([try Self.radius(o.required("radius"))], at: field),
      opacity: Bound.constant([opacity], at: field),
      x: try o["x"]?.number(in: -1e4...1e4) ?? 0, y: try o["y"]?.number(in: -1e4...1e4) ?? 0)
  }

  /// A shadow's radius in points: ≥ 0, at most 1000.
  static func radius(_ field: JSONField) throws(SceneFileError) -> Double {
    let r = try field.number(in: 0...Double.greatestFiniteMagnitude)
    guard r <= 1000 else {
      throw field.error("a radius of \(JSONValue.format(r)) pt; at most 1000")
    }
    return r
  }

  /// `"headline"`, or `{"style": "title", "size": 30, "weight": "bold", "family": "Inter",
  /// "tracking": 0}`, with the layer's `bold` and `weight`.
  static func font(_ o: JSONObject) throws(SceneFileError) -> FontRequest {
    var request = FontRequest(style: .body)
    if let field = o["font"] {
      if case .string = field.value.kind {
        request.style = try field.choice(TextStyle.self)
      } else {
        let f = try field.object(keys: ["style", "family", "size", "weight", "tracking"])
        request.style = try f["style"]?.choice(TextStyle.self) ?? .body
        request.family = try f["family"]?.string(maxLength: 200)
        request.size = try f["size"]?.number(in: 1...1000)
        request.weight = try f["weight"].map(weight)
        request.tracking = try f["tracking"]?.number(in: -100...100)
      }
    }
    if let w = o["weight"] { request.weight = try weight(w) }
    if try o["bold"]?.bool() == true { request.weight = .bold }
    return request
  }

  static func weight(_ field: JSONField) throws(SceneFileError) -> FontWeight {
    try field.choice(FontWeight.allCases, name: \.name)
  }
}
