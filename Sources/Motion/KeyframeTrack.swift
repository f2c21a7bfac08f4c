/// One value's keyframes (SwiftUI's `KeyframeTrack`): segments played one after the other from
/// the value the track starts at, each reaching its target over its duration (seconds).
///
/// - `linear`: `LinearKeyframe` — a straight mix along a timing curve (linear by default).
/// - `spring`: `SpringKeyframe` — a spring towards the target, starting with the velocity the
///   value has; the next keyframe starts from wherever it is at the end of the duration.
/// - `cubic`: `CubicKeyframe` — a cubic Hermite segment whose end velocities are given or, where
///   not, those of a Catmull-Rom spline through the neighbouring keyframes (so adjacent cubic
///   keyframes form one smooth curve, as Apple documents); 0 at the track's last keyframe.
/// - `move`: `MoveKeyframe` — the value jumps to the target.
public struct KeyframeTrack: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case linear(TimingCurve)
    case spring(Spring)
    case cubic(startVelocity: Double?, endVelocity: Double?)
    case move
  }

  /// A value to reach, how, and in how many seconds (0 for a move).
  public struct Keyframe: Hashable, Sendable {
    public var target: Double, duration: Double, kind: Kind

    public init(target: Double, duration: Double, kind: Kind) {
      (self.target, self.kind) = (target, kind)
      self.duration = kind == .move ? 0 : max(0, duration)
    }
  }

  public var keyframes: [Keyframe]

  public init(_ keyframes: [Keyframe]) { self.keyframes = keyframes }

  /// Where the track leaves a value it starts at: its last keyframe's target.
  public func end(from start: Double) -> Double { keyframes.last?.target ?? start }

  /// The sum of the keyframes' durations.
  public var duration: Double { keyframes.reduce(0) { $0 + $1.duration } }

  /// The value `t` seconds after the track starts at `start`: before 0 the start; at 0 where the
  /// keyframes of no length at its head put it (a leading `MoveKeyframe` jumps at once, so the
  /// frame of the trigger shows it); from the end of the last keyframe on its target (a spring
  /// keyframe that has not quite arrived when its duration ends comes to rest there — our
  /// choice, so no value stays a hair off).
  public func value(at t: Double, from start: Double) -> Double {
    guard t >= 0 else { return start }
    // Knots: the start, then each keyframe's target, at the times they are reached.
    var knotTimes = [0.0]
    var knots = [start]
    for k in keyframes {
      knotTimes.append(knotTimes[knotTimes.count - 1] + k.duration)
      knots.append(k.target)
    }
    var value = start
    var velocity = 0.0
    var begin = 0.0
    for (i, k) in keyframes.enumerated() {
      let end = begin + k.duration
      let local = min(t, end) - begin
      let from = value
      var atEnd: (value: Double, velocity: Double)
      switch k.kind {
      case .move:
        atEnd = (k.target, 0)
      case .linear(let curve):
        var c = curve
        c.duration = k.duration
        let s = k.duration > 0 ? c.unitProgress(at: local) : 1
        // The curve's slope, from inside the segment at its ends.
        let h = 1e-6
        let (a, b) = (max(local - h, 0), min(local + h, k.duration))
        let ds =
          k.duration > 0 && b > a ? (c.unitProgress(at: b) - c.unitProgress(at: a)) / (b - a) : 0
        atEnd = (from + (k.target - from) * s, (k.target - from) * ds)
      case .spring(let spring):
        let moved = spring.evolve(displacement: from - k.target, velocity: velocity, time: local)
        atEnd = (k.target + moved.displacement, moved.velocity)
      case .cubic(let v0, let v1):
        // Catmull-Rom tangents from the neighbouring knots where none is given.
        let j = i + 1
        let m0 =
          v0
          ?? (j >= 2
            ? (knots[j] - knots[j - 2]) / max(knotTimes[j] - knotTimes[j - 2], 1e-12) : velocity)
        let m1 =
          v1
          ?? (j + 1 < knots.count
            ? (knots[j + 1] - knots[j - 1]) / max(knotTimes[j + 1] - knotTimes[j - 1], 1e-12) : 0)
        let d = k.duration
        guard d > 0 else {
          atEnd = (k.target, m1)
          break
        }
        let u = local / d
        let (u2, u3) = (u * u, u * u * u)
        let h00 = 2 * u3 - 3 * u2 + 1
        let h10 = u3 - 2 * u2 + u
        let h01 = -2 * u3 + 3 * u2
        let h11 = u3 - u2
        let p = h00 * from + h10 * d * m0 + h01 * k.target + h11 * d * m1
        let dp =
          ((6 * u2 - 6 * u) * from + (3 * u2 - 4 * u + 1) * d * m0 + (-6 * u2 + 6 * u) * k.target
            + (3 * u2 - 2 * u) * d * m1) / d
        atEnd = (p, dp)
      }
      if t < end { return atEnd.value }
      (value, velocity) = atEnd
      begin = end
    }
    return keyframes.last?.target ?? start
  }
}
