import CPNG
import FileIO
import Raster

/// How hard libpng's simplified API works at compressing.
public enum PNGCompression: String, Sendable, CaseIterable {
  /// No row filter and zlib level 3 (libpng's `PNG_IMAGE_FLAG_FAST`).
  case fast
  /// The same settings as `fast`: on a 1170×2532 UI frame they take about a third of the time of
  /// `small` (30 ms against 100 ms) for a file 2.7 times larger (BENCHMARKS.md). libpng's
  /// simplified API offers only these two settings.
  case `default`
  /// libpng's adaptive row filters and zlib's default level: smallest files, slowest.
  case small

  var flags: png_uint_32 { self == .small ? 0 : cpng_image_flag_fast }
}

/// PNG encoding and decoding through libpng's simplified `png_image` API (no setjmp).
///
/// Pixmaps are premultiplied; PNG's 8-bit RGBA is straight alpha, so pixels are
/// un-premultiplied on the way out and premultiplied on the way in, with the one rounding rule of
/// `PremultipliedRGBA8`.
public enum PNGCodec {
  /// The largest width or height decoded, in pixels (as for `Pixmap`).
  public static let maximumSide = Pixmap.maximumSide
  /// The largest PNG file read, in bytes; reading stops there.
  public static let maximumFileSize = 1 << 30

  /// The PNG bytes of `pixmap` (8-bit RGBA, straight alpha, sRGB).
  public static func encode(
    _ pixmap: Pixmap, compression: PNGCompression = .default
  )
    throws(CodecError) -> [UInt8]
  {
    try encode(
      straightRGBA: straightBytes(of: pixmap), width: pixmap.width,
      height: pixmap.height, compression: compression)
  }

  /// The PNG bytes of raw straight RGBA8 rows (`width`×`height`×4 bytes, top row first).
  public static func encode(
    straightRGBA rgba: [UInt8], width: Int, height: Int, compression: PNGCompression = .default
  ) throws(CodecError) -> [UInt8] {
    guard Pixmap.isValidSize(width: width, height: height), rgba.count == width * height * 4
    else {
      throw CodecError(
        .encodePNG, message: "\(rgba.count) bytes do not make \(width)×\(height) RGBA")
    }
    var image = png_image()
    image.version = cpng_image_version
    image.width = png_uint_32(width)
    image.height = png_uint_32(height)
    image.format = cpng_format_rgba
    image.flags = compression.flags
    // Worst case: stored deflate blocks plus chunk overhead; one pass, no size query.
    let raw = (width * 4 + 1) * height
    var capacity = png_alloc_size_t(raw + raw / 64 + 4096)
    var output = [UInt8](repeating: 0, count: Int(capacity))
    let ok = output.withUnsafeMutableBytes { out in
      rgba.withUnsafeBytes { pixels in
        png_image_write_to_memory(
          &image, out.baseAddress, &capacity, 0, pixels.baseAddress, png_int_32(width * 4), nil)
      }
    }
    guard ok != 0 else {
      let message = Self.message(of: &image)
      png_image_free(&image)
      throw CodecError(.encodePNG, message: message)
    }
    output.removeSubrange(Int(capacity)...)
    return output
  }

  /// Writes `pixmap` as a PNG file, atomically (a temporary file renamed into place).
  public static func write(
    _ pixmap: Pixmap, to path: String, compression: PNGCompression = .default
  )
    throws(CodecError)
  {
    let bytes: [UInt8]
    do {
      bytes = try encode(pixmap, compression: compression)
    } catch {
      throw CodecError(.encodePNG, path: path, message: error.message)
    }
    do { try OutputFile.write(bytes, to: path) } catch { throw CodecError(error) }
  }

