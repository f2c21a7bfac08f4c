import CPixelKernels
import TestSupport
import Testing

@testable import Raster

/// The compositing kernels against their plain scalar twins in `Blend` (issue #12): every
/// opacity class, placements partly outside the target, every coverage.
@Suite struct KernelTwinTests {
  /// A pixmap of random premultiplied pixels (every class: clear, opaque, translucent).
  static func random(_ width: Int, _ height: Int, _ random: inout SeededGenerator) -> Pixmap? {
    let pixels = (0..<(width * height)).map { i in pixel(min(i % 5, 2), &random) }
    return Pixmap(width: width, height: height, pixels: pixels)
  }

  /// A random premultiplied pixel of class `kind`: 0 clear, 1 opaque, 2 any alpha.
  static func pixel(_ kind: Int, _ random: inout SeededGenerator) -> UInt32 {
    switch kind {
    case 0: return 0
    case 1:
      return PremultipliedRGBA8(
        r: .random(in: 0...255, using: &random), g: .random(in: 0...255, using: &random),
        b: .random(in: 0...255, using: &random), a: 255
      ).packed
    default:
      let a = UInt8.random(in: 0...255, using: &random)
      return PremultipliedRGBA8(
        r: .random(in: 0...a, using: &random), g: .random(in: 0...a, using: &random),
        b: .random(in: 0...a, using: &random), a: a
      ).packed
    }
  }

  /// Every channel value in every channel, beside other values, times every k.
  @Test func scaleMatchesItsTwin() {
    var mismatches = 0
    for k: UInt32 in 0...255 {
      for v: UInt32 in 0...255 {
        for pixel in [
          v, v << 8, v << 16, v << 24, v * 0x0101_0101, v | 0xFF00_FF00, v << 8 | 0x00FF_00FF,
          v << 16 | 0xFF00_FFFF, v << 24 | 0x00FF_FFFF, v ^ 0x5A3C_C3A5,
        ] where Kernels.scale(pixel, by: k) != Kernels.scalePlainly(pixel, by: k) {
          mismatches += 1
        }
      }
    }
    #expect(mismatches == 0)
  }

  @Test(arguments: [0, 1, 77, 128, 254, 255])
  func compositeMatchesItsTwin(opacity: Int) throws {
    var generator = SeededGenerator(seed: UInt64(opacity) + 3)
    let source = try #require(Self.random(13, 9, &generator))
    for origin in [(0, 0), (-5, -3), (20, 14), (-12, 8), (25, 20), (-13, -9)] {
      var fast = try #require(Self.random(30, 22, &generator))
      var plain = fast
      Kernels.composite(source, at: origin, onto: &fast, opacity: UInt32(opacity))
      Blend.composite(source, at: origin, onto: &plain, opacity: UInt8(opacity))
      #expect(fast == plain, "opacity \(opacity), origin \(origin)")
    }
  }

