import Raster
import Typeset

/// The modifiers any layer may have, and the values they take.
extension SceneDecoder {
  /// The layer with its content and its modifiers (frame, padding, position, offset,
  /// scaleEffect, rotationEffect, opacity, shadow, zIndex, ignoresSafeArea).
  func modifiers(
    of content: LayerDescription.Content, _ o: JSONObject, color: Bound, field: JSONField
  ) throws(SceneFileError) -> LayerDescription {
    var frame: (Double?, Double?) = (nil, nil)
    var flex: (LayerDescription.FrameBounds?, LayerDescription.FrameBounds?) = (nil, nil)
    var frameAlignment: Alignment?
    var frameAlignmentBound: Bound?
    var slots: [LayerDescription.LayoutSlot: Bound] = [:]
    if let f = o["frame"] {
      let fo = try f.object(keys: [
        "width", "height", "minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight",
        "maxHeight", "alignment",
      ])
      frame = (
        try fo["width"].map { (f) throws(SceneFileError) in
          try Self.layoutLength(f, .width, into: &slots)
        },
        try fo["height"].map { (f) throws(SceneFileError) in
          try Self.layoutLength(f, .height, into: &slots)
        }
      )
      flex = (
        try Self.frameBounds(fo, f, axis: "Width", fixed: frame.0 != nil, into: &slots),
        try Self.frameBounds(fo, f, axis: "Height", fixed: frame.1 != nil, into: &slots)
      )
      if let a = fo["alignment"], Self.isExpression(a) {
        frameAlignmentBound = try Self.alignmentExpression(a)
        frameAlignment = .center
      } else {
        frameAlignment = try fo["alignment"]?.choice(Alignment.self, among: Alignment.nine)
      }
    }
    let padding =
      try o["padding"].map { (f) throws(SceneFileError) in try Self.padding(f, into: &slots) }
      ?? EdgeInsets()
    let zero = Bound.constant([0], at: field)
    let scaleEffect = try o["scaleEffect"].map(Self.scaleEffect)
    let rotationEffect = try o["rotationEffect"].map(Self.rotationEffect)
    if let id = o["id"], try id.string(maxLength: 200).isEmpty {
      throw id.error("an id names the layer: give it at least one character")
    }
    var layer = LayerDescription(
      path: field.path, line: field.value.line, column: field.value.column,
      id: try o["id"]?.string(maxLength: 200), content: content,
      frameWidth: frame.0, frameHeight: frame.1,
      padding: padding,
      position: try o["position"].map { (f) throws(SceneFileError) in try Self.point(f) },
      offset: try o["offset"].map { (f) throws(SceneFileError) in try Self.point(f, defaultValue: 0)
      }
        ?? Bound.constant([0, 0], at: field),
      scale: scaleEffect?.x ?? Bound.constant([1], at: field),
      rotation: rotationEffect?.degrees ?? zero,
      opacity: try o["opacity"].map { (f) throws(SceneFileError) in try Self.scalar(f, in: 0...1) }
        ?? Bound.constant([1], at: field),
      shadow: try o["shadow"].map(shadow), color: color,
      zIndex: try o["zIndex"]?.number(in: -1e6...1e6) ?? 0,
      ignoresSafeArea: try o["ignoresSafeArea"].map(Self.ignoredEdges) ?? .none)
    (layer.flexWidth, layer.flexHeight) = flex
    layer.frameAlignment = frameAlignment
    layer.layoutBounds = slots
    if let frameAlignmentBound { layer.alignmentBounds[.frame] = frameAlignmentBound }
    if let scaleEffect {
      layer.scaleY = scaleEffect.y
      layer.scaleAnchor = scaleEffect.anchor
    }
    if let rotationEffect { layer.rotationAnchor = rotationEffect.anchor }
    layer.rotation3D = try o["rotation3DEffect"].map(Self.rotation3DEffect)
    return layer
  }

