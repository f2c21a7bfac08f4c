import FileIO
import Raster
import Typeset

extension SceneDecoder {
  static let contentKeys = [
    "text", "symbol", "image", "path", "pathFile", "shape", "zstack", "vstack", "hstack",
    "spacer",
  ]
  static let modifierKeys = [
    "id", "frame", "padding", "position", "offset", "scaleEffect", "rotationEffect",
    "rotation3DEffect", "opacity",
    "shadow", "fill", "foregroundColor", "zIndex", "ignoresSafeArea", "clipShape", "clipped",
    "cornerRadius", "mask", "blur", "saturation", "brightness", "contrast", "grayscale",
    "hueRotation", "colorMultiply", "colorInvert", "background", "overlay", "fixedSize",
    "aspectRatio", "layoutPriority", "if", "transition", "matchedGeometryEffect", "keyframes",
    "phases", "allowsHitTesting", "contentShape", "animation",
  ]
  /// The text styles SwiftUI passes down through the environment: a text's own, and on a stack
  /// they reach every text inside (`TextEnvironment`).
  static let textEnvironmentKeys = [
    "font", "bold", "weight", "lineLimit", "multilineTextAlignment", "lineSpacing",
    "truncationMode", "minimumScaleFactor", "italic", "underline", "strikethrough",
    "monospacedDigit", "kerning", "tracking", "contentTransition",
  ]
  static let contentParameters: [String: [String]] = [
    "text": textEnvironmentKeys,
    "symbol": ["font", "imageScale", "resizable", "weight", "bold"],
    "image": ["resizable", "interpolation", "renderingMode"],
    "path": ["viewBox", "fillRule", "stroke", "trim"],
    "pathFile": ["viewBox", "fillRule", "stroke", "trim"],
    "shape": [
      "cornerRadius", "cornerStyle", "lineWidth", "trim", "lineCap", "stroke", "strokeBorder",
    ],
    // `.imageScale(_:)` on a stack reaches the symbols inside, as SwiftUI's environment does.
    "zstack": ["alignment", "imageScale"] + textEnvironmentKeys,
    "vstack": ["alignment", "spacing", "imageScale"] + textEnvironmentKeys,
    "hstack": ["alignment", "spacing", "imageScale"] + textEnvironmentKeys,
  ]

  /// One layer; `environment` holds the containers' `foregroundColor` and text styles, which
  /// its content uses unless it sets its own (as SwiftUI's environment does).
  mutating func layer(
    _ field: JSONField, environment: TextEnvironment
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
    /// The definition used and the keys the layer takes from it (not its own).
    var inherited: (name: String, keys: [String])?
    if let use = members.first(where: { $0.key == "use" }) {
      // `{"use": "cat", "opacity": 0.3}`: the definition's keys, overridden by the layer's own.
      let useField = JSONField(use.value, path: JSONField.join(field.path, "use"))
      let name = try useField.string()
      guard !expanding.contains(name) else {
        throw useField.error("the definition \"\(name)\" uses itself")
      }
      guard let definition = definitions[name], case .object(let base) = definition.kind else {
        if definitions.isEmpty {
          throw useField.error(
            "no definition is named \"\(name)\": the file has no \"definitions\"")
        }
        throw useField.expected(
          "the name of a definition (" + definitions.keys.sorted().joined(separator: ", ") + ")")
      }
      let own = members.filter { $0.key != "use" }
      let taken = base.filter { b in !own.contains { $0.key == b.key } }
      members = taken + own
      inherited = (name, taken.map(\.key))
      field = JSONField(
        JSONValue(kind: .object(members), line: field.value.line, column: field.value.column),
        path: field.path)
      expanding.append(name)
      usesDefinition = true
    }
    defer { if usesDefinition { expanding.removeLast() } }
    guard let inherited else {
      return try expandedLayer(field, members: members, environment: environment)
    }
    do {
      return try expandedLayer(field, members: members, environment: environment)
    } catch {
      // An error in a key the layer took from its definition names the definition's path
      // (`definitions.row.opacity`), where the user would look for it and its line points.
      var error = error
      for key in inherited.keys {
        let at = JSONField.join(field.path, key)
        guard error.path == at || error.path.hasPrefix(at + ".") || error.path.hasPrefix(at + "[")
        else { continue }
        error.path =
          JSONField.join(JSONField.join("definitions", inherited.name), key)
          + error.path.dropFirst(at.count)
        break
      }
      throw error
    }
  }

