/// `"phases"`: `phaseAnimator` on a layer.
extension SceneDecoder {
  /// `{"values": [{"scaleEffect": 1.2, "opacity": 0.5, …}, …], "animations": [animation, …],
  /// "trigger": "=expr", "rotation3DEffect": {"axis", …}}`: the values each phase gives (the keys of keyframe tracks; a key a
  /// phase leaves out is its identity), the animation into each phase (SwiftUI's `.default`
  /// where none is given), and what runs them (without a trigger they cycle for ever).
  func phases(_ field: JSONField) throws(SceneFileError) -> PhasesDescription {
    let o = try field.object(keys: ["values", "animations", "trigger", "rotation3DEffect"])
    let valuesField = try o.required("values")
    let list = try valuesField.array(maxCount: 64)
    guard list.count >= 2 else { throw valuesField.error("give at least two phases") }
    var values: [[String: Double]] = []
    var turning: JSONField? = nil
    for item in list {
      let p = try item.object(keys: Self.keyframeTracks)
      var phase: [String: Double] = [:]
      for key in Self.keyframeTracks {
        if let v = p[key] { phase[key] = try v.number(in: -1e6...1e6) }
        if key == "rotation3DEffect", turning == nil { turning = p[key] }
      }
      values.append(phase)
    }
    var animations: [AnimationDescription] = []
    if let field = o["animations"] {
      let items = try field.array(maxCount: 64)
      guard items.count <= list.count else {
        throw field.error("\(items.count) animations for \(list.count) phases")
      }
      for item in items { animations.append(try Self.animation(item)) }
    }
    let trigger = try o["trigger"].map { (f) throws(SceneFileError) in
      guard Self.isExpression(f) else { throw f.expected("an \"=expression\" of state") }
      let bound = try Self.expression(f)
      if bound.expression.names.contains("time") {
        throw f.error("a trigger cannot follow time: give it an expression of state")
      }
      return bound
    }
    let turn = try Self.turnGeometry(o, drives: turning, trackKind: "phase value")
    return PhasesDescription(
      values: values, animations: animations, trigger: trigger, turn: turn, path: field.path)
  }
}

/// A layer's `phaseAnimator`: the values of each phase by key, the animation into each phase
/// (fewer than the phases: `.default` for the rest), and its trigger.
struct PhasesDescription {
  var values: [[String: Double]]
  var animations: [AnimationDescription]
  var trigger: Bound?
  /// The fixed parts of the turn rotation3DEffect values give (nil: no phase turns the layer).
  var turn: Rotation3DGeometry?
  /// Where they are in the scene file (`layers[0].phases`).
  var path: String
}