  /// `rotation3DEffect: {"degrees", "axis": [x, y, z], "anchor", "anchorZ", "perspective"}`
  /// (`.rotation3DEffect(_:axis:anchor:anchorZ:perspective:)`): degrees (number or expression,
  /// animated) and axis required as in SwiftUI; the rest as `rotation3DGeometry`.
  static func rotation3DEffect(
    _ field: JSONField
  ) throws(SceneFileError)
    -> LayerDescription
    .Rotation3D
  {
    let o = try field.object(keys: ["degrees"] + rotation3DGeometryKeys)
    let geometry = try rotation3DGeometry(o)
    return LayerDescription.Rotation3D(
      degrees: try scalar(try o.required("degrees")), axis: geometry.axis,
      anchor: geometry.anchor, anchorZ: geometry.anchorZ, perspective: geometry.perspective)
  }

  static let rotation3DGeometryKeys = ["axis", "anchor", "anchorZ", "perspective"]

  /// `{"axis": [x, y, z], "anchor", "anchorZ", "perspective"}`: what a 3D turn needs besides
  /// its angle — the axis (required, as in SwiftUI, with a non-zero component), anchor `center`,
  /// anchorZ 0 (points) and perspective 1 by default; perspective is 0 (orthographic) to 100.
  static func rotation3DGeometry(_ field: JSONField) throws(SceneFileError) -> Rotation3DGeometry {
    try rotation3DGeometry(try field.object(keys: rotation3DGeometryKeys))
  }

  private static func rotation3DGeometry(
    _ o: JSONObject
  ) throws(SceneFileError) -> Rotation3DGeometry {
    let axisField = try o.required("axis")
    let parts = try axisField.array(maxCount: 3)
    guard parts.count == 3 else {
      throw axisField.expected("[x, y, z]: three numbers (the axis of the turn)")
    }
    var axis: [Double] = []
    for part in parts { axis.append(try part.number(in: -1e6...1e6)) }
    guard let longest = axis.map(abs).max(), longest > 0 else {
      throw axisField.error("the axis [0, 0, 0] has no direction: give a non-zero component")
    }
    // Only the direction counts: scaled so its longest component is 1, a tiny axis such as
    // [1e-300, 1e-300, 0] keeps its direction instead of vanishing when normalised.
    axis = axis.map { $0 / longest }
    return Rotation3DGeometry(
      axis: (axis[0], axis[1], axis[2]), anchor: try o["anchor"].map(anchor) ?? (0.5, 0.5),
      anchorZ: try o["anchorZ"]?.number(in: -1e6...1e6) ?? 0,
      perspective: try o["perspective"]?.number(in: 0...100) ?? 1)
  }

  /// `scaleEffect`: a factor (number or expression) for both axes, or `{"x", "y", "anchor"}`
  /// (`.scaleEffect(x:y:anchor:)`; each factor 1 by default, the anchor a unit point — a name,
  /// `[x, y]` or an expression, which may read state and then animates —, `center` (nil) by
  /// default). Factors −1000 to 1000: a negative one mirrors, as SwiftUI's does.
  static func scaleEffect(
    _ field: JSONField
  ) throws(SceneFileError) -> (x: Bound, y: Bound?, anchor: Bound?) {
    guard case .object = field.value.kind else {
      return (try scalar(field, in: -1000...1000), nil, nil)
    }
    let o = try field.object(keys: ["x", "y", "anchor"])
    func factor(_ key: String) throws(SceneFileError) -> Bound {
      try o[key].map { (f) throws(SceneFileError) in try scalar(f, in: -1000...1000) }
        ?? Bound.constant([1], at: field)
    }
    return (try factor("x"), try factor("y"), try o["anchor"].map(unitPoint))
  }

  /// `rotationEffect`: degrees (number or expression), or `{"degrees", "anchor"}`
  /// (`.rotationEffect(_:anchor:)`; the anchor as `scaleEffect`'s).
  static func rotationEffect(
    _ field: JSONField
  ) throws(SceneFileError) -> (degrees: Bound, anchor: Bound?) {
    guard case .object = field.value.kind else { return (try scalar(field), nil) }
    let o = try field.object(keys: ["degrees", "anchor"])
    return (try scalar(try o.required("degrees")), try o["anchor"].map(unitPoint))
  }

