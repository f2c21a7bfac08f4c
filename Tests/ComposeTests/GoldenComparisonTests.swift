import Codecs
import Foundation
import Raster
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
    #expect(strict.box == IntRect(x: 1, y: 1, width: 2, height: 1))
    let tolerant = ImageDifference(expected: expected, actual: actual, width: 3, tolerance: 2)
    #expect(tolerant.differingPixels == 1)
    #expect(
      ImageDifference(expected: expected, actual: expected, width: 3, tolerance: 0).differingPixels
        == 0)
  }

  @Test func diffImageMarksDifferingPixelsInMagenta() {
    let expected = [UInt8](repeating: 0, count: 8)
    var actual = expected
    actual[7] = 200  // the second pixel shows (transparent pixels have no colour to differ in)
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

/// `GoldenComparison.check`, which `render-anim check` and `assertGolden` share.
@Suite final class GoldenCheckTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("render-anim-golden-\(UUID().uuidString)").path

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  private func image(_ color: Color) throws -> Pixmap {
    try #require(Pixmap(width: 4, height: 3, filledWith: color.premultiplied))
  }

  @Test func recordsComparesAndFailsWithArtifacts() throws {
    let golden = folder + "/deep/g.png"
    let artifacts = GoldenComparison.Artifacts(
      actual: folder + "/art/a.png", diff: folder + "/art/d.png")
    let exact = GoldenComparison()
    #expect(
      exact.check(try image(.white), golden: golden, mode: .never, artifacts: nil)
        == .failed("no golden at \(golden)", artifacts: nil))
    #expect(
      exact.check(try image(.white), golden: golden, mode: .missing, artifacts: nil) == .recorded)
    #expect(exact.check(try image(.white), golden: golden, mode: .never, artifacts: nil) == .passed)
    let changed = exact.check(try image(.black), golden: golden, mode: .never, artifacts: artifacts)
    guard case .failed(let reason, let written) = changed else {
      Issue.record("expected a failure, got \(changed)")
      return
    }
    #expect(reason.hasPrefix("12 pixels differ, largest channel delta 255"))
    #expect(written == artifacts)
    // expected | actual | overlay
    #expect(try PNGCodec.read(try #require(artifacts.diff)).width == 12)
    #expect(try PNGCodec.read(artifacts.actual) == image(.black))
    // Within tolerance, and re-recorded by `failed`.
    let tolerant = GoldenComparison(tolerance: 255)
    #expect(
      tolerant.check(try image(.black), golden: golden, mode: .never, artifacts: nil) == .passed)
    #expect(
      exact.check(try image(.black), golden: golden, mode: .failed, artifacts: nil) == .rerecorded)
    #expect(try PNGCodec.read(golden) == image(.black))
  }

  /// A missing golden (never recording) and one of another size leave the actual image alone
  /// in the artifacts, so what the frame shows can be looked at.
  @Test func noGoldenToCompareWithLeavesTheActualImage() throws {
    let artifacts = GoldenComparison.Artifacts(
      actual: folder + "/alone/a.png", diff: folder + "/alone/d.png")
    let missing = GoldenComparison().check(
      try image(.black), golden: folder + "/none.png", mode: .never, artifacts: artifacts)
    #expect(
      missing
        == .failed(
          "no golden at \(folder)/none.png; see \(artifacts.actual)",
          artifacts: GoldenComparison.Artifacts(actual: artifacts.actual, diff: nil)))
    #expect(try PNGCodec.read(artifacts.actual) == image(.black))
    let golden = folder + "/small.png"
    try GoldenComparison().record(
      try #require(Pixmap(width: 2, height: 2, filledWith: Color.white.premultiplied)), to: golden)
    let sized = GoldenComparison().check(
      try image(.white), golden: golden, mode: .never, artifacts: artifacts)
    guard case .failed(let reason, let written) = sized else {
      Issue.record("expected a failure, got \(sized)")
      return
    }
    #expect(reason == "size 4×3, golden 2×2; see \(artifacts.actual)")
    #expect(written?.diff == nil)
    #expect(try PNGCodec.read(artifacts.actual) == image(.white))
  }

  @Test func anUnreadableGoldenIsAFailureNotAnError() throws {
    let golden = folder + "/broken.png"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: golden, contents: Data([137, 80, 78, 71]))
    let outcome = GoldenComparison().check(
      try image(.white), golden: golden, mode: .never, artifacts: nil)
    guard case .failed(let reason, _) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(reason.hasPrefix("unreadable golden: \(golden): not a PNG file"))
    // With an artifacts folder: the actual image alone, named in the reason.
    let artifacts = GoldenComparison.Artifacts(
      actual: folder + "/unreadable-art/a.png", diff: folder + "/unreadable-art/d.png")
    let withArtifacts = GoldenComparison().check(
      try image(.white), golden: golden, mode: .never, artifacts: artifacts)
    guard case .failed(let said, let written) = withArtifacts else {
      Issue.record("expected a failure, got \(withArtifacts)")
      return
    }
    #expect(written == GoldenComparison.Artifacts(actual: artifacts.actual, diff: nil))
    #expect(said.hasSuffix("; see \(artifacts.actual)"))
    #expect(try PNGCodec.read(artifacts.actual) == image(.white))
    #expect(!FileManager.default.fileExists(atPath: folder + "/unreadable-art/d.png"))
    #expect(
      GoldenComparison().check(try image(.white), golden: golden, mode: .failed, artifacts: nil)
        == .rerecorded)
  }
}
