import CZlib

/// zlib's deflate and CRC-32, for the PNG chunks this package writes itself (APNG).
enum Deflate {
  /// zlib's strategies the APNG writer tries.
  enum Strategy: Sendable, CaseIterable {
    case standard
    /// Z_FILTERED: fewer short matches, more literals; sometimes smaller on filtered rows.
    case filtered

    var value: Int32 { self == .standard ? Z_DEFAULT_STRATEGY : Z_FILTERED }
  }

  /// The zlib stream (header, deflate data, Adler-32) of `data` at level 9 with the largest
  /// window (32 KiB) and memLevel 9: the smallest zlib makes.
  static func compress(
    _ data: [UInt8], strategy: Strategy = .standard
  ) throws(CodecError) -> [UInt8] {
    var stream = z_stream()
    guard czlib_deflate_init2(&stream, 9, 15, 9, strategy.value) == Z_OK else {
      throw CodecError(.encodeAPNG, message: "zlib could not start deflate")
    }
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, uLong(data.count)))
    var output = [UInt8](repeating: 0, count: bound)
    var status: Int32 = Z_OK
    data.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        status = deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else {
      throw CodecError(.encodeAPNG, message: "zlib deflate failed (\(status))")
    }
    output.removeSubrange(Int(stream.total_out)...)
    return output
  }

  /// The CRC-32 of `bytes` continued from `crc` (0 to start).
  static func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      UInt32(CZlib.crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
    }
  }
}