  /// A fixed anchor (`rotation3DEffect`'s, a transition's): a `UnitPoint` name, `[x, y]`
  /// numbers or an expression that reads no state (fractions of the frame).
  static func anchor(_ field: JSONField) throws(SceneFileError) -> (x: Double, y: Double) {
    let bound = try unitPoint(field)
    guard case .constant(let p) = bound.expression, p.count == 2 else {
      if case .vector(let parts) = bound.expression, parts.count == 2,
        case .constant(let x) = parts[0], case .constant(let y) = parts[1]
      {
        return (x[0], y[0])
      }
      throw field.expected("a unit point name or [x, y] numbers (this anchor is not animated)")
    }
    return (p[0], p[1])
  }

  /// `ignoresSafeArea`: `true` (every edge, as `.ignoresSafeArea()`), `false`, an edge set's name
  /// (`top`, `bottom`, `leading`, `trailing`, `horizontal`, `vertical`, `all`), or an array of
  /// them (`.ignoresSafeArea(edges: [.top, .leading])`).
  static func ignoredEdges(_ field: JSONField) throws(SceneFileError) -> EdgeSet {
    func named(_ f: JSONField) throws(SceneFileError) -> EdgeSet {
      let name = try f.string(maxLength: 20)
      guard let edges = EdgeSet(name: name) else {
        throw f.error(
          "unknown edge \"\(name)\"\(JSONField.didYouMean(name, among: EdgeSet.names)): expected one of "
            + EdgeSet.names.map { "\"\($0)\"" }.joined(separator: ", "))
      }
      return edges
    }
    switch field.value.kind {
    case .bool(let all): return all ? .all : .none
    case .string: return try named(field)
    case .array:
      var edges = EdgeSet.none
      for item in try field.array(maxCount: 7) { edges = edges.union(try named(item)) }
      return edges
    default: throw field.expected("true, false, an edge name, or an array of edge names")
    }
  }

  /// `minWidth`/`idealWidth`/`maxWidth` (or the heights) of a `frame`: points, `maxWidth` also
  /// `"infinity"` (`.infinity`); nil when none is given. Beside a fixed `width` they are an error
  /// (SwiftUI's two frame modifiers take one or the other), and so is a minimum above the ideal
  /// or the maximum, or an ideal above the maximum (SwiftUI logs "Contradictory frame
  /// constraints specified").
  static func frameBounds(
    _ o: JSONObject, _ frame: JSONField, axis: String, fixed: Bool,
    into slots: inout [LayerDescription.LayoutSlot: Bound]
  ) throws(SceneFileError) -> LayerDescription.FrameBounds? {
    let (minSlot, idealSlot, maxSlot):
      (
        LayerDescription.LayoutSlot, LayerDescription.LayoutSlot, LayerDescription.LayoutSlot
      ) =
        axis == "Width"
        ? (.minWidth, .idealWidth, .maxWidth) : (.minHeight, .idealHeight, .maxHeight)
    let minField = o["min" + axis]
    let idealField = o["ideal" + axis]
    let maxField = o["max" + axis]
    guard minField != nil || idealField != nil || maxField != nil else { return nil }
    if fixed {
      throw frame.error(
        "give \"\(axis.lowercased())\" or \"min\(axis)\"/\"ideal\(axis)\"/\"max\(axis)\", "
          + "not both (.frame(width:height:) or .frame(minWidth:idealWidth:maxWidth:…))")
    }
    let low = try minField.map { (f) throws(SceneFileError) in
      try layoutLength(f, minSlot, into: &slots)
    }
    let ideal = try idealField.map { (f) throws(SceneFileError) in
      try layoutLength(f, idealSlot, into: &slots)
    }
    var high: Double?
    if let maxField {
      if case .string(let s) = maxField.value.kind, s == "infinity" {
        high = .infinity
      } else if case .string(let s) = maxField.value.kind, !s.hasPrefix("=") {
        throw maxField.expected("a number of points, \"infinity\" or an \"=expression\"")
      } else {
        high = try layoutLength(maxField, maxSlot, into: &slots)
      }
    }
    // Expressions are checked against each other each time layout evaluates them.
    if slots[minSlot] != nil || slots[idealSlot] != nil || slots[maxSlot] != nil {
      return LayerDescription.FrameBounds(min: low, ideal: ideal, max: high)
    }
    if let low, let high, low > high {
      throw (maxField ?? frame).error(
        "min\(axis) \(JSONValue.format(low)) is above max\(axis) \(JSONValue.format(high))")
    }
    if let ideal, let idealField {
      if let low, low > ideal {
        throw idealField.error(
          "min\(axis) \(JSONValue.format(low)) is above ideal\(axis) \(JSONValue.format(ideal))")
      }
      if let high, ideal > high {
        throw idealField.error(
          "ideal\(axis) \(JSONValue.format(ideal)) is above max\(axis) \(JSONValue.format(high))")
      }
    }
    return LayerDescription.FrameBounds(min: low, ideal: ideal, max: high)
  }

