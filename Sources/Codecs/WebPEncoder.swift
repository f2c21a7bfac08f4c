import CWebP
import FileIO
import Raster

/// Writes an animated WebP through libwebp's `WebPAnimEncoder`: lossless (pixel-exact, full
/// alpha) by default, lossy at a quality when one is given.
///
/// The encoder chooses each frame's sub-rectangle, blending and disposal itself and merges a
/// frame equal to the one before into its duration; it keeps the frames it has encoded
/// (compressed) and the last canvases, not the frames given. Lossless frames use method 4 and
/// quality 75 (libwebp's defaults) with `minimize_size` (each frame tried as a sub-rectangle
/// and whole, with either disposal) and no key frames after the first: on the cats demo 7 %
/// smaller than `img2webp -lossless` in 18 s of CPU, where method 6 at quality 100 saved 2 %
/// more for ten times the time (BENCHMARKS.md). The bytes depend only on the frames, their
/// times and the settings: libwebp runs on one thread.
public final class WebPEncoder {
  public let width: Int
  public let height: Int
  /// Lossy quality 0...100, or nil for lossless.
  public let quality: Double?
  private let output: any ByteSink
  private var encoder: OpaquePointer?
  private var config = WebPConfig()
  /// The time the next frame starts, in milliseconds.
  private var time = 0

  /// Starts an animation of `width`×`height` pixels (at most 16 383 a side); `quality` nil is
  /// lossless, else lossy at that quality (0...100); `loopCount` 0 loops forever.
  public init(
    width: Int, height: Int, quality: Double? = nil, loopCount: Int = 0, output: any ByteSink
  ) throws(CodecError) {
    guard (1...16_383).contains(width), (1...16_383).contains(height) else {
      throw CodecError(.encodeWebP, message: "size \(width)×\(height) does not fit a WebP")
    }
    if let quality, !(0...100).contains(quality) {
      throw CodecError(.encodeWebP, message: "quality \(quality) is not in 0...100")
    }
    self.width = width
    self.height = height
    self.quality = quality
    self.output = output
    var options = WebPAnimEncoderOptions()
    guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
      throw CodecError(.encodeWebP, message: "libwebp's version does not match its headers")
    }
    options.anim_params.loop_count = Int32(max(0, min(65_535, loopCount)))
    options.anim_params.bgcolor = 0  // transparent; viewers mostly ignore it
    options.minimize_size = 1
    options.allow_mixed = 0
    // No key frames but the first: every later frame may be a sub-rectangle.
    options.kmin = Int32.max - 1
    options.kmax = Int32.max
    if let quality {
      config.lossless = 0
      config.quality = Float(quality)
      config.method = 4
    } else {
      config.lossless = 1
      config.quality = 75
      config.method = 4
    }
    config.thread_level = 0
    guard WebPValidateConfig(&config) != 0 else {
      throw CodecError(.encodeWebP, message: "libwebp refused the encoder settings")
    }
    encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options)
    guard encoder != nil else {
      throw CodecError(.encodeWebP, message: "libwebp could not start an animation")
    }
  }

  deinit { if let encoder { WebPAnimEncoderDelete(encoder) } }

  /// Adds a frame of straight RGBA8 rows (`width`×`height`×4 bytes) shown for `milliseconds`.
  public func add(straightRGBA rgba: [UInt8], milliseconds: Int) throws(CodecError) {
    guard let encoder else { throw CodecError(.encodeWebP, message: "the animation is finished") }
    guard rgba.count == width * height * 4 else {
      throw CodecError(
        .encodeWebP, message: "\(rgba.count) bytes do not make \(width)×\(height) RGBA")
    }
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else {
      throw CodecError(.encodeWebP, message: "libwebp's version does not match its headers")
    }
    defer { WebPPictureFree(&picture) }
    picture.width = Int32(width)
    picture.height = Int32(height)
    picture.use_argb = 1
    let imported = rgba.withUnsafeBufferPointer { buffer in
      WebPPictureImportRGBA(&picture, buffer.baseAddress, Int32(width * 4))
    }
    guard imported != 0 else { throw CodecError(.encodeWebP, message: "out of memory") }
    guard WebPAnimEncoderAdd(encoder, &picture, Int32(time), &config) != 0 else {
      throw CodecError(.encodeWebP, message: Self.message(encoder))
    }
    time += max(1, milliseconds)
  }

  /// Adds a frame (premultiplied pixels) shown for `milliseconds`.
  public func add(_ frame: Pixmap, milliseconds: Int) throws(CodecError) {
    try add(straightRGBA: PNGCodec.straightBytes(of: frame), milliseconds: milliseconds)
  }

  /// Assembles the file and writes it to the output.
  public func finish() throws(CodecError) {
    guard let encoder else { return }
    defer {
      WebPAnimEncoderDelete(encoder)
      self.encoder = nil
    }
    guard time > 0 else { throw CodecError(.encodeWebP, message: "a WebP animation needs a frame") }
    guard WebPAnimEncoderAdd(encoder, nil, Int32(time), nil) != 0 else {
      throw CodecError(.encodeWebP, message: Self.message(encoder))
    }
    var data = WebPData()
    guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
      throw CodecError(.encodeWebP, message: Self.message(encoder))
    }
    defer { WebPDataClear(&data) }
    do {
      try output.write(UnsafeRawBufferPointer(start: data.bytes, count: data.size))
    } catch {
      throw CodecError(error)
    }
  }

  private static func message(_ encoder: OpaquePointer) -> String {
    WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "libwebp reported an error"
  }
}
