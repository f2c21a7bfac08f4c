import FileIO

/// A PNG file's chunk structure, checked before libpng sees the bytes: every chunk's declared
/// length must fit in what is left of the file, so a 44-byte file cannot make the decoder wait
/// for (or allocate) gigabytes. Only the chunks that decide the pixels are kept — the critical
/// ones and the colour chunks (tRNS, gAMA, cHRM, sRGB, iCCP, sBIT); text, time and other
/// ancillary chunks are dropped unread by libpng.
enum PNGChunks {
  static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
  /// The largest chunk length PNG allows (2³¹ − 1).
  static let maximumChunkLength = 0x7FFF_FFFF
  /// Ancillary chunks that change how pixels decode.
  static let keptAncillary: Set<String> = ["tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT"]

  /// Reads a PNG piece by piece through `read(count)` (which returns fewer bytes only at the end)
  /// and returns the bytes libpng needs: the signature, the chunks that matter, IEND.
  /// `available` is how many bytes the input holds in all, when known; `limit` caps the total.
  static func collect(
    available: Int?, limit: Int, read: (Int) throws(CodecError) -> [UInt8]
  ) throws(CodecError) -> [UInt8] {
    let head = try read(8)
    guard !head.isEmpty else { throw CodecError(.decodePNG, message: "empty file, not a PNG") }
    guard head == signature else {
      throw CodecError(
        .decodePNG, message: "not a PNG file (it does not start with PNG's signature)")
    }
    var kept = head
    var offset = 8
    var sawHeader = false
    var imageHeader: [UInt8] = []
    var imageDataBytes = 0
    while true {
      let header = try read(8)
      guard header.count == 8 else {
        throw CodecError(
          .decodePNG,
          message: header.isEmpty
            ? "truncated: the file ends at byte \(offset) before the IEND chunk"
            : "truncated: the file ends inside a chunk header at byte \(offset)")
      }
      var length = 0
      for byte in header[0..<4] { length = length << 8 | Int(byte) }
      let type = String(decoding: header[4..<8], as: UTF8.self)
      guard header[4..<8].allSatisfy(isLetter) else {
        throw CodecError(.decodePNG, message: "corrupt: no valid chunk type at byte \(offset)")
      }
      let inOrder = sawHeader ? type != "IHDR" : type == "IHDR"
      guard inOrder else {
        throw CodecError(
          .decodePNG,
          message: sawHeader
            ? "corrupt: a second IHDR chunk at byte \(offset)"
            : "corrupt: the first chunk is \(type), not IHDR")
      }
      sawHeader = true
      let end = offset + 8 + length + 4
      let left = available.map { $0 - offset - 8 }
      guard length <= maximumChunkLength, left.map({ length + 4 <= $0 }) ?? true else {
        throw truncated(type, at: offset, length: length, following: left ?? 0)
      }
      guard end <= limit else {
        throw CodecError(
          .decodePNG, message: "larger than \(byteCountText(limit)), the limit for PNG files")
      }
      let body = try read(length + 4)
      guard body.count == length + 4 else {
        throw truncated(type, at: offset, length: length, following: body.count)
      }
      let critical = header[4] & 0x20 == 0
      if critical || keptAncillary.contains(type) {
        kept += header
        kept += body
      }
      if type == "IHDR" { imageHeader = Array(body.prefix(length)) }
      if type == "IDAT" { imageDataBytes += length }
      offset = end
      if type == "IEND" {
        try checkImageDataCanHold(header: imageHeader, imageDataBytes: imageDataBytes)
        return kept
      }
    }
  }

  /// Deflate turns at most 1032 bytes into one (a 258-byte match in a bit or so), so image data
  /// of n bytes holds at most about 1032·n bytes of filtered rows; this factor leaves room for
  /// the zlib header and block overheads.
  static let deflateExpansion = 1040

