import TestSupport
import Testing

@testable import Codecs

/// The median cut over packed keys and integer sums against its plain twin.
@Suite struct MedianCutTests {
  /// Distinct colours with counts: clustered (as UI frames' anti-aliased edges and shadows are),
  /// spread, or on few levels a channel (many equal channel values, so the colour decides the
  /// order); counts from 1 to very large (first-frame weights).
  static func colors(
    _ count: Int, kind: Int, random: inout SeededGenerator
  ) -> (
    [UInt32], [Int]
  ) {
    var seen = Set<UInt32>()
    var colors: [UInt32] = []
    while colors.count < count {
      let c: UInt32
      switch kind {
      case 0:
        let base = UInt32.random(in: 0...255, using: &random)
        let r = min(255, base + UInt32.random(in: 0...12, using: &random))
        let g = min(255, base + UInt32.random(in: 0...12, using: &random))
        c = r << 16 | g << 8 | base
      case 1: c = UInt32.random(in: 0...0xFF_FFFF, using: &random)
      default:
        let r = UInt32.random(in: 0..<4, using: &random) * 85
        let g = UInt32.random(in: 0..<4, using: &random) * 85
        c = r << 16 | g << 8 | UInt32.random(in: 0...255, using: &random)
      }
      if seen.insert(c).inserted { colors.append(c) }
    }
    let counts = colors.map { _ in
      Int.random(in: 0..<10, using: &random) == 0
        ? Int.random(in: 1...90_000_000, using: &random) : Int.random(in: 1...400, using: &random)
    }
    return (colors, counts)
  }

  @Test func matchesItsTwin() {
    var random = SeededGenerator(seed: 0xC07)
    for kind in 0..<3 {
      for count in [1, 2, 3, 50, 300, 4_000] {
        let (colors, counts) = Self.colors(count, kind: kind, random: &random)
        for size in [1, 2, 16, 127, 255] {
          let fast = MedianCut.palette(colors: colors, counts: counts, size: size)
          let plain = MedianCutReference.palette(colors: colors, counts: counts, size: size)
          #expect(fast == plain, "kind \(kind), \(count) colours, size \(size)")
        }
      }
    }
  }

  /// One cut gives each size's palette: the same as cutting to that size alone.
  @Test func oneCutGivesEverySize() {
    var random = SeededGenerator(seed: 0xB0C5)
    for count in [5, 200, 3_000] {
      let (colors, counts) = Self.colors(count, kind: 0, random: &random)
      let sizes = [255, 1, 127, 8]
      let together = MedianCut.palettes(colors: colors, counts: counts, sizes: sizes)
      for (size, palette) in zip(sizes, together) {
        #expect(palette == MedianCutReference.palette(colors: colors, counts: counts, size: size))
      }
      let quantized = Quantizer(refinementPasses: 3).quantize(colors, counts: counts, sizes: sizes)
      for (size, result) in zip(sizes, quantized) {
        let alone = Quantizer(maximumColors: size, refinementPasses: 3).quantize(
          colors, counts: counts)
        #expect(result.palette == alone.palette && result.indices == alone.indices)
      }
    }
  }
}
