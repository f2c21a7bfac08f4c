/// How a state change moves a value to its new target.
public enum Animation: Hashable, Sendable {
  /// No animation: the value jumps at the change.
  case none
  /// SwiftUI's `.spring()` family (FluidSpringAnimation): a retargetable spring that keeps its
  /// position and velocity when the target changes, removed once it is still (docs/SEMANTICS.md, Springs).
  case fluidSpring(Spring)
  /// `interpolatingSpring` / the 2019 `spring(mass:stiffness:damping:)`: a fixed-length curve
  /// scaled to the change; overlapping changes add (docs/SEMANTICS.md, Springs).
  case interpolatingSpring(Spring)
  /// `easeIn`, `easeOut`, `easeInOut`, `linear`, `timingCurve`: a Bézier curve of fixed duration
  /// scaled to the change; overlapping changes add, as with interpolating springs.
  case curve(TimingCurve)
  /// `.repeatCount(_:autoreverses:)` / `.repeatForever(autoreverses:)` of a fixed-length
  /// animation: its unit curve played `count` times (for ever when nil), every other time
  /// backwards in time when it autoreverses. Springs repeat their interpolating curve over its
  /// settling time (docs/SEMANTICS.md, Repeats). Overlapping changes add, as with curves.
  indirect case repeated(Animation, Repetition)
  /// `keyframeAnimator`: the value plays its keyframe track from where it is at the change,
  /// and then holds where the track ends; with `loop` (seconds: the whole timeline's length,
  /// its longest track's), it starts the track again every `loop` seconds, for ever.
  case keyframes(KeyframeTrack, loop: Double?)

  /// How a repeated animation repeats.
  public struct Repetition: Hashable, Sendable {
    /// Times the animation plays (≥ 1); nil: for ever.
    public var count: Int?
    public var autoreverses: Bool

    public init(count: Int?, autoreverses: Bool) {
      self.count = count
      self.autoreverses = autoreverses
    }
  }

  /// A jump that also ends every animation still running (a curve of no length, so the value
  /// is the target from the change on), where `none` lets them play on: a view inserted or
  /// removed without animation is there or gone at once, whatever its transition was doing.
  public static let cut = Animation.curve(TimingCurve.linear(duration: 0))

  /// `.speed(_:)`: the animation played `factor` times as fast — a curve's duration divided by
  /// it, a spring's time scale too (stiffness × factor², damping × factor), a repetition's every
  /// iteration.
  public func speed(_ factor: Double) -> Animation {
    guard factor != 1, factor > 0 else { return self }
    switch self {
    case .none: return .none
    case .fluidSpring(let s): return .fluidSpring(s.spedUp(by: factor))
    case .interpolatingSpring(let s): return .interpolatingSpring(s.spedUp(by: factor))
    case .curve(var c):
      c.duration /= factor
      return .curve(c)
    case .repeated(let base, let repetition): return .repeated(base.speed(factor), repetition)
    case .keyframes: return self
    }
  }

  /// Whether the animation never ends (`repeatForever`).
  public var isEndless: Bool {
    if case .repeated(_, let repetition) = self { return repetition.count == nil }
    if case .keyframes(_, let loop) = self { return loop != nil }
    return false
  }

  /// One iteration of a fixed-length animation: its unit progress over time (seconds) and its
  /// length. A spring's is its interpolating curve up to its settling time (at most 60 s).
  var iteration: (progress: @Sendable (Double) -> Double, duration: Double) {
    switch self {
    case .none: return ({ _ in 1 }, 0)
    case .curve(let c): return (c.unitProgress, c.duration)
    case .fluidSpring(let s), .interpolatingSpring(let s):
      let d = s.settlingDuration
      return (s.unitProgress, (0...60).contains(d) ? d : 60)
    case .repeated(let base, _): return base.iteration
    case .keyframes(let track, _): return ({ _ in 1 }, track.duration)
    }
  }

  /// The unit progress of a repetition at `t` seconds after it starts: which iteration, and how
  /// far into it (played backwards on every other one when it autoreverses); 1 once a counted
  /// repetition has played out.
  static func repeatedProgress(
    _ base: Animation, _ repetition: Repetition, at t: Double
  ) -> Double {
    let (progress, duration) = base.iteration
    guard duration > 0 else { return 1 }
    guard t > 0 else { return 0 }
    let iterations = t / duration
    if let count = repetition.count, iterations >= Double(count) { return 1 }
    let k = iterations.rounded(.down)
    let local = t - k * duration
    let backwards = repetition.autoreverses && Int(k) % 2 == 1
    return progress(backwards ? duration - local : local)
  }
}