  /// `layer` once a definition it uses is merged into `members`.
  private mutating func expandedLayer(
    _ field: JSONField, members: [JSONValue.Member], environment: TextEnvironment
  ) throws(SceneFileError) -> LayerDescription {
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
    // Each key once (a shape's `cornerRadius` is also the clipping modifier).
    var keys = [kind] + (Self.contentParameters[kind] ?? [])
    keys += Self.modifierKeys.filter { !keys.contains($0) }
    let o = try field.object(keys: keys)
    let stroked = o.has("stroke") || o.has("strokeBorder")
    for key in ["fill", "foregroundColor"] {
      if let f = o[key], case .null = f.value.kind {
        throw f.expected(key == "fill" ? "a colour or a gradient" : "a colour")
      }
    }
    if o.has("fill"), o.has("foregroundColor"), !stroked {
      throw field.error(
        "give \"fill\" or \"foregroundColor\", not both (both only beside a stroke: the fill's "
          + "colour, and the stroke's by default)")
    }
    // A gradient fills a shape, a path, a symbol or text; a stack passes colours down, not gradients.
    var fillGradient: GradientDescription?
    if let fill = o["fill"], Self.isGradient(fill) {
      let template: Bool
      if case .string("template") = o["renderingMode"]?.value.kind {
        template = true
      } else {
        template = false
      }
      guard
        ["text", "symbol", "path", "pathFile", "shape"].contains(kind)
          || (kind == "image" && template)
      else {
        throw fill.error(
          kind == "image"
            ? "a gradient fills a template image (\"renderingMode\": \"template\"), not one drawn in "
              + "its own colours"
            : "a gradient fills a shape, a path, a symbol, text or a template image: give it to the "
              + "layers inside the \(kind)"
        )
      }
      if let shape = o["shape"], case .string("ring") = shape.value.kind {
        throw fill.error(
          "a ring's fill is a colour; for a gradient ring stroke a circle, as SwiftUI's "
            + "Circle().trim(from:to:).stroke(AngularGradient(…), lineWidth:) does: "
            + "{\"shape\": \"circle\", \"trim\": [0, 0.75], \"stroke\": {\"color\": "
            + "{\"angularGradient\": …}, \"lineWidth\": 10}}")
      }
      fillGradient = try self.gradient(fill)
    }
    if let foreground = o["foregroundColor"], Self.isGradient(foreground) {
      throw foreground.error(
        "foregroundColor takes a colour, as SwiftUI's foregroundColor(_: Color) does: give the "
          + "gradient as \"fill\" (or as a stroke's \"color\")")
    }
    let fillColor = fillGradient == nil ? o["fill"] : nil
    // Beside a stroke, `fill` colours the fill only; the stroke takes the foreground colour.
    let ownColor = try ((stroked ? o["foregroundColor"] : nil) ?? fillColor ?? o["foregroundColor"])
      .map(self.color)
    // SwiftUI's default foreground style is `.primary`: the label colour of the scheme.
    let label = NamedColors.color("label", scheme: colorScheme) ?? .black
    let black = Bound(
      expression: .constant([label.red, label.green, label.blue, label.alpha]), path: field.path,
      line: 0, column: 0)
    let source = try o.required(kind)
    // The environment inside: the layer's own text styles over its containers' (a text's own
    // win over its stacks').
    let inner = environment.with(
      try kind == "text" || kind.hasSuffix("stack")
        ? textEnvironment(o, color: ownColor) : TextEnvironment(color: ownColor))
    let content: LayerDescription.Content
    switch kind {
    case "text": content = try textContent(source, o, environment: environment)
    case "symbol": content = try symbolContent(source, o, environment: environment)
    case "image": content = try imageContent(source, o)
    case "path": content = try pathContent(try inlinePath(source), o)
    case "pathFile": content = try pathContent(try pathFile(source), o)
    case "shape": content = try Self.shapeContent(source, o)
    case "spacer": content = try Self.spacerContent(source)
    case "vstack": content = try stackContent(.vstack, source, o, environment: inner)
    case "hstack": content = try stackContent(.hstack, source, o, environment: inner)
    default: content = try stackContent(.zstack, source, o, environment: inner)
    }
    let foreground = ownColor ?? environment.color ?? black
    var layer = try self.modifiers(of: content, o, color: foreground, field: field)
    if case .stack = content, let spacing = o["spacing"], case .string = spacing.value.kind {
      _ = try Self.layoutLength(spacing, .spacing, into: &layer.layoutBounds)
    }
    if case .stack = content, let alignment = o["alignment"], Self.isExpression(alignment) {
      layer.alignmentBounds[.stack] = try Self.alignmentExpression(alignment)
    }
    if stroked {
      if o.has("stroke"), o.has("strokeBorder") {
        throw field.error("give \"stroke\" or \"strokeBorder\", not both")
      }
      let inside = o.has("strokeBorder")
      let key = inside ? "strokeBorder" : "stroke"
      if Self.isRing(content) {
        throw try o.required(key).error(
          "a ring is a stroke already: give its lineWidth and lineCap, or stroke a circle")
      }
      layer.stroke = try self.stroke(try o.required(key), inside: inside, color: foreground)
      if let fill = fillColor {
        layer.color = try self.color(fill)
      }
      layer.fillsUnderStroke = o.has("fill")
    }
    layer.fillGradient = fillGradient
    let rectangle =
      kind == "shape"
      && [LayerDescription.ShapeKind.rectangle.rawValue, "roundedRectangle"].contains(
        o["shape"].flatMap { if case .string(let s) = $0.value.kind { s } else { nil } } ?? "")
    layer.effects = try effects(o, cornerRadiusIsModifier: !rectangle)
    if rectangle, let radius = o["cornerRadius"], Self.isExpression(radius) {
      layer.shapeCornerRadius = try Self.scalar(radius, in: 0...SceneLimits.canvasSide)
    }
    if let trim = o["trim"], !Self.isRing(content) {
      if o.has("strokeBorder") {
        throw trim.error(
          "a trimmed shape has no strokeBorder (trim(from:to:) gives a shape that cannot be "
            + "inset): stroke it with \"stroke\" instead")
      }
      layer.trim = try Self.trim(trim)
    }
    // `aspectRatio`: on a resizable image, "fit"/"fill" scales the image by its own ratio (its
    // drawing option); anywhere, {"ratio", "contentMode"} (or a mode alone) shapes what the
    // content is offered.
    if let field = o["aspectRatio"], !(kind == "image" && Self.isString(field)) {
      if case .object = field.value.kind {
        let a = try field.object(keys: ["ratio", "contentMode"])
        layer.aspect = (
          try a["ratio"]?.number(in: 0.001...1000),
          try a["contentMode"]?.choice(LayerDescription.ImageOptions.ContentMode.self) ?? .fit
        )
      } else if case .number(let ratio) = field.value.kind {
        throw field.error(
          "a ratio goes in {\"ratio\": \(JSONValue.format(ratio)), \"contentMode\": \"fit\"} "
            + "(.aspectRatio(_:contentMode:)); alone, \"fit\" or \"fill\" takes the content's own")
      } else {
        layer.aspect = (nil, try field.choice(LayerDescription.ImageOptions.ContentMode.self))
      }
    }
    layer.layoutPriority = try o["layoutPriority"]?.number(in: -1e6...1e6) ?? 0
    if let condition = o["if"] {
      guard Self.isExpression(condition) else {
        throw condition.expected(
          "an \"=expression\" of state (the layer is there while it is true)")
      }
      layer.condition = try Self.expression(condition)
    }
    if let field = o["allowsHitTesting"] {
      if case .bool(let allows) = field.value.kind {
        layer.allowsHitTesting = Bound.constant([allows ? 1 : 0], at: field)
      } else if Self.isExpression(field) {
        layer.allowsHitTesting = try Self.expression(field)
      } else {
        throw field.expected("true, false or an \"=expression\" of state")
      }
    }
    if let field = o["contentShape"] {
      layer.contentShape = try clipShape(field)
    }
    if let field = o["animation"] { layer.valueAnimations = try Self.valueAnimations(field) }
    if let transition = o["transition"] {
      guard o.has("if") || checkingDefinition else {
        throw transition.error("a transition needs \"if\": it says how the layer comes and goes")
      }
      layer.transition = try Self.transition(transition)
    }
    if let field = o["keyframes"] { layer.keyframes = try Self.keyframes(field) }
    if let field = o["phases"] { layer.phases = try phases(field) }
    if let field = o["matchedGeometryEffect"] {
      let m = try field.object(keys: ["id", "namespace", "properties"])
      guard o.has("if") || checkingDefinition else {
        throw field.error(
          "a matched geometry needs \"if\": its frame moves from the layer that goes to the one that comes"
        )
      }
      let id = try m.required("id").string(maxLength: 200)
      let namespace = try m["namespace"]?.string(maxLength: 200) ?? ""
      layer.matched = MatchedGeometry(
        key: namespace + "\u{0}" + id,
        properties: try m["properties"]?.choice(MatchedGeometry.Properties.self) ?? .frame)
    }
    if let field = o["fixedSize"] {
      // `true` (both axes, `.fixedSize()`) or `{"horizontal", "vertical"}` (each default false,
      // as `.fixedSize(horizontal:vertical:)` has no defaults; a key left out is false).
      if case .object = field.value.kind {
        let axes = try field.object(keys: ["horizontal", "vertical"])
        layer.fixedWidth = try axes["horizontal"]?.bool() ?? false
        layer.fixedHeight = try axes["vertical"]?.bool() ?? false
      } else {
        guard try field.bool() else {
          throw field.expected("true, or {\"horizontal\", \"vertical\"}")
        }
        (layer.fixedWidth, layer.fixedHeight) = (true, true)
      }
    }
    if kind == "text" {
      layer.textOptions = LayerDescription.TextOptions(
        lineLimit: inner.lineLimit, alignment: inner.alignment ?? .leading,
        lineSpacing: inner.lineSpacing ?? 0, truncation: inner.truncation ?? .tail,
        minimumScaleFactor: inner.minimumScaleFactor ?? 1, styling: inner.styling,
        transition: inner.transition ?? .opacity, ownTransition: o.has("contentTransition"))
    }
    // Decorations take the environment around the layer, not the layer's own.
    if let field = o["background"] {
      layer.backgrounds = [try decoration(field, environment: environment)]
    }
    if let field = o["overlay"] {
      layer.overlays = [try decoration(field, environment: environment)]
    }
    return layer
  }

