import Testing

@testable import Motion

/// Repeats and speed, against their statement written out here: an iteration of length D plays
/// the base curve s(t); iteration k covers [kD, (k+1)D); with autoreverses the odd ones play
/// s(D − (t − kD)) (time reversed); a counted repetition ends at its target after n·D (so an
/// even count that autoreverses ends where it began and then jumps there, as SwiftUI's does);
/// `speed(f)` is the same curve in 1/f of the time (docs/SEMANTICS.md, Repeats).
@Suite struct RepeatTests {
  /// The value a change from 0 to 100 at t = 0 gives at `t`, through the channel timeline.
  static func value(_ animation: Animation, at t: Double) -> Double {
    ChannelTimeline(
      initial: [0], changes: [.init(time: 0, target: [100], animation: animation)],
      frameRate: 60
    ).value(at: t)[0]
  }

  /// The statement above, for a base curve `s` of length `d`.
  static func expected(
    _ s: (Double) -> Double, _ d: Double, count: Int?, autoreverses: Bool, at t: Double
  ) -> Double {
    if let count, t >= Double(count) * d { return 100 }
    let k = (t / d).rounded(.down)
    let local = t - k * d
    let reversed = autoreverses && Int(k) % 2 == 1
    return 100 * s(reversed ? d - local : local)
  }

  @Test func curvesRepeatAsStated() {
    let curves: [TimingCurve] = [
      .linear(duration: 0.7), .easeIn(duration: 0.4), .easeInOut(duration: 1),
      TimingCurve(0.2, 0.9, 0.3, 1.4, duration: 0.5),
    ]
    var largest = 0.0
    for curve in curves {
      for count in [nil, 1, 2, 3] as [Int?] {
        for autoreverses in [false, true] {
          let animation = Animation.repeated(
            .curve(curve), .init(count: count, autoreverses: autoreverses))
          for step in 0..<400 {
            let t = Double(step) / 100 + 0.001
            let want = Self.expected(
              curve.unitProgress, curve.duration, count: count, autoreverses: autoreverses, at: t)
            let got = Self.value(animation, at: t)
            largest = max(largest, abs(got - want))
          }
        }
      }
    }
    #expect(largest < 1e-9)
  }

  /// A spring repeats its interpolating curve over its settling time.
  @Test func springsRepeatTheirCurve() {
    let spring = Spring(response: 0.4, dampingFraction: 0.6)
    let d = spring.settlingDuration
    let animation = Animation.repeated(.fluidSpring(spring), .init(count: nil, autoreverses: true))
    for step in 0..<300 {
      let t = Double(step) / 50
      let want = Self.expected(
        spring.unitProgress, d, count: nil, autoreverses: true, at: t)
      #expect(abs(Self.value(animation, at: t) - want) < 1e-9)
    }
  }

  /// An even count that autoreverses ends where it began, then jumps to the target; a forever
  /// repetition never settles, and is not reported as a spring that failed to.
  @Test func endings() {
    let curve = TimingCurve.easeInOut(duration: 0.5)
    let twice = Animation.repeated(.curve(curve), .init(count: 2, autoreverses: true))
    #expect(abs(Self.value(twice, at: 0.999)) < 0.01)
    #expect(Self.value(twice, at: 1.0) == 100)
    let forever = ChannelTimeline(
      initial: [0],
      changes: [
        .init(
          time: 0, target: [1],
          animation: .repeated(.curve(curve), .init(count: nil, autoreverses: true)))
      ], frameRate: 60)
    #expect(forever.settleTime == .infinity && forever.isEndless)
    #expect(forever.unsettledChanges.isEmpty)
    // A later change takes over from the repetition and settles.
    let stopped = ChannelTimeline(
      initial: [0],
      changes: [
        .init(
          time: 0, target: [1],
          animation: .repeated(.curve(curve), .init(count: nil, autoreverses: true))),
        .init(time: 2.2, target: [0], animation: .curve(.linear(duration: 0.3))),
      ], frameRate: 60)
    #expect(stopped.settleTime == 2.5 && stopped.value(at: 3) == [0])
  }

  /// `speed(f)`: a curve's duration divided by f; a spring with stiffness × f² and damping × f —
  /// the same as the spring whose response is divided by f.
  @Test func speedScalesTime() {
    let curve = TimingCurve.easeOut(duration: 0.8)
    for t in stride(from: 0.0, through: 1, by: 0.05) {
      #expect(
        abs(
          Self.value(Animation.curve(curve).speed(2), at: t) - 100 * curve.unitProgress(at: 2 * t))
          < 1e-9)
    }
    let spring = Spring(response: 0.6, dampingFraction: 0.7)
    let fast = Spring(response: 0.3, dampingFraction: 0.7)
    for t in stride(from: 0.0, through: 1, by: 0.05) {
      let a = Self.value(Animation.fluidSpring(spring).speed(2), at: t)
      let b = Self.value(.fluidSpring(fast), at: t)
      #expect(abs(a - b) < 1e-9)
    }
    // Inside a repetition each iteration is faster.
    let repeated = Animation.repeated(.curve(curve), .init(count: 3, autoreverses: false))
    #expect(abs(Self.value(repeated.speed(4), at: 0.45) - Self.value(repeated, at: 1.8)) < 1e-9)
  }
}
