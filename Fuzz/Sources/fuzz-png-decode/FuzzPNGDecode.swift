// PNG decoding (libpng's simplified API behind PNGCodec) of arbitrary bytes, as given and with
// every chunk's CRC made right: libpng refuses a chunk whose CRC is wrong, so without the repair
// nearly every mutation would stop at the first chunk. libpng itself is not instrumented (a
// system library), so coverage guidance sees only our side of the decoder.
//
// Checks on a decoded image: width×height×4 straight bytes; `decode` gives the same size and,
// up to 2^22 pixels, valid premultiplied pixels that agree with the straight bytes (exactly where
// opaque, zero where transparent); up to 2^18 pixels, re-encoding the straight bytes and decoding
// them again gives them back.

import Codecs
import FuzzSupport
import Raster

enum Limits {
  /// Round trips cost an encode; only for images up to this many pixels.
  static let roundTripPixels = 1 << 18
  /// Larger images are decoded by `decode` alone, after the straight bytes are freed, so a
  /// run's peak memory is what `decode` itself needs (up to 2^28 pixels: 1 GiB a copy).
  static let comparedPixels = 1 << 22
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  check(bytes)
  let repaired = ChunkCRC.withCRCsRepaired(bytes)
  if repaired != bytes { check(repaired) }
  return 0
}

func check(_ bytes: [UInt8]) {
  let width: Int
  let height: Int
  do {
    let (rgba, w, h) = try PNGCodec.decodeStraightRGBA(bytes)
    guard w > 0, h > 0, rgba.count == w * h * 4 else {
      fuzzFailure("\(rgba.count) bytes for \(w)×\(h)")
    }
    if w * h <= Limits.comparedPixels {
      compare(bytes, rgba, width: w, height: h)
      return
    }
    (width, height) = (w, h)
  } catch {
    if error.message.isEmpty { fuzzFailure("a refusal without a message") }
    return
  }
  do {
    let pixmap = try PNGCodec.decode(bytes)
    guard pixmap.width == width, pixmap.height == height else {
      fuzzFailure("decode gave \(pixmap.width)×\(pixmap.height), not \(width)×\(height)")
    }
  } catch {
    fuzzFailure("decodeStraightRGBA accepted what decode refused: \(error)")
  }
}

/// `decode` against the straight bytes, and a round trip of the straight bytes.
func compare(_ bytes: [UInt8], _ rgba: [UInt8], width: Int, height: Int) {
  let pixmap: Pixmap
  do {
    pixmap = try PNGCodec.decode(bytes)
  } catch {
    fuzzFailure("decodeStraightRGBA accepted what decode refused: \(error)")
  }
  guard pixmap.width == width, pixmap.height == height, pixmap.pixels.count == width * height
  else { fuzzFailure("decode gave \(pixmap.width)×\(pixmap.height), not \(width)×\(height)") }
  // `decode` converts the colours of a file with an ICC profile (iCCP) to sRGB, which the
  // straight bytes are not: then only the alpha must agree.
  let colorManaged = bytes.indices.dropLast(3).contains {
    bytes[$0] == 0x69 && bytes[$0 + 1] == 0x43 && bytes[$0 + 2] == 0x43 && bytes[$0 + 3] == 0x50
  }
  for i in 0..<(width * height) {
    let p = PremultipliedRGBA8(packed: pixmap.pixels[i])
    let (r, g, b, a) = (rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3])
    guard p.isValid, p.a == a else { fuzzFailure("pixel \(i) is \(p) from \((r, g, b, a))") }
    if a == 255, !colorManaged, (p.r, p.g, p.b) != (r, g, b) {
      fuzzFailure("opaque pixel \(i) changed: \(p)")
    }
    if a == 0, p.packed != 0 { fuzzFailure("transparent pixel \(i) is \(p)") }
  }

  guard width * height <= Limits.roundTripPixels else { return }
  do {
    let encoded = try PNGCodec.encode(
      straightRGBA: rgba, width: width, height: height, compression: .fast)
    let again = try PNGCodec.decodeStraightRGBA(encoded)
    guard again.width == width, again.height == height, again.rgba == rgba else {
      fuzzFailure("the re-encoded \(width)×\(height) image decodes differently")
    }
  } catch {
    fuzzFailure("re-encoding a decoded \(width)×\(height) image failed: \(error)")
  }
}

/// Chunk walking for the CRC repair.
enum ChunkCRC {
  /// `bytes` with the CRC of every complete chunk after the 8-byte signature recomputed.
  static func withCRCsRepaired(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var at = 8
    while at + 12 <= out.count {
      let length =
        Int(out[at]) << 24 | Int(out[at + 1]) << 16 | Int(out[at + 2]) << 8 | Int(out[at + 3])
      let end = at + 8 + length
      guard length <= out.count, end + 4 <= out.count else { break }
      let crc = crc32(out[(at + 4)..<end])
      for k in 0..<4 { out[end + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
      at = end + 4
    }
    return out
  }

  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
