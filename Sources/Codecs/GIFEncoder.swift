import CGIF
import FileIO
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// Writes an animated GIF frame by frame through giflib, keeping only the previous frame.
///
/// Frames share one global palette (`GIFPalette`, chosen from sample frames by `Quantizer`); a
/// frame the global palette fits poorly gets a palette of its own. Each frame stores only the
/// rectangle of pixels whose shown colour changes (colours compared, not indices); pixels inside it
/// that keep their colour use the transparent index and show the previous frame (disposal "do not
/// dispose"). A frame identical to the one before lengthens its delay instead.
/// Delays are in centiseconds and never below 2. The NETSCAPE2.0 block makes it loop.
public final class GIFEncoder {
  public let width: Int
  public let height: Int
  /// The global colour table every frame uses unless it needs its own.
  public let palette: GIFPalette
  /// Where giflib's bytes go, as they are made.
  private let output: GIFByteSink
  private var gif: UnsafeMutablePointer<GifFileType>?
  /// The RGB (0xRRGGBB) each pixel shows after the frames written so far.
  private var displayed: [UInt32]
  /// Whether frames may have transparent pixels (matted by `GIFMatte`: alpha 0 or 255).
  public let isTransparent: Bool
  /// What `displayed` holds for a transparent pixel (above every 0xRRGGBB, below "unset").
  static let clearShown: UInt32 = 0x0100_0000
  /// The last frame given to `add(_:delay:)` as a pixmap.
  private var previous: Pixmap?
  /// The frame waiting to be written, so an identical successor can extend its delay.
  private var pending: PendingFrame?

  /// A frame ready for giflib: its rectangle, indices (transparent where the pixel keeps what the
  /// previous frame showed) and local palette if it has one.
  private struct PendingFrame {
    var rect: IntRect
    var indices: [UInt8]
    var localPalette: [UInt32]?
    var transparent: Int
    var delay: Int
    /// Whether the decoder clears the rectangle to transparent after showing it (disposal 2,
    /// "restore to background"), so the next frame can make pixels transparent.
    var disposesToBackground = false
  }

