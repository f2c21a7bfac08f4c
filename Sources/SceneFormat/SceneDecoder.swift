import FileIO
import Motion
import Raster
import SceneGraph
import Typeset

/// Reads a scene file's JSON into a `SceneDescription`, checking every key, type and bound, and
/// naming the JSON path of anything wrong.
struct SceneDecoder {
  /// Where `pathFile` names are looked up, and whether they may lead out of the scene's folder.
  var files: FileConfinement
  /// The files read (`image`s and `pathFile`s), resolved, each once.
  var readFiles: [String] = []

  var layerCount = 0
  /// How deep the layer being read is, and the definitions being expanded around it.
  var nesting = 0
  var expanding: [String] = []
  /// Text and path data read so far, for the totals below (a definition counts each use).
  var textBytes = 0
  var pathBytes = 0
  /// Images decoded so far, by resolved path, and the bytes and pixels they took.
  var images: [String: RasterImage] = [:]
  /// Warnings the files read give (an image's ICC profile ignored), for `LoadedScene.notes`.
  var notes: [String] = []
  var imageFileBytes = 0
  var imagePixels = 0
  /// `definitions`: layers that others `use` and adjust.
  var definitions: [String: JSONValue] = [:]
  /// Whether the layer being read is a definition checked on its own: the `if` a transition or
  /// a matched geometry needs may come from the layers that use it.
  var checkingDefinition = false

  /// The scene's colour scheme: `--color-scheme`, else the canvas's `colorScheme`, else light.
  var colorScheme: ColorScheme
  /// `--color-scheme`, which wins over the file's.
  let schemeOverride: ColorScheme?

  init(files: FileConfinement, colorScheme: ColorScheme? = nil) {
    self.files = files
    self.schemeOverride = colorScheme
    self.colorScheme = colorScheme ?? .light
  }

  /// Whether an error in a definition read on its own is one no layer using it can undo: a key
  /// the format does not know (or of another kind of layer), two contents, a cycle.
  static func noUseUndoes(_ error: SceneFileError) -> Bool {
    error.message.hasPrefix("unknown key") || error.message.hasPrefix("more than one content")
      || error.message.contains("uses itself")
  }

  mutating func decode(_ root: JSONValue) throws(SceneFileError) -> SceneDescription {
    let top = try JSONField(root, path: "").object(keys: [
      "$schema", "description", "canvas", "state", "definitions", "layers", "taps", "onTap",
      "events", "duration",
    ])
    if let field = top["definitions"] {
      guard case .object(let members) = field.value.kind else { throw field.expected("an object") }
      for member in members {
        let value = JSONField(member.value, path: JSONField.join(field.path, member.key))
        guard case .object(let keys) = member.value.kind else {
          throw value.expected("a layer object")
        }
        if keys.contains(where: { $0.key == "use" }) {
          throw value.error("a definition cannot \"use\" another")
        }
        definitions[member.key] = member.value
      }
    }
    if let description = top["description"] { _ = try description.string() }
    if let schema = top["$schema"] { _ = try schema.string() }
    var canvas = CanvasDescription(
      device: nil, width: nil, height: nil, safeTop: 0, safeBottom: 0, scale: nil,
      background: NamedColors.color("systemBackground", scheme: colorScheme) ?? .white)
    if let field = top["canvas"] { canvas = try self.canvas(field) }
    var state: [StateValue] = []
    if let field = top["state"] {
      guard case .object(let members) = field.value.kind else { throw field.expected("an object") }
      guard members.count <= SceneLimits.stateValues else {
        throw field.error("\(members.count) state values; at most \(SceneLimits.stateValues)")
      }
      for member in members {
        let value = JSONField(member.value, path: JSONField.join(field.path, member.key))
        try Self.checkName(member.key, at: value)
        var isBoolean = false
        if case .bool = value.value.kind { isBoolean = true }
        state.append(
          StateValue(name: member.key, initial: try self.stateValue(value), isBoolean: isBoolean))
      }
    }
    // Every definition is checked where it is written, used or not, for keys the format does
    // not know at any depth (an unused one's typo would pass): no layer that uses it can take
    // such a key away. What a using layer may complete (a content, a corner radius, an `if`
    // for a transition, an image name it overrides) is checked in each layer that uses it,
    // which names the definition's path for a key it took from there. One with content is
    // read as a layer, within one layer budget for all (`SceneLimits.layers`); one of
    // modifiers only by its keys.
    if let field = top["definitions"], case .object(let members) = field.value.kind {
      let known = Array(
        Set(Self.contentKeys + Self.contentParameters.values.joined() + Self.modifierKeys))
      var checked = 0
      for member in members {
        let value = JSONField(member.value, path: JSONField.join(field.path, member.key))
        guard case .object(let keys) = member.value.kind else { continue }
        guard keys.contains(where: { Self.contentKeys.contains($0.key) }),
          checked < SceneLimits.layers
        else {
          _ = try value.object(keys: known)
          continue
        }
        var probe = self
        probe.checkingDefinition = true
        probe.layerCount = checked
        // Read as if used: a cycle through it is its own.
        probe.expanding = [member.key]
        do {
          _ = try probe.layer(value, environment: TextEnvironment())
        } catch  where Self.noUseUndoes(error) {
          throw error
        } catch {}
        checked = probe.layerCount
      }
    }
    let layers = try top.required("layers").array(maxCount: SceneLimits.layers).map {
      (field) throws(SceneFileError) in
      Self.outsideAxisStack(try layer(field, environment: TextEnvironment()))
    }
    let taps = try top["taps"]?.array(maxCount: SceneLimits.taps).map(Self.tap) ?? []
    let handlers =
      try top["onTap"]?.array(maxCount: SceneLimits.tapHandlers).map(self.handler) ?? []
    let events = try top["events"]?.array(maxCount: SceneLimits.timedEvents).map(self.event) ?? []
    var description = SceneDescription(
      canvas: canvas, colorScheme: colorScheme, state: state, layers: layers, taps: taps,
      tapHandlers: handlers, events: events)
    description.duration = try top["duration"]?.number(in: 0.01...SceneLimits.time)
    return description
  }

