import Raster

/// `clipShape`, `clipped`, `cornerRadius` (as a modifier), `mask` and `blur` as written.
struct EffectsDescription {
  enum Clip {
    /// A shape kind laid out in the layer's frame, with its own corner radius (points, a number
    /// or an expression that animates: SwiftUI's `RoundedRectangle` animates its corner size)
    /// and style.
    case shape(
      LayerDescription.ShapeKind, cornerRadius: Bound?, style: CornerStyle?, rule: FillRule)
    /// Path data with a `viewBox` fitted into the frame (without one: points from the frame's
    /// top left).
    case path(Path, viewBox: Rect?, rule: FillRule)
    /// `clipped()`: the frame.
    case frame
    /// `cornerRadius(_:)`: the frame with rounded corners.
    case cornerRadius(Bound)
  }

  var clip: Clip?
  /// Colour modifiers in the order they apply, each with its amount (degrees for
  /// `hueRotation`, a colour for `colorMultiply`, nothing for `colorInvert`).
  var colors: [(key: String, value: Bound?)] = []
  /// The mask layer (at most one).
  var mask: [LayerDescription] = []
  var blur: (radius: Bound, opaque: Bool)?
}

extension SceneDecoder {
  static let effectKeys = ["clipShape", "clipped", "mask", "blur"]
  /// SwiftUI's colour modifiers, in the order a layer applies them, with each amount's range.
  static let colorModifiers: [(key: String, range: ClosedRange<Double>?)] = [
    ("saturation", 0...100), ("brightness", -1...1), ("contrast", -100...100),
    ("grayscale", 0...1), ("hueRotation", -1e5...1e5), ("colorMultiply", nil),
    ("colorInvert", nil),
  ]
  static let clipShapeKeys = ["shape", "path", "viewBox", "cornerRadius", "cornerStyle", "style"]

  /// The layer's effects; `cornerRadiusIsModifier` when `cornerRadius` is not the shape's own.
  mutating func effects(
    _ o: JSONObject, cornerRadiusIsModifier: Bool
  ) throws(SceneFileError) -> EffectsDescription {
    var effects = EffectsDescription()
    // `false` (no `.clipped()`, no `.colorInvert()`) is accepted, as generated scenes write it.
    let clipped = try o["clipped"]?.bool() ?? false
    let clips =
      (o.has("clipShape") ? ["clipShape"] : []) + (clipped ? ["clipped"] : [])
      + (cornerRadiusIsModifier && o.has("cornerRadius") ? ["cornerRadius"] : [])
    if clips.count > 1 {
      throw o.field.error(
        "give one clip: " + clips.joined(separator: " or ") + " (nest a zstack for another)")
    }
    if let field = o["clipShape"] { effects.clip = try clipShape(field) }
    if clipped { effects.clip = .frame }
    if cornerRadiusIsModifier, let field = o["cornerRadius"] {
      effects.clip = .cornerRadius(try Self.scalar(field, in: 0...SceneLimits.canvasSide))
    }
    for (key, range) in Self.colorModifiers {
      guard let field = o[key] else { continue }
      switch key {
      case "colorInvert":
        if try field.bool() { effects.colors.append((key, nil)) }
      case "colorMultiply": effects.colors.append((key, try color(field)))
      default: effects.colors.append((key, try Self.scalar(field, in: range ?? -1e6...1e6)))
      }
    }
    if let field = o["mask"] {
      guard case .object = field.value.kind else { throw field.expected("a layer object") }
      let mask = try layer(field, environment: TextEnvironment())
      if mask.condition != nil {
        throw SceneFileError(
          path: JSONField.join(field.path, "if"),
          "a mask cannot be conditional: give \"if\" to the masked layer, or animate the mask's opacity",
          line: field.value.line, column: field.value.column)
      }
      effects.mask = [mask]
    }
    if let field = o["blur"] {
      if case .object = field.value.kind {
        let b = try field.object(keys: ["radius", "opaque"])
        effects.blur = (
          try Self.scalar(try b.required("radius"), in: 0...1000), try b["opaque"]?.bool() ?? false
        )
      } else {
        effects.blur = (try Self.scalar(field, in: 0...1000), false)
      }
    }
    return effects
  }

  /// `"circle"`, or `{"shape", "cornerRadius", "cornerStyle", "style"}` or `{"path", "viewBox",
  /// "style"}`; `style` is the fill rule (`nonzero`, `evenOdd`).
  mutating func clipShape(_ field: JSONField) throws(SceneFileError) -> EffectsDescription.Clip {
    if case .string = field.value.kind {
      let kind = try field.choice(
        LayerDescription.ShapeKind.allCases.filter { $0 != .ring }, name: \.rawValue)
      if kind == .roundedRectangle {
        throw field.error(
          Self.roundedRectangleNeedsRadius
            + ": {\"shape\": \"roundedRectangle\", \"cornerRadius\": 12}")
      }
      return .shape(kind, cornerRadius: nil, style: nil, rule: .nonzero)
    }
    let o = try field.object(keys: Self.clipShapeKeys)
    var rule = FillRule.nonzero
    if let style = o["style"] {
      let name = try style.choice(["nonzero", "evenOdd", "evenodd"], name: { $0 })
      rule = name == "nonzero" ? .nonzero : .evenodd
    }
    if o.has("shape") == o.has("path") {
      throw field.error("give \"shape\" or \"path\" (exactly one)")
    }
    if let shape = o["shape"] {
      if o.has("viewBox") { throw try o.required("viewBox").error("viewBox applies to a path") }
      let kind = try shape.choice(
        LayerDescription.ShapeKind.allCases.filter { $0 != .ring }, name: \.rawValue)
      if kind == .roundedRectangle, !o.has("cornerRadius") {
        throw shape.error(Self.roundedRectangleNeedsRadius)
      }
      if kind != .rectangle, kind != .roundedRectangle {
        // A capsule takes a style (`Capsule(style:)`) but no radius.
        for key in ["cornerRadius", "cornerStyle"]
        where o.has(key) && (key == "cornerRadius" || kind != .capsule) {
          throw try o.required(key).error(
            "\(key) applies to rectangle and roundedRectangle"
              + (key == "cornerStyle" ? " and capsule" : "") + ", not \(kind.rawValue)")
        }
      }
      return .shape(
        kind,
        cornerRadius: try o["cornerRadius"].map { f throws(SceneFileError) in
          try Self.scalar(f, in: 0...SceneLimits.canvasSide)
        },
        style: try o["cornerStyle"]?.choice(CornerStyle.self), rule: rule)
    }
    for key in ["cornerRadius", "cornerStyle"] where o.has(key) {
      throw try o.required(key).error("\(key) applies to a shape")
    }
    let path = try inlinePath(try o.required("path"))
    guard case .path(_, let viewBox, _) = try pathContent(path, o) else {
      return .path(path, viewBox: nil, rule: rule)
    }
    return .path(path, viewBox: viewBox, rule: rule)
  }
}
