import Motion

/// `.animation(_:value:)` on a layer: when a change of state changes the value, the changes it
/// makes to the layer and to everything inside it animate with the layer's animation (and its
/// delay) instead of the event's or the tap's own — also when that change has no animation, and
/// `"none"` (SwiftUI's `nil`) takes the animation away. SwiftUI sets the animation on the
/// transaction its subtree sees, so the innermost layer whose value changed wins, and a layer's
/// first `.animation` in chain order whose value changed (Apple's `View.animation(_:value:)`:
/// "Applies the given animation to this view when the specified value changes").
extension SceneAssembler {
  /// An animation `.animation(_:value:)` chose for a change: its animation and delay.
  struct ChosenAnimation {
    var animation: Animation
    var delay: Double
  }

  /// The layers with `.animation(_:value:)`, by path, inside `layers`.
  static func valueAnimations(in layers: [LayerDescription]) -> [String: [ValueAnimation]] {
    var found: [String: [ValueAnimation]] = [:]
    for layer in layers {
      if !layer.valueAnimations.isEmpty { found[layer.path] = layer.valueAnimations }
      found.merge(valueAnimations(in: innerLayers(layer))) { a, _ in a }
    }
    return found
  }

  /// Checks every `.animation(_:value:)` value once: it must read state (else it never changes
  /// and the modifier does nothing) and evaluate in the initial state.
  func checkValueAnimations() throws(SceneFileError) {
    for path in valueAnimationLayers.keys.sorted() {
      for entry in valueAnimationLayers[path] ?? [] {
        // Evaluated first, so that a misspelt state is named as one.
        _ = try entry.value.evaluate(scope, count: nil, what: "a value")
        if entry.value.expression.names.contains("time") {
          throw entry.value.error(
            "the value follows time, which changes at every frame, not with a change of state: "
              + "name the state whose changes it animates")
        }
        guard entry.value.expression.reads(anyOf: stateNames) else {
          throw entry.value.error(
            "the value reads no state, so it never changes and the animation never applies: "
              + "name the state whose changes it animates, as \"=liked\"")
        }
      }
    }
  }

  /// The layers whose `.animation(_:value:)` a change from `before` to `after` fires, by path:
  /// each layer's first one whose value differs.
  func firedValueAnimations(
    before: ExpressionScope, after: ExpressionScope
  ) throws(SceneFileError) -> [String: ChosenAnimation] {
    var fired: [String: ChosenAnimation] = [:]
    // In the order of their paths, so that of two values that cannot be evaluated the same one
    // is named every time.
    for path in valueAnimationLayers.keys.sorted() {
      for entry in valueAnimationLayers[path] ?? [] {
        let old = try entry.value.evaluate(before, count: nil, what: "a value")
        let new = try entry.value.evaluate(after, count: nil, what: "a value")
        guard old != new else { continue }
        fired[path] = ChosenAnimation(
          animation: entry.animation.resolve(settings.swiftUI), delay: entry.animation.delay)
        break
      }
    }
    return fired
  }

  /// The fired animation that governs what is written at `path` (a layer's, or one of its
  /// keys', as `layers[0].zstack[1].opacity`): the innermost fired layer it lies in.
  static func governing(
    _ path: String, in fired: [String: ChosenAnimation]
  ) -> ChosenAnimation? {
    var best: (length: Int, chosen: ChosenAnimation)?
    for (layer, chosen) in fired where path.hasPrefix(layer) {
      // A layer's own path, or one going on inside it (not `layers[1]` for `layers[10]`).
      let rest = path.dropFirst(layer.count)
      guard rest.isEmpty || rest.first == "." || rest.first == "[" else { continue }
      if layer.count > best?.length ?? -1 { best = (layer.count, chosen) }
    }
    return best?.chosen
  }

  /// When snapshot `index`'s change starts for what is written at `path`, and its animation:
  /// the change's own, unless a `.animation(_:value:)` it fired governs the path.
  func snapshotChange(_ index: Int, at path: String) -> (time: Double, animation: Animation) {
    let snapshot = snapshots[index]
    guard index < snapshotAnimations.count,
      let chosen = Self.governing(path, in: snapshotAnimations[index])
    else { return (snapshot.time, snapshot.animation) }
    return (snapshot.made + chosen.delay, chosen.animation)
  }
}
