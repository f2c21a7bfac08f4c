import Foundation
import Raster
import Testing

@testable import Codecs

/// The fast PNG decode path (libdeflate + our unfilter) against libpng's simplified API: the same
/// pixels for every PNG it takes, the same errors (through libpng) for every one it refuses.
@Suite struct PNGFastDecoderTests {
  static let fixtureNames = [
    "pillow-rgba-level0", "pillow-rgba-level1", "pillow-rgba-level6", "pillow-rgba-level9",
    "pillow-rgba-optimized", "pillow-rgb-level0", "pillow-rgb-level1", "pillow-rgb-level6",
    "pillow-rgb-level9", "pillow-rgba-gama-srgb", "pillow-rgba-srgb",
  ]
  /// Pillow PNGs libpng would transform or expand: they must go to libpng.
  static let refusedFixtureNames = [
    "pillow-rgba-gama-linear", "pillow-palette", "pillow-grey", "pillow-grey-alpha",
    "pillow-grey16", "pillow-rgb-transparent-key",
  ]

  static func fixture(_ name: String) throws -> [UInt8] {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    let path = parts.joined(separator: "/") + "/Fixtures/png/" + name + ".png"
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// A deterministic pseudo-random byte stream (xorshift).
  struct Bytes {
    var state: UInt64
    mutating func next() -> UInt8 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return UInt8(truncatingIfNeeded: state >> 24)
    }
  }

  /// Rows of smooth gradients with noise and repeats, so every filter has something to do.
  static func image(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
    var random = Bytes(state: seed | 1)
    var image = [UInt8](repeating: 0, count: width * height * channels)
    for y in 0..<height {
      for x in 0..<width {
        for c in 0..<channels {
          let i = (y * width + x) * channels + c
          switch (y / 3) % 4 {
          case 0: image[i] = UInt8(truncatingIfNeeded: x * (c + 1) + y)
          case 1: image[i] = random.next()
          case 2: image[i] = y > 0 ? image[i - width * channels] : 7
          default: image[i] = UInt8(truncatingIfNeeded: (x * x + y * c) / 3) &+ random.next() % 4
          }
        }
      }
    }
    return image
  }

  /// Filtered rows with row y's type chosen by `type(y)` (PNG spec §9, written plainly).
  static func filtered(
    _ image: [UInt8], rowBytes: Int, height: Int, bpp: Int, type: (Int) -> UInt8
  ) -> [UInt8] {
    var out: [UInt8] = []
    for y in 0..<height {
      let t = type(y)
      out.append(t)
      for i in 0..<rowBytes {
        let x = Int(image[y * rowBytes + i])
        let a = i >= bpp ? Int(image[y * rowBytes + i - bpp]) : 0
        let b = y > 0 ? Int(image[(y - 1) * rowBytes + i]) : 0
        let c = i >= bpp && y > 0 ? Int(image[(y - 1) * rowBytes + i - bpp]) : 0
        let prediction: Int
        switch t {
        case 0: prediction = 0
        case 1: prediction = a
        case 2: prediction = b
        case 3: prediction = (a + b) / 2
        default:
          let p = a + b - c
          let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
          prediction = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        }
        out.append(UInt8((x - prediction + 256) % 256))
      }
    }
    return out
  }

  /// A PNG of our own making: IHDR, optional extra chunks, the zlib stream split into IDAT chunks
  /// of `split` bytes, IEND.
  static func png(
    width: Int, height: Int, colorType: UInt8, depth: UInt8 = 8, interlace: UInt8 = 0,
    stream: [UInt8], split: Int = 1 << 30, before: [[UInt8]] = []
  ) -> [UInt8] {
    var header = APNGEncoder.bigEndian(UInt32(width)) + APNGEncoder.bigEndian(UInt32(height))
    header += [depth, colorType, 0, 0, interlace]
    var bytes = PNGChunks.signature + APNGEncoder.chunk("IHDR", header)
    for chunk in before { bytes += chunk }
    var start = 0
    repeat {
      let end = min(stream.count, start + split)
      bytes += APNGEncoder.chunk("IDAT", Array(stream[start..<end]))
      start = end
    } while start < stream.count
    return bytes + APNGEncoder.chunk("IEND", [])
  }

  /// The fast path's result, or nil when it refuses the bytes.
  static func fast(_ png: [UInt8]) throws -> [UInt8]? {
    let checked = try PNGChunks.collect(png)
    return checked.withUnsafeBytes { raw -> [UInt8]? in
      guard let decoder = PNGFastDecoder(raw) else { return nil }
      var buffer = [UInt8](repeating: 0xA5, count: decoder.workingByteCount)
      let ok = buffer.withUnsafeMutableBytes { decoder.decode(raw, into: $0) }
      return ok ? Array(buffer.prefix(decoder.width * decoder.height * 4)) : nil
    }
  }

