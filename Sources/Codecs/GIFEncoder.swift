import CGIF
import Raster

#if canImport(Glibc)
  import Glibc
#endif

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
  /// The last frame given to `add(_:delay:)` as a pixmap.
  private var previous: Pixmap?
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
    try add(Self.prepare(frame, previous: previous), delay: delay)
    previous = frame
  }

  /// Adds a frame prepared by `prepare(_:previous:)` against the frame added before it.
  public func add(_ frame: GIFFrame, delay: Int) throws(CodecError) {
    guard frame.width == width, frame.height == height else {
      throw CodecError(.encodeGIF, message: "frame size \(frame.width)×\(frame.height), GIF \(width)×\(height)")
    }
    let delay = max(2, delay)
    guard let rect = frame.rect else {
      pending?.delay += delay
      return
    }
    try flush()
    pending = PendingFrame(
      rect: rect, palette: frame.palette, indices: frame.indices, transparent: frame.transparent, delay: delay)
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

  /// The part of `frame` that differs from `previous` (colours compared, not indices), with its
  /// palette and indices; pure, so frames can be prepared on several threads.
  public static func prepare(_ frame: Pixmap, previous: Pixmap?) -> GIFFrame {
    let (width, height) = (frame.width, frame.height)
    let rect: IntRect?
    if let previous, previous.width == width, previous.height == height {
      rect = changedRect(previous.pixels, frame.pixels, width: width, height: height)
    } else {
      rect = IntRect(x: 0, y: 0, width: width, height: height)
    }
    guard let rect else { return GIFFrame(width: width, height: height) }
    let keepPrevious = previous != nil && previous?.width == width
    var changed: [UInt32] = []
    var keep = [Bool](repeating: false, count: rect.width * rect.height)
    changed.reserveCapacity(keep.count)
    frame.pixels.withUnsafeBufferPointer { now in
      let before = keepPrevious ? previous?.pixels : nil
      var k = 0
      for y in rect.minY..<rect.maxY {
        for x in rect.minX..<rect.maxX {
          let i = y * width + x
          let p = now[i]
          if let before, before[i] == p {
            keep[k] = true
          } else {
            changed.append((p & 0xFF) << 16 | (p >> 8 & 0xFF) << 8 | (p >> 16 & 0xFF))
          }
          k += 1
        }
      }
    }
    let hasTransparent = keep.contains(true)
    let result = Quantizer(maximumColors: hasTransparent ? 255 : 256).quantize(changed)
    let transparent = hasTransparent ? result.palette.count : nil
    var indices = [UInt8](repeating: UInt8(truncatingIfNeeded: transparent ?? 0), count: keep.count)
    var next = 0
    for i in keep.indices where !keep[i] {
      indices[i] = result.indices[next]
      next += 1
    }
    var palette = result.palette
    if hasTransparent { palette.append(0) }
    return GIFFrame(
      width: width, height: height, rect: rect, palette: palette, indices: indices, transparent: transparent)
  }

  /// The smallest rectangle holding every pixel whose colour changed; nil when none did.
  static func changedRect(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> IntRect? {
    var minX = width
    var maxX = -1
    var minY = height
    var maxY = -1
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return }
        for y in 0..<height {
          let row = y * width
          if memcmp(pa + row, pb + row, width * 4) == 0 { continue }
          var first = 0
          while pa[row + first] == pb[row + first] { first += 1 }
          var last = width - 1
          while pa[row + last] == pb[row + last] { last -= 1 }
          minX = min(minX, first)
          maxX = max(maxX, last)
          minY = min(minY, y)
          maxY = y
        }
      }
    }
    guard maxX >= 0 else { return nil }
    return IntRect(minX: minX, minY: minY, maxX: maxX + 1, maxY: maxY + 1)
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

/// One frame's changed rectangle quantized for the GIF, or nothing when it equals the previous.
public struct GIFFrame: Sendable {
  public var width: Int
  public var height: Int
  /// The changed rectangle; nil when nothing changed.
  public var rect: IntRect?
  /// 0xRRGGBB entries; the transparent index, when there is one, is the last.
  public var palette: [UInt32] = []
  /// Row-major indices over `rect`.
  public var indices: [UInt8] = []
  public var transparent: Int?

  init(width: Int, height: Int, rect: IntRect? = nil, palette: [UInt32] = [], indices: [UInt8] = [], transparent: Int? = nil) {
    self.width = width
    self.height = height
    self.rect = rect
    self.palette = palette
    self.indices = indices
    self.transparent = transparent
  }
}
