import Testing

@testable import Codecs
@testable import Raster

/// The perceptual comparison's calibration (README, "Comparing goldens"): with its defaults
/// (ΔE 0.006, no pixel allowed) it passes what is noise — edges moved by up to 1/8 px, ±1
/// rounding of a re-encoding, a premultiplied round trip — and fails what is a change — a
/// corner radius 1 pt larger, a colour 2 % darker, a missing 2 × 2 px feature.
@Suite struct PerceptualComparisonTests {
  static let blue = Color(red: 0, green: 122 / 255, blue: 1)

  /// A card: a rounded rectangle of `color` with a dark 2 × 2 px dot (unless `dot` is false)
  /// and a translucent ring, on white, at `scale` pixels per point, moved by `shift` pixels.
  /// `nudge` moves the dot alone, in device pixels, off the pixel grid.
  static func card(
    scale: Double, shift: Point = .zero, radius: Double = 12, color: Color = blue,
    dot: Bool = true, nudge: Point = .zero, dotColor: Color = .black
  ) throws -> [UInt8] {
    let size = Int(120 * scale)
    var pixmap = try #require(
      Pixmap(width: size, height: size, filledWith: Color.white.premultiplied))
    var compositor = Compositor()
    let place = Transform.scale(scale, scale).concatenating(.translation(shift.x, shift.y))
    let card = Path.roundedRect(
      Rect(minX: 10, minY: 20, maxX: 110, maxY: 90), cornerRadius: radius, style: .continuous)
    var layers: [Layer] = [.fill(card, color)]
    layers.append(
      .fill(
        .ellipse(in: Rect(minX: 30, minY: 40, maxX: 70, maxY: 80)),
        Color(red: 1, green: 1, blue: 1, alpha: 0.45)))
    if dot {
      // 2 × 2 device pixels at a pixel corner, whatever the scale.
      let x = ((90 * scale).rounded() + nudge.x) / scale
      let y = ((40 * scale).rounded() + nudge.y) / scale
      layers.append(
        .fill(.rect(Rect(minX: x, minY: y, maxX: x + 2 / scale, maxY: y + 2 / scale)), dotColor))
    }
    compositor.render(.group(layers, transform: place), into: &pixmap)
    return PNGCodec.straightBytes(of: pixmap)
  }

  static func perceptual(_ a: [UInt8], _ b: [UInt8], _ width: Int) -> ImageDifference {
    ImageDifference(
      expected: a, actual: b, width: width, height: a.count / 4 / width,
      method: .perceptual(threshold: PerceptualDifference.defaultThreshold))
  }

  /// 1/8 px to each side, up, down and diagonally.
  static let eighthPixelMoves = [
    Point(0.125, 0), Point(-0.125, 0), Point(0, 0.125), Point(0, -0.125),
    Point(0.125, 0.125), Point(-0.125, 0.125), Point(0.125, -0.125), Point(-0.125, -0.125),
  ]

  @Test(arguments: [1.0, 2.0, 3.0])
  func noiseIsExcused(_ scale: Double) throws {
    let width = Int(120 * scale)
    let base = try Self.card(scale: scale)
    for shift in [Point(0.125, 0), Point(0, 0.125), Point(0.125, 0.125), Point(-0.0625, 0.1)] {
      let moved = try Self.card(scale: scale, shift: shift)
      let exact = ImageDifference(expected: base, actual: moved, width: width, tolerance: 0)
      let difference = Self.perceptual(base, moved, width)
      print(
        "@\(scale)x edges moved by (\(shift.x), \(shift.y)) px: exact \(exact.differingPixels) px "
          + "differ; perceptual: \(difference)")
      #expect(exact.differingPixels > 0)
      #expect(difference.differingPixels == 0, "\(shift): \(difference)")
    }
    // The dot's edges 0.1 px before pixel boundaries along one axis or both: the 1/8 px moves
    // take them over, so a row of the dot sits beside a sliver of it in one image and beside
    // white in the other (once judged differently), and along both axes the dot covers 3 × 3
    // pixels none of which is flat (the moved-feature rule's case).
    for nudge in [Point(-0.1, 0), Point(0, -0.1), Point(-0.1, -0.1)] {
      let nudged = try Self.card(scale: scale, nudge: nudge)
      var (exactMin, exactMax, excusedMin, excusedMax) = (Int.max, 0, Int.max, 0)
      for shift in Self.eighthPixelMoves {
        let moved = try Self.card(scale: scale, shift: shift, nudge: nudge)
        let difference = Self.perceptual(nudged, moved, width)
        let exact = ImageDifference(expected: nudged, actual: moved, width: width, tolerance: 0)
        exactMin = min(exactMin, exact.differingPixels)
        exactMax = max(exactMax, exact.differingPixels)
        excusedMin = min(excusedMin, difference.excusedPixels)
        excusedMax = max(excusedMax, difference.excusedPixels)
        #expect(
          difference.differingPixels == 0,
          "dot across pixel edges by \(nudge), moved \(shift): \(difference)")
      }
      print(
        "@\(scale)x dot across pixel edges by (\(nudge.x), \(nudge.y)) px, moved 1/8 px each "
          + "of 8 ways: exact \(exactMin)–\(exactMax) px differ; perceptual: "
          + "\(excusedMin)–\(excusedMax) excused")
    }
    // Re-encoding noise: every channel of every pixel off by one, either way.
    // A linear congruential sequence (Numerical Recipes' constants) picks −1, 0 or +1.
    var seed: UInt32 = 7
    let rounded = base.enumerated().map { i, v -> UInt8 in
      seed = seed &* 1_664_525 &+ 1_013_904_223
      return i % 4 == 3 ? v : UInt8(min(max(Int(v) + Int(seed >> 16) % 3 - 1, 0), 255))
    }
    #expect(Self.perceptual(base, rounded, width).differingPixels == 0)
    // A premultiplied round trip at 60 % alpha (what a compositor's rounding does).
    let translucent = stride(from: 0, to: base.count, by: 4).flatMap { i -> [UInt8] in
      [base[i], base[i + 1], base[i + 2], 153]
    }
    let trip = stride(from: 0, to: translucent.count, by: 4).flatMap { i -> [UInt8] in
      let p = PremultipliedRGBA8(
        straightR: translucent[i], g: translucent[i + 1], b: translucent[i + 2], a: 153)
      let s = p.straight
      return [s.r, s.g, s.b, s.a]
    }
    #expect(trip != translucent)
    #expect(Self.perceptual(translucent, trip, width).differingPixels == 0)
  }

  @Test(arguments: [1.0, 2.0, 3.0])
  func changesFail(_ scale: Double) throws {
    let width = Int(120 * scale)
    let base = try Self.card(scale: scale)
    let cases: [(String, [UInt8])] = [
      ("corner radius 13 pt instead of 12", try Self.card(scale: scale, radius: 13)),
      (
        "fill 2 % darker",
        try Self.card(
          scale: scale, color: Color(red: 0, green: 0.98 * 122 / 255, blue: 0.98))
      ),
      ("no 2 × 2 px dot", try Self.card(scale: scale, dot: false)),
    ]
    // What the moved-feature rule must not excuse: a small feature with no flat pixel that
    // moved a whole pixel, or changed colour, or is missing.
    let nudge = Point(-0.1, -0.1)
    let nudged = try Self.card(scale: scale, nudge: nudge)
    let featureCases: [(String, [UInt8])] = [
      (
        "the dot across pixel edges moved 1 px",
        try Self.card(scale: scale, nudge: Point(nudge.x + 1, nudge.y + 1))
      ),
      (
        "the dot across pixel edges 15 % lighter",
        try Self.card(
          scale: scale, nudge: nudge, dotColor: Color(red: 0.15, green: 0.15, blue: 0.15))
      ),
      ("the dot across pixel edges missing", try Self.card(scale: scale, dot: false)),
    ]
    for (name, changed) in featureCases {
      let difference = Self.perceptual(nudged, changed, width)
      print("@\(scale)x \(name): \(difference)")
      #expect(difference.differingPixels > 0, "\(name) @\(scale)x passed: \(difference)")
    }
    for (name, changed) in cases {
      let difference = Self.perceptual(base, changed, width)
      print("@\(scale)x \(name): \(difference)")
      #expect(difference.differingPixels > 0, "\(name) @\(scale)x passed: \(difference)")
    }
  }

  /// The kernel's fast path (skipping equal eight-byte words) judges exactly what a pixel-by-
  /// pixel pass over every pixel does.
  @Test func fastPathMatchesEveryPixel() throws {
    let scale = 2.0
    let width = Int(120 * scale)
    let a = try Self.card(scale: scale)
    let b = try Self.card(scale: scale, shift: Point(0.3, 0.2), radius: 13)
    let fast = Self.perceptual(a, b, width)
    var differing = 0
    var excused = 0
    a.withUnsafeBytes { e in
      b.withUnsafeBytes { c in
        for y in 0..<width {
          for x in 0..<width {
            // A fresh cache for every pixel: each colour converted anew.
            var cache = PerceptualDifference.OKLabCache()
            switch PerceptualDifference.verdict(
              e, c, x: x, y: y, width: width, height: width,
              threshold: Float(PerceptualDifference.defaultThreshold), cache: &cache)
            {
            case .different: differing += 1
            case .antialiased: excused += 1
            case .same: break
            }
          }
        }
      }
    }
    #expect(fast.differingPixels == differing && fast.excusedPixels == excused)
    #expect(differing > 0 && excused > 0)
  }

  /// A fully transparent pixel has no colour: optimisers (`oxipng -a`) set its channels to
  /// anything, so two of them are the same pixel whatever their R, G, B, in every method and in
  /// the plain twin; a change of alpha still counts.
  @Test func transparentPixelsHaveNoColour() {
    let expected: [UInt8] = [0, 0, 0, 0, 10, 20, 30, 255, 0, 0, 0, 0, 5, 5, 5, 0]
    let optimised: [UInt8] = [255, 0, 0, 0, 10, 20, 30, 255, 7, 8, 9, 0, 5, 5, 5, 0]
    for method in [ComparisonMethod.exact(tolerance: 0), .perceptual(threshold: 0.006)] {
      let difference = ImageDifference(
        expected: expected, actual: optimised, width: 2, height: 2, method: method)
      #expect(difference.differingPixels == 0 && difference.maximumDelta == 0, "\(method)")
    }
    #expect(
      ImageDifference.reference(expected: expected, actual: optimised, width: 2, tolerance: 0)
        .maximumDelta == 0)
    var visible = optimised
    visible[3] = 1
    #expect(
      ImageDifference(expected: expected, actual: visible, width: 2, tolerance: 0)
        .differingPixels == 1)
  }

  /// The OKLab cache gives exactly the conversion's values, colours colliding in its slots or
  /// not: 200,000 colours, some repeated, against `oklab(opaque:)`.
  @Test func theOKLabCacheIsExact() {
    var cache = PerceptualDifference.OKLabCache()
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<200_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // Few distinct colours in the high bits' choice, so some repeat and some collide.
      let bits = seed >> 40
      let (r, g, b) = (UInt8(bits & 0xFF), UInt8(bits >> 8 & 0x1F), UInt8(bits >> 13 & 0xF))
      #expect(cache.oklab(r, g, b) == PerceptualDifference.oklab(opaque: r, g, b))
    }
  }
}
