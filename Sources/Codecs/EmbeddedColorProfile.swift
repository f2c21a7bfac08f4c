import CDeflate

/// The ICC profile an image file carries, and whether its pixels are grey or colour, as its
/// header says: a PNG's `iCCP` chunk (compressed with zlib), a JPEG's `APP2` "ICC_PROFILE"
/// segments (a profile longer than a segment is split across several, numbered from 1).
///
/// Reading is bounded: a profile over `maximumBytes` is not read (the image is then taken as
/// sRGB, as a profile that cannot be read is, and a note says why). Nothing here decides
/// whether the profile is usable; `SRGBConversion` does.
struct EmbeddedColorProfile: Equatable {
  /// The profile's bytes, as the ICC specification lays them out.
  var bytes: [UInt8]
  /// Whether the image's pixels are grey (a PNG of colour type 0 or 4, a JPEG of one
  /// component), which only a grey profile describes; otherwise they are RGB.
  var imageIsGrey: Bool
  /// Whether its samples have 16 bits (a PNG's bit depth), which are converted at that
  /// precision (`SRGBConversion.apply16`).
  var sixteenBits = false

  /// The largest profile read, in bytes: cameras' and printers' profiles with colour tables run
  /// to a few hundred kilobytes, a display's to a few kilobytes.
  static let maximumBytes = 8 << 20

  // MARK: - PNG

  /// What an image file says of its profile.
  enum Found: Equatable {
    case none
    case profile(EmbeddedColorProfile)
    /// There is one, but it cannot be read, and why.
    case unreadable(String)

    var profile: EmbeddedColorProfile? {
      if case .profile(let p) = self { p } else { nil }
    }
  }

  /// The `iCCP` profile of PNG bytes `PNGChunks.collect` has checked: none without one,
  /// unreadable when the chunk is malformed or does not inflate within `maximumBytes`.
  static func png(_ checked: [UInt8]) -> Found {
    checked.withUnsafeBytes { raw -> Found in
      let chunks = PNGChunks.chunks(of: raw)
      guard let header = chunks.first, header.type == 0x4948_4452, header.data.count == 13,
        let chunk = chunks.first(where: { $0.type == 0x6943_4350 })  // iCCP
      else { return .none }
      let depth = raw[header.data.lowerBound + 8]
      let colorType = raw[header.data.lowerBound + 9]
      let data = raw[chunk.data]
      // A keyword of 1 to 79 bytes, a zero, the compression method (0: zlib), the stream.
      guard let zero = data.firstIndex(of: 0), zero > data.startIndex,
        zero - data.startIndex <= 79, zero + 2 <= data.endIndex, raw[zero + 1] == 0
      else { return .unreadable("its iCCP chunk is malformed") }
      let stream = UnsafeRawBufferPointer(rebasing: raw[(zero + 2)..<data.endIndex])
      guard let profile = inflate(stream) else {
        return .unreadable(
          "its iCCP chunk is damaged or inflates to more than \(maximumBytes >> 20) MiB")
      }
      return .profile(
        EmbeddedColorProfile(
          bytes: profile, imageIsGrey: colorType == 0 || colorType == 4,
          sixteenBits: depth == 16 && colorType != 3))
    }
  }

  /// The zlib stream inflated, into a buffer that grows 16-fold from 64 KiB up to
  /// `maximumBytes`; nil when it is damaged or larger.
  private static func inflate(_ stream: UnsafeRawBufferPointer) -> [UInt8]? {
    guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
    defer { libdeflate_free_decompressor(decompressor) }
    var capacity = 64 << 10
    while true {
      var produced = 0
      var result = LIBDEFLATE_BAD_DATA
      let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        result = libdeflate_zlib_decompress(
          decompressor, stream.baseAddress, stream.count, buffer.baseAddress, capacity, &produced)
        count = result == LIBDEFLATE_SUCCESS ? produced : 0
      }
      if result == LIBDEFLATE_SUCCESS { return out }
      guard result == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < maximumBytes else { return nil }
      capacity = min(capacity * 16, maximumBytes)
    }
  }

  // MARK: - JPEG

  /// The profile of JPEG bytes, gathered from its `APP2` segments before the image data: none
  /// without one; unreadable when its parts are missing, repeated, inconsistent or over
  /// `maximumBytes`.
  static func jpeg(_ bytes: [UInt8]) -> Found {
    let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    var parts: [Int: ArraySlice<UInt8>] = [:]
    var partCount = 0
    var total = 0
    var components: Int?
    var position = 2
    // Segments until the image data starts; fill bytes (0xFF) may precede a marker.
    while position + 4 <= bytes.count, bytes[position] == 0xFF {
      let marker = bytes[position + 1]
      if marker == 0xFF {
        position += 1
        continue
      }
      if marker == 0xDA || marker == 0xD9 { break }
      let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
      guard length >= 2, position + 2 + length <= bytes.count else { break }
      let segment = bytes[(position + 4)..<(position + 2 + length)]
      let isFrameHeader =
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
      if isFrameHeader, segment.count >= 6 {
        components = Int(segment[segment.startIndex + 5])
      }
      if marker == 0xE2, segment.count > signature.count + 2, segment.starts(with: signature) {
        let index = Int(segment[segment.startIndex + signature.count])
        let count = Int(segment[segment.startIndex + signature.count + 1])
        guard index >= 1, index <= count, partCount == 0 || partCount == count,
          parts[index] == nil
        else { return .unreadable("its ICC profile's APP2 parts are misnumbered or repeated") }
        partCount = count
        let part = segment.dropFirst(signature.count + 2)
        total += part.count
        guard total <= maximumBytes else {
          return .unreadable("its ICC profile is larger than \(maximumBytes >> 20) MiB")
        }
        parts[index] = part
      }
      position += 2 + length
    }
    guard partCount > 0 else { return .none }
    guard parts.count == partCount, let components else {
      return .unreadable("its ICC profile has \(parts.count) of its \(partCount) APP2 parts")
    }
    var profile: [UInt8] = []
    profile.reserveCapacity(total)
    for index in 1...partCount { profile += parts[index] ?? [] }
    return .profile(EmbeddedColorProfile(bytes: profile, imageIsGrey: components == 1))
  }
}
