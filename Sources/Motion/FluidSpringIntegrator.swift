/// SwiftUI's stepping of a fluid spring (docs/SEMANTICS.md, Springs): fixed sub-steps of 1/300 s of velocity Verlet
/// from the last state change, the clock running to the first sub-step at or past the frame time.
///
/// half = v + F·dt/2;  offset += half·dt;  F = −c·half + k·(delta − offset);  v = half + F·dt/2
///
/// The number of sub-steps up to a time depends only on that time, so the state at a frame is a
/// pure function of the frame's time, whichever frames came before.
struct FluidSpringIntegrator: Hashable, Sendable {
  static let step = 1.0 / 300

  /// The animated value, its velocity (units/s) and the spring force (units/s²), per component.
  var value: [Double]
  var velocity: [Double]
  var force: [Double]
  /// The integrator's clock, in seconds.
  var clock: Double

  /// Advances until the clock reaches `time` (up to one sub-step past it) towards `target`.
  mutating func advance(to time: Double, target: [Double], spring: Spring) {
    let dt = Self.step
    let steps = max(0, Int(((time - clock) / dt - 1e-9).rounded(.up)))
    let (k, c) = (spring.stiffness, spring.damping)
    for _ in 0..<steps {
      for i in value.indices {
        let half = velocity[i] + force[i] * dt / 2
        value[i] += half * dt
        force[i] = -c * half + k * (target[i] - value[i])
        velocity[i] = half + force[i] * dt / 2
      }
    }
    clock += Double(steps) * dt
  }

  /// SwiftUI removes the animation once max(|v|², |F|²) ≤ 0.0036 and what is left of the move is
  /// at most 1 % of it (norms over the whole vector).
  func isStill(target: [Double], totalDistance: Double) -> Bool {
    func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
    let remaining = norm(zip(target, value).map { $0 - $1 })
    return max(norm(velocity), norm(force)) <= 0.06 && remaining <= 0.01 * totalDistance
  }
}
