import Foundation
import Raster
import Testing

@testable import Codecs

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

  @Test func corruptAndTruncatedDataSayWhatIsWrongWhere() throws {
    let pixmap = try #require(Pixmap(width: 8, height: 8, filledWith: Color.white.premultiplied))
    let bytes = try PNGCodec.encode(pixmap)
    let cases: [([UInt8], String)] = [
      ([], "x.png: empty file, not a PNG"),
      (
        Array(bytes.prefix(20)),
        "x.png: truncated: the IHDR chunk at byte 8 declares 13 bytes and a 4-byte CRC, but only 4 bytes follow"
      ),
      (Array(bytes.prefix(bytes.count - 12)), "x.png: truncated: the file ends at byte"),
      (
        [UInt8](repeating: 7, count: 100),
        "x.png: not a PNG file (it does not start with PNG's signature)"
      ),
    ]
    for (broken, message) in cases {
      #expect(throws: CodecError.self) { try PNGCodec.decode(broken, path: "x.png") }
      do {
        _ = try PNGCodec.decode(broken, path: "x.png")
      } catch {
        #expect(error.description.hasPrefix(message), "\(error)")
      }
    }
  }

  /// A 44-byte PNG whose text chunk declares 2 GiB made libpng wait for (and allocate) it: the
  /// chunk structure is now checked first, so it fails at once, naming the chunk.
  @Test func aChunkLongerThanTheFileIsRefusedBeforeDecoding() throws {
    let pixmap = try #require(Pixmap(width: 1, height: 1, filledWith: Color.white.premultiplied))
    let bytes = try PNGCodec.encode(pixmap)
    let afterHeader = 8 + 25
    var hostile = Array(bytes.prefix(afterHeader))
    hostile += [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + [0, 0, 0]
    #expect(hostile.count == 44)
    #expect(throws: CodecError.self) { try PNGCodec.decode(hostile, path: "t.png") }
    do { _ = try PNGCodec.decode(hostile, path: "t.png") } catch {
      #expect(
        error.description
          == "t.png: truncated: the tEXt chunk at byte 33 declares 2147483647 bytes and a 4-byte CRC, but only 3 bytes follow"
      )
    }
    // The same through a file and through a pipe (where the size is not known in advance).
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/t.png"
    FileManager.default.createFile(atPath: path, contents: Data(hostile))
    #expect(throws: CodecError.self) { try PNGCodec.read(path) }
  }

  /// Fuzz finding (Fuzz/findings/png-decode/huge-header-zero-fills-1-gib.png): a 74-byte file
  /// whose header declares 16384×16384 pixels made libpng allocate and clear 1 GiB before finding
  /// the data missing. Image data too short to hold the declared image, even deflated as well as
  /// deflate can, is refused before libpng starts.
  /// A PNG of 16-bit samples (colour type `colorType`, 2 × 1 pixels, rows unfiltered), with a
  /// gAMA chunk of `gamma` (×100000) when given.
  static func sixteenBitPNG(
    colorType: UInt8, samples: [UInt16], gamma: UInt32? = nil
  ) throws
    -> [UInt8]
  {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let n = data.count
      let crc = Deflate.crc32(data, continuing: Deflate.crc32(Array(type.utf8)))
      return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
        + Array(type.utf8) + data
        + [UInt8(crc >> 24 & 255), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)]
    }
    let row: [UInt8] = [0] + samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 255)] }
    var bytes =
      PNGChunks.signature + chunk("IHDR", [0, 0, 0, 2, 0, 0, 0, 1, 16, colorType, 0, 0, 0])
    if let gamma {
      bytes += chunk(
        "gAMA",
        [UInt8(gamma >> 24), UInt8(gamma >> 16 & 255), UInt8(gamma >> 8 & 255), UInt8(gamma & 255)])
    }
    return bytes + chunk("IDAT", try Deflate.compress(row)) + chunk("IEND", [])
  }

  /// 16-bit samples with no gAMA or sRGB chunk are sRGB-encoded, as browsers and editors take
  /// them: v / 257 rounded, the 8-bit value a re-encoding to 8 bits keeps (libpng by itself
  /// takes them as linear light: 0x8080 came out as 186). A gAMA chunk still says otherwise.
  @Test func sixteenBitSamplesAreSRGB() throws {
    let rgba = try Self.sixteenBitPNG(
      colorType: 6, samples: [0x8080, 0x4040, 0, 0xFFFF, 0x7530, 0xFFFF, 0x0101, 0xFFFF])
    #expect(
      try PNGCodec.decodeStraightRGBA(rgba).rgba == [128, 64, 0, 255, 117, 255, 1, 255])
    let grey = try Self.sixteenBitPNG(colorType: 0, samples: [0x7530, 0x8080])
    #expect(try PNGCodec.decodeStraightRGBA(grey).rgba == [117, 117, 117, 255, 128, 128, 128, 255])
    // The same pixels at 8 bits compare the same.
    let eight = try PNGCodec.encode(
      straightRGBA: [128, 64, 0, 255, 117, 255, 1, 255], width: 2, height: 1)
    #expect(
      try PNGCodec.decodeStraightRGBA(eight).rgba == PNGCodec.decodeStraightRGBA(rgba).rgba)
    // Linear light, said by a gAMA of 1.0: mid grey is brighter in sRGB.
    let linear = try Self.sixteenBitPNG(colorType: 0, samples: [0x8080, 0], gamma: 100_000)
    #expect(try PNGCodec.decodeStraightRGBA(linear).rgba[0] > 180)
  }

  @Test func imageDataTooShortForTheDeclaredImageIsRefusedBeforeDecoding() throws {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let n = data.count
      return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
        + Array(type.utf8) + data + [0, 0, 0, 0]
    }
    let side: [UInt8] = [0, 0, 0x40, 0]  // 16384
    let header = chunk("IHDR", side + side + [1, 0, 0, 0, 0])  // 1-bit grey
    let hostile =
      PNGChunks.signature + header + chunk("IDAT", [UInt8](repeating: 0, count: 17))
      + chunk("IEND", [])
    #expect(hostile.count == 74)
    do {
      _ = try PNGCodec.decode(hostile, path: "h.png")
      Issue.record("decoded")
    } catch {
      #expect(
        error.description
          == "h.png: truncated or damaged: 17 bytes of image data (IDAT) cannot hold the 16384×16384 image the header declares, 33570816 bytes before compression (deflate shrinks at most 1032 to 1)"
      )
    }
    // The bound leaves room for the best compression there is: a clear 2048×2048 image, 16 MiB
    // of RGBA rows, deflated by zlib's best level to about 1/1000 of that.
    let clear = try #require(Pixmap(width: 2048, height: 2048))
    let small = try PNGCodec.encode(clear, compression: .small)
    #expect(small.count < 20_000)
    #expect(try PNGCodec.decode(small) == clear)
  }

  /// `decode` premultiplies in the pixmap's own storage what `decodeStraightRGBA` gives as
  /// straight bytes: every colour value under every alpha.
  @Test func decodePremultipliesTheStraightBytes() throws {
    var straight: [UInt8] = []
    for a in 0...255 {
      for v in 0...255 { straight += [UInt8(v), UInt8(255 - v), UInt8(v / 3), UInt8(a)] }
    }
    let bytes = try PNGCodec.encode(straightRGBA: straight, width: 256, height: 256)
    let (rgba, width, height) = try PNGCodec.decodeStraightRGBA(bytes)
    #expect(rgba == straight && width == 256 && height == 256)
    let pixmap = try PNGCodec.decode(bytes)
    for i in 0..<(256 * 256) {
      let expected = PremultipliedRGBA8(
        straightR: straight[4 * i], g: straight[4 * i + 1], b: straight[4 * i + 2],
        a: straight[4 * i + 3])
      #expect(pixmap.pixels[i] == expected.packed, "pixel \(i)")
    }
  }

  /// Text and other ancillary chunks never reach libpng; the colour ones do.
  @Test func ancillaryChunksAreDroppedButColourChunksKept() throws {
    let pixmap = try #require(Pixmap(width: 2, height: 2, filledWith: Color.black.premultiplied))
    let bytes = try PNGCodec.encode(pixmap)
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let n = data.count
      return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
        + Array(type.utf8) + data + [0, 0, 0, 0]
    }
    let withText =
      Array(bytes.prefix(33)) + chunk("tEXt", Array("Comment\u{0}hello".utf8))
      + chunk("gAMA", [0, 0, 0xB1, 0x8F]) + Array(bytes.dropFirst(33))
    let kept = try PNGChunks.collect(withText)
    #expect(!kept.windowsContain(Array("tEXt".utf8)))
    #expect(kept.windowsContain(Array("gAMA".utf8)))
    #expect(try PNGCodec.decode(withText) == pixmap)
  }

  @Test func writeIsAtomicAndNeverLeavesTemporaryFiles() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/out.png"
    let pixmap = try #require(Pixmap(width: 4, height: 4, filledWith: Color.black.premultiplied))
    try PNGCodec.write(pixmap, to: path)
    #expect(try PNGCodec.read(path) == pixmap)
    // A write where a file stands in for the folder fails, names the path, and leaves nothing
    // behind (missing folders are created).
    #expect(throws: CodecError.self) {
      try PNGCodec.write(pixmap, to: directory + "/out.png/inner.png")
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(leftovers == ["out.png"])
    try PNGCodec.write(pixmap, to: directory + "/made/out.png")
    #expect(try PNGCodec.read(directory + "/made/out.png") == pixmap)
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
  /// The word-at-a-time comparison, serial and in bands of rows on the cores (images of 128 rows
  /// or more), agrees with the pixel-by-pixel twin on random images with sparse, dense and
  /// odd-sized differences, at several tolerances.
  @Test func fastComparisonMatchesItsScalarTwin() {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return seed
    }
    for (width, height) in [(1, 1), (3, 5), (17, 9), (64, 33), (1, 130), (7, 129), (33, 300)] {
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
          let banded = ImageDifference(
            expected: expected, actual: actual, width: width, height: height,
            method: .exact(tolerance: tolerance))
          for difference in [fast, banded] {
            #expect(difference.description == plain.description)
            #expect(difference.differingPixels == plain.differingPixels)
            #expect(difference.maximumDelta == plain.maximumDelta)
          }
        }
      }
    }
  }
}