  /// `background` / `overlay`: a colour or a gradient (a rectangle of it filling the frame, as
  /// `.background(Color.red)` and `.background(LinearGradient(…))` are), or `{"alignment", "content": {a layer}}`. The content takes
  /// the colours of the environment around the decorated layer, not the layer's own.
  mutating func decoration(
    _ field: JSONField, environment: TextEnvironment
  ) throws(SceneFileError) -> LayerDescription.Decoration {
    switch field.value.kind {
    case .string,
      .object where Self.isGradient(field) || Self.isColorObject(field):
      // A colour or a gradient (`.background(LinearGradient(…))`): the layer
      // `{"shape": "rectangle", "fill": it}`, at the key's own path (a colour checked here
      // first, so that an error names this key).
      if !Self.isGradient(field) { _ = try color(field) }
      let value = field.value
      let rectangle = JSONValue(
        kind: .object([
          JSONValue.Member(
            key: "shape",
            value: JSONValue(kind: .string("rectangle"), line: value.line, column: value.column)),
          JSONValue.Member(key: "fill", value: value),
        ]), line: value.line, column: value.column)
      return LayerDescription.Decoration(
        alignment: .center,
        layer: try layer(JSONField(rectangle, path: field.path), environment: environment))
    case .object(let members)
    where !members.contains(where: { $0.key == "content" })
      && members.contains(where: { Self.contentKeys.contains($0.key) }):
      // A layer itself (`.overlay(Image(systemName: "star"))`): centred, as the content of
      // `{"content": …}` without an alignment is.
      return LayerDescription.Decoration(
        alignment: .center, layer: try layer(field, environment: environment))
    case .object(let members) where members.contains(where: { $0.key == "color" }):
      // `{"color": …}` alone: the colour's own error (how to write it), not "unknown key".
      _ = try color(field)
      _ = try field.object(keys: ["alignment", "content"])
      throw field.expected("a colour, a gradient, a layer or {\"alignment\", \"content\"}")
    case .object:
      let o = try field.object(keys: ["alignment", "content"])
      // `.overlay(alignment: on ? .topTrailing : .center)`: from state, set by layout.
      if let f = o["alignment"], Self.isExpression(f) {
        var decoration = LayerDescription.Decoration(
          alignment: .center,
          layer: try layer(try o.required("content"), environment: environment))
        decoration.alignmentBound = try Self.alignmentExpression(f)
        return decoration
      }
      let alignment = try o["alignment"].map { (f) throws(SceneFileError) in
        try f.choice(Alignment.self, among: Alignment.nine)
      }
      return LayerDescription.Decoration(
        alignment: alignment ?? .center,
        layer: try layer(try o.required("content"), environment: environment))
    default:
      throw field.expected("a colour, a gradient, or {\"alignment\", \"content\": {a layer}}")
    }
  }