  /// Decodes PNG bytes of any colour type and bit depth into a premultiplied pixmap in sRGB: an
  /// embedded ICC profile (`iCCP`) is applied (`SRGBConversion`), and then, as the PNG
  /// specification orders, the file's `gAMA`, `cHRM` and `sRGB` chunks are not. libpng writes
  /// straight RGBA8 into the pixmap's own storage, converted and premultiplied there: the image
  /// is held once.
  public static func decode(_ bytes: [UInt8], path: String? = nil) throws(CodecError) -> Pixmap {
    try decodeImage(bytes, path: path).pixmap
  }

  /// `decode`, and a note when the file's ICC profile is ignored (damaged, too large, not
  /// usable, or for the other kind of pixels), saying why: its colours are then taken as sRGB.
  public static func decodeImage(
    _ bytes: [UInt8], path: String? = nil
  ) throws(CodecError) -> (pixmap: Pixmap, note: String?) {
    let checked: [UInt8]
    do { checked = try PNGChunks.collect(bytes) } catch { throw error.at(path) }
    return try decodeColorManaged(checked, path: path)
  }

  /// `decodeImage` of bytes `PNGChunks` has checked.
  private static func decodeColorManaged(
    _ checked: [UInt8], path: String?
  ) throws(CodecError) -> (pixmap: Pixmap, note: String?) {
    let found = EmbeddedColorProfile.png(checked)
    guard found != .none else {
      if Self.isSixteenBitsWithGamma(checked) {
        // libpng applies the gamma to the 16-bit samples, not after cutting them to 8 bits.
        let pixmap = try withExtendedLifetime(checked) { () throws(CodecError) -> Pixmap in
          try decodeSixteenBits(gammaLinear: checked, path: path, conversion: nil)
        }
        return (pixmap, nil)
      }
      return (try decodePixmap(checked, path: path, conversion: nil), nil)
    }
    // With an iCCP chunk, its gAMA, cHRM and sRGB chunks go, whatever becomes of the profile:
    // the profile supersedes them, and one that is ignored leaves the pixels as sRGB, not as
    // the gamma says.
    let superseded: Set<UInt32> = [0x6741_4D41, 0x6348_524D, 0x7352_4742]
    let stripped = PNGChunks.removing(superseded, from: checked)
    let (conversion, note) = SRGBConversion.forFile(found)
    guard let conversion else {
      return (try decodePixmap(stripped, path: path, conversion: nil), note)
    }
    if conversion.sixteenBits {
      // Without iCCP too: libpng is told the samples are linear, which the profile would
      // contradict.
      let bare = PNGChunks.removing(superseded.union([0x6943_4350]), from: checked)
      return (try decodeSixteenBits(bare, path: path, conversion: conversion), nil)
    }
    return (try decodePixmap(stripped, path: path, conversion: conversion), nil)
  }

  /// A 16-bit image converted from its profile at 16 bits, rounded to 8 once: libpng is told
  /// its samples are linear light (a gAMA of 1 after IHDR, the colour chunks gone already) and
  /// asked for linear RGBA, so it hands them over as stored — premultiplied by alpha, as its
  /// linear formats are, which is undone here — for `SRGBConversion.apply16`.
  private static func decodeSixteenBits(
    _ stripped: [UInt8], path: String?, conversion: SRGBConversion
  ) throws(CodecError) -> Pixmap {
    let chunks = stripped.withUnsafeBytes { raw in PNGChunks.chunks(of: raw) }
    guard let header = chunks.first else {
      throw CodecError(.decodePNG, path: path, message: "corrupt PNG: no IHDR chunk")
    }
    let typed: [UInt8] = Array("gAMA".utf8) + [0x00, 0x01, 0x86, 0xA0]  // 100000: gamma 1
    let crc = Deflate.crc32(typed)
    let gamma =
      [0, 0, 0, 4] + typed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
    let end = header.data.upperBound + 4
    let bytes = Array(stripped[..<end]) + gamma + stripped[end...]
    // libpng reads `bytes` until the image is finished, not only while it begins: they must
    // live that long (a local array may otherwise be freed after its last use in Swift).
    return try withExtendedLifetime(bytes) { () throws(CodecError) -> Pixmap in
      try decodeSixteenBits(gammaLinear: bytes, path: path, conversion: conversion)
    }
  }