  static func checkName(_ name: String, at field: JSONField) throws(SceneFileError) {
    let reserved = ["screen", "safeArea", "tap", "true", "false", "time"]
    let valid =
      name.first.map { $0.isLetter || $0 == "_" } == true
      && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    guard valid, !reserved.contains(name), Expression.functions[name] == nil else {
      throw field.error(
        "\"\(name)\" cannot name a state value (letters, digits and _; not screen, safeArea, tap, time or a function)"
      )
    }
  }

  // MARK: - Canvas

  mutating func canvas(_ field: JSONField) throws(SceneFileError) -> CanvasDescription {
    let o = try field.object(keys: [
      "device", "width", "height", "safeArea", "scale", "background", "colorScheme",
    ])
    // The colour scheme first: the background may be a system colour.
    if let scheme = o["colorScheme"] {
      let fileScheme = try scheme.choice(ColorScheme.self)
      colorScheme = schemeOverride ?? fileScheme
    }
    var device: Device?
    if let name = o["device"] { device = try name.choice(Device.presets, name: \.name) }
    if device != nil, o.has("width") || o.has("height") || o.has("safeArea") {
      throw field.error(
        "give either \"device\" or \"width\", \"height\" and \"safeArea\", not both")
    }
    let width = try o["width"]?.number(in: 1...SceneLimits.canvasSide)
    let height = try o["height"]?.number(in: 1...SceneLimits.canvasSide)
    if device == nil, width == nil || height == nil {
      throw field.error("missing \"device\", or \"width\" and \"height\"")
    }
    var (top, bottom) = (0.0, 0.0)
    if let safe = o["safeArea"] {
      let s = try safe.object(keys: ["top", "bottom"])
      top = try s["top"]?.number(in: 0...SceneLimits.canvasSide) ?? 0
      bottom = try s["bottom"]?.number(in: 0...SceneLimits.canvasSide) ?? 0
      if top + bottom >= height ?? 0 { throw safe.error("the insets leave no safe area") }
    }
    return CanvasDescription(
      device: device, width: width, height: height, safeTop: top, safeBottom: bottom,
      scale: try o["scale"].map { (f) throws(SceneFileError) in Double(try f.integer(in: 1...3)) },
      background: try o["background"].map(self.staticColor)
        ?? NamedColors.color("systemBackground", scheme: colorScheme) ?? .white)
  }

  // MARK: - Values

  /// A number, or an `=expression` when `bindable`.
  static func scalar(
    _ field: JSONField, in range: ClosedRange<Double> = -1e6...1e6
  ) throws(SceneFileError) -> Bound {
    if case .string(let s) = field.value.kind, s.hasPrefix("=") {
      var bound = try expression(field)
      bound.range = range
      return bound
    }
    guard case .number(let n) = field.value.kind, range.contains(n) else {
      throw field.expected(JSONField.describe(range) + " or an \"=expression\"")
    }
    return Bound.constant([n], at: field)
  }