  /// Whether the field is a colour object (`{"white"}`, `{"hue", …}`, `{"red", …}`, with
  /// `opacity`): every key one of a colour's, where a shorthand takes a colour or an object of
  /// its own keys.
  static func isColorObject(_ field: JSONField) -> Bool {
    guard case .object(let members) = field.value.kind, !members.isEmpty else { return false }
    // `{"color", "opacity"}` takes both: a `{"color": …}` alone is the object of a stroke, an
    // underline or a shadow, whose colour it names.
    if members.contains(where: { $0.key == "color" }) {
      return members.count == 2 && members.contains { $0.key == "opacity" }
    }
    return members.allSatisfy { colorKeys.contains($0.key) }
  }

  /// Whether the field is a string.
  static func isString(_ field: JSONField) -> Bool {
    if case .string = field.value.kind { return true }
    return false
  }

  /// Whether the field is an `"=expression"` string.
  /// An alignment from state: an `=expression` whose names `leading`, `topTrailing`, … stand
  /// for their unit points, as `"=on ? trailing : leading"`; layout checks in each state that it
  /// gives one the modifier takes.
  static func alignmentExpression(_ field: JSONField) throws(SceneFileError) -> Bound {
    var bound = try unitPoint(field)
    bound.range = 0...1
    return bound
  }

  /// `"animation"` on a layer: `{"animation": …, "value": "=expression"}` (SwiftUI's
  /// `.animation(_:value:)`), or an array of them, innermost first.
  static func valueAnimations(_ field: JSONField) throws(SceneFileError) -> [ValueAnimation] {
    let advice =
      "{\"animation\": \"spring\", \"value\": \"=state\"} (SwiftUI's .animation(_:value:): "
      + "the layer's changes animate so whenever the value changes; an event's or a tap's "
      + "changes take theirs from its own \"animation\")"
    let entries: [JSONField]
    switch field.value.kind {
    case .array: entries = try field.array(maxCount: 16)
    case .object: entries = [field]
    default: throw field.expected(advice)
    }
    guard !entries.isEmpty else { throw field.expected(advice + ", or an array of them") }
    var out: [ValueAnimation] = []
    for entry in entries {
      guard case .object = entry.value.kind else { throw entry.expected(advice) }
      let o = try entry.object(keys: ["animation", "value"])
      let valueField = try o.required("value")
      guard isExpression(valueField) else {
        throw valueField.expected(
          "an \"=expression\" of state, as \"=liked\": the animation applies when its value "
            + "changes")
      }
      let animationField = try o.required("animation")
      if case .null = animationField.value.kind {
        throw animationField.expected(
          "an animation; SwiftUI's .animation(nil, value:) is \"none\"")
      }
      out.append(
        ValueAnimation(value: try expression(valueField), animation: try animation(animationField)))
    }
    return out
  }

  static func isExpression(_ field: JSONField) -> Bool {
    if case .string(let s) = field.value.kind { return s.hasPrefix("=") }
    return false
  }

  static func isRing(_ content: LayerDescription.Content) -> Bool {
    if case .ring = content { return true }
    return false
  }

  static let strokeKeys = [
    "color", "lineWidth", "lineCap", "lineJoin", "miterLimit", "dash", "dashPhase",
  ]

