import CJPEGDecoder
import Raster

/// Decodes JPEG files with libjpeg-turbo, honouring the EXIF orientation and the embedded ICC
/// profile: the pixels come out the way a camera's viewer shows them, in sRGB.
public enum JPEGCodec {
  /// Whether the bytes start like a JPEG (SOI marker).
  public static func isJPEG(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
  }

  /// The decoded image, opaque, converted to sRGB from the colour space of its ICC profile
  /// (`APP2` segments; `SRGBConversion`) and turned upright by its EXIF orientation; refused
  /// when it would hold more than `maximumPixels`.
  public static func decode(
    _ bytes: [UInt8], maximumPixels: Int = Pixmap.maximumPixels, path: String? = nil
  ) throws(CodecError) -> Pixmap {
    try decodeImage(bytes, maximumPixels: maximumPixels, path: path).pixmap
  }

  /// `decode`, and a note when the file's ICC profile is ignored (damaged, too large, not
  /// usable, or for the other kind of pixels), saying why: its colours are then taken as sRGB.
  public static func decodeImage(
    _ bytes: [UInt8], maximumPixels: Int = Pixmap.maximumPixels, path: String? = nil
  ) throws(CodecError) -> (pixmap: Pixmap, note: String?) {
    var message = [CChar](repeating: 0, count: 256)
    var (width, height): (Int32, Int32) = (0, 0)
    let headerStatus = bytes.withUnsafeBufferPointer { data in
      rajpeg_read_size(data.baseAddress, data.count, &width, &height, &message, message.count)
    }
    guard headerStatus == 0 else { throw failure(message, path) }
    let (w, h) = (Int(width), Int(height))
    guard Pixmap.isValidSize(width: w, height: h), w * h <= maximumPixels else {
      throw CodecError(
        .decodeJPEG, path: path,
        message:
          "\(w)×\(h) pixels; at most \(maximumPixels) in all and \(Pixmap.maximumSide) a side")
    }
    guard var pixmap = Pixmap(width: w, height: h) else {
      throw CodecError(.decodeJPEG, path: path, message: "cannot allocate \(w)×\(h) pixels")
    }
    let status = pixmap.pixels.withUnsafeMutableBytes { rgba in
      bytes.withUnsafeBufferPointer { data in
        rajpeg_decode_rgba(
          data.baseAddress, data.count, rgba.baseAddress?.assumingMemoryBound(to: UInt8.self),
          width, height, &message, message.count)
      }
    }
    guard status == 0 else { throw failure(message, path) }
    let (conversion, note) = SRGBConversion.forFile(EmbeddedColorProfile.jpeg(bytes))
    if let conversion {
      pixmap.pixels.withUnsafeMutableBytes { conversion.apply($0, count: w * h) }
    }
    // Opaque RGBA bytes are already premultiplied pixels (r in the low byte).
    return (oriented(pixmap, ExifOrientation.read(bytes)), note)
  }

  private static func failure(_ message: [CChar], _ path: String?) -> CodecError {
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return CodecError(.decodeJPEG, path: path, message: "not a JPEG libjpeg can read: \(text)")
  }

  /// The pixmap turned by EXIF orientation `orientation` (1 upright … 8): 2 mirrored, 3 turned
  /// half a turn, 4 flipped, 5 transposed, 6 turned a quarter clockwise to be upright, 7
  /// transversed, 8 turned a quarter counter-clockwise.
  public static func oriented(_ pixmap: Pixmap, _ orientation: Int) -> Pixmap {
    guard (2...8).contains(orientation) else { return pixmap }
    let (w, h) = (pixmap.width, pixmap.height)
    let swaps = orientation >= 5
    let (ow, oh) = swaps ? (h, w) : (w, h)
    guard var out = Pixmap(width: ow, height: oh) else { return pixmap }
    for y in 0..<oh {
      for x in 0..<ow {
        // Where the output pixel (x, y) comes from in the stored image.
        let (sx, sy): (Int, Int)
        switch orientation {
        case 2: (sx, sy) = (w - 1 - x, y)
        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
        case 4: (sx, sy) = (x, h - 1 - y)
        case 5: (sx, sy) = (y, x)
        case 6: (sx, sy) = (y, h - 1 - x)
        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
        default: (sx, sy) = (w - 1 - y, x)
        }
        out.pixels[y * ow + x] = pixmap.pixels[sy * w + sx]
      }
    }
    return out
  }
}

/// The EXIF orientation of JPEG bytes, for the fuzz target (1…8; 1 when there is none).
public enum ExifOrientationProbe {
  public static func read(_ bytes: [UInt8]) -> Int { ExifOrientation.read(bytes) }
}

/// The EXIF orientation tag of a JPEG: read from the APP1 "Exif" segment's first IFD, every
/// offset checked against the segment; 1 when there is none.
enum ExifOrientation {
  static func read(_ bytes: [UInt8]) -> Int {
    var position = 2
    // Segments until the image data starts.
    while position + 4 <= bytes.count, bytes[position] == 0xFF {
      let marker = bytes[position + 1]
      if marker == 0xDA || marker == 0xD9 { break }
      let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
      guard length >= 2, position + 2 + length <= bytes.count else { break }
      let segment = (position + 4)..<(position + 2 + length)
      if marker == 0xE1, let value = orientation(in: Array(bytes[segment])) { return value }
      position += 2 + length
    }
    return 1
  }

  /// The orientation in an APP1 payload ("Exif\0\0" then a TIFF header).
  static func orientation(in payload: [UInt8]) -> Int? {
    let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
    guard payload.count >= 14, Array(payload[0..<6]) == header else { return nil }
    let tiff = Array(payload[6...])
    let little: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= tiff.count else { return nil }
      return little
        ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let a = u16(at), let b = u16(at + 2) else { return nil }
      return little ? a | b << 16 : a << 16 | b
    }
    guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
    for entry in 0..<min(count, 512) {
      let at = ifd + 2 + entry * 12
      guard let tag = u16(at) else { return nil }
      if tag == 0x0112, let value = u16(at + 8), (1...8).contains(value) { return value }
    }
    return nil
  }
}