  static func libpng(_ png: [UInt8]) throws -> [UInt8] {
    try PNGCodec.decodeCheckedWithLibpng(PNGChunks.collect(png), path: nil).rgba
  }

  // MARK: - The kernel and its twin

  /// Every filter type, every bytes-per-pixel 1…8, widths from 1 pixel, decoded in place as the
  /// decoder does it, equals the plain decoding.
  @Test func unfilterMatchesItsScalarTwin() {
    var random = Bytes(state: 0x9E37_79B9_7F4A_7C15)
    for bpp in 1...8 {
      for width in [1, 2, 3, 4, 5, 7, 16, 17, 33] {
        let rowBytes = width * bpp
        let height = 11
        var filtered = (0..<(height * (rowBytes + 1))).map { _ in random.next() }
        for y in 0..<height { filtered[y * (rowBytes + 1)] = UInt8((y + width) % 5) }
        let reference = PNGRowFilter.referenceUnfilter(
          filtered, rowBytes: rowBytes, height: height, bytesPerPixel: bpp)
        var inPlace = filtered
        let ok = inPlace.withUnsafeMutableBufferPointer { buffer in
          let base = buffer.baseAddress!
          return PNGRowFilter.unfilter(
            source: base, destination: base, rowBytes: rowBytes, height: height,
            bytesPerPixel: bpp)
        }
        #expect(ok)
        #expect(Array(inPlace.prefix(rowBytes * height)) == reference, "bpp \(bpp) width \(width)")
      }
    }
  }

