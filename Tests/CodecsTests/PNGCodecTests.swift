import Codecs
import Foundation
import Raster
import Testing

@Suite struct PNGCodecTests {
  private func temporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("render-anim-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  /// Every premultiplied value survives encode → decode for opaque and translucent pixels.
  @Test func roundTripKeepsPremultipliedPixels() throws {
    var pixels: [UInt32] = []
    for a in stride(from: 0, through: 255, by: 5) {
      for v in stride(from: 0, through: a, by: max(1, a / 7)) {
        pixels.append(
          PremultipliedRGBA8(r: UInt8(v), g: UInt8(a - v), b: UInt8(v / 2), a: UInt8(a)).packed)
      }
    }
    let width = pixels.count
    let pixmap = try #require(Pixmap(width: width, height: 1, pixels: pixels))
    for compression in PNGCompression.allCases {
      let decoded = try PNGCodec.decode(PNGCodec.encode(pixmap, compression: compression))
      #expect(decoded == pixmap, "\(compression)")
    }
  }

  @Test func corruptAndTruncatedDataGiveLibpngMessages() throws {
    let pixmap = try #require(Pixmap(width: 8, height: 8, filledWith: Color.white.premultiplied))
    let bytes = try PNGCodec.encode(pixmap)
    for broken in [
      [], Array(bytes.prefix(20)), Array(bytes.prefix(bytes.count - 20)),
      [UInt8](repeating: 7, count: 100),
    ] {
      #expect(throws: CodecError.self) { try PNGCodec.decode(broken, path: "x.png") }
      do {
        _ = try PNGCodec.decode(broken, path: "x.png")
      } catch {
        #expect(error.description.hasPrefix("cannot decode PNG x.png: "))
        #expect(error.message.count > 3)
      }
    }
  }

  @Test func writeIsAtomicAndNeverLeavesTemporaryFiles() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/out.png"
    let pixmap = try #require(Pixmap(width: 4, height: 4, filledWith: Color.black.premultiplied))
    try PNGCodec.write(pixmap, to: path)
    #expect(try PNGCodec.read(path) == pixmap)
    // A write into a missing folder fails, names the path, and leaves nothing behind.
    #expect(throws: CodecError.self) {
      try PNGCodec.write(pixmap, to: directory + "/missing/out.png")
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(leftovers == ["out.png"])
  }

  @Test func missingFileNamesThePath() {
    do {
      _ = try PNGCodec.read("/nonexistent/frame.png")
      Issue.record("read a missing file")
    } catch {
      #expect(error.description.contains("/nonexistent/frame.png"))
    }
  }
}

@Suite struct ImageDifferenceTests {
  /// The word-at-a-time comparison agrees with the pixel-by-pixel twin on random images with
  /// sparse, dense and odd-sized differences, at several tolerances.
  @Test func fastComparisonMatchesItsScalarTwin() {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return seed
    }
    for (width, height) in [(1, 1), (3, 5), (17, 9), (64, 33)] {
      for density in [0, 1, 10, 100] {
        let expected = (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: next()) }
        var actual = expected
        for i in actual.indices where Int(next() % 100) < density {
          actual[i] = UInt8(truncatingIfNeeded: Int(actual[i]) + Int(next() % 7) - 3)
        }
        for tolerance: UInt8 in [0, 1, 2, 255] {
          let fast = ImageDifference(
            expected: expected, actual: actual, width: width, tolerance: tolerance)
          let plain = ImageDifference.reference(
            expected: expected, actual: actual, width: width, tolerance: tolerance)
          #expect(fast.description == plain.description)
          #expect(fast.differingPixels == plain.differingPixels)
          #expect(fast.maximumDelta == plain.maximumDelta)
        }
      }
    }
  }
}