  /// Starts a GIF of `width`×`height` pixels whose global colour table is `palette`, written to
  /// `output` as it is made; `loopCount` 0 loops forever. A `transparent` GIF starts clear and
  /// takes frames matted by `GIFMatte` (each pixel opaque or 0), whose 0 pixels it shows
  /// transparent.
  public init(
    width: Int, height: Int, palette: GIFPalette, loopCount: Int = 0, transparent: Bool = false,
    output: any ByteSink
  ) throws(CodecError) {
    guard (1...65_535).contains(width), (1...65_535).contains(height) else {
      throw CodecError(.encodeGIF, message: "size \(width)×\(height) does not fit a GIF")
    }
    self.output = GIFByteSink(output)
    self.width = width
    self.height = height
    self.palette = palette
    self.isTransparent = transparent
    self.displayed = [UInt32](
      repeating: transparent ? Self.clearShown : 0xFFFF_FFFF, count: width * height)
    var error: Int32 = 0
    gif = EGifOpen(Unmanaged.passUnretained(self.output).toOpaque(), gifWrite, &error)
    guard let gif else { throw failure(error) }
    EGifSetGifVersion(gif, true)
    let map = try Self.colorMap(palette.colors, reserving: 1)
    defer { GifFreeMapObject(map) }
    guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map) == cgif_ok else {
      throw failure(gif.pointee.Error)
    }
    try putLoop(loopCount)
  }

  deinit {
    if let gif {
      var error: Int32 = 0
      EGifCloseFile(gif, &error)
    }
  }

  /// Adds an opaque frame (premultiplied pixels; alpha is ignored) shown for `delay` cs.
  public func add(_ frame: Pixmap, delay: Int) throws(CodecError) {
    try add(Self.prepare(frame, previous: previous, palette: palette), delay: delay)
    previous = frame
  }

  /// Adds a frame prepared by `prepare(_:previous:palette:)` against the frame added before it.
  public func add(_ prepared: GIFFrame, delay: Int) throws(CodecError) {
    var frame = prepared
    guard frame.width == width, frame.height == height else {
      throw CodecError(
        .encodeGIF, message: "frame size \(frame.width)×\(frame.height), GIF \(width)×\(height)")
    }
    let delay = max(2, delay)
    // Pixels that turn transparent while showing a colour: the frame before is disposed to the
    // background over a rectangle holding them, and what that clears but stays is drawn again.
    let cleared = frame.rect.flatMap { isTransparent ? clear(under: frame, in: $0) : nil }
    if let cleared { widen(&frame, toRedraw: cleared) }
    let colors = frame.localPalette ?? palette.colors
    var region = PixelBounds()
    for r in [frame.rect, cleared?.rect].compactMap({ $0 }) { region.add(r) }
    guard let area = region.rect else {
      pending?.delay += delay
      return
    }
    // Per pixel of the area, the index it is drawn with (-1: not drawn), and their bounds.
    var chosen = [Int16](repeating: -1, count: area.width * area.height)
    var bounds = PixelBounds()
    var redrawn = RedrawIndex(colors: colors)
    for y in area.minY..<area.maxY {
      for x in area.minX..<area.maxX {
        let p = y * width + x
        var index = -1
        if let r = frame.rect, x >= r.minX, x < r.maxX, y >= r.minY, y < r.maxY {
          let source = (y - r.minY) * r.width + (x - r.minX)
          if frame.draws(source, pixel: p, colors: colors, shown: displayed[p]) {
            index = Int(frame.indices[source])
          }
        }
        if index < 0, let cleared, displayed[p] == Self.clearShown, frame.pixels[p] != 0 {
          index = redrawn.index(was: cleared.shown(x: x, y: y), truth: frame.pixels[p])
        }
        if index >= 0 {
          chosen[(y - area.minY) * area.width + x - area.minX] = Int16(index)
          bounds.add(x: x, y: y)
        }
      }
    }
    let transparent = colors.count
    guard let visible = bounds.rect else {
      if pending == nil || cleared != nil {
        // Nothing to draw, but the clearing (or the first frame's delay) needs a frame: one
        // transparent pixel.
        let at = cleared?.rect ?? IntRect(x: 0, y: 0, width: 1, height: 1)
        try flush()
        pending = PendingFrame(
          rect: IntRect(x: at.minX, y: at.minY, width: 1, height: 1),
          indices: [UInt8(truncatingIfNeeded: transparent)], localPalette: frame.localPalette,
          transparent: transparent, delay: delay)
      } else {
        pending?.delay += delay
      }
      return
    }
    var indices = [UInt8](
      repeating: UInt8(truncatingIfNeeded: transparent), count: visible.width * visible.height)
    var k = 0
    for y in visible.minY..<visible.maxY {
      for x in visible.minX..<visible.maxX {
        let index = Int(chosen[(y - area.minY) * area.width + x - area.minX])
        if index >= 0 {
          indices[k] = UInt8(truncatingIfNeeded: index)
          displayed[y * width + x] = colors[index]
        }
        k += 1
      }
    }
    try flush()
    pending = PendingFrame(
      rect: visible, indices: indices, localPalette: frame.localPalette, transparent: transparent,
      delay: delay)
  }

  /// What the frame before showed over the rectangle it is disposed to the background over.
  private struct Cleared {
    var rect: IntRect
    var shown: [UInt32]

    func shown(x: Int, y: Int) -> UInt32 { shown[(y - rect.minY) * rect.width + x - rect.minX] }
  }

  /// Where the frame's transparent pixels in `rect` still show a colour: the waiting frame is
  /// made to dispose to the background (browsers and giflib clear to transparent) over its
  /// rectangle grown to hold them, with the growth transparent; that rectangle is marked clear
  /// in `displayed`. Nil when no pixel needs clearing.
  private func clear(under frame: GIFFrame, in rect: IntRect) -> Cleared? {
    var need = PixelBounds()
    for y in rect.minY..<rect.maxY {
      for p in (y * width + rect.minX)..<(y * width + rect.maxX)
      where frame.pixels[p] == 0 && displayed[p] != Self.clearShown {
        need.add(x: p - y * width, y: y)
      }
    }
    guard let needed = need.rect, var last = pending else { return nil }
    var grown = PixelBounds()
    grown.add(last.rect)
    grown.add(needed)
    let all = grown.rect ?? last.rect
    if all != last.rect {
      var indices = [UInt8](
        repeating: UInt8(truncatingIfNeeded: last.transparent), count: all.width * all.height)
      for y in 0..<last.rect.height {
        let to = (y + last.rect.minY - all.minY) * all.width + last.rect.minX - all.minX
        for x in 0..<last.rect.width { indices[to + x] = last.indices[y * last.rect.width + x] }
      }
      last.rect = all
      last.indices = indices
    }
    last.disposesToBackground = true
    pending = last
    var shown = [UInt32](repeating: 0, count: all.width * all.height)
    var k = 0
    for y in all.minY..<all.maxY {
      for p in (y * width + all.minX)..<(y * width + all.maxX) {
        shown[k] = displayed[p]
        displayed[p] = Self.clearShown
        k += 1
      }
    }
    return Cleared(rect: all, shown: shown)
  }

  /// A frame with a palette of its own gains the colours that what it must draw again showed, so
  /// they come back unchanged; when they do not fit, it gets a palette of its own anew, for the
  /// true colours of what it draws and draws again.
  private func widen(_ frame: inout GIFFrame, toRedraw cleared: Cleared) {
    guard let local = frame.localPalette else { return }
    var colors = local
    var known = Set(local)
    let r = cleared.rect
    search: for y in r.minY..<r.maxY {
      for x in r.minX..<r.maxX where frame.pixels[y * width + x] != 0 {
        let was = cleared.shown(x: x, y: y)
        guard was <= 0xFF_FFFF, known.insert(was).inserted else { continue }
        colors.append(was)
        if colors.count > Self.localPaletteSize { break search }
      }
    }
    if colors.count <= Self.localPaletteSize {
      frame.localPalette = colors
      return
    }
    // Too many to add: a palette of the frame's own again, chosen for the true colours of what
    // it draws and of what it draws again together.
    var counted: [UInt32: Int] = [:]
    if let changed = frame.rect {
      for y in changed.minY..<changed.maxY {
        for x in changed.minX..<changed.maxX
        where frame.indices[(y - changed.minY) * changed.width + x - changed.minX]
          != GIFFrame.unchangedIndex
        {
          counted[GIFPalette.rgb(frame.pixels[y * width + x]), default: 0] += 1
        }
      }
    }
    for y in r.minY..<r.maxY {
      for x in r.minX..<r.maxX where frame.pixels[y * width + x] != 0 {
        counted[GIFPalette.rgb(frame.pixels[y * width + x]), default: 0] += 1
      }
    }
    let truths = counted.keys.sorted()  // a fixed order: the same palette every run
    let own = Quantizer(maximumColors: Self.localPaletteSize, refinementPasses: 3).quantize(
      truths, counts: truths.map { counted[$0] ?? 0 }
    ).palette
    let nearest = Quantizer.nearest(truths, in: own)
    var index: [UInt32: UInt8] = [:]
    for (i, truth) in truths.enumerated() { index[truth] = UInt8(truncatingIfNeeded: nearest[i]) }
    if let changed = frame.rect {
      for y in changed.minY..<changed.maxY {
        for x in changed.minX..<changed.maxX {
          let k = (y - changed.minY) * changed.width + x - changed.minX
          guard frame.indices[k] != GIFFrame.unchangedIndex else { continue }
          frame.indices[k] = index[GIFPalette.rgb(frame.pixels[y * width + x])] ?? 0
        }
      }
    }
    frame.localPalette = own
  }

  /// The index a pixel that was cleared and stays is drawn again with: the colour it showed
  /// when the palette has it (nothing visibly changes), else the palette's nearest to its true
  /// colour.
  private struct RedrawIndex {
    let colors: [UInt32]
    var positions: [UInt32: Int] = [:]
    var nearest: [UInt32: Int] = [:]

    init(colors: [UInt32]) { self.colors = colors }

    mutating func index(was shown: UInt32, truth: UInt32) -> Int {
      if positions.isEmpty {
        for (i, c) in colors.enumerated() where positions[c] == nil { positions[c] = i }
      }
      if let i = positions[shown] { return i }
      let rgb = GIFPalette.rgb(truth)
      if let i = nearest[rgb] { return i }
      var best = 0
      var bestDistance = Int.max
      for (i, c) in colors.enumerated() {
        let d = Quantizer.distance(rgb, c)
        if d < bestDistance { (best, bestDistance) = (i, d) }
      }
      nearest[rgb] = best
      return best
    }
  }

  /// Writes the last frame and the trailer.
  public func finish() throws(CodecError) {
    try flush()
    var error: Int32 = 0
    if let gif, EGifCloseFile(gif, &error) != cgif_ok {
      self.gif = nil
      throw failure(error)
    }
    gif = nil
  }

  // MARK: - Frames

  /// Below this mean squared error per channel (on the pixels that changed) the global palette
  /// is kept without trying a local one: the frame is already within 1 level RMS.
  static let localPaletteFloor = 1.0
  /// Above this mean squared error (4 levels RMS) the global palette fits a frame badly, and a
  /// palette of its own is used if it divides the error by `localPaletteGain`. Between the
  /// floor and here only an exact palette is worth its bytes: a local palette's finer steps
  /// otherwise cost more LZW bytes than they buy (measured on both demo scenes).
  static let localPalettePoorFit = 16.0
  /// Colours in a frame's own palette (the 256th entry is the transparent index).
  static let localPaletteSize = 255
  /// A badly fitted frame gets its own palette when that divides the squared error by at least
  /// this much.
  static let localPaletteGain = 4.0

  /// The part of `frame` whose colours differ from `previous`, mapped to `palette` (or, when that
  /// fits them poorly, to a palette of its own). Pure, so frames are prepared on several threads.
  /// `firstPalette`, when given, is used as the first frame's own palette (chosen knowing which
  /// of its pixels stay on screen for the whole animation). For a `transparent` GIF both frames
  /// are matted (`GIFMatte`): their 0 pixels take no colour and are left to the encoder.
  public static func prepare(
    _ frame: Pixmap, previous: Pixmap?, palette: GIFPalette, firstPalette: GIFPalette? = nil,
    transparent: Bool = false
  ) -> GIFFrame {
    let (width, height) = (frame.width, frame.height)
    let rect: IntRect?
    let before = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
    if let before {
      rect = changedRect(before.pixels, frame.pixels, width: width, height: height)
    } else {
      rect = IntRect(x: 0, y: 0, width: width, height: height)
    }
    guard let rect else { return GIFFrame(width: width, height: height) }
    // The colours of the changed pixels, counted without a copy of them: memory stays about the
    // histogram and the indices, however large the frame.
    let pixels = frame.pixels
    let earlier = before?.pixels
    // A transparent pixel takes no colour: the encoder clears what it must.
    func changed(_ i: Int) -> Bool {
      (earlier.map { $0[i] != pixels[i] } ?? true) && !(transparent && pixels[i] == 0)
    }
    var histogram = ColorHistogram()
    var run = ColorHistogram.Run()
    var changedCount = 0
    for y in rect.minY..<rect.maxY {
      for i in (y * width + rect.minX)..<(y * width + rect.maxX) where changed(i) {
        _ = histogram.add(GIFPalette.rgb(pixels[i]), run: &run)
        changedCount += 1
      }
    }
    let (nearest, error) = palette.nearest(histogram.colors, counts: histogram.counts)
    var table = nearest.map { UInt8(truncatingIfNeeded: $0) }
    var localPalette: [UInt32]?
    // A palette of the frame's own pays when it cuts the error well below the global one's.
    let channels = Double(max(1, 3 * changedCount))
    if before == nil, let first = firstPalette {
      localPalette = first.colors
      table = first.nearest(histogram.colors, counts: histogram.counts).indices.map {
        UInt8(truncatingIfNeeded: $0)
      }
    } else if Double(error) / channels > localPaletteFloor {
      // Its own palette pays when it is exact (the changed pixels have few colours) or when the
      // shared one fits them badly and the own one is far better.
      if histogram.colors.count <= localPaletteSize {
        localPalette = histogram.colors
        table = histogram.colors.indices.map { UInt8(truncatingIfNeeded: $0) }
      } else if Double(error) / channels > localPalettePoorFit {
        let local = Quantizer(maximumColors: localPaletteSize, refinementPasses: 3).quantize(
          histogram.colors, counts: histogram.counts)
        let localError = zip(histogram.colors.indices, local.indices).reduce(0) { sum, pair in
          sum + Quantizer.distance(histogram.colors[pair.0], local.palette[Int(pair.1)])
            * histogram.counts[pair.0]
        }
        if Double(localError) * localPaletteGain < Double(error) {
          localPalette = local.palette
          table = local.indices
        }
      }
    }
    var indices = [UInt8](repeating: GIFFrame.unchangedIndex, count: rect.width * rect.height)
    run = ColorHistogram.Run()
    var k = 0
    for y in rect.minY..<rect.maxY {
      for i in (y * width + rect.minX)..<(y * width + rect.maxX) {
        if changed(i) {
          indices[k] = table[Int(histogram.index(of: GIFPalette.rgb(pixels[i]), run: &run))]
        }
        k += 1
      }
    }
    return GIFFrame(
      width: width, height: height, rect: rect, indices: indices, localPalette: localPalette,
      pixels: pixels)
  }

  /// The smallest rectangle holding every pixel whose colour changed; nil when none did.
  static func changedRect(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> IntRect? {
    var bounds = PixelBounds()
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
          bounds.add(x: first, through: last, y: y)
        }
      }
    }
    return bounds.rect
  }

  private func flush() throws(CodecError) {
    guard let frame = pending, let gif else { return }
    pending = nil
    var control = GraphicsControlBlock()
    control.DisposalMode =
      frame.disposesToBackground ? cgif_disposal_background : cgif_disposal_do_not
    control.UserInputFlag = false
    control.DelayTime = Int32(min(frame.delay, 65_535))
    control.TransparentColor = Int32(frame.transparent)
    var extensionBytes = [GifByteType](repeating: 0, count: 4)
    let length = EGifGCBToExtension(&control, &extensionBytes)
    guard EGifPutExtension(gif, cgif_graphics_ext, Int32(length), extensionBytes) == cgif_ok else {
      throw failure(gif.pointee.Error)
    }
    let map = try frame.localPalette.map { colors throws(CodecError) in
      try Self.colorMap(colors, reserving: 1)
    }
    defer { if let map { GifFreeMapObject(map) } }
    // giflib 5.2.1 drops (and leaks) the copy it kept of the previous frame's local colour map
    // when the next frame has none: free it first.
    if map == nil, let kept = gif.pointee.Image.ColorMap {
      GifFreeMapObject(kept)
      gif.pointee.Image.ColorMap = nil
    }
    let r = frame.rect
    guard
      EGifPutImageDesc(
        gif, Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height), false, map) == cgif_ok
    else { throw failure(gif.pointee.Error) }
    var indices = frame.indices
    for row in 0..<r.height {
      let ok = indices.withUnsafeMutableBufferPointer { buffer in
        EGifPutLine(gif, buffer.baseAddress.unsafelyUnwrapped + row * r.width, Int32(r.width))
      }
      guard ok == cgif_ok else { throw failure(gif.pointee.Error) }
    }
  }

  /// A giflib colour map of `colors` plus `reserving` spare entries, rounded up to a power of 2.
  private static func colorMap(
    _ colors: [UInt32], reserving: Int
  ) throws(CodecError) -> UnsafeMutablePointer<ColorMapObject> {
    var size = 2
    while size < colors.count + reserving { size <<= 1 }
    var entries = [GifColorType](repeating: GifColorType(), count: size)
    for (i, c) in colors.enumerated() {
      entries[i] = GifColorType(
        Red: UInt8(c >> 16 & 0xFF), Green: UInt8(c >> 8 & 0xFF), Blue: UInt8(c & 0xFF))
    }
    guard let map = GifMakeMapObject(Int32(size), entries) else {
      throw CodecError(.encodeGIF, message: "cannot make a colour map of \(size) entries")
    }
    return map
  }

  private func putLoop(_ count: Int) throws(CodecError) {
    guard let gif else { return }
    let name = Array("NETSCAPE2.0".utf8)
    let loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF)]
    guard EGifPutExtensionLeader(gif, cgif_application_ext) == cgif_ok,
      EGifPutExtensionBlock(gif, Int32(name.count), name) == cgif_ok,
      EGifPutExtensionBlock(gif, Int32(loop.count), loop) == cgif_ok,
      EGifPutExtensionTrailer(gif) == cgif_ok
    else { throw failure(gif.pointee.Error) }
  }

  /// The output's own error when writing failed; otherwise giflib's message for `code`.
  private func failure(_ code: Int32) -> CodecError {
    if let error = output.failure { return CodecError(error) }
    let text = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    return CodecError(.encodeGIF, message: text)
  }
}

/// Where giflib's output goes: the encoder's sink behind a reference giflib can hold, with the
/// first write error kept (giflib's callback cannot throw).
final class GIFByteSink {
  let sink: any ByteSink
  var failure: FileError?

  init(_ sink: any ByteSink) { self.sink = sink }
}

private func gifWrite(
  _ file: UnsafeMutablePointer<GifFileType>?, _ data: UnsafePointer<GifByteType>?, _ count: Int32
) -> Int32 {
  guard let file, let data, let user = file.pointee.UserData else { return 0 }
  let output = Unmanaged<GIFByteSink>.fromOpaque(user).takeUnretainedValue()
  guard output.failure == nil else { return 0 }
  do throws(FileError) {
    try output.sink.write(UnsafeRawBufferPointer(start: data, count: Int(count)))
  } catch {
    output.failure = error
    return 0
  }
  return count
}