  /// `trim: [from, to]`: fractions of the path's length, each 0...1 or an expression.
  static func trim(_ field: JSONField) throws(SceneFileError) -> (from: Bound, to: Bound) {
    let ends = try field.array(maxCount: 2)
    guard ends.count == 2 else { throw field.expected("[from, to]") }
    return (try scalar(ends[0], in: 0...1), try scalar(ends[1], in: 0...1))
  }

  /// `stroke` / `strokeBorder`: a colour (width 1), or `{"color", "lineWidth", "lineCap",
  /// "lineJoin", "miterLimit", "dash", "dashPhase"}` with SwiftUI's `StrokeStyle` defaults
  /// (width 1, butt, miter, limit 10, no dashes); without `color`, the foreground colour.
  func stroke(
    _ field: JSONField, inside: Bool, color: Bound
  ) throws(SceneFileError) -> LayerDescription.Stroke {
    let width1 = Bound.constant([1], at: field)
    let zero = Bound.constant([0], at: field)
    let limit10 = Bound.constant([StrokeStyle().miterLimit], at: field)
    if Self.isGradient(field) {
      return LayerDescription.Stroke(
        style: StrokeStyle(), color: color, gradient: try gradient(field), lineWidth: width1,
        dashPhase: zero, miterLimit: limit10, inside: inside)
    }
    if Self.isString(field) || Self.isColorObject(field) {
      return LayerDescription.Stroke(
        style: StrokeStyle(), color: try self.color(field), lineWidth: width1, dashPhase: zero,
        miterLimit: limit10, inside: inside)
    }
    guard case .object = field.value.kind else {
      throw field.expected(
        "a colour, a gradient, or {\"color\", \"lineWidth\", \"lineCap\", \"lineJoin\", "
          + "\"miterLimit\", \"dash\", \"dashPhase\"}")
    }
    let o = try field.object(keys: Self.strokeKeys)
    var style = StrokeStyle()
    style.cap = try o["lineCap"]?.choice(LineCap.self) ?? .butt
    style.join = try o["lineJoin"]?.choice(LineJoin.self) ?? .miter
    if let dash = o["dash"] {
      var lengths: [Double] = []
      for entry in try dash.array(maxCount: 64) {
        lengths.append(try entry.number(in: 0...SceneLimits.canvasSide))
      }
      style.dash = lengths
    }
    let paint = o["color"]
    let strokeGradient = try paint.flatMap { Self.isGradient($0) ? $0 : nil }.map(gradient)
    return LayerDescription.Stroke(
      style: style,
      color: try (strokeGradient == nil ? paint : nil).map(self.color) ?? color,
      gradient: strokeGradient,
      lineWidth: try o["lineWidth"].map { (f) throws(SceneFileError) in
        try Self.scalar(f, in: 0...SceneLimits.canvasSide)
      } ?? width1,
      dashPhase: try o["dashPhase"].map { (f) throws(SceneFileError) in try Self.scalar(f) }
        ?? zero,
      miterLimit: try o["miterLimit"].map { (f) throws(SceneFileError) in
        try Self.scalar(f, in: 1...1000)
      } ?? limit10,
      inside: inside)
  }

  // MARK: - Contents

  /// `"text": "…"`, or an array of runs — strings, or `{"text", …}` objects with their own font,
  /// styling and colour (`Text("a") + Text("b").bold()`) — with the layer's font; shaped later.
  mutating func textContent(
    _ source: JSONField, _ o: JSONObject, environment: TextEnvironment
  ) throws(SceneFileError) -> LayerDescription.Content {
    let font = environment.font(own: try Self.ownFont(o), ownWeight: try Self.ownWeight(o))
    var runs: [TextRun] = []
    if case .array = source.value.kind {
      for item in try source.array(maxCount: SceneLimits.textRuns) {
        if case .object = item.value.kind {
          let r = try item.object(keys: Self.textRunKeys)
          let textField = try r.required("text")
          let (text, template) = try Self.textOrTemplate(textField)
          var runFont = r.has("font") ? try Self.font(r) : font
          if !r.has("font") {
            if let w = r["weight"] { runFont.weight = try Self.weight(w) }
            if try r["bold"]?.bool() == true { runFont.weight = .bold }
          }
          runs.append(
            TextRun(
              text: text, template: template, font: runFont, styling: try textStyling(r),
              color: try r["foregroundColor"].map(color), path: textField.path))
        } else {
          guard case .string = item.value.kind else {
            throw item.expected("a string or {\"text\", …}")
          }
          let (text, template) = try Self.textOrTemplate(item)
          runs.append(
            TextRun(
              text: text, template: template, font: font, styling: TextStyling(), color: nil,
              path: item.path))
        }
      }
    } else {
      let (text, template) = try Self.textOrTemplate(source)
      runs = [
        TextRun(
          text: text, template: template, font: font, styling: TextStyling(), color: nil,
          path: source.path)
      ]
    }
    let bytes = runs.reduce(0) { $0 + $1.text.utf8.count }
    guard bytes <= SceneLimits.textBytes else {
      throw source.error("the text's runs add up to more than \(SceneLimits.textBytes) bytes")
    }
    textBytes += bytes
    guard textBytes <= SceneLimits.totalTextBytes else {
      throw source.error(
        "the scene's texts add up to more than \(SceneLimits.totalTextBytes) bytes")
    }
    return .text(runs, font)
  }

