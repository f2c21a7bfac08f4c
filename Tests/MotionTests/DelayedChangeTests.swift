import Testing

@testable import Motion

/// Changes made while another waits out its animation's `delay`: they take turns in the order
/// they were made, as SwiftUI's model value does, whichever animation starts first; a change in
/// its delay leaves the value to the changes made before it (docs/SEMANTICS.md, "Delays").
@Suite struct DelayedChangeTests {
  static let linear = Animation.curve(.linear(duration: 1))

  /// The case a review found: set to 100 with a 1 s delay, then to 50 without animation half a
  /// second later. The model value is 50, so the value ends there; the delayed animation still
  /// plays its step of 100 on top of the jump of −50.
  @Test func anUnanimatedChangeDuringADelayWins() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 1, target: [100], animation: Self.linear, madeAt: 0),
        .init(time: 0.5, target: [50], animation: .none),
      ], frameRate: 60)
    #expect(timeline.changes.map(\.madeAt) == [0, 0.5])
    #expect(timeline.value(at: 0.25) == [0])
    #expect(timeline.value(at: 0.5) == [-50])
    #expect(timeline.value(at: 0.99) == [-50])
    for t in stride(from: 1.0, through: 2.0, by: 0.125) {
      #expect(abs(timeline.value(at: t)[0] - (100 * (t - 1) - 50)) < 1e-9, "at \(t)")
    }
    #expect(timeline.value(at: 2) == [50] && timeline.value(at: 9) == [50])
    #expect(timeline.settleTime == 2)
  }

  /// An animated change made during another's delay starts first and the delayed one, made
  /// earlier, does not overrule it when it starts: the later change's target is where it ends.
  @Test func anAnimatedChangeDuringADelayEndsAtItsTarget() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 2, target: [100], animation: Self.linear, madeAt: 0),
        .init(time: 0.5, target: [30], animation: Self.linear),
      ], frameRate: 60)
    #expect(abs(timeline.value(at: 1)[0] - 15) < 1e-9)
    #expect(timeline.value(at: 1.5) == [30])
    #expect(timeline.value(at: 3) == [30] && timeline.value(at: 10) == [30])
  }

  /// Without another change, a delay holds the value and then plays the animation: the same as
  /// a change made at the start time.
  @Test func aLoneDelayIsAStartTime() {
    let delayed = ChannelTimeline(
      initial: [0], changes: [.init(time: 0.75, target: [10], animation: Self.linear, madeAt: 0)],
      frameRate: 60)
    let plain = ChannelTimeline(
      initial: [0], changes: [.init(time: 0.75, target: [10], animation: Self.linear)],
      frameRate: 60)
    for t in stride(from: 0.0, through: 2.0, by: 0.0625) {
      #expect(delayed.value(at: t) == plain.value(at: t), "at \(t)")
    }
    #expect(delayed.settleTime == plain.settleTime)
  }

  /// Every kind of animation waits out its delay at the value the earlier changes give it
  /// (a spring's integrator, keyframes and a repetition included), then leaves from there.
  @Test func everyKindWaitsAtTheEarlierValue() {
    let kinds: [Animation] = [
      Self.linear,
      .fluidSpring(Spring(response: 0.5, dampingFraction: 0.8)),
      .interpolatingSpring(Spring(response: 0.5, dampingFraction: 0.8)),
      .repeated(Self.linear, .init(count: 3, autoreverses: true)),
    ]
    for kind in kinds {
      let timeline = ChannelTimeline(
        initial: [0],
        changes: [
          .init(time: 0, target: [40], animation: .none),
          .init(time: 1, target: [100], animation: kind, madeAt: 0.25),
        ], frameRate: 60)
      for t in stride(from: 0.0, to: 1.0, by: 0.125) {
        #expect(timeline.value(at: t) == [40], "\(kind) at \(t)")
      }
      #expect(timeline.value(at: 1.1)[0] != 40, "\(kind) moves once started")
      #expect(timeline.value(at: 60)[0] == 100, "\(kind) ends at its target")
    }
  }

  /// Two changes made at the same moment take turns in the order given (a later event at the same
  /// time comes last), whichever animation starts first: they were ordered by start, so a
  /// delayed change given first ended the value (found by a review, 2026-12-05).
  @Test func changesMadeAtOnceKeepTheirOrder() {
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 1.5, target: [100], animation: Self.linear, madeAt: 0.5),
        .init(time: 0.5, target: [50], animation: .none),
      ], frameRate: 60)
    #expect(timeline.changes.map(\.target) == [[100], [50]])
    #expect(timeline.value(at: 1) == [-50])
    #expect(timeline.value(at: 3) == [50])
  }

  /// A spring made while another waits out its delay merges with the spring that runs, as it
  /// would without the waiting one (it started afresh, at rest).
  @Test func aSpringMergesWithTheOneRunningPastAWaitingOne() {
    let spring = Animation.fluidSpring(Spring(response: 0.5, dampingFraction: 0.8))
    let running = ChannelTimeline.Change(time: 0, target: [100], animation: spring)
    let last = ChannelTimeline.Change(time: 0.3, target: [0], animation: spring)
    let waiting = ChannelTimeline.Change(time: 3, target: [300], animation: spring, madeAt: 0.1)
    let with = ChannelTimeline(initial: [0], changes: [running, waiting, last], frameRate: 60)
    let without = ChannelTimeline(initial: [0], changes: [running, last], frameRate: 60)
    for t in stride(from: 0.3, to: 2.9, by: 0.05) {
      #expect(with.value(at: t) == without.value(at: t), "at \(t)")
    }
  }

  /// A fluid spring made after a delayed one but starting first does not take over the delayed
  /// one's integrator (which has not started): it starts at rest from the value as it is.
  @Test func aSpringDoesNotMergeWithOneNotYetStarted() {
    let spring = Spring(response: 0.5, dampingFraction: 1)
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 3, target: [100], animation: .fluidSpring(spring), madeAt: 0),
        .init(time: 0.5, target: [20], animation: .fluidSpring(spring)),
      ], frameRate: 60)
    #expect(timeline.value(at: 0.5) == [0])
    let later = timeline.value(at: 0.6)[0]
    #expect(later > 0 && later < 20)
    #expect(abs(timeline.value(at: 10)[0] - 20) < 1e-6)
  }
}
