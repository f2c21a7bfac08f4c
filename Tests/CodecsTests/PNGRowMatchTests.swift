import Raster
import Testing

@testable import Codecs

/// `PNGRowFilter.rowsMatch` (filtered rows checked against known pixels by filtering those
/// forwards) against its plain twin, and `InflatedPNG` against decoding and comparing.
@Suite struct PNGRowMatchTests {
  typealias Fixtures = PNGFastDecoderTests

  /// Every filter type on every row, widths from 1 to 33 pixels (the 16-byte kernels' tails and
  /// first blocks), for the true rows and for each of many single-byte changes: the kernel
  /// finds what its twin finds, row for row.
  @Test func rowsMatchAgreesWithItsScalarTwin() {
    var random = Fixtures.Bytes(state: 0x2545_F491_4F6C_DD1D)
    for width in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33] {
      let rowBytes = width * 4
      let height = 10
      let image = Fixtures.image(width: width, height: height, channels: 4, seed: UInt64(width))
      for pattern in 0..<7 {
        let filtered = Fixtures.filtered(image, rowBytes: rowBytes, height: height, bpp: 4) { y in
          pattern < 5 ? UInt8(pattern) : UInt8((y * (pattern - 3) + width) % 5)
        }
        var cases: [[UInt8]] = [filtered]
        for _ in 0..<24 {
          var changed = filtered
          let at = Int(random.next()) * 131 % filtered.count
          changed[at] &+= 1 + random.next() % 255
          cases.append(changed)
        }
        for bytes in cases {
          for rows in [0..<height, 0..<1, 3..<height, 4..<7, 9..<height] {
            let fast = bytes.withUnsafeBufferPointer { f in
              image.withUnsafeBufferPointer { i in
                PNGRowFilter.rowsMatch(
                  filtered: f.baseAddress!, image: i.baseAddress!, rowBytes: rowBytes, rows: rows)
              }
            }
            let plain = PNGRowFilter.referenceRowsMatch(
              filtered: bytes, image: image, rowBytes: rowBytes, rows: rows)
            #expect(fast == plain, "width \(width) pattern \(pattern) rows \(rows)")
          }
        }
        // The true rows match; the same rows over another image do not.
        #expect(
          PNGRowFilter.referenceRowsMatch(
            filtered: filtered, image: image, rowBytes: rowBytes, rows: 0..<height) == .equal)
      }
    }
  }

  /// Every one of the 2^24 (left, above, upper-left) triples of one channel would take long;
  /// all 256³ of a pixel's Paeth inputs sampled on a 17-step grid plus the edges, through the
  /// 16-byte kernel (a row of 5 pixels whose last four use the vector path) against the twin.
  @Test func paethAgreesOnAGridOfNeighbours() {
    let values = Array(Set(Array(stride(from: 0, through: 255, by: 17)) + [1, 127, 128, 254, 255]))
      .sorted()
    var image: [UInt8] = []
    var above: [UInt8] = []
    for a in values {
      for b in values {
        for c in values {
          // Pixel 0 sets the left neighbour a (and upper-left c); pixel 1 is checked.
          above += [UInt8(c), UInt8(c), UInt8(c), UInt8(c), UInt8(b), UInt8(b), UInt8(b), UInt8(b)]
          image += [
            UInt8(a), UInt8(a), UInt8(a), UInt8(a), UInt8(truncatingIfNeeded: a + b), 3, UInt8(c),
            200,
          ]
        }
      }
    }
    // Two rows: `above`, then `image`, both filtered by Paeth from the true pixels.
    let rowBytes = above.count
    let pixels = above + image
    let filtered = Fixtures.filtered(pixels, rowBytes: rowBytes, height: 2, bpp: 4) { _ in 4 }
    let check = { (bytes: [UInt8]) -> PNGRowFilter.RowMatch in
      bytes.withUnsafeBufferPointer { f in
        pixels.withUnsafeBufferPointer { i in
          PNGRowFilter.rowsMatch(
            filtered: f.baseAddress!, image: i.baseAddress!, rowBytes: rowBytes, rows: 0..<2)
        }
      }
    }
    #expect(check(filtered) == .equal)
    // A change of one in any checked byte of the second row is found.
    for at in stride(from: rowBytes + 1 + 4, to: filtered.count, by: 97) {
      var changed = filtered
      changed[at] &+= 1
      #expect(check(changed) == .different(row: 1), "byte \(at)")
    }
  }

  @Test func anUnknownFilterTypeIsReportedWithItsRow() {
    let image = Fixtures.image(width: 6, height: 4, channels: 4, seed: 3)
    var filtered = Fixtures.filtered(image, rowBytes: 24, height: 4, bpp: 4) { _ in 2 }
    filtered[2 * 25] = 5
    for bytes in [filtered] {
      let fast = bytes.withUnsafeBufferPointer { f in
        image.withUnsafeBufferPointer { i in
          PNGRowFilter.rowsMatch(
            filtered: f.baseAddress!, image: i.baseAddress!, rowBytes: 24, rows: 0..<4)
        }
      }
      #expect(fast == .unknownFilter(row: 2))
      #expect(
        PNGRowFilter.referenceRowsMatch(filtered: bytes, image: image, rowBytes: 24, rows: 0..<4)
          == .unknownFilter(row: 2))
    }
  }

  // MARK: - InflatedPNG

  /// A PNG re-encoded every way decodes to the pixels it was made from, and to no others; when
  /// asked for its pixels it gives libpng's.
  @Test func inflatedPNGsKnowTheirPixels() throws {
    for (width, height) in [(1, 1), (5, 3), (61, 70), (300, 131)] {
      let rgba = Fixtures.image(width: width, height: height, channels: 4, seed: UInt64(height))
      var other = rgba
      other[rgba.count / 2] &+= 1
      for compression in PNGCompression.allCases {
        let png = try PNGCodec.encode(
          straightRGBA: rgba, width: width, height: height, compression: compression)
        let data = PNGData(bytes: try PNGChunks.collect(png))
        let inflated = try #require(InflatedPNG(data))
        #expect(inflated.decodes(to: rgba) == true, "\(width)×\(height) \(compression)")
        #expect(inflated.decodes(to: other) == false, "\(width)×\(height) \(compression)")
        #expect(inflated.decodes(to: Array(rgba.dropLast(4))) == false)
        let decoded = try inflated.decoded()
        #expect(decoded.rgba == (try Fixtures.libpng(png)))
        #expect(decoded.width == width && decoded.height == height)

        // Held to another PNG's pixels, unfiltered where its rows lie.
        for (pixels, same) in [(rgba, true), (other, false)] {
          let otherPNG = try PNGCodec.encode(
            straightRGBA: pixels, width: width, height: height,
            compression: compression == .fast ? .small : .fast)
          var rows = try #require(InflatedPNG(PNGData(bytes: try PNGChunks.collect(otherPNG))))
          #expect(inflated.decodes(to: rows) == nil, "not yet unfiltered")
          let unfiltered = rows.unfilterInPlace()
          #expect(unfiltered)
          #expect(inflated.decodes(to: rows) == same, "\(width)×\(height) \(compression)")
          #expect(try rows.decoded().rgba == pixels)
        }
      }
    }
  }

  /// Held to a premultiplied pixmap: an opaque one compared as its packed pixels, a translucent
  /// one straightened first; a change to one pixel is found either way.
  @Test func inflatedPNGsAreHeldToPixmaps() throws {
    for (width, height) in [(1, 1), (7, 3), (93, 70)] {
      for translucent in [false, true] {
        var random = Fixtures.Bytes(state: UInt64(width * 31 + height))
        let pixels = (0..<(width * height)).map { i -> UInt32 in
          let alpha: UInt32 = translucent && i % 5 == 2 ? UInt32(random.next() % 255) : 255
          let channel = { UInt32(random.next()) % (alpha + 1) }
          return channel() | channel() << 8 | channel() << 16 | alpha << 24
        }
        let pixmap = try #require(Pixmap(width: width, height: height, pixels: pixels))
        #expect(InflatedPNG.isOpaque(pixels) == !translucent || width * height < 3)
        let png = try PNGCodec.encode(
          straightRGBA: PNGCodec.straightBytes(of: pixmap), width: width, height: height,
          compression: .small)
        let rows = try #require(InflatedPNG(PNGData(bytes: try PNGChunks.collect(png))))
        #expect(rows.decodes(to: pixmap) == true, "\(width)×\(height) translucent \(translucent)")
        var changed = pixels
        let at = changed.count / 2
        changed[at] =
          changed[at] & 0xFF00_0000 | (changed[at] & 0xFF == 0 ? 1 : changed[at] & 0xFF - 1)
        let other = try #require(Pixmap(width: width, height: height, pixels: changed))
        #expect(rows.decodes(to: other) == false || changed[at] >> 24 == 0)
        let wrongSize = try #require(
          Pixmap(width: width + 1, height: height, pixels: pixels + Array(pixels.prefix(height))))
        #expect(rows.decodes(to: wrongSize) == false)
      }
    }
    // Every pixel count 0…9 with one translucent pixel anywhere (the four-at-a-time test and
    // its tail).
    for count in 0...9 {
      #expect(InflatedPNG.isOpaque([UInt32](repeating: 0xFF00_0000, count: count)))
      for at in 0..<count {
        var pixels = [UInt32](repeating: 0xFF00_0000, count: count)
        pixels[at] = 0xFE00_0000
        #expect(!InflatedPNG.isOpaque(pixels), "\(count) pixels, translucent at \(at)")
      }
    }
  }

  /// Rows unfiltered where they lie (a stride of a row and its filter byte) give the plain
  /// decoding, row for row, for every filter type pattern and width.
  @Test func unfilteringInPlaceMatchesItsScalarTwin() {
    var random = Fixtures.Bytes(state: 0x1234_5678_9ABC_DEF1)
    for width in [1, 2, 3, 4, 5, 7, 16, 17, 33] {
      let rowBytes = width * 4
      let height = 9
      var filtered = (0..<(height * (rowBytes + 1))).map { _ in random.next() }
      for y in 0..<height { filtered[y * (rowBytes + 1)] = UInt8((y * 3 + width) % 5) }
      let reference = PNGRowFilter.referenceUnfilter(
        filtered, rowBytes: rowBytes, height: height, bytesPerPixel: 4)!
      var inPlace = filtered
      let ok = inPlace.withUnsafeMutableBufferPointer { buffer in
        PNGRowFilter.unfilter(
          source: buffer.baseAddress!, destination: buffer.baseAddress! + 1, rowBytes: rowBytes,
          height: height, bytesPerPixel: 4, stride: rowBytes + 1)
      }
      #expect(ok)
      for y in 0..<height {
        let start = y * (rowBytes + 1)
        #expect(inPlace[start] == filtered[start], "the filter type stays")
        #expect(
          Array(inPlace[(start + 1)..<(start + 1 + rowBytes)])
            == Array(reference[(y * rowBytes)..<((y + 1) * rowBytes)]), "width \(width) row \(y)")
      }
    }
  }

  /// RGB PNGs are not taken (the caller decodes them); a corrupt filter type answers nil and its
  /// decode gives libpng's error.
  @Test func rgbAndCorruptRowsAreLeftToTheDecoder() throws {
    let rgb = Fixtures.image(width: 9, height: 5, channels: 3, seed: 4)
    let rgbStream = try Deflate.compress(
      Fixtures.filtered(rgb, rowBytes: 27, height: 5, bpp: 3) { _ in 1 })
    let rgbPNG = Fixtures.png(width: 9, height: 5, colorType: 2, stream: rgbStream)
    #expect(InflatedPNG(PNGData(bytes: try PNGChunks.collect(rgbPNG))) == nil)

    let rgba = Fixtures.image(width: 9, height: 70, channels: 4, seed: 4)
    var rows = Fixtures.filtered(rgba, rowBytes: 36, height: 70, bpp: 4) { _ in 4 }
    rows[66 * 37] = 9
    let png = Fixtures.png(width: 9, height: 70, colorType: 6, stream: try Deflate.compress(rows))
    let inflated = try #require(InflatedPNG(PNGData(bytes: try PNGChunks.collect(png))))
    #expect(inflated.decodes(to: rgba) == nil)
    #expect(throws: CodecError.self) { try inflated.decoded(path: "x.png") }
    #expect(throws: CodecError.self) { try PNGCodec.decodeStraightRGBA(png) }
  }
}