  /// Refuses a file whose image data (IDAT) is too short to hold the image its header declares,
  /// even compressed as well as deflate can: libpng would allocate the whole image before it
  /// finds the data missing (a 74-byte file declaring 16384×16384 pixels cost 1 GiB).
  static func checkImageDataCanHold(
    header: [UInt8], imageDataBytes: Int
  ) throws(CodecError) {
    guard header.count == 13 else { return }  // libpng says what is wrong with the header
    func word(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    let (width, height, depth) = (word(0), word(4), Int(header[8]))
    let channels: Int
    switch header[9] {
    case 0, 3: channels = 1
    case 2: channels = 3
    case 4: channels = 2
    case 6: channels = 4
    default: return
    }
    // The filtered rows of the non-interlaced image; Adam7 needs a few more filter bytes.
    // (Widths and heights are below 2³¹, so the row fits in an Int; the whole is counted in
    // Double, which cannot overflow.)
    let rowBytes = (width * depth * channels + 7) / 8
    let raw = Double(height) * Double(1 + rowBytes)
    guard Double(imageDataBytes) * Double(deflateExpansion) + 1024 >= raw else {
      throw CodecError(
        .decodePNG,
        message: "truncated or damaged: \(imageDataBytes) bytes of image data (IDAT) cannot hold "
          + "the \(width)×\(height) image the header declares, \(Int(min(raw, 1e18))) bytes before compression "
          + "(deflate shrinks at most \(deflateExpansion - 8) to 1)")
    }
  }

  static func truncated(_ type: String, at offset: Int, length: Int, following: Int) -> CodecError {
    CodecError(
      .decodePNG,
      message: "truncated: the \(type) chunk at byte \(offset) declares \(length) bytes and a "
        + "4-byte CRC, but only \(max(0, following)) bytes follow")
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return lower >= 0x61 && lower <= 0x7A
  }

  /// One chunk of the bytes `collect` returned.
  struct Chunk {
    /// The four type letters as a big-endian word (`IDAT` is 0x4944_4154).
    let type: UInt32
    /// Where the chunk's data lies in the bytes.
    let data: Range<Int>
    /// The CRC the file stores for it (over the type and the data).
    let crc: UInt32

    /// The bytes the CRC covers: the type and the data.
    var checked: Range<Int> { (data.lowerBound - 4)..<data.upperBound }
  }

  /// The chunks of bytes `collect` returned, in order, through IEND. `collect` has checked the
  /// structure (every length fits); a malformed input ends the list early.
  static func chunks(of checked: UnsafeRawBufferPointer) -> [Chunk] {
    func word(_ at: Int) -> UInt32 {
      UInt32(checked[at]) << 24 | UInt32(checked[at + 1]) << 16 | UInt32(checked[at + 2]) << 8
        | UInt32(checked[at + 3])
    }
    var result: [Chunk] = []
    var offset = signature.count
    while offset + 12 <= checked.count {
      let length = Int(word(offset))
      let end = offset + 12 + length
      guard length <= maximumChunkLength, end <= checked.count else { break }
      let chunk = Chunk(
        type: word(offset + 4), data: (offset + 8)..<(offset + 8 + length), crc: word(end - 4))
      result.append(chunk)
      if chunk.type == 0x4945_4E44 { break }  // IEND
      offset = end
    }
    return result
  }

  /// Checked bytes without the chunks whose type (as in `Chunk.type`) is in `types`.
  static func removing(_ types: Set<UInt32>, from checked: [UInt8]) -> [UInt8] {
    let list = checked.withUnsafeBytes { raw in Self.chunks(of: raw) }
    var kept = signature
    for chunk in list where !types.contains(chunk.type) {
      kept += checked[(chunk.data.lowerBound - 8)..<(chunk.data.upperBound + 4)]
    }
    return kept
  }

  /// `collect` over bytes in memory.
  static func collect(_ bytes: [UInt8], limit: Int = Int.max) throws(CodecError) -> [UInt8] {
    var position = 0
    return try collect(available: bytes.count, limit: limit) { count in
      let end = min(bytes.count, position + count)
      defer { position = end }
      return Array(bytes[position..<end])
    }
  }
}
