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
      offset = end
      if type == "IEND" { return kept }
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