  /// The encoder's filters, undone, give the image back (every choice, RGBA and RGB).
  @Test func unfilterUndoesTheEncodersFilters() {
    for (bpp, seed) in [(4, UInt64(3)), (3, 5), (1, 9)] {
      let (width, height) = (37, 24)
      let image = Self.image(width: width, height: height, channels: bpp, seed: seed)
      for choice in PNGRowFilter.Choice.allCases {
        let filtered = PNGRowFilter.filter(
          image, rowBytes: width * bpp, height: height, bytesPerPixel: bpp, choice: choice)
        #expect(
          PNGRowFilter.referenceUnfilter(
            filtered, rowBytes: width * bpp, height: height, bytesPerPixel: bpp) == image)
        var inPlace = filtered
        _ = inPlace.withUnsafeMutableBufferPointer { buffer in
          PNGRowFilter.unfilter(
            source: buffer.baseAddress!, destination: buffer.baseAddress!, rowBytes: width * bpp,
            height: height, bytesPerPixel: bpp)
        }
        #expect(Array(inPlace.prefix(image.count)) == image, "\(choice) bpp \(bpp)")
      }
    }
  }

  @Test func anUnknownFilterTypeIsRefused() {
    var filtered: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    #expect(
      PNGRowFilter.referenceUnfilter(filtered, rowBytes: 2, height: 3, bytesPerPixel: 1) == nil)
    let ok = filtered.withUnsafeMutableBufferPointer { buffer in
      PNGRowFilter.unfilter(
        source: buffer.baseAddress!, destination: buffer.baseAddress!, rowBytes: 2, height: 3,
        bytesPerPixel: 1)
    }
    #expect(!ok)
  }

  // MARK: - Fast path against libpng

  /// Our own PNGs — libpng's writer at both settings, and hand-made ones with every filter type,
  /// RGBA and RGB, one IDAT or many — decode to libpng's bytes through the fast path.
  @Test func theFastPathGivesLibpngsBytesOnOurOwnPNGs() throws {
    var pngs: [(String, [UInt8])] = []
    for (width, height) in [(1, 1), (3, 2), (61, 17), (300, 120)] {
      let rgba = Self.image(width: width, height: height, channels: 4, seed: UInt64(width))
      for compression in PNGCompression.allCases {
        pngs.append(
          (
            "libpng \(compression) \(width)×\(height)",
            try PNGCodec.encode(
              straightRGBA: rgba, width: width, height: height, compression: compression)
          ))
      }
      for channels in [3, 4] {
        let image = Self.image(width: width, height: height, channels: channels, seed: 77)
        for pattern in 0..<7 {
          let rows = Self.filtered(
            image, rowBytes: width * channels, height: height, bpp: channels
          ) { y in pattern < 5 ? UInt8(pattern) : UInt8((y * (pattern - 3)) % 5) }
          let stream = try Deflate.compress(
            rows, strategy: pattern % 2 == 0 ? .standard : .filtered)
          pngs.append(
            (
              "filter pattern \(pattern), \(channels) channels \(width)×\(height)",
              Self.png(
                width: width, height: height, colorType: channels == 4 ? 6 : 2, stream: stream,
                split: pattern == 6 ? 7 : 1 << 30)
            ))
        }
      }
    }
    for name in Self.fixtureNames { pngs.append((name, try Self.fixture(name))) }
    for (name, png) in pngs {
      let fast = try Self.fast(png)
      #expect(fast != nil, "\(name): not taken by the fast path")
      #expect(fast == (try Self.libpng(png)), "\(name)")
      // And through the public entry points, which pick the path themselves.
      #expect(try PNGCodec.decodeStraightRGBA(png).rgba == (try Self.libpng(png)), "\(name)")
    }
  }

  /// PNGs libpng would transform, expand or reject go to libpng; the public entry points still
  /// give libpng's result.
  @Test func otherPNGsAreLeftToLibpng() throws {
    let image = Self.image(width: 9, height: 5, channels: 4, seed: 1)
    let stream = try Deflate.compress(
      Self.filtered(image, rowBytes: 36, height: 5, bpp: 4) { _ in 0 })
    var pngs: [(String, [UInt8])] = [
      ("interlaced", Self.png(width: 9, height: 5, colorType: 6, interlace: 1, stream: stream)),
      (
        "cHRM",
        Self.png(
          width: 9, height: 5, colorType: 6, stream: stream,
          before: [APNGEncoder.chunk("cHRM", [UInt8](repeating: 1, count: 32))])
      ),
      (
        "sBIT",
        Self.png(
          width: 9, height: 5, colorType: 6, stream: stream,
          before: [APNGEncoder.chunk("sBIT", [5, 6, 5, 8])])
      ),
    ]
    for name in Self.refusedFixtureNames { pngs.append((name, try Self.fixture(name))) }
    for (name, png) in pngs {
      #expect(try Self.fast(png) == nil, "\(name): taken by the fast path")
      let viaLibpng = Result { try Self.libpng(png) }
      let viaCodec = Result { try PNGCodec.decodeStraightRGBA(png).rgba }
      #expect(
        String(describing: viaLibpng) == String(describing: viaCodec), "\(name)")
    }
  }

  /// Damaged image data: the fast path refuses it and libpng names the trouble, with the path;
  /// nothing crashes.
  @Test func corruptImageDataGivesLibpngsErrorWithThePath() throws {
    let (width, height) = (40, 30)
    let image = Self.image(width: width, height: height, channels: 4, seed: 11)
    let rows = Self.filtered(image, rowBytes: width * 4, height: height, bpp: 4) {
      UInt8($0 % 5)
    }
    let stream = try Deflate.compress(rows)
    var badAdler = stream
    badAdler[badAdler.count - 1] ^= 0x55
    var badFilter = rows
    badFilter[(width * 4 + 1) * 7] = 9
    let tooMuch = try Deflate.compress(rows + [0] + [UInt8](repeating: 1, count: width * 4))
    let tooLittle = try Deflate.compress(Array(rows.prefix(rows.count - width * 4 - 1)))
    var badCRC = Self.png(width: width, height: height, colorType: 6, stream: stream)
    badCRC[badCRC.count - 12 - 1] ^= 1  // the last byte of the IDAT's CRC
    let cases: [(String, [UInt8])] = [
      (
        "truncated IDAT",
        Self.png(
          width: width, height: height, colorType: 6, stream: Array(stream.prefix(stream.count / 2))
        )
      ),
      ("bad adler32", Self.png(width: width, height: height, colorType: 6, stream: badAdler)),
      (
        "bad filter byte",
        Self.png(
          width: width, height: height, colorType: 6, stream: try Deflate.compress(badFilter))
      ),
      ("too much data", Self.png(width: width, height: height, colorType: 6, stream: tooMuch)),
      ("too little data", Self.png(width: width, height: height, colorType: 6, stream: tooLittle)),
      ("bad IDAT CRC", badCRC),
    ]
    for (name, png) in cases {
      #expect(try Self.fast(png) == nil, "\(name): taken by the fast path")
      let viaLibpng = Result {
        try PNGCodec.decodeCheckedWithLibpng(PNGChunks.collect(png), path: "x.png").rgba
      }
      let viaCodec = Result { try PNGCodec.decodeStraightRGBA(png, path: "x.png").rgba }
      #expect(String(describing: viaLibpng) == String(describing: viaCodec), "\(name)")
      switch viaCodec {
      case .success: break  // libpng forgives some (extra data): then so do we, with its pixels
      case .failure(let error):
        #expect("\(error)".hasPrefix("x.png: "), "\(name): \(error)")
      }
    }
  }

  /// A pixmap decoded through the fast path equals one decoded through libpng, premultiplied.
  @Test func pixmapsDecodeTheSameBothWays() throws {
    let png = try Self.fixture("pillow-rgba-level9")
    let pixmap = try PNGCodec.decode(png)
    let straight = try Self.libpng(png)
    for i in 0..<(pixmap.width * pixmap.height) {
      let expected = PremultipliedRGBA8(
        straightR: straight[4 * i], g: straight[4 * i + 1], b: straight[4 * i + 2],
        a: straight[4 * i + 3]
      ).packed
      #expect(pixmap.pixels[i] == expected)
      if pixmap.pixels[i] != expected { break }
    }
  }
}
