import Testing

@testable import Motion

@Suite struct SpringTests {
  /// §1.3's table of unit moves (closed form).
  static let table: [(t: Double, ios17: Double, legacy: Double, wallet: Double)] = [
    (0.05, 0.1313, 0.1189, 0.0902), (0.10, 0.3577, 0.3465, 0.2642), (0.20, 0.7154, 0.7451, 0.5940),
    (0.30, 0.8900, 0.9405, 0.8009), (0.40, 0.9605, 1.0017, 0.9084), (0.50, 0.9864, 1.0101, 0.9596),
    (0.75, 0.9992, 1.0011, 0.9953), (1.00, 1.0000, 0.9999, 0.9995),
  ]

  @Test func unitMovesMatchTheReferenceTable() {
    for row in Self.table {
      let ios17 =
        1 + Spring.swiftUI17Default.evolve(displacement: -1, velocity: 0, time: row.t).displacement
      let legacy =
        1
        + Spring.swiftUILegacyDefault.evolve(displacement: -1, velocity: 0, time: row.t)
        .displacement
      #expect(abs(ios17 - row.ios17) < 1e-4, "iOS 17 at \(row.t)")
      #expect(abs(legacy - row.legacy) < 1e-4, "legacy at \(row.t)")
      #expect(abs(Spring.wallet.unitProgress(at: row.t) - row.wallet) < 1e-4, "wallet at \(row.t)")
    }
  }

  @Test func parameterConversions() {
    // Apple's examples: Spring(duration: 0.5, bounce: 0.3) → k 157.9, c 17.6.
    let s = Spring(duration: 0.5, bounce: 0.3)
    #expect(abs(s.stiffness - 157.9) < 0.05 && abs(s.damping - 17.6) < 0.05)
    #expect(abs(Spring.swiftUILegacyDefault.stiffness - 130.51) < 0.01)
    #expect(abs(Spring.swiftUILegacyDefault.damping - 18.85) < 0.01)
    #expect(abs(Spring.swiftUI17Default.dampingRatio - 1) < 1e-12)
    #expect(Spring.wallet.dampingRatio == 1 && Spring.wallet.naturalFrequency == 10)
    #expect(Spring(response: 1e-9, dampingFraction: 1).stiffness == Spring.maximumStiffness)
  }

  @Test func walletSettlesAtOneSecond() {
    #expect(Spring.wallet.settlingDuration == 1.0)
  }

  /// §1.5: at 60 fps, moves of 100/300/500 pt end at ≈ 1.27/1.38/1.43 s (iOS 17) and
  /// ≈ 1.08/1.43/1.47 s (legacy).
  @Test func fluidSpringsEndWhereSwiftUIRemovesThem() {
    for (spring, expected) in [
      (Spring.swiftUI17Default, [1.27, 1.38, 1.43]),
      (Spring.swiftUILegacyDefault, [1.08, 1.43, 1.47]),
    ] {
      for (distance, end) in zip([100.0, 300, 500], expected) {
        let timeline = ChannelTimeline(
          initial: [0, 0],
          changes: [.init(time: 0, target: [distance, 0], animation: .fluidSpring(spring))],
          frameRate: 60)
        #expect(abs(timeline.settleTime - end) <= 0.02, "\(distance) pt: \(timeline.settleTime)")
        #expect(timeline.value(at: timeline.settleTime) == [distance, 0])
      }
    }
  }

  /// A retarget keeps position and velocity: no jump, no kink. (The integrator moves in 1/300 s
  /// steps, so compare frame-sized differences.)
  @Test func fluidRetargetIsContinuous() {
    let spring = Animation.fluidSpring(.swiftUI17Default)
    let retargeted = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 0, target: [100], animation: spring),
        .init(time: 0.2, target: [-50], animation: spring),
      ],
      frameRate: 50)
    let straight = ChannelTimeline(
      initial: [0], changes: [.init(time: 0, target: [100], animation: spring)], frameRate: 50)
    // Up to the retarget both agree exactly.
    #expect(retargeted.value(at: 0.2) == straight.value(at: 0.2))
    let v0 = retargeted.value(at: 0.18)[0]
    let v1 = retargeted.value(at: 0.2)[0]
    let v2 = retargeted.value(at: 0.22)[0]
    // Still moving up just after the retarget (velocity carried), slower than before.
    #expect(v2 > v1)
    #expect(v2 - v1 < v1 - v0)
    #expect(retargeted.value(at: retargeted.settleTime) == [-50])
  }

  /// §1.6: overlapping interpolating springs add: shown = A_old + (T_new − A_old)·s_new.
  @Test func interpolatingRetargetCombines() {
    let wallet = Animation.interpolatingSpring(.wallet)
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 0, target: [100], animation: wallet),
        .init(time: 0.3, target: [0], animation: wallet),
      ],
      frameRate: 50)
    let t = 0.5
    let old = 100 * Spring.wallet.unitProgress(at: t)
    let expected = old + (0 - old) * Spring.wallet.unitProgress(at: t - 0.3)
    #expect(abs(timeline.value(at: t)[0] - expected) < 1e-9)
    #expect(timeline.settleTime == 1.3)
    #expect(timeline.value(at: 1.3) == [0])
  }

  @Test func valueBeforeAndAtTheChangeIsTheOldOne() {
    let timeline = ChannelTimeline(
      initial: [7],
      changes: [.init(time: 0.5, target: [9], animation: .fluidSpring(.swiftUI17Default))],
      frameRate: 50)
    #expect(timeline.value(at: 0) == [7])
    #expect(timeline.value(at: 0.5) == [7])
    #expect(timeline.value(at: 0.52)[0] > 7)
  }
}

