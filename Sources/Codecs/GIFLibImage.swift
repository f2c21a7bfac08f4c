import CGIF

/// One still GIF written through giflib (`EGifPutLine`): what `GIFLZW` is measured against, for
/// bytes in tests. Not used to write GIFs.
public enum GIFLibImage {
  /// A GIF of one `width`×`height` image of palette `indices` into `colors` (0xRRGGBB).
  public static func encode(
    _ indices: [UInt8], width: Int, height: Int, colors: [UInt32]
  ) throws(CodecError) -> [UInt8] {
    let sink = GIFLibBytes()
    var error: Int32 = 0
    guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), giflibWrite, &error) else {
      throw CodecError(.encodeGIF, message: "giflib error \(error)")
    }
    var size = 2
    while size < colors.count { size <<= 1 }
    var entries = [GifColorType](repeating: GifColorType(), count: size)
    for (i, c) in colors.enumerated() {
      entries[i] = GifColorType(
        Red: UInt8(c >> 16 & 0xFF), Green: UInt8(c >> 8 & 0xFF), Blue: UInt8(c & 0xFF))
    }
    let map = GifMakeMapObject(Int32(size), entries)
    defer { GifFreeMapObject(map) }
    var ok =
      EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map) == cgif_ok
      && EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, nil) == cgif_ok
    var rows = indices
    for row in 0..<height where ok {
      ok = rows.withUnsafeMutableBufferPointer {
        EGifPutLine(gif, $0.baseAddress.unsafelyUnwrapped + row * width, Int32(width)) == cgif_ok
      }
    }
    guard EGifCloseFile(gif, &error) == cgif_ok, ok else {
      throw CodecError(.encodeGIF, message: "giflib error \(error)")
    }
    return sink.bytes
  }
}

private final class GIFLibBytes {
  var bytes: [UInt8] = []
}

private func giflibWrite(
  _ file: UnsafeMutablePointer<GifFileType>?, _ data: UnsafePointer<GifByteType>?, _ count: Int32
) -> Int32 {
  guard let file, let data, let user = file.pointee.UserData else { return 0 }
  let sink = Unmanaged<GIFLibBytes>.fromOpaque(user).takeUnretainedValue()
  sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
  return count
}
