/// One animated value (a vector of numbers, e.g. a point's x and y) over time: its initial value
/// and the state changes that retarget it, each with its animation. `value(at:)` is a pure
/// function of time, so frames can be rendered in any order.
public struct ChannelTimeline: Hashable, Sendable {
  /// A change of the value's target, made at `madeAt` (seconds) and animated from `time`
  /// (seconds, ≥ `madeAt`: later by its animation's `delay`).
  ///
  /// Changes take turns in the order they were made, as SwiftUI's model value does: a change
  /// made during another's delay comes after it, whichever animation starts first. While a
  /// change waits out its delay, the value is what the changes before it make it.
  public struct Change: Hashable, Sendable {
    /// Seconds: when the animation starts (the change's moment plus its delay).
    public var time: Double
    public var target: [Double]
    public var animation: Animation
    /// Seconds: when the change was made (its event's or tap's moment).
    public var madeAt: Double

    /// A change made at `madeAt` (nil: at `time`, no delay) whose animation starts at `time`.
    public init(time: Double, target: [Double], animation: Animation, madeAt: Double? = nil) {
      self.time = time
      self.target = target
      self.animation = animation
      self.madeAt = min(madeAt ?? time, time)
    }
  }

  public let initial: [Double]
  public let changes: [Change]
  /// Frames per second of the grid on which fluid springs are checked for stillness.
  public let frameRate: Double
  private let segments: [Segment]
  /// A value that follows time itself (an expression of `time`): its value at each frame, from
  /// frame 0 on, at `frameRate` (nil: the value follows its changes).
  public let samples: [[Double]]?

  /// What a change does once it starts: where it starts from and when it ends.
  private struct Segment: Hashable, Sendable {
    var start: [Double]
    var velocity: [Double]
    var end: Double
    /// For fluid springs: the integrator as the change found it.
    var integrator: FluidSpringIntegrator?
  }

  public init(initial: [Double], changes: [Change], frameRate: Double) {
    self.initial = initial
    // In the order made; changes made at once in the order given (which is the order made:
    // the later event's change comes last, whichever animation starts first).
    var sorted = changes.enumerated().sorted {
      ($0.element.madeAt, $0.offset) < ($1.element.madeAt, $1.offset)
    }.map(\.element)
    self.frameRate = frameRate
    var segments: [Segment] = []
    for index in sorted.indices {
      let (start, velocity) = Self.state(
        at: sorted[index].time, initial: initial, changes: sorted, segments: segments, upTo: index)
      // A keyframe track ends where it leaves the value, from where it found it.
      if case .keyframes(let track, nil) = sorted[index].animation {
        sorted[index].target = start.map { track.end(from: $0) }
      }
      let change = sorted[index]
      var segment = Segment(start: start, velocity: velocity, end: change.time)
      if case .fluidSpring(let spring) = change.animation {
        // A running fluid spring is merged: its integrator (value, velocity, force, clock)
        // carries on towards the new target. Otherwise one starts at rest from here. The one
        // running is the latest change made and started by now (one still waiting out its
        // delay is passed over, as `state` passes it over).
        var integrator = FluidSpringIntegrator(
          value: start, velocity: velocity, force: start.map { _ in 0 }, clock: change.time)
        if let running = (0..<index).last(where: {
          sorted[$0].madeAt <= change.time && sorted[$0].time <= change.time
        }), let previous = segments[running].integrator, segments[running].end > change.time,
          case .fluidSpring(let previousSpring) = sorted[running].animation
        {
          integrator = previous
          integrator.advance(
            to: change.time, target: sorted[running].target, spring: previousSpring)
        }
        segment.integrator = integrator
        segment.end = Self.fluidEnd(change, spring: spring, from: integrator, frameRate: frameRate)
      } else if case .none = change.animation, index > 0 {
        // The animations running already go on to their own ends (see `state`).
        segment.end = max(change.time, segments[index - 1].end)
      } else {
        segment.end = Self.endTime(of: change)
      }
      segments.append(segment)
    }
    self.changes = sorted
    self.segments = segments
    self.samples = nil
  }

  /// A value sampled at every frame (`samples[i]` at i / frameRate s), in between mixed
  /// linearly, held before the first and after the last.
  public init(samples: [[Double]], frameRate: Double) {
    self.initial = samples.first ?? []
    self.changes = []
    self.frameRate = frameRate
    self.segments = []
    self.samples = samples
  }

  /// The value at `time` seconds.
  public func value(at time: Double) -> [Double] {
    if let samples, !samples.isEmpty {
      let position = min(max(time * frameRate, 0), Double(samples.count - 1))
      let i = Int(position.rounded(.down))
      let f = position - Double(i)
      guard f > 0, i + 1 < samples.count else { return samples[i] }
      return zip(samples[i], samples[i + 1]).map { $0 + ($1 - $0) * f }
    }
    return Self.state(
      at: time, initial: initial, changes: changes, segments: segments, upTo: changes.count
    ).value
  }

  /// When the last change's animation has ended (0 without changes); a value sampled at every
  /// frame (one that follows `time`) never settles: +∞.
  public var settleTime: Double { samples != nil ? .infinity : segments.last?.end ?? 0 }

  /// Seconds after which an animation that has not settled is removed, its value snapping to
  /// the target: an undamped spring oscillates for ever, and SwiftUI would animate it for ever.
  public static let longestAnimation = 60.0

