import Testing

@testable import Raster

/// Shadows blurred once and moved (`TranslatedShadow`) against shadows blurred where they fall,
/// and the shift kernel against its plain twin.
@Suite struct TranslatedShadowTests {
  /// A splitmix64 stream: the same cases every run.
  struct Stream {
    var state: UInt64
    mutating func next() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
  }

  static let shapes = [
    // A cat-like outline with spikes, a thin bar (a line at the blur's scale), a disc.
    "M20 84C18 66 24 54 34 46L30 14C30 10 33 9 36 11L56 33C62 31 68 31 74 33L92 13C95 10 98 11 98 15L96 48C102 58 104 68 102 80Z",
    "M10 50h80v1.2h-80z",
    "M50 10A40 40 0 1 1 50 90A40 40 0 1 1 50 10Z",
  ]

  @Test func shiftKernelMatchesItsTwin() throws {
    var stream = Stream(state: 7)
    for (width, height) in [(1, 1), (5, 3), (17, 9), (40, 33)] {
      var plane = FloatPlane(width: width, height: height)
      for y in 0..<height {
        for x in 0..<width { plane.values[y * plane.stride + x] = Float(stream.next() * 255) }
      }
      for _ in 0..<60 {
        let shift = (x: stream.next() * 80 - 40, y: stream.next() * 80 - 40)
        let (w, h) = (1 + Int(stream.next() * 45), 1 + Int(stream.next() * 40))
        var fast = try #require(Mask(width: w, height: h))
        var plain = fast
        GaussianBlur.shift(plane, by: shift, into: &fast)
        GaussianBlur.shiftScalar(plane, by: shift, into: &plain)
        #expect(fast == plain, "\(width)×\(height) shifted by \(shift) into \(w)×\(h)")
      }
      // Whole shifts copy the plane's rounded samples.
      var moved = try #require(Mask(width: width + 4, height: height + 4))
      GaussianBlur.shift(plane, by: (-2, -2), into: &moved)
      for y in 0..<height {
        for x in 0..<width {
          let v = min(max(plane.values[y * plane.stride + x], 0), 255)
          #expect(moved[x + 2, y + 2] == UInt8(v.rounded(.toNearestOrEven)))
        }
      }
      var far = try #require(Mask(width: 8, height: 8))
      GaussianBlur.shift(plane, by: (1e300, -1e300), into: &far)
      #expect(far.values.allSatisfy { $0 == 0 })
    }
  }

  /// The moved shadow is within one level of the shadow blurred where it falls, at every σ from
  /// the minimum, every fractional offset tried, and several scales and rotations; and it is the
  /// same whatever the compositor drew before (a fresh compositor and one that has its
  /// silhouette cached give the same bytes).
  @Test(arguments: [4.0, 5.5, 8.0, 16.0])
  func movedShadowMatchesTheShadowBlurredInPlace(sigma: Double) throws {
    var stream = Stream(state: UInt64(sigma * 1000))
    var worst = 0
    var differing = 0
    var total = 0
    for source in Self.shapes {
      let path = try PathDataParser.parse(source)
      let content = Layer.fill(path, .black)
      for linear in [
        Transform.scale(2, 2), .scale(3.3, 3.3),
        Transform.rotation(0.6).concatenating(.scale(2.5, 2.5)),
      ] {
        var cached = Compositor()
        for _ in 0..<6 {
          var parent = linear
          parent.tx = 200 + stream.next() * 7
          parent.ty = 210 + stream.next() * 7
          let (width, height) = (700, 700)
          var direct = Compositor()
          let drawn = direct.silhouette(of: content, width: width, height: height, parent: parent)
          var inPlace = try #require(drawn)
          GaussianBlur.blur(&inPlace, sigma: sigma)
          let shadow = cached.translatedShadow(
            of: content, parent: parent, sigma: sigma, width: width, height: height)
          let moved = try #require(shadow)
          var fresh = Compositor()
          let again = fresh.translatedShadow(
            of: content, parent: parent, sigma: sigma, width: width, height: height)
          #expect(again == moved, "history changed the shadow")
          for (a, b) in zip(inPlace.values, moved.values) {
            let d = abs(Int(a) - Int(b))
            worst = max(worst, d)
            if d > 0 { differing += 1 }
            total += 1
          }
        }
      }
    }
    print("moved shadow σ \(sigma): largest difference \(worst), \(differing) of \(total) differ")
    #expect(worst <= 1, "σ \(sigma): largest difference \(worst) levels")
    #expect(Double(differing) / Double(total) < 0.05, "σ \(sigma): \(differing) of \(total) differ")
  }

  @Test func smallBlursAndHugeLayersAreBlurredInPlace() throws {
    let path = try PathDataParser.parse(Self.shapes[2])
    var compositor = Compositor()
    let small = compositor.translatedShadow(
      of: .fill(path, .black), parent: .scale(2, 2), sigma: 3.9, width: 300, height: 300)
    #expect(small == nil)
    // A layer far larger than the offscreen it falls in.
    let huge = compositor.translatedShadow(
      of: .fill(path, .black), parent: .scale(200, 200), sigma: 8, width: 100, height: 100)
    #expect(huge == nil)
  }
}
