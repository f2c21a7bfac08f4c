import Motion

/// `"keyframes"`: `keyframeAnimator` on a layer.
extension SceneDecoder {
  /// The values a keyframe track may drive, each applied outside the layer's own modifiers.
  static let keyframeTracks = [
    "scaleEffect", "rotationEffect", "rotation3DEffect", "opacity", "offset.x", "offset.y",
  ]
  static let keyframeKinds = ["linear", "spring", "cubic", "move"]

  /// `{"trigger": "=expr", "repeating": bool, "tracks": {"scaleEffect": [keyframe, …], …},
  /// "rotation3DEffect": {"axis", "anchor", "anchorZ", "perspective"}}`: the last gives a
  /// rotation3DEffect track (degrees) its fixed parts, as the animator's content closure would
  /// (`.rotation3DEffect(.degrees(value.angle), axis: (0, 1, 0))`). Without a trigger the tracks play from the start and, as SwiftUI's
  /// `keyframeAnimator(initialValue:repeating:)` does by default, loop (`"repeating": false`
  /// plays them once); with one, they play each time its value changes (once, unless
  /// `"repeating": true`).
  static func keyframes(_ field: JSONField) throws(SceneFileError) -> KeyframesDescription {
    let o = try field.object(keys: ["trigger", "repeating", "tracks", "rotation3DEffect"])
    let trigger = try o["trigger"].map { (f) throws(SceneFileError) in
      guard isExpression(f) else { throw f.expected("an \"=expression\" of state") }
      let bound = try expression(f)
      if bound.expression.names.contains("time") {
        throw f.error("a trigger cannot follow time: give it an expression of state")
      }
      return bound
    }
    let repeating = try o["repeating"]?.bool() ?? (trigger == nil)
    let tracksField = try o.required("tracks")
    let t = try tracksField.object(keys: keyframeTracks)
    guard !t.members.isEmpty else {
      throw tracksField.error("give at least one track: " + keyframeTracks.joined(separator: ", "))
    }
    var tracks: [(String, KeyframeTrack)] = []
    for key in keyframeTracks {
      guard let list = t[key] else { continue }
      var keyframes: [KeyframeTrack.Keyframe] = []
      let items = try list.array(maxCount: 256)
      // An empty track moves nothing and gives no length to play or repeat.
      guard !items.isEmpty else {
        throw list.error("a track needs at least one keyframe (linear, spring, cubic or move)")
      }
      for item in items {
        keyframes.append(try keyframe(item))
      }
      tracks.append((key, KeyframeTrack(keyframes)))
    }
    let turn = try turnGeometry(o, drives: t["rotation3DEffect"], trackKind: "track")
    return KeyframesDescription(
      trigger: trigger, repeating: repeating, tracks: tracks, turn: turn)
  }

  /// The `"rotation3DEffect"` geometry beside keyframe tracks or phase values: required when
  /// `driven` (the track or first phase value that turns the layer) is there, refused when not.
  static func turnGeometry(
    _ o: JSONObject, drives driven: JSONField?, trackKind: String
  ) throws(SceneFileError) -> Rotation3DGeometry? {
    let geometry = try o["rotation3DEffect"].map(rotation3DGeometry)
    if let driven, geometry == nil {
      throw driven.error(
        "a rotation3DEffect \(trackKind) needs the turn's axis: give \"rotation3DEffect\": "
          + "{\"axis\": [x, y, z]} (and anchor, anchorZ, perspective if not the defaults) beside "
          + "it, at \(o.field.path)")
    }
    if driven == nil, let given = o["rotation3DEffect"] {
      throw given.error(
        "this sets the axis of a rotation3DEffect \(trackKind), and there is none: drive "
          + "\"rotation3DEffect\" or remove this")
    }
    return geometry
  }

