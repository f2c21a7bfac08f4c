import Raster
import TestSupport
import Testing

@testable import Codecs

@Suite struct QuantizerTests {
  /// A frame's colour counts, taken a run of equal pixels at a time, against one pixel at a
  /// time: the same colours in first-seen order and the same counts, with and without skipping
  /// transparent pixels; runs of every length, colours that differ only in alpha (one RGB).
  @Test(arguments: [false, true])
  func colorCountsMatchPixelByPixel(skippingTransparent: Bool) {
    var random = SeededGenerator(seed: skippingTransparent ? 7 : 8)
    let palette: [UInt32] = [0, 0xFF10_2030, 0x8008_1018, 0xFF10_2031, 0xFFFF_FFFF, 0x4000_0000]
    for length in [0, 1, 2, 3, 17, 1000] {
      var pixels: [UInt32] = []
      while pixels.count < length {
        let pixel = palette[Int.random(in: 0..<palette.count, using: &random)]
        let run = Int.random(in: 1...9, using: &random)
        pixels += repeatElement(pixel, count: min(run, length - pixels.count))
      }
      var colors: [UInt32] = []
      var counts: [Int] = []
      for pixel in pixels where !(skippingTransparent && pixel == 0) {
        let rgb = GIFPalette.rgb(pixel)
        if let at = colors.firstIndex(of: rgb) {
          counts[at] += 1
        } else {
          colors.append(rgb)
          counts.append(1)
        }
      }
      let fast = ColorCounts(pixels, skippingTransparent: skippingTransparent)
      #expect(fast.colors == colors, "length \(length)")
      #expect(fast.counts == counts, "length \(length)")
    }
  }

  /// The pruned search against its scalar twin, on random palettes and colours.
  @Test func nearestMatchesFullScan() {
    var random = SeededGenerator(seed: 0x1234)
    for size in [1, 2, 17, 255] {
      let palette = (0..<size).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) }
      let colors = (0..<2000).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) }
      let fast = Quantizer.nearest(colors, in: palette)
      let scan = Quantizer.nearestByScan(colors, in: palette)
      for i in colors.indices {
        #expect(
          Quantizer.distance(colors[i], palette[fast[i]])
            == Quantizer.distance(colors[i], palette[scan[i]]))
      }
    }
  }

  /// The same indices as the full scan, ties (the lower index) included, with and without hints
  /// (any entry, or none, as the search's first best): palettes of few levels a channel repeat
  /// entries and tie distances often.
  @Test func nearestWithHintsPicksTheScansIndexOnTies() {
    var random = SeededGenerator(seed: 0x5EED)
    func color(levels: UInt32) -> UInt32 {
      let r = UInt32.random(in: 0..<levels, using: &random) * 85
      let g = UInt32.random(in: 0..<levels, using: &random) * 85
      let b = UInt32.random(in: 0..<levels, using: &random) * 85
      return r << 16 | g << 8 | b
    }
    for size in [1, 3, 16, 127, 255] {
      for levels: UInt32 in [2, 4] {
        let palette = (0..<size).map { _ in color(levels: levels) }
        let colors = (0..<1000).map { _ in color(levels: 4) }
        let hints = colors.map { _ in Int.random(in: -1..<size, using: &random) }
        let scan = Quantizer.nearestByScan(colors, in: palette)
        #expect(Quantizer.nearest(colors, in: palette) == scan)
        #expect(Quantizer.nearest(colors, in: palette, hints: hints) == scan)
      }
    }
  }

  /// The Lloyd passes that search only the entries that moved (and start from each colour's
  /// median-cut box) give what plain passes give (every colour's nearest found by scanning the
  /// whole palette, each pass).
  @Test func boundedPassesEqualPlainPasses() {
    var random = SeededGenerator(seed: 0x110D)
    for (count, size) in [(300, 16), (3_000, 127), (5_000, 255), (600, 255)] {
      var seen = Set<UInt32>()
      var colors: [UInt32] = []
      while colors.count < count {
        // Clusters around a few hues, as anti-aliased edges and shadows make them.
        let centre = [0x20_40_80, 0xE0_E0_E0, 0x80_30_10, 0x10_10_10][colors.count % 4]
        let jitter = { (shift: UInt32) in
          UInt32(
            min(255, max(0, Int(centre >> shift & 0xFF) + Int.random(in: -40...40, using: &random)))
          )
        }
        let c = jitter(16) << 16 | jitter(8) << 8 | jitter(0)
        if seen.insert(c).inserted { colors.append(c) }
      }
      let counts = colors.map { _ in Int.random(in: 1...500, using: &random) }
      for passes in [1, 3, 10] {
        let fast = Quantizer(maximumColors: size, refinementPasses: passes).quantize(
          colors, counts: counts)
        var palette = MedianCut.palette(colors: colors, counts: counts, size: size)
        var assignment = Quantizer.nearestByScan(colors, in: palette)
        for _ in 0..<passes {
          palette = Quantizer.centroids(
            colors: colors, counts: counts, assignment: assignment, previous: palette)
          assignment = Quantizer.nearestByScan(colors, in: palette)
        }
        #expect(fast.palette == palette, "\(count) colours, \(size), \(passes) passes")
        #expect(fast.indices == assignment.map { UInt8($0) })
      }
    }
  }

  @Test func fewColoursAreKeptExactly() {
    let pixels: [UInt32] = [0xFF9500, 0xE4F6FF, 0xFF9500, 0x000000, 0xE4F6FF]
    let result = Quantizer().quantize(pixels)
    #expect(result.palette.count == 3)
    #expect(result.indices.map { result.palette[Int($0)] } == pixels)
  }

  @Test func manyColoursAreApproximatedCloselyAndDeterministically() {
    // A gradient of 4096 colours, then reduced to 255.
    let pixels = (0..<4096).map { i -> UInt32 in
      let r = UInt32(i & 63) * 4
      let g = UInt32(i >> 6) * 4
      return r << 16 | g << 8 | 0x80
    }
    let a = Quantizer().quantize(pixels)
    let b = Quantizer().quantize(pixels)
    #expect(a.palette == b.palette && a.indices == b.indices)
    #expect(a.palette.count <= 255)
    let worst =
      pixels.indices.map { Quantizer.distance(pixels[$0], a.palette[Int(a.indices[$0])]) }.max()
      ?? 0
    // 64×64 evenly spaced levels in 255 cells: each cell about 4×4 levels of step 4.
    #expect(worst <= 2 * 8 * 8)
  }

  @Test func changedRectHoldsExactlyTheDifferingPixels() {
    let a: [UInt32] = [1, 2, 3, 4, 5, 6]
    var b = a
    b[4] = 9
    #expect(
      GIFEncoder.changedRect(a, b, width: 3, height: 2)
        == IntRect(minX: 1, minY: 1, maxX: 2, maxY: 2))
    #expect(GIFEncoder.changedRect(a, a, width: 3, height: 2) == nil)
  }
}
