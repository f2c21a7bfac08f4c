// JPEG decoding (libjpeg-turbo behind JPEGCodec, with our EXIF orientation reader) of arbitrary
// bytes. libjpeg itself is not instrumented (a system library): coverage guidance sees the EXIF
// reader and our side of the decoder; ASan still checks every buffer libjpeg writes into.
//
// Checks on a decoded image: at most the pixels asked for; every pixel opaque (JPEG has no
// alpha); the EXIF orientation is 1…8 and swaps the sides for 5…8, so the size is the header's
// or its transpose.

import Codecs
import FuzzSupport
import Raster

/// Small enough that a run stays well inside libFuzzer's memory limit.
let maximumPixels = 1 << 22

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  let orientation = ExifOrientationProbe.read(bytes)
  guard (1...8).contains(orientation) else { fuzzFailure("orientation \(orientation)") }
  let image: Pixmap
  do { image = try JPEGCodec.decode(bytes, maximumPixels: maximumPixels) } catch {
    if error.message.isEmpty { fuzzFailure("a refusal without a message") }
    return 0
  }
  guard image.width * image.height <= maximumPixels else {
    fuzzFailure("\(image.width)×\(image.height) is more than was allowed")
  }
  guard image.pixels.allSatisfy({ $0 >> 24 == 255 }) else {
    fuzzFailure("a JPEG pixel that is not opaque")
  }
  return 0
}