  @Test(arguments: [0, 1, 77, 128, 254, 255])
  func shadowedCompositeMatchesItsTwin(opacity: Int) throws {
    var generator = SeededGenerator(seed: UInt64(opacity) + 41)
    let source = try #require(Self.random(13, 9, &generator))
    var shadow = try #require(Mask(width: 13, height: 9))
    shadow.values = (0..<117).map { UInt8(($0 * 37 + opacity) % 256) }
    for i in stride(from: 0, to: 117, by: 5) { shadow.values[i] = [0, 255][i % 2] }
    for color in [
      PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 84), PremultipliedRGBA8(r: 200, g: 30, b: 90, a: 255),
    ] {
      for origin in [(0, 0), (-5, -3), (20, 14), (-12, 8), (25, 20), (-13, -9)] {
        var fast = try #require(Self.random(30, 22, &generator))
        var plain = fast
        Kernels.composite(
          source, shadow: shadow, color: color, at: origin, onto: &fast,
          opacity: UInt32(opacity))
        var shadowed = source
        Kernels.placeShadow(shadow, color: color, under: &shadowed)
        Kernels.composite(shadowed, at: origin, onto: &plain, opacity: UInt32(opacity))
        #expect(fast == plain, "opacity \(opacity), origin \(origin)")
      }
    }
  }

  /// The composites' blocks of eight (all clear, all opaque, without shadow, mixed) against
  /// their twins: runs of each class that start and end off the block grid.
  @Test(arguments: [255, 128, 1])
  func blockedCompositesMatchTheirTwins(opacity: Int) throws {
    var generator = SeededGenerator(seed: UInt64(opacity) + 97)
    let (width, height) = (45, 7)
    var source = try #require(Self.random(width, height, &generator))
    var shadow = try #require(Mask(width: width, height: height))
    for i in 0..<(width * height) {
      shadow.values[i] = UInt8.random(in: 0...255, using: &generator)
      switch (i / 11) % 4 {
      case 0: source.pixels[i] = 0
      case 1: source.pixels[i] = 0xFF20_4060  // opaque
      case 2: shadow.values[i] = 0
      default: break
      }
      if (i / 7) % 3 == 0 { shadow.values[i] = 0 }
    }
    let color = PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 84)
    for origin in [(0, 0), (-3, -1), (5, 2), (-20, 1)] {
      var fast = try #require(Self.random(60, 12, &generator))
      var plain = fast
      Kernels.composite(
        source, shadow: shadow, color: color, at: origin, onto: &fast, opacity: UInt32(opacity))
      var shadowed = source
      Kernels.placeShadow(shadow, color: color, under: &shadowed)
      Blend.composite(shadowed, at: origin, onto: &plain, opacity: UInt8(opacity))
      #expect(fast == plain, "shadowed, opacity \(opacity), origin \(origin)")
      var alone = fast
      var alonePlain = fast
      Kernels.composite(source, at: origin, onto: &alone, opacity: UInt32(opacity))
      Blend.composite(source, at: origin, onto: &alonePlain, opacity: UInt8(opacity))
      #expect(alone == alonePlain, "opacity \(opacity), origin \(origin)")
    }
  }

  /// The row kernel in C (SSE2) against its Swift twin, row by row: long random rows whose
  /// source, shadow and destination runs of every class (clear, opaque, translucent, no shadow,
  /// full shadow) start and end off the blocks of eight and the vectors of four, every length
  /// 0…40 at each opacity class, and colours from clear to opaque.
  @Test(arguments: [255, 254, 128, 1, 0])
  func compositeRowMatchesItsTwin(opacity: Int) throws {
    var generator = SeededGenerator(seed: UInt64(opacity) + 211)
    func pixel(_ kind: Int) -> UInt32 { Self.pixel(kind, &generator) }
    let colors = [
      PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0), PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 84),
      PremultipliedRGBA8(r: 200, g: 30, b: 90, a: 255),
      PremultipliedRGBA8(r: 9, g: 60, b: 3, a: 61),
    ]
    var mismatches = 0
    for round in 0..<60 {
      let count = round < 41 ? round : Int.random(in: 41...700, using: &generator)
      var src: [UInt32] = []
      var shadow: [UInt8] = []
      while src.count < count {
        let run = Int.random(in: 1...13, using: &generator)
        let kind = Int.random(in: 0...2, using: &generator)
        let cast = Int.random(in: 0...3, using: &generator)
        for _ in 0..<run {
          src.append(pixel(kind))
          shadow.append(
            cast == 0 ? 0 : cast == 1 ? 255 : UInt8.random(in: 0...255, using: &generator))
        }
      }
      src.removeLast(src.count - count)
      shadow.removeLast(shadow.count - count)
      let initial = (0..<count).map { _ in pixel(Int.random(in: 0...2, using: &generator)) }
      for color in colors {
        // The row `initial` after `kernel` composites `src` with `shadow` onto it.
        func composited(
          _ kernel: (
            UnsafePointer<UInt32>, UnsafePointer<UInt8>, UInt32, UnsafeMutablePointer<UInt32>,
            Int, UInt32
          ) -> Void
        ) -> [UInt32] {
          var row = initial
          src.withUnsafeBufferPointer { s in
            shadow.withUnsafeBufferPointer { c in
              row.withUnsafeMutableBufferPointer { d in
                guard let s = s.baseAddress, let c = c.baseAddress, let d = d.baseAddress else {
                  return
                }
                kernel(s, c, color.packed, d, count, UInt32(opacity))
              }
            }
          }
          return row
        }
        let fast = composited {
          Kernels.compositeRow($0, shadow: $1, color: $2, onto: $3, count: $4, opacity: $5)
        }
        let plain = composited {
          Kernels.compositeRowPlainly($0, shadow: $1, color: $2, onto: $3, count: $4, opacity: $5)
        }
        // Where AVX2 runs, `compositeRow` took it: the SSE2 path is held to the twin too.
        if composited({ cpk_composite_row_sse2($0, $1, $2, $3, $4, $5) }) != plain {
          mismatches += 1
        }
        if fast != plain { mismatches += 1 }
      }
    }
    #expect(mismatches == 0)
  }

  /// The shadow resample's horizontal pass: `cpk_resample_row` (AVX2 gathers where the
  /// processor has them) and `cpk_resample_row_plain` give `resampleRowPlainly`'s bytes, over
  /// rows of every length 0…40 and long ones, with samples at whole and half levels (where the
  /// rounding ties) and anywhere in 0…255, and weights 0, ½ and random.
  @Test func resampleRowMatchesItsTwin() {
    var generator = SeededGenerator(seed: 907)
    var mismatches = 0
    for round in 0..<80 {
      let count = round < 41 ? round : Int.random(in: 41...900, using: &generator)
      let width = Int.random(in: 1...400, using: &generator)
      let line: [Float] =
        [0]
        + (0..<width).map { _ in
          switch Int.random(in: 0...2, using: &generator) {
          case 0: Float(Int.random(in: 0...255, using: &generator))
          case 1: Float(Int.random(in: 0...254, using: &generator)) + 0.5
          default: Float.random(in: 0...255, using: &generator)
          }
        } + [0]
      let taps = (0..<count).map { _ in Int32.random(in: 0...Int32(width), using: &generator) }
      let weights = (0..<count).map { _ -> Float in
        switch Int.random(in: 0...3, using: &generator) {
        case 0: 0
        case 1: 0.5
        default: Float.random(in: 0..<1, using: &generator)
        }
      }
      func row(
        _ kernel: (
          UnsafePointer<Float>, UnsafePointer<Int32>, UnsafePointer<Float>,
          UnsafeMutablePointer<UInt8>, Int
        ) -> Void
      ) -> [UInt8] {
        var out = [UInt8](repeating: 7, count: count + 1)
        line.withUnsafeBufferPointer { line in
          taps.withUnsafeBufferPointer { taps in
            weights.withUnsafeBufferPointer { weights in
              out.withUnsafeMutableBufferPointer { out in
                guard let l = line.baseAddress, let o = out.baseAddress else { return }
                let t = taps.baseAddress ?? UnsafePointer(bitPattern: 4)!
                let w = weights.baseAddress ?? UnsafePointer(bitPattern: 4)!
                kernel(l, t, w, o, count)
              }
            }
          }
        }
        return out
      }
      let plain = row {
        GaussianBlur.resampleRowPlainly($0, taps: $1, weights: $2, into: $3, count: $4)
      }
      if row({ cpk_resample_row($0, $1, $2, $3, $4) }) != plain { mismatches += 1 }
      if row({ cpk_resample_row_plain($0, $1, $2, $3, $4) }) != plain { mismatches += 1 }
    }
    #expect(mismatches == 0)
  }

  /// Clips and masks: every pixel class times every mask value (0…255 all appear).
  @Test func multiplyMatchesItsTwin() throws {
    var generator = SeededGenerator(seed: 33)
    let pixmap = try #require(Self.random(32, 16, &generator))
    var mask = try #require(Mask(width: 32, height: 16))
    mask.values = (0..<512).map { UInt8(($0 * 7) % 256) }
    var byMask = pixmap
    Kernels.multiply(&byMask, by: mask)
    let alphas = try #require(Self.random(32, 16, &generator))
    var byAlpha = pixmap
    Kernels.multiply(&byAlpha, byAlphaOf: alphas)
    for i in 0..<512 {
      let p = PremultipliedRGBA8(packed: pixmap.pixels[i])
      #expect(byMask.pixels[i] == Blend.multiply(p, by: mask.values[i]).packed)
      let a = PremultipliedRGBA8(packed: alphas.pixels[i]).a
      #expect(byAlpha.pixels[i] == Blend.multiply(p, by: a).packed)
    }
  }

  /// The colour-matrix kernel (Float) against the map in Double: within one level.
  @Test func colourMatrixKernelMatchesTheFormula() throws {
    var generator = SeededGenerator(seed: 5)
    let pixels = (0..<4096).map { _ -> UInt32 in
      let a = UInt8.random(in: 0...255, using: &generator)
      return PremultipliedRGBA8(
        r: .random(in: 0...a, using: &generator), g: .random(in: 0...a, using: &generator),
        b: .random(in: 0...a, using: &generator), a: a
      ).packed
    }
    let matrix = ColorMatrix.saturation(1.7).concatenating(.hueRotation(1)).concatenating(
      .multiply(Color(red: 0.9, green: 0.8, blue: 1, alpha: 0.7))
    ).concatenating(.brightness(0.1))
    var pixmap = try #require(Pixmap(width: 64, height: 64, pixels: pixels))
    Kernels.applyColorMatrix(matrix, to: &pixmap)
    for (before, after) in zip(pixels, pixmap.pixels) {
      let p = PremultipliedRGBA8(packed: before)
      guard p.a > 0 else { continue }
      let a = Double(p.a)
      let straight = SIMD4(Double(p.r) / a, Double(p.g) / a, Double(p.b) / a, a / 255)
      let out = matrix.apply(straight)
      let expected = [out.x * out.w, out.y * out.w, out.z * out.w, out.w].map { $0 * 255 }
      let q = PremultipliedRGBA8(packed: after)
      let got = [q.r, q.g, q.b, q.a].map(Double.init)
      #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(got) vs \(expected)")
    }
  }

  @Test func extractAlphaMatchesItsTwin() throws {
    var generator = SeededGenerator(seed: 21)
    let pixmap = try #require(Self.random(17, 11, &generator))
    var mask = try #require(Mask(width: 17, height: 11))
    Kernels.extractAlpha(pixmap, into: &mask)
    #expect(mask.values == Blend.alpha(of: pixmap))
  }

  /// The alpha moved by whole pixels and a fraction (a shadow's silhouette, bilinearly) against
  /// its twin, for shifts inside, across and past every edge, and fractions 0 to almost 1.
  @Test func fractionallyShiftedAlphaMatchesItsTwin() throws {
    var generator = SeededGenerator(seed: 22)
    let (width, height) = (19, 13)
    let pixmap = try #require(Self.random(width, height, &generator))
    let fractions = [0, 0.001, 0.25, 0.5, 0.7, 0.998]
    for (dx, dy) in [(0, 0), (3, -2), (-5, 4), (18, 0), (0, -13), (-19, 12), (40, 40)] {
      for fx in fractions {
        for fy in fractions {
          var mask = try #require(Mask(width: width, height: height))
          Kernels.extractAlpha(pixmap, shiftedBy: (dx, dy), fraction: (fx, fy), into: &mask)
          let twin = Kernels.extractAlphaPlainly(
            pixmap, shiftedBy: (dx, dy), fraction: (fx, fy), width: width, height: height)
          #expect(mask.values == twin, "(\(dx), \(dy)) + (\(fx), \(fy))")
        }
      }
    }
    // No fraction is the whole-pixel move.
    var whole = try #require(Mask(width: width, height: height))
    var bilinear = try #require(Mask(width: width, height: height))
    Kernels.extractAlpha(pixmap, shiftedBy: (2, 3), into: &whole)
    Kernels.extractAlpha(pixmap, shiftedBy: (2, 3), fraction: (0, 0), into: &bilinear)
    #expect(whole.values == bilinear.values)
  }

  /// Every coverage over every mask value class, through the row writer's pixel and span paths.
  @Test(arguments: [255, 200, 77, 1, 0])
  func maskOverRowMatchesItsTwin(alpha: Int) {
    var generator = SeededGenerator(seed: UInt64(alpha) + 9)
    let coverage = (0...255).map { UInt8($0) }.shuffled(using: &generator)
    let initial = coverage.map { _ in UInt8.random(in: 0...255, using: &generator) }
    let expected = zip(coverage, initial).map {
      Blend.maskOver(coverage: $0, alpha: UInt8(alpha), onto: $1)
    }
    var pixels = initial
    var spans = initial
    pixels.withUnsafeMutableBufferPointer { values in
      var row = MaskOverRow(values: values.baseAddress!, width: 256, alpha: UInt32(alpha))
      for (x, c) in coverage.enumerated() { row.pixel(x: x, coverage: c) }
    }
    spans.withUnsafeMutableBufferPointer { values in
      var row = MaskOverRow(values: values.baseAddress!, width: 256, alpha: UInt32(alpha))
      for (x, c) in coverage.enumerated() where c != 0 { row.span(x: x, count: 1, coverage: c) }
    }
    #expect(pixels == expected)
    #expect(spans == expected)
    // A long span of one coverage equals that many single pixels.
    for c: UInt8 in [0, 1, 128, 255] {
      var long = initial
      long.withUnsafeMutableBufferPointer { values in
        var row = MaskOverRow(values: values.baseAddress!, width: 256, alpha: UInt32(alpha))
        row.span(x: 0, count: 256, coverage: c)
      }
      #expect(long == initial.map { Blend.maskOver(coverage: c, alpha: UInt8(alpha), onto: $0) })
    }
  }
}