  /// A run's characters: a string, or `=` and a Swift string literal with interpolations of
  /// state (`"=\"\\(count) likes\""`), whose characters are known once state is.
  static func textOrTemplate(
    _ field: JSONField
  ) throws(SceneFileError) -> (String, TextTemplate?) {
    let text = try field.string(maxLength: SceneLimits.textBytes)
    guard text.hasPrefix("=") else { return (text, nil) }
    do { return ("", try TextTemplate.parse(String(text.dropFirst()))) } catch {
      throw field.error(error.description)
    }
  }

  /// The keys of a text run object.
  static let textRunKeys =
    ["text", "font", "bold", "weight", "foregroundColor"] + textStylingKeys

  /// The `Text` modifiers of glyphs, spacing and lines, on a text layer or a run.
  static let textStylingKeys = [
    "italic", "underline", "strikethrough", "monospacedDigit", "kerning", "tracking",
  ]

  /// `contentTransition`: `"opacity"`, `"identity"`, `"interpolate"`, `"numericText"`, or
  /// `{"numericText": {"countsDown": true}}`.
  static func textTransition(_ field: JSONField) throws(SceneFileError) -> TextTransition {
    if case .object = field.value.kind {
      let o = try field.object(keys: ["numericText"])
      let options = try o.required("numericText").object(keys: ["countsDown"])
      return try options["countsDown"]?.bool() == true ? .numericTextCountsDown : .numericText
    }
    let name = try field.string(maxLength: 40)
    guard let transition = TextTransition(rawValue: name), transition != .numericTextCountsDown
    else {
      throw field.error(
        "unknown content transition \"\(name)\": expected \"opacity\", \"identity\", "
          + "\"interpolate\", \"numericText\" or {\"numericText\": {\"countsDown\": true}}")
    }
    return transition
  }

  /// `italic`, `underline`, `strikethrough` (true/false, a colour, or `{"color", "pattern",
  /// "isActive"}`),
  /// `monospacedDigit`, `kerning` and `tracking` (points).
  func textStyling(_ o: JSONObject) throws(SceneFileError) -> TextStyling {
    var styling = TextStyling()
    styling.italic = try o["italic"]?.bool()
    styling.monospacedDigit = try o["monospacedDigit"]?.bool()
    styling.kerning = try o["kerning"]?.number(in: -100...100)
    styling.tracking = try o["tracking"]?.number(in: -100...100)
    func line(_ field: JSONField?) throws(SceneFileError) -> (Bool?, Bound?, LinePattern?) {
      guard let field else { return (nil, nil, nil) }
      switch field.value.kind {
      case .bool(let on): return (on, nil, nil)
      case .object where Self.isColorObject(field): return (true, try color(field), nil)
      case .object:
        let l = try field.object(keys: ["color", "pattern", "isActive"])
        return (
          try l["isActive"]?.bool() ?? true, try l["color"].map(color),
          try l["pattern"]?.choice(LinePattern.self)
        )
      case .string: return (true, try color(field), nil)
      default: throw field.expected("true, false, a colour, or {\"color\", \"pattern\"}")
      }
    }
    (styling.underline, styling.underlineColor, styling.underlinePattern) = try line(
      o["underline"])
    (styling.strikethrough, styling.strikethroughColor, styling.strikethroughPattern) = try line(
      o["strikethrough"])
    return styling
  }

  /// The text styles a text or a stack sets itself (`font`, `weight`/`bold`, the styling and
  /// line keys, `contentTransition`) and its own foreground colour: what it adds to the
  /// environment.
  func textEnvironment(
    _ o: JSONObject, color: Bound?
  ) throws(SceneFileError) -> TextEnvironment {
    TextEnvironment(
      color: color, font: try Self.ownFont(o), weight: try Self.ownWeight(o),
      styling: try textStyling(o),
      lineLimit: try o["lineLimit"].map { (f) throws(SceneFileError) in
        try f.integer(in: 1...1000)
      },
      alignment: try o["multilineTextAlignment"]?.choice(
        LayerDescription.TextOptions.Alignment.self),
      lineSpacing: try o["lineSpacing"]?.number(in: 0...SceneLimits.canvasSide),
      truncation: try o["truncationMode"]?.choice(Paragraph.Truncation.self),
      minimumScaleFactor: try o["minimumScaleFactor"]?.number(in: 0.01...1),
      transition: try o["contentTransition"].map(Self.textTransition),
      imageScale: try o["imageScale"]?.choice(LayerDescription.SymbolScale.self))
  }

