/// A cubic Bézier timing curve over a fixed duration, as SwiftUI's `easeIn`, `easeOut`,
/// `easeInOut`, `linear` and `timingCurve(_:_:_:_:duration:)` build it: progress y against
/// elapsed fraction x, through (0, 0), control points (x1, y1) and (x2, y2), and (1, 1).
public struct TimingCurve: Hashable, Sendable {
  public var x1: Double
  public var y1: Double
  public var x2: Double
  public var y2: Double
  /// Seconds from start to end.
  public var duration: Double

  /// SwiftUI's duration when none is given, in seconds.
  public static let defaultDuration = 0.35

  /// `x1` and `x2` are clamped to 0...1 so that x is monotonic and the curve a function of time.
  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, duration: Double) {
    self.x1 = min(max(x1, 0), 1)
    self.y1 = y1
    self.x2 = min(max(x2, 0), 1)
    self.y2 = y2
    self.duration = max(0, duration)
  }

  public static func linear(duration: Double = defaultDuration) -> TimingCurve {
    TimingCurve(0, 0, 1, 1, duration: duration)
  }
  public static func easeIn(duration: Double = defaultDuration) -> TimingCurve {
    TimingCurve(0.42, 0, 1, 1, duration: duration)
  }
  public static func easeOut(duration: Double = defaultDuration) -> TimingCurve {
    TimingCurve(0, 0, 0.58, 1, duration: duration)
  }
  public static func easeInOut(duration: Double = defaultDuration) -> TimingCurve {
    TimingCurve(0.42, 0, 0.58, 1, duration: duration)
  }

  /// Progress after `t` seconds: 0 before the start, 1 from `duration` on.
  public func unitProgress(at t: Double) -> Double {
    guard duration > 0, t < duration else { return t < 0 ? 0 : 1 }
    guard t > 0 else { return 0 }
    let x = t / duration
    return Self.bezier(parameter(forX: x), y1, y2)
  }

  /// The Bézier parameter s at which the curve's x equals `x` (0...1): Newton steps from a
  /// linear guess, then bisection if they did not converge. x(s) is monotonic for x1, x2 in 0...1.
  func parameter(forX x: Double) -> Double {
    var s = x
    for _ in 0..<8 {
      let error = Self.bezier(s, x1, x2) - x
      if abs(error) < 1e-12 { return s }
      let slope = Self.slope(s, x1, x2)
      guard abs(slope) > 1e-9 else { break }
      s -= error / slope
      guard (0...1).contains(s) else { break }
    }
    var (low, high) = (0.0, 1.0)
    s = x
    for _ in 0..<60 {
      let value = Self.bezier(s, x1, x2)
      if abs(value - x) < 1e-12 { break }
      if value < x { low = s } else { high = s }
      s = (low + high) / 2
    }
    return s
  }

  /// One coordinate of the curve at parameter s, with end values 0 and 1.
  static func bezier(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * c1 + 3 * u * s * s * c2 + s * s * s
  }

  /// d/ds of `bezier`.
  static func slope(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * c1 + 6 * u * s * (c2 - c1) + 3 * s * s * (1 - c2)
  }
}
