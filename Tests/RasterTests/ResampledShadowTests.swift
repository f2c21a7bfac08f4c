import TestSupport
import Testing

@testable import Raster

#if canImport(Glibc)
import Glibc
#endif

/// Shadows blurred once and moved (`ResampledShadow`) against shadows blurred where they fall,
/// and the shift kernel against its plain twin.
@Suite struct ResampledShadowTests {
  static let shapes = [
    // A cat-like outline with spikes, a thin bar (a line at the blur's scale), a disc.
    "M20 84C18 66 24 54 34 46L30 14C30 10 33 9 36 11L56 33C62 31 68 31 74 33L92 13C95 10 98 11 98 15L96 48C102 58 104 68 102 80Z",
    "M10 50h80v1.2h-80z",
    "M50 10A40 40 0 1 1 50 90A40 40 0 1 1 50 10Z",
  ]

  /// A plane of random values in [0, 255).
  static func randomPlane(width: Int, height: Int, _ stream: inout SeededGenerator) -> FloatPlane {
    var plane = FloatPlane(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width { plane.values[y * plane.stride + x] = Float(stream.nextUnit() * 255) }
    }
    return plane
  }

  @Test func shiftKernelMatchesItsTwin() throws {
    var stream = SeededGenerator(seed: 7)
    for (width, height) in [(1, 1), (5, 3), (17, 9), (40, 33)] {
      let plane = Self.randomPlane(width: width, height: height, &stream)
      for _ in 0..<60 {
        let shift = (x: stream.nextUnit() * 80 - 40, y: stream.nextUnit() * 80 - 40)
        let (w, h) = (1 + Int(stream.nextUnit() * 45), 1 + Int(stream.nextUnit() * 40))
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

  @Test func resampleKernelMatchesItsTwin() throws {
    var stream = SeededGenerator(seed: 11)
    for (width, height) in [(1, 1), (6, 4), (19, 13), (40, 33)] {
      let plane = Self.randomPlane(width: width, height: height, &stream)
      for trial in 0..<90 {
        let scale = 0.3 + stream.nextUnit() * 2.5
        let angle = trial % 3 == 2 ? stream.nextUnit() * 6.3 : 0
        let (cosine, sine) = (scale * cos(angle), scale * sin(angle))
        let map = PlaneMap(
          m00: trial % 3 == 0 ? 1 : cosine, m01: -sine, m10: sine,
          m11: trial % 3 == 0 ? 1 : cosine * (trial % 2 == 0 ? 1 : 0.7),
          ox: stream.nextUnit() * 60 - 30, oy: stream.nextUnit() * 60 - 30)
        let (w, h) = (1 + Int(stream.nextUnit() * 45), 1 + Int(stream.nextUnit() * 40))
        var fast = try #require(Mask(width: w, height: h))
        var plain = fast
        GaussianBlur.resample(plane, through: map, into: &fast)
        GaussianBlur.resampleScalar(plane, through: map, into: &plain)
        #expect(fast == plain, "\(width)×\(height) through \(map) into \(w)×\(h)")
      }
    }
  }

  /// A layer whose scale the animation changes keeps one silhouette: the key does not move.
  @Test func aScaledSimilarityKeepsItsKey() throws {
    let path = try PathDataParser.parse(Self.shapes[0])
    let content = Layer.fill(path, .black)
    let radius = 4.0
    let keys = [0.9, 0.95, 1.0, 1.37].map { s in
      let linear = Transform.rotation(0.3).concatenating(.scale(2 * s, 2 * s))
      return ResampledShadow.key(content: content, linear: linear, sigma: radius * 2 * s)
    }
    #expect(Set(keys).count == 1)
    #expect(keys[0].sigma == ResampledShadow.canonicalSigma)
    // Not a similarity: drawn under the map itself.
    let stretched = ResampledShadow.key(content: content, linear: .scale(2, 3), sigma: 9)
    #expect(stretched.linear == .scale(2, 3) && stretched.sigma == 9)
  }

  /// The moved shadow is within one level of the shadow blurred where it falls, at every σ from
  /// the minimum, every fractional offset tried, and several scales and rotations; and it is the
  /// same whatever the compositor drew before (a fresh compositor and one that has its
  /// silhouette cached give the same bytes).
  @Test(arguments: [4.0, 5.5, 8.0, 16.0])
  func movedShadowMatchesTheShadowBlurredInPlace(sigma: Double) throws {
    var stream = SeededGenerator(seed: UInt64(sigma * 1000))
    var worst = 0
    var differing = 0
    var total = 0
    for source in Self.shapes {
      let path = try PathDataParser.parse(source)
      let content = Layer.fill(path, .black)
      for linear in [
        Transform.scale(2, 2), .scale(3.3, 3.3),
        Transform.rotation(0.6).concatenating(.scale(2.5, 2.5)),
        .scale(2, 2.6),
      ] {
        var cached = Compositor()
        for _ in 0..<6 {
          var parent = linear
          parent.tx = 200 + stream.nextUnit() * 7
          parent.ty = 210 + stream.nextUnit() * 7
          let (width, height) = (700, 700)
          var direct = Compositor()
          let drawn = direct.silhouette(of: content, width: width, height: height, parent: parent)
          var inPlace = try #require(drawn)
          GaussianBlur.blur(&inPlace, sigma: sigma)
          let shadow = cached.resampledShadow(
            of: content, parent: parent, sigma: sigma, width: width, height: height)
          let moved = try #require(shadow)
          var fresh = Compositor()
          let again = fresh.resampledShadow(
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
    let small = compositor.resampledShadow(
      of: .fill(path, .black), parent: .scale(2, 2), sigma: 3.9, width: 300, height: 300)
    #expect(small == nil)
    // A layer far larger than the offscreen it falls in.
    let huge = compositor.resampledShadow(
      of: .fill(path, .black), parent: .scale(200, 200), sigma: 8, width: 100, height: 100)
    #expect(huge == nil)
  }
}
