import CGIF
import Raster

/// Writes an animated GIF frame by frame through giflib, keeping only the previous frame.
///
/// Each frame stores only the rectangle that changed since the frame before (colours compared,
/// not palette indices), with its own palette chosen by `Quantizer` from that rectangle's pixels;
/// unchanged pixels inside the rectangle use the transparent index, so they show the previous
/// frame (disposal "do not dispose"). A frame identical to the one before lengthens its delay.
/// Delays are in centiseconds and never below 2. The NETSCAPE2.0 block makes it loop.
public final class GIFEncoder {
  public let width: Int
  public let height: Int
  private let output = GIFByteSink()
  private var gif: UnsafeMutablePointer<GifFileType>?
  /// The opaque RGB (0xRRGGBB) of the last frame added.
  private var previous: [UInt32]?
  /// The frame waiting to be written, so an identical successor can extend its delay.
  private var pending: PendingFrame?

  private struct PendingFrame {
    var rect: IntRect
    var palette: [UInt32]
    var indices: [UInt8]
    var transparent: Int?
    var delay: Int
  }

  /// Starts a GIF of `width`×`height` pixels; `loopCount` 0 loops forever.
  public init(width: Int, height: Int, loopCount: Int = 0) throws(CodecError) {
    guard (1...65_535).contains(width), (1...65_535).contains(height) else {
      throw CodecError(.encodeGIF, message: "size \(width)×\(height) does not fit a GIF")
    }
    self.width = width
    self.height = height
    var error: Int32 = 0
    gif = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), gifWrite, &error)
    guard let gif else { throw Self.failure(error) }
    EGifSetGifVersion(gif, true)
    guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil) == cgif_ok else {
      throw Self.failure(gif.pointee.Error)
    }
    try putLoop(loopCount)
  }

  /// Adds an opaque frame (premultiplied pixels; alpha is ignored) shown for `delay` cs.
  public func add(_ frame: Pixmap, delay: Int) throws(CodecError) {
    guard frame.width == width, frame.height == height else {
      throw CodecError(.encodeGIF, message: "frame size \(frame.width)×\(frame.height), GIF \(width)×\(height)")
    }
    let rgb = frame.pixels.map { p in
      (p & 0xFF) << 16 | (p >> 8 & 0xFF) << 8 | (p >> 16 & 0xFF)
    }
    let delay = max(2, delay)
    guard let before = previous else {
      try flush()
      pending = encode(rgb, rect: IntRect(x: 0, y: 0, width: width, height: height), previous: nil, delay: delay)
      previous = rgb
      return
    }
    guard let rect = Self.changedRect(before, rgb, width: width, height: height) else {
      pending?.delay += delay
      return
    }
    try flush()
    pending = encode(rgb, rect: rect, previous: before, delay: delay)
    previous = rgb
  }

  deinit {
    if let gif {
      var error: Int32 = 0
      EGifCloseFile(gif, &error)
    }
  }

  /// Writes the last frame and the trailer; returns the GIF's bytes.
  public func finish() throws(CodecError) -> [UInt8] {
    try flush()
    var error: Int32 = 0
    if let gif, EGifCloseFile(gif, &error) != cgif_ok { throw Self.failure(error) }
    gif = nil
    return output.bytes
  }

  // MARK: - Frames

  /// The smallest rectangle holding every pixel whose colour changed; nil when none did.
  static func changedRect(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> IntRect? {
    var minX = width
    var maxX = -1
    var minY = height
    var maxY = -1
    for y in 0..<height {
      let row = y * width
      var first = -1
      var last = -1
      for x in 0..<width where a[row + x] != b[row + x] {
        if first < 0 { first = x }
        last = x
      }
      if first >= 0 {
        minX = min(minX, first)
        maxX = max(maxX, last)
        minY = min(minY, y)
        maxY = y
      }
    }
    guard maxX >= 0 else { return nil }
    return IntRect(minX: minX, minY: minY, maxX: maxX + 1, maxY: maxY + 1)
  }

  private func encode(_ rgb: [UInt32], rect: IntRect, previous: [UInt32]?, delay: Int) -> PendingFrame {
    var changed: [UInt32] = []
    var keep: [Bool] = []
    changed.reserveCapacity(rect.width * rect.height)
    for y in rect.minY..<rect.maxY {
      for x in rect.minX..<rect.maxX {
        let i = y * width + x
        let same = previous.map { $0[i] == rgb[i] } ?? false
        keep.append(same)
        if !same { changed.append(rgb[i]) }
      }
    }
    let hasTransparent = keep.contains(true)
    let result = Quantizer(maximumColors: hasTransparent ? 255 : 256).quantize(changed)
    var indices = [UInt8](repeating: 0, count: keep.count)
    let transparent = hasTransparent ? result.palette.count : nil
    var next = 0
    for i in keep.indices {
      if keep[i] {
        indices[i] = UInt8(truncatingIfNeeded: transparent ?? 0)
      } else {
        indices[i] = result.indices[next]
        next += 1
      }
    }
    var palette = result.palette
    if hasTransparent { palette.append(0) }
    return PendingFrame(rect: rect, palette: palette, indices: indices, transparent: transparent, delay: delay)
  }

  private func flush() throws(CodecError) {
    guard let frame = pending, let gif else { return }
    pending = nil
    var control = GraphicsControlBlock()
    control.DisposalMode = cgif_disposal_do_not
    control.UserInputFlag = false
    control.DelayTime = Int32(min(frame.delay, 65_535))
    control.TransparentColor = Int32(frame.transparent ?? Int(cgif_no_transparent_color))
    var extensionBytes = [GifByteType](repeating: 0, count: 4)
    let length = EGifGCBToExtension(&control, &extensionBytes)
    guard EGifPutExtension(gif, cgif_graphics_ext, Int32(length), extensionBytes) == cgif_ok else {
      throw Self.failure(gif.pointee.Error)
    }
    var size = 2
    while size < frame.palette.count { size <<= 1 }
    var colors = [GifColorType](repeating: GifColorType(), count: size)
    for (i, c) in frame.palette.enumerated() {
      colors[i] = GifColorType(Red: UInt8(c >> 16 & 0xFF), Green: UInt8(c >> 8 & 0xFF), Blue: UInt8(c & 0xFF))
    }
    guard let map = GifMakeMapObject(Int32(size), colors) else {
      throw CodecError(.encodeGIF, message: "cannot make a colour map")
    }
    defer { GifFreeMapObject(map) }
    let r = frame.rect
    guard EGifPutImageDesc(gif, Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height), false, map) == cgif_ok
    else { throw Self.failure(gif.pointee.Error) }
    var indices = frame.indices
    for row in 0..<r.height {
      let ok = indices.withUnsafeMutableBufferPointer { buffer in
        EGifPutLine(gif, buffer.baseAddress! + row * r.width, Int32(r.width))
      }
      guard ok == cgif_ok else { throw Self.failure(gif.pointee.Error) }
    }
  }

  private func putLoop(_ count: Int) throws(CodecError) {
    guard let gif else { return }
    let name = Array("NETSCAPE2.0".utf8)
    let loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF)]
    guard EGifPutExtensionLeader(gif, cgif_application_ext) == cgif_ok,
      EGifPutExtensionBlock(gif, Int32(name.count), name) == cgif_ok,
      EGifPutExtensionBlock(gif, Int32(loop.count), loop) == cgif_ok,
      EGifPutExtensionTrailer(gif) == cgif_ok
    else { throw Self.failure(gif.pointee.Error) }
  }

  private static func failure(_ code: Int32) -> CodecError {
    let text = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    return CodecError(.encodeGIF, message: text)
  }
}

/// Where giflib's output goes: a growing byte array behind a reference giflib can hold.
final class GIFByteSink: @unchecked Sendable {
  var bytes: [UInt8] = []
}

private func gifWrite(
  _ file: UnsafeMutablePointer<GifFileType>?, _ data: UnsafePointer<GifByteType>?, _ count: Int32
) -> Int32 {
  guard let file, let data, let user = file.pointee.UserData else { return 0 }
  let sink = Unmanaged<GIFByteSink>.fromOpaque(user).takeUnretainedValue()
  sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
  return count
}
