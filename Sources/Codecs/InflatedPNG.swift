import Dispatch
import Raster

/// A PNG on the fast decode path (`PNGFastDecoder`, 8-bit RGBA only) with its image data
/// inflated but its rows not yet unfiltered: what comparing it with pixels already in hand needs.
///
/// `decodes(to:)` tells whether its rows decode to given straight RGBA8 pixels by filtering
/// those forwards (`PNGRowFilter.rowsMatch`), in bands of rows on the cores, so a re-encoded copy
/// of an image is known to be the same without unfiltering it (`diff`, `check`). The pixels it
/// is held to may be another `InflatedPNG`'s, unfiltered where its rows lie
/// (`unfilterInPlace`: no row is moved, so an image of rows without a filter costs nothing);
/// `decoded` finishes the decode when the pixels are needed after all.
public struct InflatedPNG: Sendable {
  /// The image's size in pixels.
  public let width: Int
  public let height: Int
  /// The checked chunks, for libpng when the rows turn out not to decode.
  private let data: PNGData
  private let decoder: PNGFastDecoder
  /// `decoder.workingByteCount` bytes: the rows, each a filter type and then width × 4 bytes
  /// (filtered, or decoded where they lie after `unfilterInPlace`).
  private var rows: [UInt8]
  private var state = State.filtered

  private enum State {
    case filtered
    /// Each row's bytes decoded where they lie, after its filter type byte.
    case decodedInPlace
    /// A row's filter type is unknown: only libpng can say what is wrong.
    case corrupt
  }

  /// Inflates `data`'s rows, or nil when the fast path does not take it as RGBA8 (another
  /// format, RGB, a colour chunk, a bad CRC) or its image data does not inflate to exactly the
  /// declared rows: then `PNGCodec.decodeStraightRGBA` decodes it or names what is wrong.
  public init?(_ data: PNGData) {
    guard let decoder = data.bytes.withUnsafeBytes({ PNGFastDecoder($0) }),
      decoder.channels == 4
    else { return nil }
    var inflated = false
    let rows = [UInt8](unsafeUninitializedCapacity: decoder.workingByteCount) { out, count in
      inflated = data.bytes.withUnsafeBytes {
        decoder.inflateRows($0, into: UnsafeMutableRawBufferPointer(out))
      }
      // RGBA's filtered rows are exactly the working bytes: every byte is written.
      count = inflated ? decoder.workingByteCount : 0
    }
    guard inflated else { return nil }
    self.width = decoder.width
    self.height = decoder.height
    self.data = data
    self.decoder = decoder
    self.rows = rows
  }

