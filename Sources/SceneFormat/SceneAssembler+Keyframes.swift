import Motion
import Raster
import SceneGraph

/// `keyframeAnimator` (`"keyframes"`): each track drives one value of a holder around the layer
/// — its scale, rotation (degrees), opacity or offset — applied outside the layer's own
/// modifiers, as the animator's content closure applies them to the view it is given.
extension SceneAssembler {
  /// The layer's node inside a holder whose scale, rotation, opacity and offset follow the
  /// tracks (channels `id.keyframes.scaleEffect`, …). Without a trigger they play from the
  /// start; with one, each time its value changes (`playKeyframes`).
  mutating func keyframed(
    _ node: SceneNode, _ layer: LayerDescription, _ keyframes: KeyframesDescription
  ) throws(SceneFileError) -> SceneNode {
    let base = (layer.id ?? layer.path) + ".keyframes"
    let holder = Self.holder(
      of: node, named: base, keys: keyframes.tracks.map(\.0), turn: keyframes.turn)
    let loop = keyframes.repeating ? keyframes.duration : nil
    if loop != nil, keyframes.duration <= 0 {
      throw SceneFileError(
        path: layer.path + ".keyframes", "repeating keyframes need a track longer than 0 s",
        line: layer.line, column: layer.column)
    }
    if keyframes.trigger == nil, loop != nil, settings.duration ?? description.duration == nil {
      throw SceneFileError(
        path: layer.path + ".keyframes",
        "the keyframes repeat for ever (no trigger: they loop, as keyframeAnimator(repeating:) "
          + "does by default), so the scene never ends: " + Self.durationAdvice
          + ", or \"repeating\": false to play them once", line: layer.line,
        column: layer.column)
    }
    for (key, track) in keyframes.tracks {
      let name = base + "." + key
      let identity = Self.identity(of: key)
      // (A layer that is there only in a later layout gets its channels there.)
      guard !channels.contains(where: { $0.name == name }) else { continue }
      let animation = Animation.keyframes(track, loop: loop)
      var channel = Channel(
        name: name,
        bound: Bound(expression: .constant([identity]), path: layer.path, line: 0, column: 0),
        initial: [identity], traced: [0], lastTarget: [identity])
      if let trigger = keyframes.trigger {
        triggeredKeyframes.append((name, trigger, animation))
      } else {
        channel.changes = [.init(time: 0, target: [identity], animation: animation)]
        try countChanges(1)
      }
      channels.append(channel)
    }
    return holder
  }

  /// A holder named `name` around the node, placed where it was, whose scale, rotation, 3D turn
  /// (about `turn`'s axis, its anchor in the node's laid-out frame), opacity or offset (the
  /// `keys`: keyframe tracks' names) are channels `name.key`.
  static func holder(
    of node: SceneNode, named name: String, keys: [String], turn: Rotation3DGeometry?
  ) -> SceneNode {
    var inner = node
    (inner.centerX, inner.centerY) = (.constant(0), .constant(0))
    var holder = SceneNode(name, .group([inner]), centerX: node.centerX, centerY: node.centerY)
    for key in keys {
      let binding = ScalarBinding.channel(name + "." + key, component: 0)
      switch key {
      case "scaleEffect": holder.scale = binding
      case "rotationEffect": holder.rotation = binding
      case "rotation3DEffect":
        guard let turn else { continue }
        let size = laidOutSize(node) ?? Size(width: 0, height: 0)
        holder.rotation3D = Rotation3DBinding(
          degrees: binding, axis: turn.axis,
          unitAnchor: Point(turn.anchor.x, turn.anchor.y),
          anchorZ: turn.anchorZ, perspective: turn.perspective, width: size.width,
          height: size.height)
      case "opacity": holder.opacity = binding
      case "offset.x": holder.offsetX = binding
      default: holder.offsetY = binding
      }
    }
    return holder
  }

  /// A track's value when nothing moves it: 1 for a scale or an opacity, else 0.
  static func identity(of key: String) -> Double {
    key == "scaleEffect" || key == "opacity" ? 1 : 0
  }

  /// Plays triggered keyframes at each change of state that changes their trigger's value.
  mutating func playKeyframes(initial: ExpressionScope) throws(SceneFileError) {
    for (name, trigger, animation) in triggeredKeyframes {
      guard let index = channels.firstIndex(where: { $0.name == name }) else { continue }
      var last = try trigger.evaluate(initial, count: nil, what: "a value")
      for snapshot in snapshots {
        let now = try trigger.evaluate(snapshot.scope, count: nil, what: "a value")
        guard now != last else { continue }
        last = now
        try countChanges(1)
        channels[index].changes.append(
          .init(
            time: snapshot.time, target: channels[index].initial, animation: animation,
            madeAt: snapshot.made))
        if animation.isEndless, endlessAnimation == nil {
          let path = trigger.path
          endlessAnimation = path.hasSuffix(".trigger") ? String(path.dropLast(8)) : path
        }
      }
    }
  }
}