  /// The changes whose animation was still moving `longestAnimation` seconds after it began (and
  /// was ended there), by index in `changes`.
  public var unsettledChanges: [Int] {
    changes.indices.filter {
      // Only a spring can fail to settle: a curve or keyframes of a minute end on time.
      switch changes[$0].animation {
      case .interpolatingSpring, .fluidSpring:
        return !(segments[$0].end < changes[$0].time + Self.longestAnimation)
      default: return false
      }
    }
  }

  /// Whether a change's animation repeats for ever (the value never settles).
  public var isEndless: Bool { changes.contains { $0.animation.isEndless } }

  // MARK: - Evaluation

  /// Value and velocity at `time`, considering the first `count` changes.
  private static func state(
    at time: Double, initial: [Double], changes: [Change], segments: [Segment], upTo count: Int
  ) -> (value: [Double], velocity: [Double]) {
    guard let index = changes.prefix(count).lastIndex(where: { $0.madeAt <= time }) else {
      return (initial, initial.map { _ in 0 })
    }
    let change = changes[index]
    let segment = segments[index]
    // Waiting out its delay: what the changes made before it make the value.
    if time < change.time {
      return state(at: time, initial: initial, changes: changes, segments: segments, upTo: index)
    }
    if time >= segment.end { return (change.target, change.target.map { _ in 0 }) }
    let tau = time - change.time
    switch change.animation {
    case .none:
      // SwiftUI keeps a running animation through a change made without one: the value jumps
      // by the change (the model's step) and what is left of the animation plays on top.
      guard index > 0 else { return (change.target, change.target.map { _ in 0 }) }
      let older = state(
        at: time, initial: initial, changes: changes, segments: segments, upTo: index)
      let before = changes[index - 1].target
      var value = older.value
      for i in value.indices { value[i] += change.target[i] - before[i] }
      return (value, older.velocity)
    case .fluidSpring(let spring):
      guard var integrator = segment.integrator else { return (change.target, segment.velocity) }
      integrator.advance(to: time, target: change.target, spring: spring)
      _ = tau
      return (integrator.value, integrator.velocity)
    case .interpolatingSpring(let spring):
      return additive(
        at: time, progress: spring.unitProgress, tau: tau, index: index, initial: initial,
        changes: changes, segments: segments)
    case .curve(let curve):
      return additive(
        at: time, progress: curve.unitProgress, tau: tau, index: index, initial: initial,
        changes: changes, segments: segments)
    case .repeated(let base, let repetition):
      return additive(
        at: time, progress: { Animation.repeatedProgress(base, repetition, at: $0) }, tau: tau,
        index: index, initial: initial, changes: changes, segments: segments)
    case .keyframes(let track, let loop):
      let local = loop.map { $0 > 0 ? tau.truncatingRemainder(dividingBy: $0) : 0 } ?? tau
      let h = 1e-5
      let value = segment.start.map { track.value(at: local, from: $0) }
      let ahead = segment.start.map { track.value(at: local + h, from: $0) }
      return (value, zip(ahead, value).map { ($0 - $1) / h })
    }
  }

  /// A fixed-length animation that adds to what runs already:
  /// shown = A_old(t) + (T_new − A_old(t))·s(t − t₁), A_old being everything before.
  private static func additive(
    at time: Double, progress: (Double) -> Double, tau: Double, index: Int, initial: [Double],
    changes: [Change], segments: [Segment]
  ) -> (value: [Double], velocity: [Double]) {
    let change = changes[index]
    let older = state(
      at: time, initial: initial, changes: changes, segments: segments, upTo: index)
    let s = progress(tau)
    let h = 1e-5
    let ds = (progress(tau + h) - s) / h
    var value = older.value
    var velocity = older.velocity
    for i in value.indices {
      value[i] = older.value[i] + (change.target[i] - older.value[i]) * s
      velocity[i] = older.velocity[i] * (1 - s) + (change.target[i] - older.value[i]) * ds
    }
    return (value, velocity)
  }

  /// When a non-fluid change's animation is removed and the value rests at the target.
  private static func endTime(of change: Change) -> Double {
    switch change.animation {
    case .interpolatingSpring(let spring):
      // An undamped spring never settles: its settling duration is +∞, or −∞ for a damping of
      // −0, or NaN.
      let duration = spring.settlingDuration
      return change.time
        + ((0...longestAnimation).contains(duration) ? duration : longestAnimation)
    case .curve(let curve): return change.time + curve.duration
    case .repeated(let base, let repetition):
      guard let count = repetition.count else { return .infinity }
      return change.time + Double(count) * base.iteration.duration
    case .keyframes(let track, let loop):
      return loop == nil ? change.time + track.duration : .infinity
    case .none, .fluidSpring: return change.time
    }
  }

  /// The first frame after the change at which SwiftUI would find the spring still (docs/SEMANTICS.md, Springs).
  private static func fluidEnd(
    _ change: Change, spring: Spring, from start: FluidSpringIntegrator, frameRate: Double
  ) -> Double {
    let total = norm(zip(change.target, start.value).map { $0 - $1 })
    if total == 0, norm(start.velocity) == 0 { return change.time }
    var integrator = start
    var frame = (change.time * frameRate).rounded(.down) + 1
    while frame / frameRate < change.time + longestAnimation {
      integrator.advance(to: frame / frameRate, target: change.target, spring: spring)
      if integrator.isStill(target: change.target, totalDistance: total) {
        return frame / frameRate
      }
      frame += 1
    }
    return change.time + longestAnimation
  }

  private static func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
}
