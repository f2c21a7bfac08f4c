import Raster

/// A gradient as written: SwiftUI's `LinearGradient`, `RadialGradient` and `AngularGradient`,
/// every number an expression that may read state.
struct GradientDescription {
  enum Kind {
    /// Unit points of the shape's frame.
    case linear(start: Bound, end: Bound)
    /// A unit point; radii in points.
    case radial(center: Bound, startRadius: Bound, endRadius: Bound)
    /// A unit point; angles in degrees, 0 at 3 o'clock, clockwise.
    case angular(center: Bound, startAngle: Bound, endAngle: Bound)
  }

  var kind: Kind
  /// Colours (four components) and locations (drawn clamped to 0...1).
  var stops: [(color: Bound, location: Bound)]
  var colorSpace: GradientColorSpace
}

extension SceneDecoder {
  static let gradientKeys = ["linearGradient", "radialGradient", "angularGradient"]
  static let gradientParameters: [String: [String]] = [
    "linearGradient": ["startPoint", "endPoint"],
    "radialGradient": ["center", "startRadius", "endRadius"],
    "angularGradient": ["center", "startAngle", "endAngle", "angle"],
  ]
  static let gradientCommonKeys = ["colors", "stops", "colorSpace"]
  /// SwiftUI's `UnitPoint` names.
  static let unitPoints: [String: (Double, Double)] = [
    "zero": (0, 0), "topLeading": (0, 0), "top": (0.5, 0), "topTrailing": (1, 0),
    "leading": (0, 0.5), "center": (0.5, 0.5), "trailing": (1, 0.5),
    "bottomLeading": (0, 1), "bottom": (0.5, 1), "bottomTrailing": (1, 1),
  ]
  /// The most stops a gradient may have.
  static let maximumStops = 64

  /// Whether the field is a gradient object (`{"linearGradient": …}`), or meant to be one: a key
  /// that names a gradient, misspelt (`linearGradiant`, `LinearGradient`) included, so that the
  /// error says which gradient it was meant to be rather than list a colour's keys.
  static func isGradient(_ field: JSONField) -> Bool {
    guard case .object(let members) = field.value.kind else { return false }
    return members.contains { member in
      member.key.lowercased().contains("gradient")
        || gradientKeys.contains { JSONField.distance($0, member.key) <= 2 }
    }
  }

  /// `{"linearGradient": {"colors": […] | "stops": [{"color", "location"}], "startPoint",
  /// "endPoint", "colorSpace"}}`, and the radial and angular forms.
  func gradient(_ field: JSONField) throws(SceneFileError) -> GradientDescription {
    let outer = try field.object(keys: Self.gradientKeys)
    guard outer.members.count == 1, let (key, inner) = outer.members.first.map({ ($0.key, $0) })
    else {
      throw field.error("give exactly one of " + Self.gradientKeys.joined(separator: ", "))
    }
    let body = JSONField(inner.value, path: JSONField.join(field.path, key))
    let o = try body.object(keys: Self.gradientCommonKeys + (Self.gradientParameters[key] ?? []))
    let stops = try self.stops(o, body)
    let colorSpace = try o["colorSpace"]?.choice(GradientColorSpace.self) ?? .device
    func unit(_ name: String, _ fallback: String) throws(SceneFileError) -> Bound {
      guard let f = o[name] else {
        let p = Self.unitPoints[fallback] ?? (0.5, 0.5)
        return Bound.constant([p.0, p.1], at: body)
      }
      return try Self.unitPoint(f)
    }
    func number(
      _ name: String, _ fallback: Double?, _ range: ClosedRange<Double>
    ) throws(SceneFileError) -> Bound {
      guard let f = o[name] else {
        guard let fallback else { throw body.error("missing \"\(name)\"") }
        return Bound.constant([fallback], at: body)
      }
      return try Self.scalar(f, in: range)
    }
    let kind: GradientDescription.Kind
    switch key {
    case "linearGradient":
      // `AnyGradient` as a shape style runs from top to bottom.
      kind = .linear(start: try unit("startPoint", "top"), end: try unit("endPoint", "bottom"))
    case "radialGradient":
      kind = .radial(
        center: try unit("center", "center"),
        startRadius: try number("startRadius", 0, 0...1e5),
        endRadius: try number("endRadius", nil, 0...1e5))
    default:
      if o.has("angle"), o.has("startAngle") || o.has("endAngle") {
        throw body.error("give \"angle\" or \"startAngle\"/\"endAngle\", not both")
      }
      if let angle = o["angle"] {
        // `AngularGradient(gradient:center:angle:)`: a full turn from `angle`.
        let start = try Self.scalar(angle, in: -1e5...1e5)
        var end = start
        end.expression = .binary(.add, start.expression, .constant([360]))
        kind = .angular(center: try unit("center", "center"), startAngle: start, endAngle: end)
      } else {
        kind = .angular(
          center: try unit("center", "center"),
          startAngle: try number("startAngle", 0, -1e5...1e5),
          endAngle: try number("endAngle", 360, -1e5...1e5))
      }
    }
    return GradientDescription(kind: kind, stops: stops, colorSpace: colorSpace)
  }