  /// Whether checked PNG bytes hold 16-bit samples with a `gAMA` chunk and neither `sRGB` nor
  /// `iCCP`: their gamma is then applied at 16 bits (`decodeSixteenBits(gammaLinear:…)` without
  /// a conversion), since libpng's 8-bit output cuts the samples to 8 bits first, and a linear
  /// image's deepest shadows would band.
  static func isSixteenBitsWithGamma(_ checked: [UInt8]) -> Bool {
    checked.withUnsafeBytes { raw in
      let chunks = PNGChunks.chunks(of: raw)
      guard let header = chunks.first, header.data.count >= 9, raw[header.data.lowerBound + 8] == 16
      else { return false }
      let types = Set(chunks.map(\.type))
      return types.contains(0x6741_4D41) && !types.contains(0x7352_4742)
        && !types.contains(0x6943_4350)
    }
  }

  /// `decodeSixteenBits` of bytes with the gAMA of 1 in place, which the caller keeps alive;
  /// without a `conversion`, of bytes whose own gAMA libpng applies, the linear samples then
  /// encoded as sRGB (`LinearToSRGB.byte`).
  private static func decodeSixteenBits(
    gammaLinear bytes: [UInt8], path: String?, conversion: SRGBConversion?
  ) throws(CodecError) -> Pixmap {
    var samples: [UInt16] = []
    let (width, height) = try decodeChecked(bytes, path: path, linear: true) {
      (width, height, finish) throws(CodecError) in
      samples = [UInt16](repeating: 0, count: width * height * 4)
      return samples.withUnsafeMutableBytes { finish($0) }
    }
    let count = width * height
    for i in 0..<count {
      let a = UInt32(samples[i * 4 + 3])
      guard a < 65_535 else { continue }
      for c in 0..<3 {
        let value = a == 0 ? 0 : (UInt32(samples[i * 4 + c]) * 65_535 + a / 2) / a
        samples[i * 4 + c] = UInt16(min(value, 65_535))
      }
    }
    var pixels = [UInt32](repeating: 0, count: count)
    if let conversion {
      samples.withUnsafeBufferPointer { from in
        pixels.withUnsafeMutableBytes { to in conversion.apply16(from, into: to, count: count) }
      }
    } else {
      let encode = LinearToSRGB.byte
      for i in 0..<count {
        let s = i * 4
        let (r, g, b) = (
          encode[Int(samples[s])], encode[Int(samples[s + 1])], encode[Int(samples[s + 2])]
        )
        // Alpha is not gamma-encoded: rounded to 8 bits as it is.
        let a = UInt32((UInt32(samples[s + 3]) * 255 + 32_767) / 65_535)
        pixels[i] = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | a << 24
      }
    }
    pixels.withUnsafeMutableBufferPointer { premultiply($0) }
    guard let pixmap = Pixmap(width: width, height: height, pixels: pixels) else {
      throw CodecError(.decodePNG, path: path, message: "invalid size \(width)×\(height)")
    }
    return pixmap
  }

  /// Decodes PNG bytes into straight RGBA8 rows: the canonical form for comparing images. The
  /// chunk structure is checked first (`PNGChunks`), so declared lengths past the end of the
  /// bytes are refused before libpng reads anything.
  public static func decodeStraightRGBA(
    _ bytes: [UInt8], path: String? = nil
  ) throws(CodecError) -> (rgba: [UInt8], width: Int, height: Int) {
    let checked: [UInt8]
    do { checked = try PNGChunks.collect(bytes) } catch { throw error.at(path) }
    return try decodeChecked(checked, path: path)
  }