  static func expression(_ field: JSONField) throws(SceneFileError) -> Bound {
    let text = try field.string()
    do {
      let e = try ExpressionParser.parse(String(text.dropFirst()))
      return Bound(
        expression: e, path: field.path, line: field.value.line, column: field.value.column)
    } catch {
      // A long expression is shown by its start, not echoed whole.
      let shown = text.count > 60 ? String(text.prefix(40)) + "…" : text
      throw field.error("in \"\(shown)\": \(error.description)")
    }
  }

  /// `{"x": …, "y": …}` (numbers or expressions) or one `=expression` of a point.
  static func point(_ field: JSONField, defaultValue: Double? = nil) throws(SceneFileError) -> Bound
  {
    if case .string = field.value.kind {
      var bound = try expression(field)
      bound.range = -1e6...1e6
      return bound
    }
    guard case .object = field.value.kind else {
      throw field.expected("{\"x\": …, \"y\": …} or an \"=expression\"")
    }
    let o = try field.object(keys: ["x", "y"])
    func part(_ key: String) throws(SceneFileError) -> Expression {
      if let f = o[key] { return try scalar(f).expression }
      guard let defaultValue else { throw field.error("missing the key \"\(key)\"") }
      return .constant([defaultValue])
    }
    let (x, y) = (try part("x"), try part("y"))
    if case .constant(let a) = x, case .constant(let b) = y {
      return Bound.constant(a + b, at: field)
    }
    return Bound(
      expression: .vector([x, y]), path: field.path, line: field.value.line,
      column: field.value.column, range: -1e6...1e6)
  }

  /// `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `0xRRGGBB`, a SwiftUI or UIKit colour name (its value in
  /// the scene's colour scheme), or `{"white", "opacity"}`, `{"hue", "saturation", "brightness",
  /// "opacity"}`, `{"red", "green", "blue", "opacity"}` (SwiftUI's `Color` initialisers,
  /// components 0…1, gamma-encoded sRGB), `{"color", "opacity"}` (`Color.opacity(_:)`: the
  /// colour's own opacity times this one).
  func staticColor(_ field: JSONField) throws(SceneFileError) -> Color {
    if case .object = field.value.kind { return try colorObject(field) }
    let text = try field.string()
    if text.hasPrefix("=") {
      throw field.error(
        "expected a colour: this one does not animate, so it takes no =expression")
    }
    if let named = NamedColors.color(text, scheme: colorScheme) { return named }
    do { return try Color(hex: text) } catch {
      let hint = JSONField.didYouMean(text, among: NamedColors.names)
      throw field.expected(
        "a colour: #RRGGBB, #RRGGBBAA, #RGB, 0xRRGGBB, {\"white\"}, {\"hue\", \"saturation\", "
          + "\"brightness\"}, {\"red\", \"green\", \"blue\"} or a colour name (red, systemBlue, "
          + "label, secondarySystemBackground, …: the list is in the README)" + hint)
    }
  }

  static let colorKeys = [
    "white", "hue", "saturation", "brightness", "red", "green", "blue", "color", "opacity",
  ]

  /// Which of a colour object's forms `o` is: "white", "hue", "red" or "color" (a colour with
  /// an opacity: `Color.black.opacity(0.85)`).
  static func colorForm(_ o: JSONObject, _ field: JSONField) throws(SceneFileError) -> String {
    let forms = [
      ["white"], ["hue", "saturation", "brightness"], ["red", "green", "blue"], ["color"],
    ]
    let given = forms.filter { $0.contains(where: o.has) }
    if given.count == 1, given[0] == ["color"], !o.has("opacity") {
      throw field.expected(
        "\"opacity\" beside \"color\" ({\"color\": \"black\", \"opacity\": 0.85} is "
          + "Color.black.opacity(0.85)); a colour alone is written as itself")
    }
    guard given.count == 1, let form = given.first else {
      throw field.expected(
        "one of {\"white\"}, {\"hue\", \"saturation\", \"brightness\"}, {\"red\", \"green\", "
          + "\"blue\"} or {\"color\"} (a colour, as Color.black.opacity(0.85) is "
          + "{\"color\": \"black\", \"opacity\": 0.85}), with \"opacity\"")
    }
    return form[0]
  }

