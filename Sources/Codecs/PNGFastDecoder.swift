import CDeflate
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// The fast decode path for the PNGs render-anim writes itself: 8-bit RGBA or RGB,
/// non-interlaced, with no colour chunk but sRGB (or a gAMA of exactly 1/2.2, 45455) — images
/// libpng's simplified API hands back untransformed. The image data is inflated in one call to
/// libdeflate (which checks the zlib stream's adler32) into the buffer the pixels are returned
/// in, and unfiltered there (`PNGRowFilter.unfilter`).
///
/// Anything else — another format, a bad CRC, image data that does not inflate to exactly the
/// rows the header declares, an unknown filter type — is not decoded here: `decode` returns
/// false and `PNGCodec` hands the file to libpng, which decodes it or names what is wrong, so both
/// paths give the same pixels and the same errors.
struct PNGFastDecoder: Sendable {
  /// The image's size in pixels.
  let width: Int
  let height: Int
  /// 4 for RGBA, 3 for RGB.
  let channels: Int
  /// The IDAT chunks' data, in order, as ranges of the checked bytes.
  let imageData: [Range<Int>]

  /// The bytes the buffer given to `decode` must hold: the RGBA8 image plus one byte a row
  /// (the filter types, which the rows are inflated with).
  var workingByteCount: Int { width * height * 4 + height }

  /// The plan for decoding `checked` (bytes `PNGChunks.collect` returned), or nil when the fast
  /// path does not apply: a format other than 8-bit RGB(A) non-interlaced, a colour chunk libpng
  /// might act on, a size over `Pixmap`'s limits, or a critical chunk whose CRC is wrong.
  init?(_ checked: UnsafeRawBufferPointer) {
    let chunks = PNGChunks.chunks(of: checked)
    guard let header = chunks.first, header.type == Self.ihdr, header.data.count == 13,
      chunks.last?.type == Self.iend
    else { return nil }
    func word(_ at: Int) -> Int {
      Int(checked[at]) << 24 | Int(checked[at + 1]) << 16 | Int(checked[at + 2]) << 8
        | Int(checked[at + 3])
    }
    let h = header.data.lowerBound
    let (width, height) = (word(h), word(h + 4))
    let (depth, colorType) = (checked[h + 8], checked[h + 9])
    // Compression, filter method and interlacing must all be 0.
    guard depth == 8, colorType == 6 || colorType == 2,
      checked[h + 10] == 0, checked[h + 11] == 0, checked[h + 12] == 0,
      Pixmap.isValidSize(width: width, height: height)
    else { return nil }
    var imageData: [Range<Int>] = []
    var dataEnded = false
    for chunk in chunks.dropFirst() {
      guard Self.crc(of: chunk, in: checked) == chunk.crc else { return nil }
      switch chunk.type {
      case Self.idat:
        // IDAT chunks must follow one another (libpng refuses others).
        guard !dataEnded else { return nil }
        imageData.append(chunk.data)
      case Self.iend:
        break
      case Self.srgb where imageData.isEmpty:
        continue
      case Self.gama where imageData.isEmpty && chunk.data.count == 4:
        guard word(chunk.data.lowerBound) == 45455 else { return nil }
        continue
      default:
        return nil
      }
      if !imageData.isEmpty { dataEnded = chunk.type != Self.idat }
    }
    guard !imageData.isEmpty else { return nil }
    self.width = width
    self.height = height
    self.channels = colorType == 6 ? 4 : 3
    self.imageData = imageData
  }

  /// Decodes the image into `buffer` (at least `workingByteCount` bytes): straight RGBA8 rows
  /// in its first width × height × 4 bytes, top row first. False when the image data does not
  /// inflate to exactly the declared rows or a row's filter type is unknown.
  func decode(
    _ checked: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
  )
    -> Bool
  {
    inflateRows(checked, into: buffer) && unfilterRows(in: buffer)
  }

