import Testing

@testable import Codecs

/// `GIFEncoder.paletteIndices` (eight unchanged pixels at a time, the rest through the table)
/// against its plain twin, on colour indices where unchanged pixels (−1) come alone, in runs
/// shorter and longer than eight, at every offset, and at the ends of arrays of every length
/// up to 40.
@Suite struct PaletteIndicesTests {
  @Test(arguments: 0..<16)
  func kernelAgreesWithTwin(seed: Int) {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
    let table = (0..<200).map { _ in UInt8(next(255)) }
    for length in 0...40 {
      var colorOf: [Int32] = []
      while colorOf.count < length {
        // A run of unchanged pixels (1 to 20) or a few changed ones.
        if next(2) == 0 {
          colorOf += Array(repeating: -1, count: 1 + next(20))
        } else {
          colorOf += (0..<(1 + next(5))).map { _ in Int32(next(table.count)) }
        }
      }
      colorOf = Array(colorOf.prefix(length))
      let fast = GIFEncoder.paletteIndices(of: colorOf, through: table, unchanged: 255)
      let plain = GIFEncoder.paletteIndicesPlainly(of: colorOf, through: table, unchanged: 255)
      #expect(fast == plain, "length \(length)")
    }
    // Eight unchanged at every offset of a longer array.
    for offset in 0..<16 {
      var colorOf = (0..<32).map { Int32($0 % 7) }
      for k in offset..<(offset + 8) { colorOf[k] = -1 }
      #expect(
        GIFEncoder.paletteIndices(of: colorOf, through: table, unchanged: 254)
          == GIFEncoder.paletteIndicesPlainly(of: colorOf, through: table, unchanged: 254))
    }
  }
}