  /// A number (every edge), `true` (SwiftUI's default 16 pt), or edges by name, each a length or
  /// `true` for the default (`{"horizontal": true}` is `.padding(.horizontal)`); numbers may be
  /// expressions of state (recorded in `slots`).
  static func padding(
    _ field: JSONField, into slots: inout [LayerDescription.LayoutSlot: Bound]
  ) throws(SceneFileError) -> EdgeInsets {
    let edges: [LayerDescription.LayoutSlot] = [
      .paddingTop, .paddingLeading, .paddingBottom, .paddingTrailing,
    ]
    switch field.value.kind {
    case .bool(true): return EdgeInsets(all: EdgeInsets.defaultPadding)
    case .number, .string:
      let length = try layoutLength(field, .paddingTop, into: &slots)
      if let bound = slots[.paddingTop] { for edge in edges { slots[edge] = bound } }
      return EdgeInsets(all: length)
    case .object:
      let o = try field.object(keys: [
        "top", "leading", "bottom", "trailing", "horizontal", "vertical",
      ])
      func edge(
        _ key: String, _ axis: String, _ slot: LayerDescription.LayoutSlot
      ) throws(SceneFileError) -> Double {
        guard let value = o[key] ?? o[axis] else { return 0 }
        if case .bool(true) = value.value.kind { return EdgeInsets.defaultPadding }
        if case .bool = value.value.kind {
          throw value.expected("a number of points, true (the default 16), or an \"=expression\"")
        }
        return try layoutLength(value, slot, into: &slots)
      }
      return EdgeInsets(
        top: try edge("top", "vertical", .paddingTop),
        leading: try edge("leading", "horizontal", .paddingLeading),
        bottom: try edge("bottom", "vertical", .paddingBottom),
        trailing: try edge("trailing", "horizontal", .paddingTrailing))
    default:
      throw field.expected(
        "a number of points, true, an \"=expression\", or {\"top\", \"leading\", …}")
    }
  }

  /// A layout length in points (0 up to the canvas's largest side), or an `=expression` of
  /// state recorded in `slots` under `slot`; an expression's placeholder is 0 until layout
  /// evaluates it (`SceneAssembler.resolvingLayout`).
  static func layoutLength(
    _ field: JSONField, _ slot: LayerDescription.LayoutSlot,
    into slots: inout [LayerDescription.LayoutSlot: Bound]
  ) throws(SceneFileError) -> Double {
    // A stack's spacing may be negative (`HStack(spacing: -12)` overlaps its children, as
    // SwiftUI's does), and so may padding (`.padding(-6)` takes the edges in, the content
    // overflowing them: SwiftUI's `padding(_:)` takes any CGFloat); other lengths may not.
    let signed: Set<LayerDescription.LayoutSlot> = [
      .spacing, .paddingTop, .paddingLeading, .paddingBottom, .paddingTrailing,
    ]
    let range =
      signed.contains(slot)
      ? -SceneLimits.canvasSide...SceneLimits.canvasSide : 0...SceneLimits.canvasSide
    if case .string(let s) = field.value.kind, s.hasPrefix("=") {
      var bound = try expression(field)
      bound.range = range
      slots[slot] = bound
      return 0
    }
    guard case .number(let n) = field.value.kind, range.contains(n) else {
      throw field.expected(JSONField.describe(range) + " or an \"=expression\"")
    }
    return n
  }