  /// `Color(white:opacity:)`, `Color(hue:saturation:brightness:opacity:)`,
  /// `Color(red:green:blue:opacity:)`.
  func colorObject(_ field: JSONField) throws(SceneFileError) -> Color {
    let o = try field.object(keys: Self.colorKeys)
    let form = try Self.colorForm(o, field)
    for member in o.members where Self.isExpression(JSONField(member.value, path: field.path)) {
      throw SceneFileError(
        path: JSONField.join(field.path, member.key),
        (member.key == "color" ? "expected a colour" : "expected a number from 0 to 1")
          + ": this colour does not animate, so its components take no =expression",
        line: member.value.line, column: member.value.column)
    }
    let opacity = try o["opacity"]?.number(in: 0...1) ?? 1
    func part(_ key: String) throws(SceneFileError) -> Double {
      try o.required(key).number(in: 0...1)
    }
    switch form {
    case "color":
      // `Color.opacity(_:)` multiplies the colour's own opacity.
      let base = try staticColor(o.required("color"))
      return Color(red: base.red, green: base.green, blue: base.blue, alpha: base.alpha * opacity)
    case "white":
      let w = try part("white")
      return Color(red: w, green: w, blue: w, alpha: opacity)
    case "hue":
      let (r, g, b) = HueSaturationBrightness.rgb(
        hue: try part("hue"), saturation: try part("saturation"),
        brightness: try part("brightness"))
      return Color(red: r, green: g, blue: b, alpha: opacity)
    default:
      return Color(
        red: try part("red"), green: try part("green"), blue: try part("blue"), alpha: opacity)
    }
  }

  func color(_ field: JSONField) throws(SceneFileError) -> Bound {
    if case .string(let s) = field.value.kind, s.hasPrefix("=") {
      return try Self.expression(field)
    }
    if Self.holdsExpression(field) { return try colorObjectExpression(field) }
    let c = try staticColor(field)
    return Bound.constant([c.red, c.green, c.blue, c.alpha], at: field)
  }

  /// Whether a colour object holds an `=expression` among its components, or in the colour of
  /// its `{"color", "opacity"}` form.
  static func holdsExpression(_ field: JSONField) -> Bool {
    guard case .object(let members) = field.value.kind else { return false }
    return members.contains { member in
      let inner = JSONField(member.value, path: field.path)
      return isExpression(inner) || (member.key == "color" && holdsExpression(inner))
    }
  }

  /// A colour object some of whose components are `=expressions`: `Color(white:opacity:)` as
  /// `[w, w, w, opacity]`, `Color(hue:saturation:brightness:opacity:)` as `hsb(…)`,
  /// `Color(red:green:blue:opacity:)` as `[r, g, b, opacity]`, each component in 0…1.
  private func colorObjectExpression(_ field: JSONField) throws(SceneFileError) -> Bound {
    let o = try field.object(keys: Self.colorKeys)
    let form = try Self.colorForm(o, field)
    func part(_ key: String) throws(SceneFileError) -> Expression {
      let f = try o.required(key)
      if Self.isExpression(f) { return try Self.expression(f).expression }
      return .constant([try f.number(in: 0...1)])
    }
    let opacity = o.has("opacity") ? try part("opacity") : .constant([1])
    let expression: Expression
    var keys: [String]?
    switch form {
    case "color":
      // `color.opacity(o)`, either from state: the colour's components, its alpha times o.
      let base = try color(o.required("color"))
      expression = .binary(
        .multiply, base.expression,
        .vector([.constant([1]), .constant([1]), .constant([1]), opacity]))
      keys = ["color", "color", "color", "opacity"]
    case "white":
      let w = try part("white")
      expression = .vector([w, w, w, opacity])
      keys = ["white", "white", "white", "opacity"]
    case "hue":
      // Its components' ranges are checked, and named, by the conversion itself.
      expression = .call(
        Expression.hsbInitializer,
        [try part("hue"), try part("saturation"), try part("brightness"), opacity])
    default:
      expression = .vector([try part("red"), try part("green"), try part("blue"), opacity])
      keys = ["red", "green", "blue", "opacity"]
    }
    var bound = Bound(
      expression: expression, path: field.path, line: field.value.line,
      column: field.value.column)
    bound.range = 0...1
    bound.componentKeys = keys
    return bound
  }