@Suite struct TimingCurveTests {
  @Test func curvesRunFromZeroToOneOverTheirDuration() {
    let curves: [TimingCurve] = [
      .linear(duration: 2), .easeIn(duration: 2), .easeOut(duration: 2), .easeInOut(duration: 2),
    ]
    for curve in curves {
      #expect(curve.unitProgress(at: -1) == 0)
      #expect(curve.unitProgress(at: 0) == 0)
      #expect(curve.unitProgress(at: 2) == 1)
      var previous = 0.0
      for step in 1...200 {
        let p = curve.unitProgress(at: Double(step) / 100)
        #expect(p >= previous - 1e-12)
        previous = p
      }
    }
    for step in 0...100 {
      let t = Double(step) / 50
      #expect(abs(TimingCurve.linear(duration: 2).unitProgress(at: t) - t / 2) < 1e-9)
      // easeInOut is symmetric; easeOut mirrors easeIn.
      let inOut = TimingCurve.easeInOut(duration: 2)
      #expect(abs(inOut.unitProgress(at: t) + inOut.unitProgress(at: 2 - t) - 1) < 1e-9)
      let mirrored = 1 - TimingCurve.easeIn(duration: 2).unitProgress(at: 2 - t)
      #expect(abs(TimingCurve.easeOut(duration: 2).unitProgress(at: t) - mirrored) < 1e-9)
    }
    // The Bézier's own point: at s = 1/2, easeInOut is at (0.5, 0.5).
    #expect(abs(TimingCurve.easeInOut(duration: 1).unitProgress(at: 0.5) - 0.5) < 1e-12)
  }

  @Test func overlappingCurvesAdd() {
    let curve = Animation.curve(.linear(duration: 1))
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [
        .init(time: 0, target: [100], animation: curve),
        .init(time: 0.5, target: [0], animation: curve),
      ],
      frameRate: 50)
    // At 0.75 s: the first change has reached 75; the second has taken a quarter of it back.
    #expect(abs(timeline.value(at: 0.75)[0] - (75 + (0 - 75) * 0.25)) < 1e-9)
    #expect(timeline.settleTime == 1.5)
  }

  /// Fuzz finding 4 (Fuzz/findings/scene-load/undamped-*): an undamped interpolating spring's
  /// settling duration is ±∞ (or NaN); its animation ends after `longestAnimation` and is
  /// reported, instead of making the frame count trap.
  @Test(arguments: [0.0, -0.0, 1e-300, .leastNonzeroMagnitude])
  func undampedSpringsEndAfterTheLongestAnimation(damping: Double) {
    let spring = Spring(mass: 1, stiffness: 100, damping: damping)
    let timeline = ChannelTimeline(
      initial: [0],
      changes: [.init(time: 0.2, target: [10], animation: .interpolatingSpring(spring))],
      frameRate: 60)
    #expect(timeline.settleTime == 0.2 + ChannelTimeline.longestAnimation)
    #expect(timeline.unsettledChanges == [0])
    #expect(timeline.value(at: timeline.settleTime) == [10])
    #expect(timeline.value(at: 30).allSatisfy { $0.isFinite })
  }

  @Test func settledSpringsAreNotReportedAsUnsettled() {
    for animation in [Animation.interpolatingSpring(.wallet), .fluidSpring(.swiftUI17Default)] {
      let timeline = ChannelTimeline(
        initial: [0], changes: [.init(time: 0, target: [300], animation: animation)],
        frameRate: 60)
      #expect(timeline.unsettledChanges.isEmpty)
    }
  }

  /// Fuzz finding 3 (Fuzz/findings/scene-load/fluid-spring-*): with c·dt past 2 SwiftUI's step
  /// runs off to ±∞. Over the decoder's whole range of damping fractions and responses, a fluid
  /// spring stays finite, an overdamped one stays between its start and its target, and every one settles at its
  /// target; where c·dt ≤ 1 the step is SwiftUI's own.
  @Test func fluidSpringsAreStableOverTheirWholeRange() {
    for response in [0.01, 0.02, 0.05, 0.1, 0.3, 1, 5] {
      for fraction in [0, 0.5, 1, 2, 5, 10] {
        let spring = Spring(response: response, dampingFraction: fraction)
        let timeline = ChannelTimeline(
          initial: [0], changes: [.init(time: 0, target: [100], animation: .fluidSpring(spring))],
          frameRate: 60)
        let what = "response \(response), dampingFraction \(fraction)"
        let end = timeline.settleTime
        #expect(end <= ChannelTimeline.longestAnimation, "\(what)")
        for frame in stride(from: 0, through: Int(end * 60), by: 5) {
          let value = timeline.value(at: Double(frame) / 60)[0]
          // An undamped spring swings to 200 and back; at the capped stiffness (ω·dt = 0.71)
          // velocity Verlet's swing is 1/√(1 − (ω·dt/2)²) = 1.069 times too wide, as in SwiftUI.
          #expect(value.isFinite && value >= -8 && value <= 208, "\(what) at \(frame): \(value)")
          if fraction >= 1 { #expect(value >= 0 && value <= 100, "\(what) at \(frame): \(value)") }
        }
        #expect(timeline.value(at: end) == [100], "\(what)")
      }
    }
    #expect(FluidSpringIntegrator.parts(damping: 300) == 1)
    #expect(FluidSpringIntegrator.parts(damping: Spring.swiftUI17Default.damping) == 1)
    #expect(FluidSpringIntegrator.parts(damping: 628) == 3)
  }
}
