import Testing

@testable import Motion

/// A change made without an animation while one runs: the value jumps by the change (the model's
/// step) and what is left of the running animation plays on top, to its own end — SwiftUI's
/// animator keeps its state through a transaction without an animation (docs/SEMANTICS.md, "A
/// change while one is running").
@Suite struct UnanimatedChangeTests {
  static let linear = Animation.curve(.linear(duration: 1))

  /// Another component changed without animation leaves a running one alone.
  @Test func anotherComponentJumpsAndTheRunningOneGoesOn() {
    let timeline = ChannelTimeline(
      initial: [0, 0],
      changes: [
        .init(time: 0, target: [100, 0], animation: Self.linear),
        .init(time: 0.5, target: [100, 40], animation: .none),
      ], frameRate: 60)
    for t in stride(from: 0.5, through: 1.2, by: 0.05) {
      let value = timeline.value(at: t)
      #expect(abs(value[0] - min(100, 100 * t)) < 1e-9, "x at \(t)")
      #expect(value[1] == 40, "y at \(t)")
    }
    #expect(timeline.settleTime == 1)
  }

  /// The same component changed without animation: the value jumps by the model's step and the
  /// rest of the animation carries on from there.
  @Test func theSameComponentJumpsByTheStep() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 0, target: [100], animation: Self.linear),
        .init(time: 0.5, target: [50], animation: .none),
      ], frameRate: 60)
    for t in stride(from: 0.5, through: 1.5, by: 0.1) {
      #expect(abs(timeline.value(at: t)[0] - (min(100, 100 * t) - 50)) < 1e-9, "at \(t)")
    }
    #expect(timeline.value(at: 2) == [50])
  }

  /// A change without animation does not stop a repetition that runs for ever (SwiftUI's
  /// well-known way a spinner keeps spinning), and does not count as unsettled.
  @Test func aRepetitionForEverGoesOn() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(
          time: 0, target: [360],
          animation: .repeated(Self.linear, .init(count: nil, autoreverses: false))),
        .init(time: 1.25, target: [0], animation: .none),
      ], frameRate: 60)
    #expect(timeline.settleTime == .infinity)
    #expect(timeline.unsettledChanges.isEmpty)
    #expect(abs(timeline.value(at: 1.5)[0] - (180 - 360)) < 1e-9)
    #expect(abs(timeline.value(at: 2.75)[0] - (270 - 360)) < 1e-9)
  }

  /// A curve a minute long ends on time: it is not an animation that failed to settle (the
  /// note said "a spring with little or no damping"; found by a review).
  @Test func aMinuteLongCurveIsNotUnsettled() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [.init(time: 0, target: [1], animation: .curve(.linear(duration: 60)))],
      frameRate: 10)
    #expect(timeline.unsettledChanges.isEmpty && timeline.settleTime == 60)
  }

  /// Without a running animation the change is a plain jump, as before.
  @Test func withNothingRunningItJumps() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 0, target: [100], animation: Self.linear),
        .init(time: 2, target: [30], animation: .none),
      ], frameRate: 60)
    #expect(timeline.value(at: 1.99) == [100])
    #expect(timeline.value(at: 2) == [30] && timeline.value(at: 5) == [30])
    #expect(timeline.settleTime == 2)
  }

  /// A spring running when the jump comes keeps its velocity: the next animated change starts
  /// from the shifted value moving as before.
  @Test func aRunningSpringKeepsItsMotion() {
    let spring = Animation.fluidSpring(Spring(response: 0.5, dampingFraction: 0.8))
    let plain = ChannelTimeline(
      initial: [0], changes: [.init(time: 0, target: [100], animation: spring)], frameRate: 60)
    let shifted = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 0, target: [100], animation: spring),
        .init(time: 0.2, target: [120], animation: .none),
      ], frameRate: 60)
    for t in stride(from: 0.2, through: 2, by: 0.1) {
      #expect(abs(shifted.value(at: t)[0] - (plain.value(at: t)[0] + 20)) < 1e-9, "at \(t)")
    }
  }
}