  /// A state value's initial value: a number, true/false, a point, a colour or an expression of
  /// the screen.
  func stateValue(_ field: JSONField) throws(SceneFileError) -> Bound {
    switch field.value.kind {
    case .bool(let b): return Bound.constant([b ? 1 : 0], at: field)
    case .number: return try Self.scalar(field)
    case .object where Self.isColorObject(field): return try color(field)
    case .object: return try Self.point(field)
    case .string(let s) where s.hasPrefix("="): return try Self.expression(field)
    case .string(let s) where s == "true" || s == "false" || Double(s) != nil:
      throw field.error(
        "expected a number, true/false, {\"x\", \"y\"}, a colour or an \"=expression\", got "
          + "the string \(field.value.summary): write \(s) without quotes")
    case .string: return try color(field)
    default:
      throw field.expected("a number, true/false, {\"x\", \"y\"}, a colour or an \"=expression\"")
    }
  }

  static func time(_ field: JSONField) throws(SceneFileError) -> Double {
    try field.number(in: 0...SceneLimits.time)
  }

  // MARK: - Events

  static func tap(_ field: JSONField) throws(SceneFileError) -> TapDescription {
    let o = try field.object(keys: ["x", "y", "at"])
    return TapDescription(
      x: try scalar(o.required("x")), y: try scalar(o.required("y")),
      time: try o["at"].map(time) ?? 0)
  }

  func assignments(_ field: JSONField) throws(SceneFileError) -> [Assignment] {
    guard case .object(let members) = field.value.kind else {
      throw field.expected("an object of state values to set")
    }
    guard !members.isEmpty else {
      throw field.error("nothing to set: name at least one state value, as {\"on\": true}")
    }
    var out: [Assignment] = []
    for member in members {
      let value = JSONField(member.value, path: JSONField.join(field.path, member.key))
      var assignment = Assignment(name: member.key, value: try stateValue(value))
      switch member.value.kind {
      case .bool: assignment.isBooleanLiteral = true
      case .number: assignment.isBooleanLiteral = false
      default: break
      }
      out.append(assignment)
    }
    return out
  }

  func handler(_ field: JSONField) throws(SceneFileError) -> TapHandler {
    let o = try field.object(keys: ["layer", "set", "animation"])
    let layer = o["layer"]
    return TapHandler(
      layer: try layer?.string(), layerLine: layer?.value.line ?? field.value.line,
      layerColumn: layer?.value.column ?? field.value.column,
      assignments: try assignments(o.required("set")),
      animation: try o["animation"].map(Self.animation)
        ?? AnimationDescription(kind: .none, delay: 0),
      path: field.path)
  }

  func event(_ field: JSONField) throws(SceneFileError) -> TimedEvent {
    let o = try field.object(keys: ["at", "set", "animation"])
    return TimedEvent(
      time: try Self.time(o.required("at")), assignments: try assignments(o.required("set")),
      animation: try o["animation"].map(Self.animation)
        ?? AnimationDescription(kind: .none, delay: 0))
  }

  /// `"spring"`, or `{"type": "spring", "response": 0.4, "dampingFraction": 0.7, "delay": 0.1}`.
  static func animation(_ field: JSONField) throws(SceneFileError) -> AnimationDescription {
    if case .string = field.value.kind {
      let type = try field.choice(
        AnimationType.self, among: AnimationType.allCases.filter { $0 != .timingCurve })
      return AnimationDescription(
        kind: try kind(type, JSONObject(field: field, members: [])), delay: 0)
    }
    let o = try field.object(keys: [
      "type", "response", "dampingFraction", "duration", "bounce", "mass", "stiffness", "damping",
      "controlPoints", "delay", "speed", "repeatForever", "repeatCount", "autoreverses",
    ])
    let type = try o.required("type").choice(AnimationType.self)
    let allowed = type.parameters
    let general = ["type", "delay", "speed", "repeatForever", "repeatCount", "autoreverses"]
    for member in o.members
    where !general.contains(member.key) && !allowed.contains(member.key) {
      throw SceneFileError(
        path: JSONField.join(field.path, member.key),
        "\"\(member.key)\" does not apply to a \"\(type.rawValue)\" animation"
          + (allowed.isEmpty ? "" : " (it takes " + allowed.joined(separator: ", ") + ")"),
        line: member.value.line, column: member.value.column)
    }
    var animation = AnimationDescription(
      kind: try kind(type, o), delay: try o["delay"]?.number(in: 0...SceneLimits.time) ?? 0)
    animation.path = field.path
    animation.speed = try o["speed"]?.number(in: 0.01...100) ?? 1
    animation.repetition = try repetition(o)
    return animation
  }