  /// `"symbol": "heart.fill"`: a name the symbol table knows (or `cat`, `cat.fill`), with the
  /// closest names when it is not.
  func symbolContent(
    _ source: JSONField, _ o: JSONObject, environment: TextEnvironment
  ) throws(SceneFileError) -> LayerDescription.Content {
    let name = try source.string(maxLength: 200)
    if name.isEmpty { throw source.expected("a symbol name (the README lists them)") }
    if name.hasPrefix("=") {
      throw source.error(
        "a symbol's name does not come from state: for Image(systemName: liked ? \"heart.fill\" "
          + ": \"heart\") give two layers in a zstack, {\"symbol\": \"heart.fill\", \"if\": "
          + "\"=liked\"} and {\"symbol\": \"heart\", \"if\": \"=!liked\"}, which crossfade by "
          + "their transitions")
    }
    guard SymbolFont.knows(name) || Self.catSymbols.contains(name) else {
      let names = SymbolFont.names + Self.catSymbols
      // The three nearest: first the names of the same symbol (`wifi.square` → `wifi`,
      // `wifi.circle`), then those whose first word begins the other's (`gear.fill` →
      // `gearshape.fill`), then a slip of a letter or two, each group by spelling.
      let base = String(name.split(separator: ".").first ?? Substring(name))
      func rank(_ candidate: String) -> Int {
        let first = String(candidate.split(separator: ".").first ?? Substring(candidate))
        if first == base { return 0 }
        if first.hasPrefix(base) || base.hasPrefix(first) { return 1 }
        return JSONField.distance(candidate, name) <= 2 ? 2 : 3
      }
      let closest = names.map { ($0, rank($0), JSONField.distance($0, name)) }
        .sorted { ($0.1, $0.2, $0.0) < ($1.1, $1.2, $1.0) }
        .prefix(3).map(\.0)
      throw source.error(
        "no symbol is named \"\(name)\"; the closest: "
          + closest.map { "\"\($0)\"" }.joined(separator: ", ")
          + " (the README lists the \(names.count) names)")
    }
    // Material Icons has one weight: `weight` and `bold` (`.fontWeight`, `.bold()` on an
    // `Image(systemName:)`) are checked and do not change the glyph (docs/SEMANTICS.md).
    _ = try o["weight"].map { (f) throws(SceneFileError) in try Self.weight(f) }
    _ = try o["bold"]?.bool()
    return .symbol(
      name, environment.font(own: try Self.ownFont(o), ownWeight: nil),
      scale: try o["imageScale"]?.choice(LayerDescription.SymbolScale.self)
        ?? environment.imageScale ?? .medium,
      resizable: try o["resizable"]?.bool() ?? false)
  }

  /// Symbol names drawn with our own cat (Assets/cat.svgpath) rather than the icon font.
  static let catSymbols = ["cat", "cat.fill"]

  /// `"path": "M…"`: data in the scene itself.
  mutating func inlinePath(_ source: JSONField) throws(SceneFileError) -> Path {
    let data = try source.string(maxLength: SceneLimits.pathStringBytes)
    try countPathData(data.utf8.count, at: source)
    do { return try PathDataParser.parse(data) } catch {
      throw source.error("invalid path data: \(error)")
    }
  }

