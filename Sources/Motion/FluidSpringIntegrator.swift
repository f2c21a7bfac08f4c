/// SwiftUI's stepping of a fluid spring (docs/SEMANTICS.md, Springs): fixed sub-steps of 1/300 s of velocity Verlet
/// from the last state change, the clock running to the first sub-step at or past the frame time.
///
/// half = v + F·dt/2;  offset += half·dt;  F = −c·half + k·(delta − offset);  v = half + F·dt/2
///
/// The number of sub-steps up to a time depends only on that time, so the state at a frame is a
/// pure function of the frame's time, whichever frames came before.
///
/// Stability: the damping term scales the half-step velocity by 1 − c·dt/2 a half step, so with
/// c·dt past 2 SwiftUI's step overshoots further each time and the value runs off to ±∞ (a
/// `spring(response: 0.1, dampingFraction: 5)` has c·dt = 2.09). Where c·dt > 1 each 1/300 s
/// step is taken as n = ⌈c·dt⌉ equal steps, so the spring creeps to its target as an overdamped
/// spring does; every spring with c ≤ 300 /s (all of SwiftUI's presets, and ζ ≤ 1 for any
/// response ≥ 0.042 s) steps exactly as SwiftUI does.
struct FluidSpringIntegrator: Hashable, Sendable {
  static let step = 1.0 / 300

  /// Equal parts each 1/300 s step is taken in: 1 where SwiftUI's step is stable and well damped.
  static func parts(damping c: Double) -> Int {
    let cdt = c * step
    return cdt > 1 ? Int(min(cdt, 1e6).rounded(.up)) : 1
  }

  /// The animated value, its velocity (units/s) and the spring force (units/s²), per component.
  var value: [Double]
  var velocity: [Double]
  var force: [Double]
  /// The integrator's clock, in seconds.
  var clock: Double

  /// Advances until the clock reaches `time` (up to one sub-step past it) towards `target`.
  mutating func advance(to time: Double, target: [Double], spring: Spring) {
    let steps = max(0, Int(((time - clock) / Self.step - 1e-9).rounded(.up)))
    let (k, c) = (spring.stiffness, spring.damping)
    let parts = Self.parts(damping: c)
    let dt = Self.step / Double(parts)
    for _ in 0..<(steps * parts) {
      for i in value.indices {
        let half = velocity[i] + force[i] * dt / 2
        value[i] += half * dt
        force[i] = -c * half + k * (target[i] - value[i])
        velocity[i] = half + force[i] * dt / 2
      }
    }
    clock += Double(steps) * Self.step
  }

  /// SwiftUI removes the animation once max(|v|², |F|²) ≤ 0.0036 and what is left of the move is
  /// at most 1 % of it (norms over the whole vector). A remainder below 1e-9 counts as none: a
  /// move of a few ulps (0.1 + 0.2 to 0.3) would otherwise never come within 1 % in floating
  /// point.
  func isStill(target: [Double], totalDistance: Double) -> Bool {
    func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
    let remaining = norm(zip(target, value).map { $0 - $1 })
    return max(norm(velocity), norm(force)) <= 0.06
      && (remaining <= 0.01 * totalDistance || remaining < 1e-9)
  }
}