  /// `{"linear": 1.3, "duration": 0.1, "timingCurve": "easeOut"}`, `{"spring": 1, "duration":
  /// 0.3, "bounce": 0.3}` (or `response`/`dampingFraction`), `{"cubic": 1.1, "duration": 0.2,
  /// "startVelocity", "endVelocity"}`, `{"move": 0.5}`.
  static func keyframe(_ field: JSONField) throws(SceneFileError) -> KeyframeTrack.Keyframe {
    let o = try field.object(keys: [
      "linear", "spring", "cubic", "move", "duration", "timingCurve", "bounce", "response",
      "dampingFraction", "startVelocity", "endVelocity",
    ])
    let kinds = keyframeKinds.filter(o.has)
    guard kinds.count == 1, let kind = kinds.first else {
      throw field.error("give exactly one of " + keyframeKinds.joined(separator: ", "))
    }
    let allowed: [String: [String]] = [
      "linear": ["duration", "timingCurve"],
      "spring": ["duration", "bounce", "response", "dampingFraction"],
      "cubic": ["duration", "startVelocity", "endVelocity"], "move": [],
    ]
    for member in o.members where member.key != kind && !(allowed[kind] ?? []).contains(member.key)
    {
      throw SceneFileError(
        path: JSONField.join(field.path, member.key),
        "\"\(member.key)\" does not apply to a \(kind) keyframe", line: member.value.line,
        column: member.value.column)
    }
    let target = try o.required(kind).number(in: -1e6...1e6)
    let given = try o["duration"]?.number(in: 0...SceneLimits.time)
    switch kind {
    case "move":
      return KeyframeTrack.Keyframe(target: target, duration: 0, kind: .move)
    case "linear":
      var curve = TimingCurve.linear(duration: 1)
      if let c = o["timingCurve"] {
        if case .array = c.value.kind {
          let p = try c.array(maxCount: 4).map { (f) throws(SceneFileError) in
            try f.number(in: -10...10)
          }
          guard p.count == 4, (0...1).contains(p[0]), (0...1).contains(p[2]) else {
            throw c.expected("[x1, y1, x2, y2] with x1 and x2 in 0…1")
          }
          curve = TimingCurve(p[0], p[1], p[2], p[3], duration: 1)
        } else {
          switch try c.choice(["linear", "easeIn", "easeOut", "easeInOut"], name: { $0 }) {
          case "easeIn": curve = .easeIn(duration: 1)
          case "easeOut": curve = .easeOut(duration: 1)
          case "easeInOut": curve = .easeInOut(duration: 1)
          default: break
          }
        }
      }
      return KeyframeTrack.Keyframe(
        target: target, duration: try required(given, "duration", o), kind: .linear(curve))
    case "spring":
      // The keyframe's duration is the spring's too (`Spring(duration:bounce:)`), unless the
      // spring is given by response and damping fraction; 0.5 s by default, as `Spring()`.
      let duration = given ?? 0.5
      let spring: Spring
      if o.has("response") || o.has("dampingFraction") {
        spring = Spring(
          response: try o["response"]?.number(in: 0.01...SceneLimits.time) ?? 0.5,
          dampingFraction: try o["dampingFraction"]?.number(in: 0...10) ?? 1)
      } else {
        spring = Spring(
          duration: max(duration, 0.01), bounce: try o["bounce"]?.number(in: -0.99...0.99) ?? 0)
      }
      return KeyframeTrack.Keyframe(target: target, duration: duration, kind: .spring(spring))
    default:
      return KeyframeTrack.Keyframe(
        target: target, duration: try required(given, "duration", o),
        kind: .cubic(
          startVelocity: try o["startVelocity"]?.number(in: -1e6...1e6),
          endVelocity: try o["endVelocity"]?.number(in: -1e6...1e6)))
    }
  }

  private static func required(
    _ value: Double?, _ key: String, _ o: JSONObject
  ) throws(SceneFileError) -> Double {
    guard let value else { throw o.field.error("missing the key \"\(key)\"") }
    return value
  }
}

/// A layer's `keyframeAnimator`: what plays it, whether it loops, and its tracks by the value
/// they drive.
struct KeyframesDescription {
  var trigger: Bound?
  var repeating: Bool
  var tracks: [(String, KeyframeTrack)]
  /// The fixed parts of a rotation3DEffect track's turn (nil: no such track).
  var turn: Rotation3DGeometry?

  /// The timeline's length: its longest track's (seconds).
  var duration: Double { tracks.map(\.1.duration).max() ?? 0 }
}
