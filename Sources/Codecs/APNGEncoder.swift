import FileIO
import Raster

/// Writes an animated PNG (APNG 1.0: `acTL`, `fcTL`, `fdAT`) frame by frame: full alpha,
/// lossless, 8-bit straight RGBA.
///
/// Each frame stores only the rectangle of pixels that changed (the first frame, the default
/// image, is whole), kept on screen afterwards (`dispose_op` NONE). It is compressed both ways
/// that show it exactly — replacing the rectangle (`blend_op` SOURCE), and, when every changed
/// pixel is opaque, drawn over the frame before with the unchanged pixels fully transparent
/// (`blend_op` OVER) — with a few row-filter and deflate choices each (`PNGRowFilter`, zlib
/// level 9), and the smallest is kept. A frame equal to the one before lengthens its delay.
///
/// The frame count heads the file (`acTL`) but is known only at the end, so frames wait in a
/// `SpoolFile` (on disk) and the file is written to `output` by `finish()`: memory stays flat
/// whatever the number of frames. The bytes depend only on the frames and their durations.
public final class APNGEncoder {
  public let width: Int
  public let height: Int
  /// How many times the animation plays; 0 for ever.
  public let loopCount: Int
  /// The unit of frame durations: `ticksPerSecond` ticks make a second.
  public let ticksPerSecond: Int
  private let output: any ByteSink
  private let spool = SpoolFile()
  /// The frame waiting to be written, so an identical successor can extend its duration.
  private var pending: (frame: APNGFrame, ticks: Int)?
  private var framesWritten = 0
  /// The sequence number of the next fcTL or fdAT chunk.
  private var sequence: UInt32 = 0
  /// The last pixmap given to `add(_:ticks:)`.
  private var previous: Pixmap?
  private var finished = false

  /// Starts an APNG of `width`×`height` pixels whose frame durations are counted in
  /// 1/`ticksPerSecond` s (1...65 535), written to `output` when `finish()` is called.
  public init(
    width: Int, height: Int, ticksPerSecond: Int, loopCount: Int = 0, output: any ByteSink
  ) throws(CodecError) {
    guard Pixmap.isValidSize(width: width, height: height) else {
      throw CodecError(.encodeAPNG, message: "size \(width)×\(height) does not fit an APNG")
    }
    guard (1...65_535).contains(ticksPerSecond), (0...65_535).contains(loopCount) else {
      throw CodecError(
        .encodeAPNG, message: "\(ticksPerSecond) ticks a second or loop count \(loopCount)")
    }
    self.width = width
    self.height = height
    self.ticksPerSecond = ticksPerSecond
    self.loopCount = loopCount
    self.output = output
  }

  /// Adds a frame (premultiplied pixels) shown for `ticks`.
  public func add(_ frame: Pixmap, ticks: Int) throws(CodecError) {
    try add(Self.prepare(frame, previous: previous), ticks: ticks)
    previous = frame
  }

  /// Adds a frame prepared by `prepare(_:previous:)` against the frame added before it, shown
  /// for `ticks`.
  public func add(_ frame: APNGFrame, ticks: Int) throws(CodecError) {
    guard frame.width == width, frame.height == height else {
      throw CodecError(
        .encodeAPNG, message: "frame size \(frame.width)×\(frame.height), APNG \(width)×\(height)")
    }
    let ticks = max(1, ticks)
    guard frame.rect != nil else {
      guard pending != nil else {
        throw CodecError(
          .encodeAPNG, message: "the first frame must be prepared without a previous one")
      }
      pending?.ticks += ticks
      return
    }
    if pending == nil, framesWritten == 0,
      frame.rect != IntRect(x: 0, y: 0, width: width, height: height)
    {
      throw CodecError(.encodeAPNG, message: "the first frame must cover the whole canvas")
    }
    try flush()
    pending = (frame, ticks)
  }

