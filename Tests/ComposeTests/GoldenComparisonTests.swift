import Codecs
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
    let diff = ImageDifference.image(
      expected: expected, actual: actual, width: 2, height: 1, tolerance: 0, style: .overlay
    ).rgba
    #expect(Array(diff[4..<8]) == [255, 0, 255, 255])
    #expect(Array(diff[0..<3]) == [192, 192, 192])  // 255 − 255/4: a quarter of the ink
  }
}

@Suite struct TriptychTests {
  @Test func triptychPlacesExpectedActualAndOverlaySideBySide() {
    let expected: [UInt8] = [10, 20, 30, 255]
    let actual: [UInt8] = [40, 50, 60, 255]
    let image = ImageDifference.image(
      expected: expected, actual: actual, width: 1, height: 1, tolerance: 0, style: .triptych)
    #expect(image.width == 3)
    #expect(Array(image.rgba[0..<4]) == expected)
    #expect(Array(image.rgba[4..<8]) == actual)
    #expect(Array(image.rgba[8..<12]) == [255, 0, 255, 255])
  }
}