  /// Unfilters the rows where they lie (row y's pixels at byte y × (width × 4 + 1) + 1), for
  /// `decodes(to:)` of another image to hold that one to these pixels. False at an unknown filter
  /// type (the data is corrupt: `decoded` names the error).
  public mutating func unfilterInPlace() -> Bool {
    precondition(state == .filtered)
    let rowBytes = width * 4
    let (width, height) = (width, height)
    let done = rows.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress.unsafelyUnwrapped
      return PNGRowFilter.unfilter(
        source: base, destination: base + 1, rowBytes: rowBytes, height: height,
        bytesPerPixel: 4, stride: width * 4 + 1)
    }
    state = done ? .decodedInPlace : .corrupt
    return done
  }

  /// Whether the rows decode to exactly `rgba` (straight RGBA8, width × height, top row first).
  /// False when they decode to other pixels or `rgba` is not of this size; nil when a row's filter
  /// type is unknown (the data is corrupt: `decoded` names the error). Bands of rows on the cores,
  /// merged in order, so the answer never depends on their number.
  public func decodes(to rgba: [UInt8]) -> Bool? {
    guard rgba.count == width * height * 4 else { return false }
    return match(rgba, offset: 0, stride: width * 4)
  }

  /// `decodes(to:)` with the straight pixels of `pixmap` (premultiplied): an opaque one's
  /// packed pixels are its straight RGBA8 bytes already and are compared as they are; any other
  /// is converted first (`PNGCodec.straightBytes`). False when the sizes differ.
  public func decodes(to pixmap: Pixmap) -> Bool? {
    guard pixmap.width == width, pixmap.height == height else { return false }
    #if _endian(little)
    if Self.isOpaque(pixmap.pixels) { return match(pixmap.pixels, offset: 0, stride: width * 4) }
    #endif
    return match(PNGCodec.straightBytes(of: pixmap), offset: 0, stride: width * 4)
  }

  /// Whether every packed premultiplied pixel has alpha 255, four at a time.
  static func isOpaque(_ pixels: [UInt32]) -> Bool {
    pixels.withUnsafeBytes { raw in
      let opaque: UInt64 = 0xFF00_0000_FF00_0000
      var all = UInt64.max
      var i = 0
      while i + 16 <= raw.count {
        let four = raw.loadUnaligned(fromByteOffset: i, as: SIMD2<UInt64>.self)
        all &= four[0] & four[1]
        i += 16
      }
      while i < raw.count {
        all &= UInt64(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)) << 32 | 0xFF00_0000
        i += 4
      }
      return all & opaque == opaque
    }
  }

  /// `decodes(to:)` with `other`'s pixels, which `unfilterInPlace` has decoded: false when the
  /// sizes differ, nil when `other`'s rows are not decoded (not yet, or corrupt).
  public func decodes(to other: InflatedPNG) -> Bool? {
    guard other.state == .decodedInPlace else { return nil }
    guard other.width == width, other.height == height else { return false }
    return match(other.rows, offset: 1, stride: width * 4 + 1)
  }

  /// The rows checked against the image in `pixels` (row y at `offset + y × stride`).
  private func match<Element: Sendable>(_ pixels: [Element], offset: Int, stride: Int) -> Bool? {
    precondition(state == .filtered)
    let rowBytes = width * 4
    let bandCount = RowBands<PNGRowFilter.RowMatch>.count(rows: height)
    let results = RowBands<PNGRowFilter.RowMatch>(count: bandCount)
    let (filtered, height) = (rows, height)
    DispatchQueue.concurrentPerform(iterations: bandCount) { band in
      let rows = height * band / bandCount..<height * (band + 1) / bandCount
      let match = filtered.withUnsafeBufferPointer { f in
        pixels.withUnsafeBytes { i in
          PNGRowFilter.rowsMatch(
            filtered: f.baseAddress.unsafelyUnwrapped,
            image: i.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + offset,
            rowBytes: rowBytes, rows: rows,
            imageStride: stride)
        }
      }
      results.store(match, at: band)
    }
    for band in 0..<bandCount {
      switch results.take(band) ?? .unknownFilter(row: 0) {
      case .equal: continue
      case .different: return false
      case .unknownFilter: return nil
      }
    }
    return true
  }

  /// The straight RGBA8 pixels: the rows unfiltered (or, after `unfilterInPlace`, moved
  /// together) or, at an unknown filter type, libpng's decode of the file (its pixels or its
  /// error, with `path`).
  public consuming func decoded(
    path: String? = nil
  ) throws(CodecError) -> (
    rgba: [UInt8], width: Int, height: Int
  ) {
    let rowBytes = width * 4
    let height = height
    switch state {
    case .corrupt:
      return try PNGCodec.decodeCheckedWithLibpng(data.bytes, path: path)
    case .decodedInPlace:
      rows.withUnsafeMutableBufferPointer { buffer in
        let base = buffer.baseAddress.unsafelyUnwrapped
        for y in 0..<height {
          // Each row moves left by y + 1 bytes, over the one before it: memmove's overlap.
          UnsafeMutableRawPointer(base + y * rowBytes).copyMemory(
            from: base + y * (rowBytes + 1) + 1, byteCount: rowBytes)
        }
      }
    case .filtered:
      let unfiltered = rows.withUnsafeMutableBytes { decoder.unfilterRows(in: $0) }
      guard unfiltered else {
        return try PNGCodec.decodeCheckedWithLibpng(data.bytes, path: path)
      }
    }
    rows.removeLast(height)
    return (rows, width, height)
  }
}