extension Array where Element == UInt8 {
  /// Whether `needle` occurs in the bytes.
  func windowsContain(_ needle: [UInt8]) -> Bool {
    guard count >= needle.count else { return false }
    return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
  }
}

/// `PNGCodec.straightBytes` (the kernel) against its plain twin on every alpha and random
/// premultiplied colours below it.
@Suite struct StraightBytesTests {
  @Test func kernelAgreesWithTwin() throws {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var pixels: [UInt32] = []
    for alpha in 0...255 {
      for _ in 0..<64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        let (a, m) = (UInt32(alpha), UInt64(alpha + 1))
        let (r, g, b) = (
          UInt32(state % m), UInt32(state >> 20 % m), UInt32(state >> 40 % m)
        )
        pixels.append(r | g << 8 | b << 16 | a << 24)
      }
    }
    let pixmap = try #require(Pixmap(width: 256, height: 64, pixels: pixels))
    #expect(PNGCodec.straightBytes(of: pixmap) == PNGCodec.straightBytesPlainly(of: pixmap))
  }

  /// Opaque pixels mixed with clear and translucent ones in every arrangement of four (the
  /// kernel moves four opaque pixels at once), in an odd number of pixels.
  @Test func opaqueRunsMixedWithOthersAgreeWithTwin() throws {
    var pixels: [UInt32] = []
    for pattern in 0..<81 {
      var p = pattern
      for _ in 0..<4 {
        let kind = p % 3
        p /= 3
        let alpha: UInt32 = kind == 0 ? 255 : kind == 1 ? 0 : 128
        pixels.append(UInt32(pattern) * 0x0001_0101 % (alpha + 1) | alpha << 24)
      }
      pixels.append(0xFF10_2030)
    }
    let pixmap = try #require(Pixmap(width: pixels.count, height: 1, pixels: pixels))
    #expect(PNGCodec.straightBytes(of: pixmap) == PNGCodec.straightBytesPlainly(of: pixmap))
  }
}