  /// `{"color", "opacity", "radius", "x", "y"}`; each may be an expression of state, so a shadow
  /// can grow, move and change colour with an animation.
  func shadow(_ field: JSONField) throws(SceneFileError) -> LayerDescription.Shadow {
    let o = try field.object(keys: ["color", "opacity", "radius", "x", "y"])
    let color = try o["color"].map(self.color)
    // SwiftUI's default shadow colour is black at 33 %; an explicit colour is taken as it is.
    let opacity =
      try o["opacity"].map { (f) throws(SceneFileError) in try Self.scalar(f, in: 0...1) }
      ?? Bound.constant([color == nil ? 0.33 : 1], at: field)
    let base = color ?? Bound.constant([0, 0, 0, 1], at: field)
    // The colour's alpha times the opacity, component by component.
    var shade = base
    shade.expression = .binary(
      .multiply, base.expression,
      .vector([.constant([1]), .constant([1]), .constant([1]), opacity.expression]))
    if case .constant(let c) = base.expression, case .constant(let a) = opacity.expression,
      c.count == 4, a.count == 1
    {
      shade.expression = .constant([c[0], c[1], c[2], c[3] * a[0]])
    }
    func offset(_ key: String) throws(SceneFileError) -> Bound {
      try o[key].map { (f) throws(SceneFileError) in try Self.scalar(f, in: -1e4...1e4) }
        ?? Bound.constant([0], at: field)
    }
    let radiusField = try o.required("radius")
    let radius: Bound
    if case .string(let s) = radiusField.value.kind, s.hasPrefix("=") {
      radius = try Self.scalar(radiusField, in: 0...1000)
    } else {
      radius = Bound.constant([try Self.radius(radiusField)], at: radiusField)
    }
    return LayerDescription.Shadow(
      color: shade, radius: radius, x: try offset("x"), y: try offset("y"))
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
  /// "design": "rounded", "tracking": 0}`, with the layer's `bold` and `weight`.
  static func font(_ o: JSONObject) throws(SceneFileError) -> FontRequest {
    TextEnvironment().font(own: try ownFont(o), ownWeight: try ownWeight(o))
  }

  /// The layer's own `font` key (nil when it has none); its `weight`/`bold` are `ownWeight`.
  static func ownFont(_ o: JSONObject) throws(SceneFileError) -> FontRequest? {
    guard o.has("font") else { return nil }
    var request = FontRequest(style: .body)
    if let field = o["font"] {
      if case .string = field.value.kind {
        request.style = try field.choice(TextStyle.self)
      } else {
        let f = try field.object(keys: [
          "style", "family", "design", "size", "weight", "tracking",
        ])
        request.style = try f["style"]?.choice(TextStyle.self) ?? .body
        request.family = try f["family"]?.string(maxLength: 200)
        request.design = try f["design"]?.choice(FontDesign.self)
        request.size = try f["size"]?.number(in: 1...1000)
        request.weight = try f["weight"].map(weight)
        request.tracking = try f["tracking"]?.number(in: -100...100)
      }
    }
    return request
  }

  /// The layer's own `weight` or `bold` (`bold` wins beside `weight`): nil when it gives
  /// neither, `.some(nil)` for `bold: false` alone (no weight modifier: it takes away a
  /// container's).
  static func ownWeight(_ o: JSONObject) throws(SceneFileError) -> FontWeight?? {
    var own: FontWeight?? = try o["weight"].map { (f) throws(SceneFileError) in try weight(f) }
    if let bold = try o["bold"]?.bool() {
      if bold {
        own = .some(.bold)
      } else if own == nil {
        own = .some(nil)
      }
    }
    return own
  }

  static func weight(_ field: JSONField) throws(SceneFileError) -> FontWeight {
    try field.choice(FontWeight.allCases, name: \.name)
  }
}