  /// `"repeatForever": true` or `"repeatCount": n`, with `"autoreverses"` (true by default, as
  /// SwiftUI's `repeatForever(autoreverses:)` and `repeatCount(_:autoreverses:)` have it).
  private static func repetition(
    _ o: JSONObject
  ) throws(SceneFileError) -> Animation.Repetition? {
    let forever = try o["repeatForever"]?.bool() ?? false
    if let field = o["repeatForever"], o.has("repeatCount") {
      throw field.error("give \"repeatForever\" or \"repeatCount\", not both")
    }
    let autoreverses = try o["autoreverses"]?.bool() ?? true
    if let count = o["repeatCount"] {
      return Animation.Repetition(
        count: try count.integer(in: 1...10_000), autoreverses: autoreverses)
    }
    if forever { return Animation.Repetition(count: nil, autoreverses: autoreverses) }
    if let field = o["autoreverses"] {
      throw field.error("\"autoreverses\" needs \"repeatForever\" or \"repeatCount\"")
    }
    return nil
  }

  private static func kind(
    _ type: AnimationType, _ o: JSONObject
  ) throws(SceneFileError)
    -> AnimationDescription.Kind
  {
    func number(_ key: String, _ range: ClosedRange<Double>) throws(SceneFileError) -> Double? {
      try o[key]?.number(in: range)
    }
    let duration = try number("duration", 0...SceneLimits.time)
    let curveDuration = duration ?? TimingCurve.defaultDuration
    switch type {
    case .none: return .none
    case .default: return .default
    case .interactiveSpring: return .interactiveSpring
    case .smooth: return .fluid(Spring(duration: max(duration ?? 0.5, 0.01), bounce: 0))
    case .snappy: return .fluid(Spring(duration: max(duration ?? 0.5, 0.01), bounce: 0.15))
    case .bouncy: return .fluid(Spring(duration: max(duration ?? 0.5, 0.01), bounce: 0.3))
    case .spring, .interpolatingSpring:
      let fluid = type == .spring
      let physical = ["mass", "stiffness", "damping"].filter(o.has)
      let byResponse = ["response", "dampingFraction"].filter(o.has)
      let byDuration = ["duration", "bounce"].filter(o.has)
      let forms = [physical, byResponse, byDuration].filter { !$0.isEmpty }
      guard forms.count <= 1 else {
        throw o.field.error(
          "give one form: mass/stiffness/damping, response/dampingFraction or duration/bounce")
      }
      if !physical.isEmpty {
        guard o.has("stiffness"), o.has("damping") else {
          throw o.field.error("the mass/stiffness/damping form needs stiffness and damping")
        }
        // SwiftUI 1's spring(mass:stiffness:damping:) is an interpolating spring too.
        let spring = Spring(
          mass: try number("mass", 0.001...1000) ?? 1,
          stiffness: try number("stiffness", 0.001...1e6) ?? 0,
          damping: try number("damping", 0...1e6) ?? 0)
        return .interpolating(spring)
      }
      if !byResponse.isEmpty {
        let spring = Spring(
          response: try number("response", 0.01...SceneLimits.time) ?? 0.5,
          dampingFraction: try number("dampingFraction", 0...10) ?? 0.825)
        return fluid ? .fluid(spring) : .interpolating(spring)
      }
      if !byDuration.isEmpty {
        let spring = Spring(
          duration: max(duration ?? 0.5, 0.01), bounce: try number("bounce", -0.99...0.99) ?? 0)
        return fluid ? .fluid(spring) : .interpolating(spring)
      }
      return fluid ? .defaultSpring : .interpolating(Spring(duration: 0.5, bounce: 0))
    case .timingCurve:
      let points = try o.required("controlPoints").array(maxCount: 4)
      guard points.count == 4 else {
        throw o.field.error("controlPoints holds four numbers: x1, y1, x2, y2")
      }
      var c: [Double] = []
      for (i, p) in points.enumerated() {
        c.append(try p.number(in: i % 2 == 0 ? 0...1 : -10...10))
      }
      return .curve(TimingCurve(c[0], c[1], c[2], c[3], duration: curveDuration))
    case .easeIn: return .curve(.easeIn(duration: curveDuration))
    case .easeOut: return .curve(.easeOut(duration: curveDuration))
    case .easeInOut: return .curve(.easeInOut(duration: curveDuration))
    case .linear: return .curve(.linear(duration: curveDuration))
    }
  }
}
