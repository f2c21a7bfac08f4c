/// `"if"` and `"transition"`: conditional layers and how they come and go.
extension SceneDecoder {
  /// The transitions a scene file names, SwiftUI's `AnyTransition` members.
  static let transitionNames = ["identity", "opacity", "scale", "slide"]
  static let transitionKeys = [
    "scale", "anchor", "move", "offset", "push", "asymmetric", "combined",
  ]
  static let edgeNames: [String: (x: Double, y: Double)] = [
    "top": (0, -1), "bottom": (0, 1), "leading": (-1, 0), "trailing": (1, 0),
  ]

  /// `"identity"`, `"opacity"`, `"scale"`, `"slide"`; `{"scale": 0.5, "anchor": "top"}`,
  /// `{"move": "top"}`, `{"offset": {"x", "y"}}`, `{"push": "leading"}`, `{"asymmetric":
  /// {"insertion", "removal"}}`, `{"combined": [ … ]}` — as SwiftUI's `AnyTransition` and
  /// `Transition` members (docs/SEMANTICS.md, Transitions).
  static func transition(
    _ field: JSONField, depth: Int = 0
  ) throws(SceneFileError) -> TransitionDescription {
    guard depth < 8 else { throw field.error("transitions nested more than 8 deep") }
    if case .string = field.value.kind {
      let name = try field.choice(transitionNames, name: { $0 })
      switch name {
      case "identity": return TransitionDescription(both: TransitionState())
      case "opacity": return TransitionDescription(both: TransitionState(opacity: 0))
      case "scale": return TransitionDescription(both: TransitionState(scale: 0))
      default:
        // `.slide`: in from the leading edge, out towards the trailing one.
        return TransitionDescription(
          insertion: TransitionState(move: (-1, 0)), removal: TransitionState(move: (1, 0)))
      }
    }
    let o = try field.object(keys: transitionKeys)
    let given = transitionKeys.filter { o.has($0) && $0 != "anchor" }
    guard given.count == 1, let key = given.first else {
      throw field.error(
        "give exactly one of " + transitionKeys.filter { $0 != "anchor" }.joined(separator: ", ")
          + " (or a name: " + transitionNames.joined(separator: ", ") + ")")
    }
    if let anchor = o["anchor"], key != "scale" {
      throw anchor.error("\"anchor\" goes with \"scale\"")
    }
    let value = try o.required(key)
    switch key {
    case "scale":
      var state = TransitionState(scale: try value.number(in: 0...1000))
      if let anchor = o["anchor"] { state.anchor = try Self.anchor(anchor) }
      return TransitionDescription(both: state)
    case "move":
      return TransitionDescription(both: TransitionState(move: try edge(value)))
    case "offset":
      let p = try value.object(keys: ["x", "y"])
      let x = try p["x"]?.number(in: -1e5...1e5) ?? 0
      let y = try p["y"]?.number(in: -1e5...1e5) ?? 0
      return TransitionDescription(both: TransitionState(offset: (x, y)))
    case "push":
      // `.push(from:)`: in from the edge fading in, out towards the opposite edge fading out.
      let e = try edge(value)
      return TransitionDescription(
        insertion: TransitionState(opacity: 0, move: e),
        removal: TransitionState(opacity: 0, move: (-e.x, -e.y)))
    case "asymmetric":
      let a = try value.object(keys: ["insertion", "removal"])
      let insertion = try transition(try a.required("insertion"), depth: depth + 1)
      let removal = try transition(try a.required("removal"), depth: depth + 1)
      return TransitionDescription(insertion: insertion.insertion, removal: removal.removal)
    default:
      var combined = TransitionDescription(both: TransitionState())
      for item in try value.array(maxCount: 16) {
        let t = try transition(item, depth: depth + 1)
        combined.insertion = combined.insertion.combined(with: t.insertion)
        combined.removal = combined.removal.combined(with: t.removal)
      }
      return combined
    }
  }

  /// An edge's direction: `top` (0, −1), `bottom`, `leading`, `trailing`.
  static func edge(_ field: JSONField) throws(SceneFileError) -> (x: Double, y: Double) {
    let name = try field.choice(edgeNames.keys.sorted(), name: { $0 })
    return edgeNames[name] ?? (0, 0)
  }
}

/// What a transition makes of a view that is not there (SwiftUI's active phase: before its
/// insertion, after its removal): its opacity and scale (about `anchor`, a unit point of its
/// frame), and its offset — `offset` in points plus `move` in multiples of its own size.
struct TransitionState: Equatable {
  var opacity = 1.0
  var scale = 1.0
  var anchor = (x: 0.5, y: 0.5)
  var offset = (x: 0.0, y: 0.0)
  var move = (x: 0.0, y: 0.0)

  init(
    opacity: Double = 1, scale: Double = 1, offset: (x: Double, y: Double) = (0, 0),
    move: (x: Double, y: Double) = (0, 0)
  ) {
    self.opacity = opacity
    self.scale = scale
    self.offset = offset
    self.move = move
  }

  static func == (a: TransitionState, b: TransitionState) -> Bool {
    a.opacity == b.opacity && a.scale == b.scale && a.anchor == b.anchor && a.offset == b.offset
      && a.move == b.move
  }

  /// Both at once (`.combined(with:)`): opacities and scales multiply, offsets add; the anchor
  /// is the scaling one's.
  func combined(with other: TransitionState) -> TransitionState {
    var c = TransitionState(
      opacity: opacity * other.opacity, scale: scale * other.scale,
      offset: (offset.x + other.offset.x, offset.y + other.offset.y),
      move: (move.x + other.move.x, move.y + other.move.y))
    c.anchor = other.scale != 1 ? other.anchor : anchor
    return c
  }
}

/// A layer's transition: the states it comes from when inserted and goes to when removed.
struct TransitionDescription {
  var insertion: TransitionState
  var removal: TransitionState

  init(insertion: TransitionState, removal: TransitionState) {
    self.insertion = insertion
    self.removal = removal
  }

  init(both state: TransitionState) { self.init(insertion: state, removal: state) }
}
