import Testing

@Suite struct GoldenComparisonTests {
  @Test func differencesAreCountedWithTheirBoxAndMaximum() {
    let expected = [UInt8](repeating: 100, count: 4 * 6)
    var actual = expected
    actual[4 * 4 + 1] = 103  // pixel (1, 1) in a 3×2 image, delta 3
    actual[4 * 5 + 2] = 101  // pixel (2, 1), delta 1
    let strict = ImageDifference(expected: expected, actual: actual, width: 3, tolerance: 0)
    #expect(strict.differingPixels == 2)
    #expect(strict.maximumDelta == 3)
    #expect(strict.first?.x == 1 && strict.first?.y == 1)
    #expect(strict.box?.maxX == 2)
    let tolerant = ImageDifference(expected: expected, actual: actual, width: 3, tolerance: 2)
    #expect(tolerant.differingPixels == 1)
    #expect(
      ImageDifference(expected: expected, actual: expected, width: 3, tolerance: 0).differingPixels
        == 0)
  }

  @Test func diffImageMarksDifferingPixelsInMagenta() {
    let expected = [UInt8](repeating: 0, count: 8)
    var actual = expected
    actual[4] = 200
    let diff = diffImage(expected: expected, actual: actual, width: 2, height: 1, tolerance: 0)
    #expect(Array(diff[4..<8]) == [255, 0, 255, 255])
    #expect(Array(diff[0..<3]) == [192, 192, 192])  // 255 − 255/4: a quarter of the ink
  }
}
