import Foundation
import Testing

@testable import Codecs
@testable import Raster

/// JPEG decoding through libjpeg-turbo: EXIF orientation, errors, bounds.
@Suite struct JPEGCodecTests {
  static func fixture(_ name: String) throws -> [UInt8] {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    let path = parts.joined(separator: "/") + "/Fixtures/" + name
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Every orientation shows the picture upright: 40 × 20, green top left, blue right.
  @Test(arguments: 1...8)
  func everyExifOrientationComesOutUpright(orientation: Int) throws {
    let bytes = try Self.fixture("o\(orientation).jpg")
    #expect(ExifOrientation.read(bytes) == orientation)
    let image = try JPEGCodec.decode(bytes)
    #expect(image.width == 40 && image.height == 20)
    func near(_ p: PremultipliedRGBA8, _ r: Int, _ g: Int, _ b: Int) -> Bool {
      abs(Int(p.r) - r) < 40 && abs(Int(p.g) - g) < 40 && abs(Int(p.b) - b) < 40 && p.a == 255
    }
    #expect(near(image[3, 3], 0, 255, 0), "\(image[3, 3])")
    #expect(near(image[12, 14], 255, 0, 0), "\(image[12, 14])")
    #expect(near(image[30, 10], 0, 0, 255), "\(image[30, 10])")
  }

  @Test func brokenFilesAreErrorsNotCrashes() throws {
    let good = try Self.fixture("o1.jpg")
    // Not a JPEG at all, a header cut short, garbage after the markers.
    for bytes in [
      [0xFF, 0xD8, 0xFF], Array(good.prefix(40)), [0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 1, 2],
    ] {
      #expect(throws: CodecError.self) { try JPEGCodec.decode(bytes) }
    }
    // A body cut in half is truncated, as a truncated PNG is (libjpeg would fill the rest
    // with grey and go on).
    do {
      _ = try JPEGCodec.decode(Array(good.prefix(good.count / 2)))
      Issue.record("a truncated JPEG decoded")
    } catch {
      #expect("\(error)".contains("truncated"), "\(error)")
    }
    #expect(try JPEGCodec.decode(good).width == 40)
  }

  /// An end-of-image marker in the middle of the scan is corrupt data, refused with libjpeg's
  /// words (libjpeg would paint the rest grey and go on), as a damaged PNG is refused.
  @Test func corruptScanDataIsAnError() throws {
    let good = try Self.fixture("o1.jpg")
    let scan = try #require(
      (0..<good.count - 1).first { good[$0] == 0xFF && good[$0 + 1] == 0xDA })
    let cut = (scan + good.count) / 2
    let early = Array(good.prefix(cut)) + [0xFF, 0xD9]
    do {
      _ = try JPEGCodec.decode(early)
      Issue.record("a JPEG whose scan ends early decoded")
    } catch {
      #expect("\(error)".contains("Corrupt JPEG data"), "\(error)")
    }
    // Scan data that matches no Huffman code (all ones, as 0xFF 0x00 stuffed bytes): the fast
    // decoder skips it, and it shows as hundreds of bytes left before the end marker.
    let header = Int(good[scan + 2]) << 8 | Int(good[scan + 3])
    let garbled =
      Array(good.prefix(scan + 2 + header))
      + Array(repeating: [0xFF, 0x00], count: 200).flatMap { $0 }
      + [0xFF, 0xD9]
    do {
      _ = try JPEGCodec.decode(garbled)
      Issue.record("a JPEG of bad Huffman codes decoded")
    } catch {
      #expect("\(error)".contains("Corrupt JPEG data"), "\(error)")
    }
  }

  @Test func anOversizedImageIsRefusedFromItsHeader() throws {
    let bytes = try Self.fixture("o1.jpg")
    #expect(throws: CodecError.self) { try JPEGCodec.decode(bytes, maximumPixels: 799) }
    #expect(try JPEGCodec.decode(bytes, maximumPixels: 800).width == 40)
  }

  @Test func theExifReaderSurvivesAnyBytes() {
    var generator = SystemRandomNumberGenerator()
    let good = (try? Self.fixture("o6.jpg")) ?? []
    for _ in 0..<2000 {
      var bytes = Array(good.prefix(200))
      for _ in 0..<8 where !bytes.isEmpty {
        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(
          in: 0...255, using: &generator)
      }
      let value = ExifOrientation.read(bytes)
      #expect((1...8).contains(value))
    }
  }
}