  /// A path (from `path` or `pathFile`) with its `viewBox` and `fillRule`.
  func pathContent(
    _ path: Path, _ o: JSONObject
  ) throws(SceneFileError) -> LayerDescription.Content {
    var viewBox: Rect?
    if let box = o["viewBox"] {
      let numbers = try box.array(maxCount: 4)
      guard numbers.count == 4 else { throw box.expected("[x, y, width, height]") }
      var v: [Double] = []
      for n in numbers { v.append(try n.number(in: -1e7...1e7)) }
      guard v[2] > 0, v[3] > 0 else { throw box.error("the width and height must be > 0") }
      viewBox = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
    // `evenOdd` as `clipShape`'s `style` spells it, or SVG's `evenodd`.
    var rule = FillRule.nonzero
    if let field = o["fillRule"],
      try field.choice(["nonzero", "evenodd", "evenOdd"], name: { $0 }) != "nonzero"
    {
      rule = .evenodd
    }
    return .path(path, viewBox: viewBox, rule: rule)
  }

  /// `RoundedRectangle` has no initializer without a radius: a scene says it too.
  static let roundedRectangleNeedsRadius =
    "roundedRectangle needs a \"cornerRadius\" (RoundedRectangle(cornerRadius:)); "
    + "for square corners give \"rectangle\""

  /// `"shape": "roundedRectangle"` and the parameters its kind takes.
  static func shapeContent(
    _ source: JSONField, _ o: JSONObject
  ) throws(SceneFileError) -> LayerDescription.Content {
    let kind = try source.choice(LayerDescription.ShapeKind.self)
    let rectangular = kind == .rectangle || kind == .roundedRectangle
    // On other shapes `cornerRadius` is the clipping modifier.
    // A capsule takes a style too (`Capsule(style:)`); at its radius, half the short side, a
    // continuous corner is the circular one (see `PathBuilder.addRoundedRect`).
    if o.has("cornerStyle"), !rectangular, kind != .capsule {
      throw o.field.error("cornerStyle applies to rectangles and capsules only")
    }
    for key in ["lineWidth", "lineCap"] where o.has(key) && kind != .ring {
      throw try o.required(key).error(
        "\(key) applies to rings only; other shapes take it in \"stroke\": {\"\(key)\": …}")
    }
    if kind == .roundedRectangle, !o.has("cornerRadius") {
      throw source.error(Self.roundedRectangleNeedsRadius)
    }
    guard kind == .ring else {
      // An expression is bound by the layer (`shapeCornerRadius`); its value is taken then.
      var radius = 0.0
      if rectangular, let field = o["cornerRadius"], !isExpression(field) {
        radius = try field.number(in: 0...SceneLimits.canvasSide)
      }
      let style = try o["cornerStyle"]?.choice(CornerStyle.self)
      return .shape(kind, cornerRadius: radius, style: style)
    }
    // `StrokeStyle(lineWidth:)` animates, a ring's too.
    let lineWidth =
      try o["lineWidth"].map { (f) throws(SceneFileError) in
        try Self.scalar(f, in: 0...SceneLimits.canvasSide)
      } ?? Bound.constant([1], at: source)
    var from = Bound.constant([0], at: source)
    var to = Bound.constant([1], at: source)
    if let trim = o["trim"] {
      let ends = try trim.array(maxCount: 2)
      guard ends.count == 2 else { throw trim.expected("[from, to]") }
      from = try scalar(ends[0], in: 0...1)
      to = try scalar(ends[1], in: 0...1)
    }
    let cap = try o["lineCap"]?.choice(LayerDescription.RingCap.self) ?? .butt
    return .ring(lineWidth: lineWidth, from: from, to: to, roundCaps: cap == .round)
  }

  /// `"spacer": true` (`Spacer()`) or `{"minLength": n}` (`Spacer(minLength: n)`, points).
  /// SwiftUI's `minLength` of nil is "the default spacing between views": 8 points here, as
  /// stacks' default spacing is.
  static func spacerContent(_ source: JSONField) throws(SceneFileError) -> LayerDescription.Content
  {
    if case .object = source.value.kind {
      let o = try source.object(keys: ["minLength"])
      let minLength = try o["minLength"]?.number(in: 0...4096) ?? defaultSpacerLength
      return .spacer(minLength: minLength)
    }
    guard case .bool(let on) = source.value.kind, on else {
      throw source.expected("true or {\"minLength\": points}")
    }
    return .spacer(minLength: defaultSpacerLength)
  }

  /// A layer placed where no HStack or VStack holds it (in a ZStack, or on the screen): a spacer
  /// there grows on both axes, as a frame of unbounded width and height does (Apple's `Spacer`:
  /// "expands along the major axis of its containing stack layout, or on both axes if not
  /// contained in a stack"); anything else as it is.
  static func outsideAxisStack(_ layer: LayerDescription) -> LayerDescription {
    guard case .spacer = layer.content else { return layer }
    var layer = layer
    if layer.frameWidth == nil, layer.flexWidth == nil {
      layer.flexWidth = .init(min: nil, max: .infinity)
    }
    if layer.frameHeight == nil, layer.flexHeight == nil {
      layer.flexHeight = .init(min: nil, max: .infinity)
    }
    return layer
  }

  /// A spacer's minimum length when none is given (points).
  static let defaultSpacerLength = 8.0

  /// A stack's children (in `environment`, the stack's own text styles and foreground colour
  /// over its containers', as SwiftUI's environment passes them down), its alignment (the ones
  /// its axis has) and spacing.
  mutating func stackContent(
    _ axis: LayerDescription.StackAxis, _ source: JSONField, _ o: JSONObject,
    environment: TextEnvironment
  ) throws(SceneFileError) -> LayerDescription.Content {
    var children: [LayerDescription] = []
    for child in try source.array(maxCount: SceneLimits.layers) {
      let layer = try layer(child, environment: environment)
      children.append(axis == .zstack ? Self.outsideAxisStack(layer) : layer)
    }
    // SwiftUI's: ZStack takes an `Alignment` (nine), VStack a `HorizontalAlignment`, HStack a
    // `VerticalAlignment`.
    let alignments: [Alignment] =
      switch axis {
      case .zstack: Alignment.nine
      case .vstack: [.center, .leading, .trailing]
      case .hstack: [.center, .top, .bottom, .firstTextBaseline, .lastTextBaseline]
      }
    // An alignment from state starts centred; layout sets it in each state.
    let alignment =
      try o["alignment"].flatMap { (f) throws(SceneFileError) in
        Self.isExpression(f) ? nil : try f.choice(Alignment.self, among: alignments)
      } ?? .center
    // An expression's slot is recorded on the layer by `layer(_:)`.
    var slots: [LayerDescription.LayoutSlot: Bound] = [:]
    return .stack(
      axis, children, alignment: alignment,
      spacing: try o["spacing"].map { (f) throws(SceneFileError) in
        try Self.layoutLength(f, .spacing, into: &slots)
      } ?? 8)
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
    case .failure(let refusal): throw source.error("\"\(FileError.escaped(name))\": \(refusal)")
    }
    let left = SceneLimits.totalPathDataBytes - pathBytes
    if !readFiles.contains(resolved) { readFiles.append(resolved) }
    let bytes: [UInt8]?
    do {
      bytes = try FileReader.read(resolved, atMost: left, regularFileOnly: !files.allowsOutside)
    } catch {
      throw source.error("cannot read \"\(FileError.escaped(name))\": \(error.reason)")
    }
    guard let bytes else {
      throw source.error(
        "the scene's path data adds up to more than \(byteCountText(SceneLimits.totalPathDataBytes))"
      )
    }
    try countPathData(bytes.count, at: source)
    do { return try PathDataParser.parse(utf8: bytes) } catch {
      throw source.error(
        "invalid path data in \"\(FileError.escaped(name))\": \(error.descriptionWithoutInput)")
    }
  }
}