  /// The first half of `decode`: the filtered rows, each its filter type and then its bytes,
  /// inflated into `buffer` — at its start for RGBA, after the first width × height bytes for
  /// RGB (where `unfilterRows` expects them). False when the image data does not inflate to
  /// exactly the declared rows.
  func inflateRows(
    _ checked: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
  ) -> Bool {
    precondition(buffer.count >= workingByteCount)
    Self.preferHugePages(buffer)
    let base = buffer.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    return inflate(checked, into: base + filteredOffset, count: height * (width * channels + 1))
  }

  /// Where `inflateRows` puts the filtered rows in the buffer.
  var filteredOffset: Int { channels == 4 ? 0 : width * height }

  /// The second half of `decode`: the rows `inflateRows` left in `buffer`, unfiltered in place
  /// into straight RGBA8 rows at its start. False at an unknown filter type.
  func unfilterRows(in buffer: UnsafeMutableRawBufferPointer) -> Bool {
    precondition(buffer.count >= workingByteCount)
    let rowBytes = width * channels
    // RGBA rows move left as they are unfiltered; RGB rows are unfiltered in place and then
    // widened to RGBA from the front (each RGBA pixel ends before the RGB pixel after it begins).
    let base = buffer.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    let start = filteredOffset
    guard
      PNGRowFilter.unfilter(
        source: base + start, destination: base + start, rowBytes: rowBytes, height: height,
        bytesPerPixel: channels)
    else { return false }
    if channels == 3 {
      for i in 0..<(width * height) {
        let rgb = base + start + 3 * i
        let (r, g, b) = (rgb[0], rgb[1], rgb[2])
        let rgba = base + 4 * i
        rgba[0] = r
        rgba[1] = g
        rgba[2] = b
        rgba[3] = 255
      }
    }
    return true
  }

  /// One zlib stream made of the IDAT data, inflated into exactly `count` bytes: the whole
  /// stream must be used and must fill them.
  private func inflate(
    _ checked: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>, count: Int
  ) -> Bool {
    guard let decompressor = libdeflate_alloc_decompressor() else { return false }
    defer { libdeflate_free_decompressor(decompressor) }
    func run(_ stream: UnsafeRawBufferPointer) -> Bool {
      var used = 0
      var produced = 0
      let result = libdeflate_zlib_decompress_ex(
        decompressor, stream.baseAddress, stream.count, out, count, &used, &produced)
      return result == LIBDEFLATE_SUCCESS && used == stream.count && produced == count
    }
    if imageData.count == 1 {
      return run(UnsafeRawBufferPointer(rebasing: checked[imageData[0]]))
    }
    var joined: [UInt8] = []
    joined.reserveCapacity(imageData.reduce(0) { $0 + $1.count })
    for range in imageData { joined += checked[range] }
    return joined.withUnsafeBytes(run)
  }

  /// Asks Linux to back the 2 MiB-aligned part of a large fresh buffer with huge pages: one
  /// page fault for 2 MiB instead of 512 (the faults on two 11.8 MB buffers were a tenth of a
  /// `diff`). A hint only; nothing changes where it is not granted.
  private static func preferHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
    let huge = 1 << 21
    guard buffer.count >= 2 * huge, let base = buffer.baseAddress else { return }
    let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
    let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
    guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
    _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    #endif
  }

  private static func crc(
    of chunk: PNGChunks.Chunk, in checked: UnsafeRawBufferPointer
  ) -> UInt32 {
    let covered = UnsafeRawBufferPointer(rebasing: checked[chunk.checked])
    return UInt32(libdeflate_crc32(0, covered.baseAddress, covered.count))
  }

  static let ihdr: UInt32 = 0x4948_4452
  static let idat: UInt32 = 0x4944_4154
  static let iend: UInt32 = 0x4945_4E44
  static let srgb: UInt32 = 0x7352_4742
  static let gama: UInt32 = 0x6741_4D41
}