  /// Writes the file: signature, header, frame count, the spooled frames, the end.
  public func finish() throws(CodecError) {
    guard !finished else { return }
    try flush()
    finished = true
    guard framesWritten > 0 else { throw CodecError(.encodeAPNG, message: "an APNG needs a frame") }
    var head = PNGChunks.signature
    head += Self.chunk(
      "IHDR",
      Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
    head += Self.chunk("sRGB", [0])  // perceptual rendering intent, as libpng's frames say
    head += Self.chunk(
      "acTL", Self.bigEndian(UInt32(framesWritten)) + Self.bigEndian(UInt32(loopCount)))
    do {
      try output.write(head)
      try spool.copy(to: output)
      try output.write(Self.chunk("IEND", []))
    } catch {
      throw CodecError(error)
    }
  }

  // MARK: - Frames

  /// The ways a SOURCE frame's rows are filtered and deflated; the smallest result is kept.
  /// Measured on every frame of both demos against no filter and the adaptive
  /// choice under both strategies (BENCHMARKS.md): SOURCE frames were smallest adaptively
  /// filtered (cards under zlib's default strategy, cats under `Z_FILTERED`), or unfiltered
  /// (the first, mostly flat frame).
  static let sourceTrials: [(PNGRowFilter.Choice, Deflate.Strategy)] = [
    (.none, .standard), (.adaptive, .standard), (.adaptive, .filtered),
  ]
  /// The same for an OVER frame, mostly transparent runs: unfiltered always won.
  static let overTrials: [(PNGRowFilter.Choice, Deflate.Strategy)] = [(.none, .standard)]

  /// `frame`'s changed rectangle against `previous` (all of it without one), compressed the
  /// smallest way that shows it exactly. Pure, so frames are prepared on several threads.
  public static func prepare(
    _ frame: Pixmap, previous: Pixmap?
  ) throws(CodecError) -> APNGFrame {
    let (width, height) = (frame.width, frame.height)
    let before = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
    let rect: IntRect
    if let before {
      guard
        let changed = GIFEncoder.changedRect(
          before.pixels, frame.pixels, width: width, height: height)
      else { return APNGFrame(width: width, height: height) }
      rect = changed
    } else {
      rect = IntRect(x: 0, y: 0, width: width, height: height)
    }
    var candidates: [(over: Bool, rows: [UInt8])] = [
      (false, APNGFrame.straightRGBA(frame, rect: rect))
    ]
    if let before, APNGFrame.canBlendOver(frame, previous: before, rect: rect) {
      candidates.append((true, APNGFrame.straightRGBA(frame, rect: rect, over: before)))
    }
    var best = APNGFrame(width: width, height: height)
    for candidate in candidates {
      for (choice, strategy) in candidate.over ? overTrials : sourceTrials {
        let filtered = PNGRowFilter.filter(
          candidate.rows, rowBytes: rect.width * 4, height: rect.height, bytesPerPixel: 4,
          choice: choice)
        let data = try Deflate.compress(filtered, strategy: strategy)
        if best.rect == nil || data.count < best.data.count {
          best = APNGFrame(
            width: width, height: height, rect: rect, blendsOver: candidate.over, data: data)
        }
      }
    }
    return best
  }

  /// The largest chunk written: bigger data is split over several IDAT or fdAT chunks, which
  /// readers with per-chunk memory limits accept.
  static let maximumChunkData = 1 << 20

  private func flush() throws(CodecError) {
    guard let (frame, ticks) = pending, let rect = frame.rect else { return }
    pending = nil
    let (numerator, denominator) = Self.delay(ticks: ticks, perSecond: ticksPerSecond)
    var control = Self.bigEndian(sequence)
    sequence += 1
    for value in [rect.width, rect.height, rect.minX, rect.minY] {
      control += Self.bigEndian(UInt32(value))
    }
    control += [
      UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8),
      UInt8(denominator & 0xFF),
      0,  // dispose_op NONE: the frame stays as the next one's background
      frame.blendsOver ? 1 : 0,
    ]
    var bytes = Self.chunk("fcTL", control)
    var start = 0
    repeat {
      let end = min(frame.data.count, start + Self.maximumChunkData)
      let piece = Array(frame.data[start..<end])
      if framesWritten == 0 {
        bytes += Self.chunk("IDAT", piece)
      } else {
        bytes += Self.chunk("fdAT", Self.bigEndian(sequence) + piece)
        sequence += 1
      }
      start = end
    } while start < frame.data.count
    do { try spool.write(bytes) } catch { throw CodecError(error) }
    framesWritten += 1
  }

  /// A duration of `ticks`/`perSecond` s as fcTL's 16-bit fraction: exact when it fits after
  /// reducing, otherwise the nearest fraction with both terms at most 65 535.
  static func delay(ticks: Int, perSecond: Int) -> (numerator: Int, denominator: Int) {
    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    let divisor = gcd(ticks, perSecond)
    var (numerator, denominator) = (ticks / divisor, perSecond / divisor)
    if max(numerator, denominator) > 65_535 {
      // The largest denominator whose numerator still fits.
      let seconds = Double(ticks) / Double(perSecond)
      denominator = max(1, min(65_535, Int(65_535 / seconds)))
      numerator = min(65_535, Int((seconds * Double(denominator)).rounded()))
    }
    return (numerator, denominator)
  }

  /// A PNG chunk: length, type, data, CRC-32 of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    let crc = Deflate.crc32(data, continuing: Deflate.crc32(typeBytes))
    return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc)
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