  /// `colors` (evenly spaced) or `stops` (`{"color", "location"}`), not both.
  func stops(
    _ o: JSONObject, _ body: JSONField
  ) throws(SceneFileError) -> [(color: Bound, location: Bound)] {
    if o.has("colors") == o.has("stops") {
      throw body.error("give \"colors\" or \"stops\" (exactly one)")
    }
    if let colors = o["colors"] {
      let items = try colors.array(maxCount: Self.maximumStops)
      guard !items.isEmpty else { throw colors.expected("at least one colour") }
      var stops: [(color: Bound, location: Bound)] = []
      for (i, item) in items.enumerated() {
        let location = items.count == 1 ? 0 : Double(i) / Double(items.count - 1)
        stops.append((try color(item), Bound.constant([location], at: item)))
      }
      return stops
    }
    let list = try o.required("stops")
    let items = try list.array(maxCount: Self.maximumStops)
    guard !items.isEmpty else { throw list.expected("at least one stop") }
    var stops: [(color: Bound, location: Bound)] = []
    for item in items {
      let s = try item.object(keys: ["color", "location"])
      stops.append(
        (
          try color(s.required("color")),
          // Any location, as SwiftUI's `Gradient.Stop` takes any CGFloat; drawn clamped to 0…1
          // (docs/SEMANTICS.md), as one from state is.
          try Self.scalar(s.required("location"), in: -1000...1000)
        ))
    }
    return stops
  }

  /// A `UnitPoint`: a name (`topLeading`, `center`, …), `[x, y]` (numbers or expressions, 0 and
  /// 1 at the frame's edges, beyond them allowed), or an expression of a point, in which the
  /// names stand for their points (`"=on ? top : leading"`, `"=mix(top, center, t)"`).
  static func unitPoint(_ field: JSONField) throws(SceneFileError) -> Bound {
    switch field.value.kind {
    case .string(let s) where !s.hasPrefix("="):
      guard let p = unitPoints[s] else {
        let names = unitPoints.keys.sorted()
        throw field.error(
          "unknown unit point \(field.value.summary)\(JSONField.didYouMean(s, among: names))"
            + ": expected one of " + names.joined(separator: ", ") + ", or [x, y]")
      }
      return Bound.constant([p.0, p.1], at: field)
    case .string:
      var bound = try expression(field)
      bound.expression = bound.expression.substituting(
        unitPoints.mapValues { [$0.0, $0.1] })
      // Without names left it is a constant (`"=mix(topLeading, bottomTrailing, 0.5)"`).
      if bound.expression.names.isEmpty, let p = try? bound.expression.evaluate(ExpressionScope()) {
        bound.expression = .constant(p)
      }
      bound.range = -1e3...1e3
      return bound
    case .array:
      let items = try field.array(maxCount: 2)
      guard items.count == 2 else { throw field.expected("[x, y]") }
      let (x, y) = (try scalar(items[0], in: -1e3...1e3), try scalar(items[1], in: -1e3...1e3))
      return Bound(
        expression: .vector([x.expression, y.expression]), path: field.path,
        line: field.value.line, column: field.value.column, range: -1e3...1e3)
    default: throw field.expected("a unit point name or [x, y]")
    }
  }
}