  /// Reads and decodes a PNG file (`-` is standard input) as `decode` does.
  public static func read(_ path: String) throws(CodecError) -> Pixmap {
    try decodeColorManaged(readData(path).bytes, path: path).pixmap
  }

  /// Reads a PNG file into straight RGBA8 rows. Reading follows the chunk structure and stops at
  /// the first chunk that does not fit (or at `maximumFileSize`), so a hostile file costs at most
  /// its own size plus the decoded image.
  public static func readStraightRGBA(
    _ path: String, regularFileOnly: Bool = false
  ) throws(CodecError) -> (rgba: [UInt8], width: Int, height: Int) {
    try decodeStraightRGBA(readData(path, regularFileOnly: regularFileOnly), path: path)
  }

  /// A PNG file's chunks that decide its pixels, read and checked by `PNGChunks` (not yet
  /// decoded): two files with equal data have equal pixels.
  /// With `regularFileOnly` (goldens, which a tool manages), a FIFO, device or socket is
  /// refused before anything is read, so that a named pipe nobody writes cannot stall a check.
  public static func readData(
    _ path: String, regularFileOnly: Bool = false
  ) throws(CodecError) -> PNGData {
    let input: InputFile
    do { input = try InputFile(path, regularFileOnly: regularFileOnly, otherwise: "") } catch {
      throw CodecError(error)
    }
    let bytes: [UInt8]
    do throws(CodecError) {
      bytes = try PNGChunks.collect(available: input.regularFileSize, limit: maximumFileSize) {
        (count: Int) throws(CodecError) -> [UInt8] in try input.readForDecoding(upTo: count)
      }
    } catch {
      throw error.at(path)
    }
    return PNGData(bytes: bytes)
  }

  /// Decodes data `readData` returned into straight RGBA8 rows.
  public static func decodeStraightRGBA(
    _ data: PNGData, path: String? = nil
  ) throws(CodecError) -> (rgba: [UInt8], width: Int, height: Int) {
    try decodeChecked(data.bytes, path: path)
  }

  /// Decodes bytes `PNGChunks` has checked into straight RGBA8 rows.
  private static func decodeChecked(
    _ bytes: [UInt8], path: String?
  ) throws(CodecError) -> (rgba: [UInt8], width: Int, height: Int) {
    if let fast = bytes.withUnsafeBytes({ PNGFastDecoder($0) }) {
      var decoded = false
      let rgba = [UInt8](unsafeUninitializedCapacity: fast.workingByteCount) { out, count in
        decoded = bytes.withUnsafeBytes {
          fast.decode($0, into: UnsafeMutableRawBufferPointer(out))
        }
        count = decoded ? fast.width * fast.height * 4 : 0
      }
      if decoded { return (rgba, fast.width, fast.height) }
    }
    return try decodeCheckedWithLibpng(bytes, path: path)
  }

