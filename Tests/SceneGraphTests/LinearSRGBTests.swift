import Testing

@testable import SceneGraph

/// sRGB's transfer function as colour channels use it (`LinearSRGB`).
@Suite struct LinearSRGBTests {
  /// Known values: mid-gray, the linear segment, the ends.
  @Test func knownValues() {
    #expect(abs(LinearSRGB.decode(0.5) - 0.214_041) < 1e-6)
    #expect(abs(LinearSRGB.encode(0.5) * 255 - 187.5) < 0.1)
    #expect(LinearSRGB.decode(0.04) == 0.04 / 12.92)
    #expect(LinearSRGB.decode(0) == 0 && LinearSRGB.encode(0) == 0)
    #expect(abs(LinearSRGB.decode(1) - 1) < 1e-15 && abs(LinearSRGB.encode(1) - 1) < 1e-15)
  }

  /// Both ways are inverse, odd about 0, increasing, and go on past 1 (a spring's overshoot).
  @Test func roundTripsOverTheExtendedRange() {
    var previous = -Double.infinity
    for k in -300...300 {
      let v = Double(k) / 200
      let linear = LinearSRGB.decode(v)
      #expect(abs(LinearSRGB.encode(linear) - v) < 1e-12, "\(v)")
      #expect(LinearSRGB.decode(-v) == -linear)
      #expect(linear > previous)
      previous = linear
    }
  }

  /// Alpha passes unchanged; only the colour components are converted.
  @Test func alphaIsLinearAlready() {
    let rgba = LinearSRGB.linear([0.5, 0.25, 1, 0.5])
    #expect(rgba[3] == 0.5)
    #expect(
      LinearSRGB.encoded(rgba).enumerated().allSatisfy {
        abs($1 - [0.5, 0.25, 1, 0.5][$0]) < 1e-12
      })
  }
}
