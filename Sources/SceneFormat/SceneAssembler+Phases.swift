import Motion
import SceneGraph

/// `phaseAnimator` (`"phases"`): a holder around the layer whose scale, rotation, opacity and
/// offset move from phase to phase, each phase's animation taking it there and the next phase
/// starting when that animation is logically complete.
extension SceneAssembler {
  /// A phase change: when, to which phase, with what animation.
  struct PhaseStep {
    /// Seconds: when the step's animation starts (after its delay) and when the phase changed.
    var time: Double
    var made: Double
    var phase: Int
    var animation: Animation
  }

  /// The layer's node inside a holder bound to one channel per key the phases set
  /// (`id.phases.scaleEffect`, …), starting at the first phase's values.
  mutating func phased(
    _ node: SceneNode, _ layer: LayerDescription, _ phases: PhasesDescription
  ) throws(SceneFileError) -> SceneNode {
    let base = (layer.id ?? layer.path) + ".phases"
    let keys = SceneDecoder.keyframeTracks.filter { key in
      phases.values.contains { $0[key] != nil }
    }
    let holder = Self.holder(of: node, named: base, keys: keys, turn: phases.turn)
    guard !channels.contains(where: { $0.name.hasPrefix(base + ".") }) else {
      return holder
    }
    let animations = phases.values.indices.map { i in
      i < phases.animations.count
        ? phases.animations[i] : AnimationDescription(kind: .default, delay: 0)
    }
    // Each phase's length: its animation's delay and logical length.
    var lengths: [Double] = []
    for (i, a) in animations.enumerated() {
      let resolved = a.resolve(settings.swiftUI)
      guard !resolved.isEndless else {
        throw SceneFileError(
          path: layer.path + ".phases.animations[\(i)]",
          "a phase's animation cannot repeat for ever: the next phase starts when it ends",
          line: layer.line, column: layer.column)
      }
      lengths.append(a.delay + Self.logicalLength(resolved))
    }
    var steps: [PhaseStep] = []
    if phases.trigger == nil {
      guard let duration = settings.duration ?? description.duration else {
        throw SceneFileError(
          path: layer.path + ".phases",
          "without a trigger the phases cycle for ever, so the scene never ends: "
            + Self.durationAdvice + ", or a trigger",
          line: layer.line, column: layer.column)
      }
      guard lengths.dropFirst().reduce(0, +) + lengths[0] > 0 else {
        throw SceneFileError(
          path: layer.path + ".phases.animations",
          "the phases take no time (each animation into a phase is none or lasts 0 s): give them "
            + "animations with a length",
          line: layer.line, column: layer.column)
      }
      var t = 0.0
      var phase = 0
      while t < duration {
        let next = (phase + 1) % phases.values.count
        steps.append(
          PhaseStep(
            time: t + animations[next].delay, made: t, phase: next,
            animation: animations[next].resolve(settings.swiftUI)))
        t += max(lengths[next], 1e-3)
        phase = next
        guard steps.count <= SceneLimits.changes else { break }
      }
    }
    pendingPhases.append((base, keys, phases, animations, lengths, steps))
    for key in keys {
      let first = phases.values[0][key] ?? Self.identity(of: key)
      channels.append(
        Channel(
          name: base + "." + key,
          bound: Bound(expression: .constant([first]), path: layer.path, line: 0, column: 0),
          initial: [first], traced: [0], lastTarget: [first]))
    }
    return holder
  }

  /// When SwiftUI counts an animation as logically complete, the next phase starting then: a
  /// curve's duration; a spring's response (its `duration`, the perceptual length Apple gives
  /// `Spring(duration:bounce:)`); a counted repetition's iterations; none at once.
  static func logicalLength(_ animation: Animation) -> Double {
    switch animation {
    case .none: return 0
    case .curve(let c): return c.duration
    case .fluidSpring(let s), .interpolatingSpring(let s): return s.response
    case .repeated(let base, let repetition):
      return Double(repetition.count ?? 1) * logicalLength(base)
    case .keyframes(let track, _): return track.duration
    }
  }

  /// Gives the phases' channels their changes: the cycle from the start, or for each change of
  /// a trigger's value a run through every phase back to the first (a new run cutting the one
  /// before short).
  mutating func playPhases(initial: ExpressionScope) throws(SceneFileError) {
    for (base, keys, phases, animations, lengths, cycle) in pendingPhases {
      var steps = cycle
      if let trigger = phases.trigger {
        var last = try trigger.evaluate(initial, count: nil, what: "a value")
        for snapshot in snapshots {
          let now = try trigger.evaluate(snapshot.scope, count: nil, what: "a value")
          guard now != last else { continue }
          last = now
          steps.removeAll { $0.made > snapshot.made }
          var t = snapshot.made
          for k in 1...phases.values.count {
            let phase = k % phases.values.count
            steps.append(
              PhaseStep(
                time: t + animations[phase].delay, made: t, phase: phase,
                animation: animations[phase].resolve(settings.swiftUI)))
            t += lengths[phase]
          }
        }
      }
      for key in keys {
        guard let index = channels.firstIndex(where: { $0.name == base + "." + key }) else {
          continue
        }
        let identity = Self.identity(of: key)
        try countChanges(
          steps.count, path: phases.path,
          cause: "the phases (a cycle of \(Self.format(lengths.reduce(0, +))) s over the duration)"
            + " and the events and taps")
        channels[index].changes += steps.map { step in
          .init(
            time: step.time, target: [phases.values[step.phase][key] ?? identity],
            animation: step.animation, madeAt: step.made)
        }
      }
    }
  }
}