  /// `decodeChecked` through libpng alone: every PNG the fast path (`PNGFastDecoder`) does not
  /// take, and the reference the tests hold it to.
  static func decodeCheckedWithLibpng(
    _ bytes: [UInt8], path: String?
  ) throws(CodecError) -> (rgba: [UInt8], width: Int, height: Int) {
    var rgba: [UInt8] = []
    let (width, height) = try decodeChecked(bytes, path: path) {
      (width, height, finish) throws(CodecError) in
      var finished = false
      // libpng writes every byte, so the buffer is not cleared first.
      rgba = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
        finished = finish(UnsafeMutableRawBufferPointer(out))
        if !finished { out.initialize(repeating: 0) }
        count = out.count
      }
      return finished
    }
    return (rgba, width, height)
  }

  /// Decodes bytes `PNGChunks` has checked into a premultiplied pixmap: libpng writes straight
  /// RGBA8 into the pixel words (byte order R, G, B, A in memory is the packing's low to high
  /// byte on a little-endian machine), which are then converted by `conversion` and
  /// premultiplied in place.
  private static func decodePixmap(
    _ bytes: [UInt8], path: String?, conversion: SRGBConversion?
  ) throws(CodecError) -> Pixmap {
    if let fast = bytes.withUnsafeBytes({ PNGFastDecoder($0) }) {
      var decoded = false
      let pixels = [UInt32](unsafeUninitializedCapacity: (fast.workingByteCount + 3) / 4) {
        out, count in
        decoded = bytes.withUnsafeBytes {
          fast.decode($0, into: UnsafeMutableRawBufferPointer(out))
        }
        count = decoded ? fast.width * fast.height : 0
        if decoded {
          let pixels = UnsafeMutableBufferPointer(rebasing: out[..<count])
          conversion?.apply(UnsafeMutableRawBufferPointer(pixels), count: count)
          premultiply(pixels)
        }
      }
      if decoded, let pixmap = Pixmap(width: fast.width, height: fast.height, pixels: pixels) {
        return pixmap
      }
    }
    var pixels: [UInt32] = []
    let (width, height) = try decodeChecked(bytes, path: path) {
      (width, height, finish) throws(CodecError) in
      var finished = false
      pixels = [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
        finished = finish(UnsafeMutableRawBufferPointer(out))
        if finished {
          conversion?.apply(UnsafeMutableRawBufferPointer(out), count: out.count)
          premultiply(out)
        } else {
          out.initialize(repeating: 0)
        }
        count = out.count
      }
      return finished
    }
    guard let pixmap = Pixmap(width: width, height: height, pixels: pixels) else {
      throw CodecError(.decodePNG, path: path, message: "invalid size \(width)×\(height)")
    }
    return pixmap
  }

  /// Straight RGBA8 pixels (R, G, B, A in memory) premultiplied in place.
  private static func premultiply(_ pixels: UnsafeMutableBufferPointer<UInt32>) {
    for i in pixels.indices {
      let straight = UInt32(littleEndian: pixels[i])
      pixels[i] =
        PremultipliedRGBA8(
          straightR: UInt8(truncatingIfNeeded: straight),
          g: UInt8(truncatingIfNeeded: straight >> 8),
          b: UInt8(truncatingIfNeeded: straight >> 16),
          a: UInt8(truncatingIfNeeded: straight >> 24)
        ).packed
    }
  }

  /// Begins decoding checked bytes and checks the image's size; `body(width, height, finish)`
  /// allocates width × height × 4 bytes (× 8 when `linear`), calls `finish` on them (true when
  /// libpng wrote every pixel as straight RGBA8, or with `linear` as 16-bit linear RGBA, which
  /// libpng premultiplies) and returns what it returned.
  private static func decodeChecked(
    _ bytes: [UInt8], path: String?,
    linear: Bool = false,
    body: (Int, Int, (UnsafeMutableRawBufferPointer) -> Bool) throws(CodecError) -> Bool
  ) throws(CodecError) -> (width: Int, height: Int) {
    var image = png_image()
    image.version = cpng_image_version
    let begun = bytes.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard begun != 0 else {
      let message = Self.message(of: &image)
      png_image_free(&image)
      throw CodecError(.decodePNG, path: path, message: "corrupt PNG: \(message)")
    }
    let width = Int(image.width)
    let height = Int(image.height)
    guard Pixmap.isValidSize(width: width, height: height) else {
      png_image_free(&image)
      throw CodecError(
        .decodePNG, path: path,
        message: "\(width)×\(height) pixels; at most \(Pixmap.maximumSide) a side and "
          + "\(Pixmap.maximumPixels) pixels are decoded")
    }
    if linear {
      image.format = cpng_format_linear_rgba
    } else {
      image.format = cpng_format_rgba
      // 16-bit samples without a gAMA or sRGB chunk are sRGB-encoded, as browsers, iOS and
      // image editors take them (libpng alone would take them as linear light and brighten
      // them).
      image.flags |= cpng_image_flag_16bit_srgb
    }
    let finished = try body(width, height) { buffer in
      png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil) != 0
    }
    guard finished else {
      let message = Self.message(of: &image)
      png_image_free(&image)
      throw CodecError(.decodePNG, path: path, message: "corrupt PNG: \(message)")
    }
    return (width, height)
  }

  /// The straight RGBA8 bytes of a premultiplied pixmap. Kernel over buffers: four opaque
  /// pixels in a row are stored as they are in one 16-byte move (their packed bytes,
  /// little-endian, are R, G, B, A); otherwise a pixel at a time, an opaque one as it is, a clear
  /// one as zeros. Its plain twin is `straightBytesPlainly`.
  public static func straightBytes(of pixmap: Pixmap) -> [UInt8] {
    let count = pixmap.pixels.count
    return [UInt8](unsafeUninitializedCapacity: count * 4) { bytes, initialized in
      pixmap.pixels.withUnsafeBufferPointer { pixels in
        guard let from = pixels.baseAddress, let to = UnsafeMutableRawPointer(bytes.baseAddress)
        else { return }
        let source = UnsafeRawPointer(from)
        let opaque: UInt64 = 0xFF00_0000_FF00_0000
        var i = 0
        while i < count {
          #if _endian(little)
          if i + 4 <= count {
            let four = source.loadUnaligned(fromByteOffset: 4 * i, as: SIMD2<UInt64>.self)
            if four[0] & four[1] & opaque == opaque {
              to.storeBytes(of: four, toByteOffset: 4 * i, as: SIMD2<UInt64>.self)
              i += 4
              continue
            }
          }
          #endif
          let packed = from[i]
          let alpha = packed >> 24
          if alpha == 255 {
            to.storeBytes(of: packed.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
          } else if alpha == 0 {
            to.storeBytes(of: 0, toByteOffset: 4 * i, as: UInt32.self)
          } else {
            let s = PremultipliedRGBA8(packed: packed).straight
            let straight =
              UInt32(s.r) | UInt32(s.g) << 8 | UInt32(s.b) << 16 | alpha << 24
            to.storeBytes(of: straight.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
          }
          i += 1
        }
      }
      initialized = count * 4
    }
  }

  /// `straightBytes`' plain twin: byte by byte into an array.
  static func straightBytesPlainly(of pixmap: Pixmap) -> [UInt8] {
    var rgba = [UInt8](repeating: 0, count: pixmap.pixels.count * 4)
    for (i, packed) in pixmap.pixels.enumerated() {
      let alpha = UInt8(truncatingIfNeeded: packed >> 24)
      if alpha == 255 {
        rgba[4 * i] = UInt8(truncatingIfNeeded: packed)
        rgba[4 * i + 1] = UInt8(truncatingIfNeeded: packed >> 8)
        rgba[4 * i + 2] = UInt8(truncatingIfNeeded: packed >> 16)
        rgba[4 * i + 3] = 255
      } else if alpha != 0 {
        let s = PremultipliedRGBA8(packed: packed).straight
        rgba[4 * i] = s.r
        rgba[4 * i + 1] = s.g
        rgba[4 * i + 2] = s.b
        rgba[4 * i + 3] = alpha
      }
    }
    return rgba
  }

  private static func message(of image: inout png_image) -> String {
    let text = withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return text.isEmpty ? "libpng reported an error" : text
  }
}

/// A PNG's signature and the chunks that decide its pixels, checked for structure.
public struct PNGData: Hashable, Sendable {
  public let bytes: [UInt8]
}

extension InputFile {
  /// `read(upTo:)` with a read failure as a `CodecError`.
  fileprivate func readForDecoding(upTo count: Int) throws(CodecError) -> [UInt8] {
    do { return try read(upTo: count) } catch { throw CodecError(error) }
  }
}
