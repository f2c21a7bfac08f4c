import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PNG on the fast decode path (`PNGFastDecoder`, 8-bit RGBA only) with its image data
/// inflated but its rows not yet unfiltered: what comparing it with pixels already in hand needs.
///
/// `decodes(to:)` tells whether its rows decode to given straight RGBA8 pixels by filtering
/// those forwards (`PNGRowFilter.rowsMatch`), in bands of rows on the cores, so a re-encoded copy
/// of an image is known to be the same without unfiltering it (`diff`, `check`); `decoded` finishes
/// the decode when the pixels are needed after all.
public struct InflatedPNG: Sendable {
  /// The image's size in pixels.
  public let width: Int
  public let height: Int
  /// The checked chunks, for libpng when the rows turn out not to decode.
  private let data: PNGData
  private let decoder: PNGFastDecoder
  /// `decoder.workingByteCount` bytes: the filtered rows (a filter type, then width × 4 bytes).
  private var rows: [UInt8]

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

  /// Whether the rows decode to exactly `rgba` (straight RGBA8, width × height, top row first).
  /// False when they decode to other pixels or `rgba` is not of this size; nil when a row's filter
  /// type is unknown (the data is corrupt: `decoded` names the error). Bands of rows on the cores,
  /// merged in order, so the answer never depends on their number.
  public func decodes(to rgba: [UInt8]) -> Bool? {
    guard rgba.count == width * height * 4 else { return false }
    let rowBytes = width * 4
    let bandCount = max(1, min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), height / 64))
    let results = BandMatches(count: bandCount)
    let (filtered, height) = (rows, height)
    DispatchQueue.concurrentPerform(iterations: bandCount) { band in
      let rows = height * band / bandCount..<height * (band + 1) / bandCount
      let match = filtered.withUnsafeBufferPointer { f in
        rgba.withUnsafeBufferPointer { i in
          PNGRowFilter.rowsMatch(
            filtered: f.baseAddress.unsafelyUnwrapped, image: i.baseAddress.unsafelyUnwrapped,
            rowBytes: rowBytes, rows: rows)
        }
      }
      results.store(match, at: band)
    }
    for band in 0..<bandCount {
      switch results.take(band) {
      case .equal: continue
      case .different: return false
      case .unknownFilter: return nil
      }
    }
    return true
  }

  /// The straight RGBA8 pixels: the rows unfiltered in place or, at an unknown filter type,
  /// libpng's decode of the file (its pixels or its error, with `path`).
  public consuming func decoded(
    path: String? = nil
  ) throws(CodecError) -> (
    rgba: [UInt8], width: Int, height: Int
  ) {
    let unfiltered = rows.withUnsafeMutableBytes { decoder.unfilterRows(in: $0) }
    guard unfiltered else { return try PNGCodec.decodeCheckedWithLibpng(data.bytes, path: path) }
    rows.removeLast(height)
    return (rows, width, height)
  }
}

/// One `RowMatch` a band, stored by the band's own thread and read after all have finished.
private final class BandMatches: Sendable {
  private let results: Mutex<[PNGRowFilter.RowMatch]>
  init(count: Int) { results = Mutex(Array(repeating: .equal, count: count)) }
  func store(_ result: PNGRowFilter.RowMatch, at band: Int) {
    results.withLock { $0[band] = result }
  }
  func take(_ band: Int) -> PNGRowFilter.RowMatch { results.withLock { $0[band] } }
}
