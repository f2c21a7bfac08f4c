import CPixelKernels
import FileIO
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// Writes an animated GIF frame by frame, keeping only the previous frame: the container itself,
/// the image data through our LZW coder (`GIFLZW`).
///
/// Frames share one global palette (`GIFPalette`, chosen from sample frames by `Quantizer`), or
/// take one of their own of 127 or 255 colours where that buys error cheaply enough in bytes
/// (`GIFPaletteChoice`). When the picture holds still, the first identical frame redraws the
/// pixels whose shown colour is not their true one. Each frame stores only the
/// rectangle of pixels whose shown colour changes (colours compared, not indices); pixels inside it
/// that keep their colour use the transparent index and show the previous frame (disposal "do not
/// dispose"). A frame identical to the one before lengthens its delay instead.
/// Delays are in centiseconds and never below 2. The NETSCAPE2.0 block makes it loop (see
/// `netscapeLoopCount`: its count is of repeats).
///
/// Pixels that keep what is shown may be coded transparent or with the colour they show,
/// whichever lengthens the LZW string (lossless); `add(_:delay:loss:)` with a loss lets a pixel
/// take a colour within that squared error of its true colour to the same end (lossy).
public final class GIFEncoder {
  public let width: Int
  public let height: Int
  /// The global colour table every frame uses unless it needs its own.
  public let palette: GIFPalette
  /// Where the bytes go, as they are made.
  private let output: any ByteSink
  /// The LZW coder's tables, reused frame after frame.
  private let lzw = GIFLZW()
  /// The index of each colour of the palette last used, and that palette.
  private var lookup = PaletteLookup([])
  private var lookupColors: [UInt32] = []
  /// Whether the trailer was written.
  private var finished = false
  /// Bytes given to the output so far.
  public private(set) var bytesWritten = 0
  /// Bytes of the image data of the frame last added (its LZW codes in sub-blocks and its headers).
  public private(set) var lastFrameBytes = 0
  /// With `measuresError`: per pixel, the squared error (R, G, B summed) between what is shown and
  /// the true colour, and their sum over the frame.
  private var pixelError: [Int32] = []
  public private(set) var shownSquaredError = 0
  /// The RGB (0xRRGGBB) each pixel shows after the frames written so far.
  private var displayed: [UInt32]
  /// Whether frames may have transparent pixels (matted by `GIFMatte`: alpha 0 or 255).
  public let isTransparent: Bool
  /// What `displayed` holds for a transparent pixel (above every 0xRRGGBB, below "unset").
  static let clearShown: UInt32 = 0x0100_0000
  /// The last frame given to `add(_:delay:)` as a pixmap.
  private var previous: Pixmap?
  /// Frames in a row identical to the one before.
  private var stillFrames = 0
  /// The frame waiting to be written, so an identical successor can extend its delay.
  private var pending: PendingFrame?

  /// A frame ready to write: its rectangle, indices (transparent where the pixel keeps what the
  /// previous frame showed), local palette if it has one, and its LZW codes (nil when the indices
  /// changed after coding).
  private struct PendingFrame {
    var rect: IntRect
    var indices: [UInt8]
    var codes: [UInt8]? = nil
    var localPalette: [UInt32]?
    var transparent: Int
    var delay: Int
    /// Whether the decoder clears the rectangle to transparent after showing it (disposal 2,
    /// "restore to background"), so the next frame can make pixels transparent.
    var disposesToBackground = false
  }

  /// Starts a GIF of `width`×`height` pixels whose global colour table is `palette`, written to
  /// `output` as it is made; it plays `loopCount` times (0: for ever). A `transparent` GIF
  /// starts clear and takes frames matted by `GIFMatte` (each pixel opaque or 0), whose 0
  /// pixels it shows transparent.
  /// With `measuresError`, `shownSquaredError` follows what each frame shows against its truth.
  public init(
    width: Int, height: Int, palette: GIFPalette, loopCount: Int = 0, transparent: Bool = false,
    measuresError: Bool = false, output: any ByteSink
  ) throws(CodecError) {
    guard (1...65_535).contains(width), (1...65_535).contains(height) else {
      throw CodecError(.encodeGIF, message: "size \(width)×\(height) does not fit a GIF")
    }
    self.output = output
    self.width = width
    self.height = height
    self.palette = palette
    self.isTransparent = transparent
    self.displayed = [UInt32](
      repeating: transparent ? Self.clearShown : 0xFFFF_FFFF, count: width * height)
    if measuresError {
      pixelError = [Int32](repeating: Int32(Self.worstError), count: width * height)
      shownSquaredError = Self.worstError * width * height
    }
    let bits = Self.tableBits(palette.colors.count + 1)
    var header = Array("GIF89a".utf8)
    Self.append16(width, to: &header)
    Self.append16(height, to: &header)
    header += [0x80 | 7 << 4 | UInt8(bits - 1), 0, 0]
    Self.appendTable(palette.colors, bits: bits, to: &header)
    // NETSCAPE2.0's count is of repeats after the first play (browsers play a GIF that has
    // count n n + 1 times, one without the block once; 0 is for ever): `loopCount` plays are
    // a count of loopCount − 1, one play no block.
    if let repeats = Self.netscapeLoopCount(plays: loopCount) {
      header += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8)
      header += [3, 1, UInt8(repeats & 0xFF), UInt8(repeats >> 8 & 0xFF), 0]
    }
    try write(header)
  }

  /// The NETSCAPE2.0 loop count that makes browsers play a GIF `plays` times (0: for ever):
  /// `plays` − 1, or nil (no block) for one play. Chromium: "If the loop count is absent, the
  /// animation cycles once; if it is 0, the animation cycles infinitely; otherwise the
  /// animation plays n + 1 cycles" (cc/paint/image_animation_count.h); Firefox likewise.
  static func netscapeLoopCount(plays: Int) -> Int? {
    plays == 1 ? nil : max(0, plays - 1)
  }

  /// Adds an opaque frame (premultiplied pixels; alpha is ignored) shown for `delay` cs.
  public func add(_ frame: Pixmap, delay: Int) throws(CodecError) {
    try add(Self.prepare(frame, previous: previous, palette: palette), delay: delay)
    previous = frame
  }

  /// Adds a frame prepared by `prepare(_:previous:palette:)` against the frame added before it.
  /// `loss` is the squared error (R, G, B summed) a pixel may take beyond its palette colour's
  /// to lengthen an LZW string; 0 is lossless.
  public func add(_ prepared: GIFFrame, delay: Int, loss: Int = 0) throws(CodecError) {
    var frame = prepared
    guard frame.width == width, frame.height == height else {
      throw CodecError(
        .encodeGIF, message: "frame size \(frame.width)×\(frame.height), GIF \(width)×\(height)")
    }
    let delay = max(2, delay)
    if frame.rect == nil {
      stillFrames += 1
      // Lossy frames leave errors on purpose (`--max-bytes` chose them): not corrected.
      if stillFrames == Self.holdCorrectionAfter, loss <= 0, let fix = correction(for: frame) {
        try add(fix, delay: delay, loss: loss)
        stillFrames = Self.holdCorrectionAfter
        return
      }
    } else {
      stillFrames = 0
    }
    // Pixels that turn transparent while showing a colour: the frame before is disposed to the
    // background over a rectangle holding them, and what that clears but stays is drawn again.
    let cleared = frame.rect.flatMap { isTransparent ? clear(under: frame, in: $0) : nil }
    if let cleared { widen(&frame, toRedraw: cleared) }
    let colors = frame.localPalette ?? palette.colors
    var region = PixelBounds()
    for r in [frame.rect, cleared?.rect].compactMap({ $0 }) { region.add(r) }
    guard let area = region.rect else {
      pending?.delay += delay
      lastFrameBytes = 0
      return
    }
    // Per pixel of the area, the index it is drawn with (-1: not drawn), and their bounds; or,
    // lossless with nothing cleared, the indices and alternates over the area from one kernel
    // that also updates what is shown (`fused`).
    var chosen: [Int16] = []
    var bounds = PixelBounds()
    var fused: GIFFrame.Coded?
    if loss <= 0 && colors != lookupColors {
      (lookup, lookupColors) = (PaletteLookup(colors), colors)
    }
    if cleared == nil, let r = frame.rect, r == area, frame.width == width,
      frame.indices.count == r.width * r.height,
      frame.pixels.count == width * height
    {
      // Nothing cleared: only the changed rectangle's pixels can be drawn (the kernels).
      if loss <= 0 {
        fused = frame.coded(colors: colors, shown: &displayed, lookup: lookup)
        if let drawn = fused?.bounds { bounds.add(drawn) }
      } else {
        chosen = [Int16](repeating: -1, count: area.width * area.height)
        let drawn = frame.drawn(colors: colors, shown: displayed, into: &chosen)
        if let drawn { bounds.add(drawn) }
      }
    } else {
      chosen = [Int16](repeating: -1, count: area.width * area.height)
      chooseDrawn(frame, area: area, cleared: cleared, colors: colors, into: &chosen, &bounds)
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
      lastFrameBytes = 0
      updateError(frame, over: area)
      return
    }
    let count = visible.width * visible.height
    let blank = UInt8(truncatingIfNeeded: transparent)
    var indices: [UInt8]
    // A pixel coded transparent may as well take the index of the colour it shows (a lookup in a
    // small hash of the palette), whichever lengthens the LZW string.
    var alternates: [UInt8]
    let (x0, x1) = (visible.minX, visible.maxX)
    if let fused {
      if visible == area {
        (indices, alternates) = (fused.indices, fused.alternates)
      } else {
        (indices, alternates) = ([], [])
        indices.reserveCapacity(count)
        alternates.reserveCapacity(count)
        for y in visible.minY..<visible.maxY {
          let row = (y - area.minY) * area.width - area.minX
          indices += fused.indices[(row + x0)..<(row + x1)]
          alternates += fused.alternates[(row + x0)..<(row + x1)]
        }
      }
    } else {
      indices = [UInt8](repeating: blank, count: count)
      alternates = [UInt8](repeating: blank, count: loss > 0 ? 0 : count)
    }
    let lookup = self.lookup
    if fused == nil {
      indices.withUnsafeMutableBufferPointer { indices in
        alternates.withUnsafeMutableBufferPointer { alternates in
          chosen.withUnsafeBufferPointer { chosen in
            displayed.withUnsafeBufferPointer { displayed in
              var k = 0
              var (lastShown, lastIndex): (UInt32, UInt8) = (0xFFFF_FFFF, blank)
              for y in visible.minY..<visible.maxY {
                let row = (y - area.minY) * area.width - area.minX
                for x in x0..<x1 {
                  let index = chosen[row + x]
                  if index >= 0 {
                    indices[k] = UInt8(truncatingIfNeeded: index)
                    if loss <= 0 { alternates[k] = UInt8(truncatingIfNeeded: index) }
                  } else if loss <= 0 {
                    let shown = displayed[y * width + x]
                    if shown != lastShown {
                      (lastShown, lastIndex) = (shown, lookup.index(of: shown) ?? blank)
                    }
                    alternates[k] = lastIndex
                  }
                  k += 1
                }
              }
            }
          }
        }
      }
    }
    let codeSize = Self.codeSize(colors.count + 1)
    let codes =
      loss > 0
      ? lossyCodes(&indices, frame, visible, colors: colors, loss: loss, codeSize: codeSize)
      : lzw.encode(&indices, minimumCodeSize: codeSize, alternates: alternates)
    // What is shown: the fused kernel updated it (a pixel the LZW coded with its alternate
    // shows the same colour).
    if fused == nil {
      indices.withUnsafeBufferPointer { indices in
        colors.withUnsafeBufferPointer { colors in
          displayed.withUnsafeMutableBufferPointer { displayed in
            var k = 0
            for y in visible.minY..<visible.maxY {
              for p in (y * width + x0)..<(y * width + x1) {
                let index = Int(indices[k])
                if index != transparent { displayed[p] = colors[index] }
                k += 1
              }
            }
          }
        }
      }
    }
    try flush()
    pending = PendingFrame(
      rect: visible, indices: indices, codes: codes, localPalette: frame.localPalette,
      transparent: transparent, delay: delay)
    lastFrameBytes = Self.imageBytes(codes: codes.count, localColors: frame.localPalette?.count)
    updateError(frame, over: area)
  }

  /// Per pixel of `area`, the index it is drawn with (-1: not drawn) into `chosen`, and their
  /// bounds: a changed pixel `draws` decides on, and a cleared one that must come back.
  private func chooseDrawn(
    _ frame: GIFFrame, area: IntRect, cleared: Cleared?, colors: [UInt32],
    into chosen: inout [Int16], _ bounds: inout PixelBounds
  ) {
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
  }

  /// A frame that redraws, in a palette of its own, the pixels whose shown colour is not their
  /// true colour in `frame` (identical to the one before); nil when none is wrong.
  private func correction(for still: GIFFrame) -> GIFFrame? {
    guard still.pixels.count == width * height else { return nil }
    var bounds = PixelBounds()
    var histogram = ColorHistogram()
    for y in 0..<height {
      for p in (y * width)..<(y * width + width) {
        let pixel = still.pixels[p]
        let shown = displayed[p]
        guard !(isTransparent && pixel == 0), shown <= 0xFF_FFFF else { continue }
        let rgb = GIFPalette.rgb(pixel)
        guard rgb != shown else { continue }
        histogram.add(rgb)
        bounds.add(x: p - y * width, y: y)
      }
    }
    guard let rect = bounds.rect else { return nil }
    let chosen = Quantizer(
      maximumColors: Self.localPaletteSize, refinementPasses: Self.localPalettePasses
    )
    .quantize(histogram.colors, counts: histogram.counts)
    var indices = [UInt8](repeating: GIFFrame.unchangedIndex, count: rect.width * rect.height)
    var run = ColorHistogram.Run()
    var k = 0
    for y in rect.minY..<rect.maxY {
      for p in (y * width + rect.minX)..<(y * width + rect.maxX) {
        let pixel = still.pixels[p]
        let shown = displayed[p]
        if !(isTransparent && pixel == 0), shown <= 0xFF_FFFF, GIFPalette.rgb(pixel) != shown {
          indices[k] = chosen.indices[Int(histogram.index(of: GIFPalette.rgb(pixel), run: &run))]
        }
        k += 1
      }
    }
    return GIFFrame(
      width: width, height: height, rect: rect, indices: indices, localPalette: chosen.palette,
      pixels: still.pixels)
  }

  /// Lossy codes: a pixel may take any index within `loss` of its true colour (`GIFLZWChoices`).
  private func lossyCodes(
    _ indices: inout [UInt8], _ frame: GIFFrame, _ visible: IntRect, colors: [UInt32], loss: Int,
    codeSize: Int
  ) -> [UInt8] {
    let count = visible.width * visible.height
    var truth = [UInt32](repeating: 0, count: count)
    var shown = [UInt32](repeating: 0, count: count)
    var k = 0
    for y in visible.minY..<visible.maxY {
      for p in (y * width + visible.minX)..<(y * width + visible.maxX) {
        shown[k] = displayed[p]
        truth[k] = trueColor(frame, p)
        k += 1
      }
    }
    // The table: the palette, then the transparent index (its entry never shown).
    var table = colors
    table.append(0xFFFF_FFFF)
    return truth.withUnsafeBufferPointer { truth in
      shown.withUnsafeBufferPointer { shown in
        table.withUnsafeBufferPointer { table in
          lzw.encode(
            &indices, minimumCodeSize: codeSize,
            choices: GIFLZWChoices(
              truth: truth, shown: shown, colors: table, transparent: colors.count, bound: loss))
        }
      }
    }
  }

  /// The worst squared error of a pixel: what a transparent pixel shown opaque (or the reverse)
  /// counts.
  static let worstError = 3 * 255 * 255

  /// The true colour of pixel `p` of `frame` (0xRRGGBB, or `clearShown` when transparent).
  @inline(__always)
  private func trueColor(_ frame: GIFFrame, _ p: Int) -> UInt32 {
    let pixel = frame.pixels[p]
    return isTransparent && pixel == 0 ? Self.clearShown : GIFPalette.rgb(pixel)
  }

  /// With error measured: the error of each pixel of `area` after `frame`.
  private func updateError(_ frame: GIFFrame, over area: IntRect) {
    guard !pixelError.isEmpty, !frame.pixels.isEmpty else { return }
    for y in area.minY..<area.maxY {
      for p in (y * width + area.minX)..<(y * width + area.maxX) {
        let (d, t) = (displayed[p], trueColor(frame, p))
        let e =
          d == t ? 0 : d <= 0xFF_FFFF && t <= 0xFF_FFFF ? Quantizer.distance(d, t) : Self.worstError
        shownSquaredError += e - Int(pixelError[p])
        pixelError[p] = Int32(e)
      }
    }
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
    last.codes = nil
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
    guard !finished else { return }
    try flush()
    try write([0x3B])
    finished = true
  }

  // MARK: - Frames

  /// Above this mean squared error per channel (on the pixels that changed) the shared palette
  /// fits a frame poorly, and when the changed pixels have at most `localPaletteSize` colours
  /// the frame takes them as an exact palette of its own, whatever it costs in bytes.
  static let localPaletteFloor = 1.0
  /// Colours in a frame's own palette (the 256th entry is the transparent index).
  static let localPaletteSize = 255
  /// Lloyd passes refining a frame's own palette.
  static let localPalettePasses = 3
  /// After this many frames in a row identical to the one before, a frame redraws the pixels
  /// whose shown colour is not their true one (`correction(for:)`): the picture is holding
  /// still, and its error would count for every frame of the hold.
  static let holdCorrectionAfter = 1

  /// The part of `frame` whose colours differ from `previous`, mapped to `palette` or to a
  /// palette of its own, whichever costs least (`GIFPaletteChoice`). Pure, so frames are prepared on several threads.
  /// `firstPalette`, when given, is used as the first frame's own palette (chosen knowing which
  /// of its pixels stay on screen for the whole animation). For a `transparent` GIF both frames
  /// are matted (`GIFMatte`): their 0 pixels take no colour and are left to the encoder.
  /// A frame's own palette holds at most `maximumColors` colours. `changed`, when given, is where
  /// the caller knows the frame can differ from `previous` (a renderer's damage): the search for
  /// what changed looks only inside it, with the same result.
  public static func prepare(
    _ frame: Pixmap, previous: Pixmap?, palette: GIFPalette, firstPalette: GIFPalette? = nil,
    transparent: Bool = false, maximumColors: Int = 255, changed damage: IntRect? = nil
  ) -> GIFFrame {
    let localPaletteSize = min(maximumColors, Self.localPaletteSize)
    let (width, height) = (frame.width, frame.height)
    let rect: IntRect?
    let before = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
    if let before {
      rect = changedRect(
        before.pixels, frame.pixels, width: width, height: height,
        within: damage ?? frame.bounds)
    } else {
      rect = IntRect(x: 0, y: 0, width: width, height: height)
    }
    guard let rect else { return GIFFrame(width: width, height: height, pixels: frame.pixels) }
    // The colours of the changed pixels, counted without a copy of them: memory stays about the
    // histogram, each pixel's colour index and the indices (5 bytes a pixel of the rectangle).
    let pixels = frame.pixels
    let earlier = before?.pixels
    // Per pixel of the rectangle, its colour's index in the histogram; -1 where it did not
    // change (or, transparent, takes no colour: the encoder clears what it must). One hash a
    // changed pixel, for the histogram, the palette trials' samples and the indices alike.
    var histogram = ColorHistogram()
    var colorOf = [Int32](unsafeUninitializedCapacity: rect.width * rect.height) { _, count in
      count = rect.width * rect.height  // every element is written below
    }
    var changedCount = 0
    pixels.withUnsafeBufferPointer { pixels in
      colorOf.withUnsafeMutableBufferPointer { colorOf in
        (earlier ?? []).withUnsafeBufferPointer { earlier in
          let compares = earlier.count == pixels.count
          var k = 0
          for y in rect.minY..<rect.maxY {
            var i = y * width + rect.minX
            let end = y * width + rect.maxX
            while i < end {
              // Eight pixels at a time where the frame before had them all: they stay -1.
              var stop = end
              if compares, i + 8 <= end, let a = pixels.baseAddress, let b = earlier.baseAddress {
                if Kernels8.same(a + i, b + i) {
                  colorOf.baseAddress.map { ($0 + k).update(repeating: -1, count: 8) }
                  (i, k) = (i + 8, k + 8)
                  continue
                }
                stop = i + 8
              }
              while i < stop {
                let pixel = pixels[i]
                if !(compares && earlier[i] == pixel) && !(transparent && pixel == 0) {
                  colorOf[k] = histogram.add(GIFPalette.rgb(pixel))
                  changedCount += 1
                } else {
                  colorOf[k] = -1
                }
                (i, k) = (i + 1, k + 1)
              }
            }
          }
        }
      }
    }
    let (nearest, error) = palette.nearest(histogram.colors, counts: histogram.counts)
    var table = nearest.map { UInt8(truncatingIfNeeded: $0) }
    var localPalette: [UInt32]?
    if before == nil, let first = firstPalette {
      localPalette = first.colors
      table = first.nearest(histogram.colors, counts: histogram.counts).indices.map {
        UInt8(truncatingIfNeeded: $0)
      }
    } else if Double(error) / Double(max(1, 3 * changedCount)) > localPaletteFloor,
      histogram.colors.count <= localPaletteSize
    {
      // The shared palette fits the changed pixels poorly and they have few colours: exactly.
      localPalette = histogram.colors
      table = histogram.colors.indices.map { UInt8(truncatingIfNeeded: $0) }
    } else if Double(error) / Double(max(1, 3 * changedCount)) > GIFPaletteChoice.floor {
      // The palette of least squared error + λ · bytes: the shared one or one of the frame's own.
      var sampled: [Int32] = []
      for y in stride(from: 0, to: rect.height, by: GIFPaletteChoice.rowStep) {
        sampled += colorOf[(y * rect.width)..<(y * rect.width + rect.width)]
      }
      let choice = GIFPaletteChoice(
        colors: histogram.colors, counts: histogram.counts, sampled: sampled)
      if let own = choice.ownPalette(
        sharedTable: table, sharedCount: palette.colors.count, sharedError: error,
        sizes: [min(127, localPaletteSize), localPaletteSize])
      {
        localPalette = own.palette
        table = own.indices
      }
    }
    let indices = Self.paletteIndices(
      of: colorOf, through: table, unchanged: GIFFrame.unchangedIndex)
    return GIFFrame(
      width: width, height: height, rect: rect, indices: indices, localPalette: localPalette,
      pixels: pixels)
  }

  /// The smallest rectangle holding every pixel whose colour changed; nil when none did. Only
  /// the pixels in `area` are compared (outside it the caller knows that none changed).
  static func changedRect(
    _ a: [UInt32], _ b: [UInt32], width: Int, height: Int,
    within area: IntRect = IntRect(x: 0, y: 0, width: Int.max / 2, height: Int.max / 2)
  ) -> IntRect? {
    var bounds = PixelBounds()
    let box = area.intersection(IntRect(x: 0, y: 0, width: width, height: height))
    guard !box.isEmpty else { return nil }
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return }
        for y in box.minY..<box.maxY {
          let row = y * width
          if memcmp(pa + row + box.minX, pb + row + box.minX, box.width * 4) == 0 { continue }
          var first = box.minX
          while pa[row + first] == pb[row + first] { first += 1 }
          var last = box.maxX - 1
          while pa[row + last] == pb[row + last] { last -= 1 }
          bounds.add(x: first, through: last, y: y)
        }
      }
    }
    return bounds.rect
  }

  private func flush() throws(CodecError) {
    guard var frame = pending else { return }
    pending = nil
    let colorCount = (frame.localPalette ?? palette.colors).count
    let codeSize = Self.codeSize(colorCount + 1)
    let codes = frame.codes ?? lzw.encode(&frame.indices, minimumCodeSize: codeSize)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.imageBytes(codes: codes.count, localColors: colorCount))
    // Graphics control: disposal, transparent index, delay.
    let disposal: UInt8 = frame.disposesToBackground ? 2 : 1
    bytes += [0x21, 0xF9, 4, disposal << 2 | 1]
    Self.append16(min(frame.delay, 65_535), to: &bytes)
    bytes += [UInt8(truncatingIfNeeded: frame.transparent), 0]
    // Image descriptor and the local colour table.
    let r = frame.rect
    bytes.append(0x2C)
    for v in [r.minX, r.minY, r.width, r.height] { Self.append16(v, to: &bytes) }
    if let local = frame.localPalette {
      let bits = Self.tableBits(local.count + 1)
      bytes.append(0x80 | UInt8(bits - 1))
      Self.appendTable(local, bits: bits, to: &bytes)
    } else {
      bytes.append(0)
    }
    bytes.append(UInt8(codeSize))
    var at = 0
    while at < codes.count {
      let n = min(255, codes.count - at)
      bytes.append(UInt8(n))
      bytes += codes[at..<(at + n)]
      at += n
    }
    bytes.append(0)
    try write(bytes)
  }

  /// Bytes a frame's image takes: control block, descriptor, local table, codes in sub-blocks.
  static func imageBytes(codes: Int, localColors: Int?) -> Int {
    8 + 10 + (localColors.map { 3 << tableBits($0 + 1) } ?? 0) + 1 + codes + (codes + 254) / 255 + 1
  }

  /// Bits of a colour table holding `count` entries: the size is 2^bits, at least 2 entries.
  static func tableBits(_ count: Int) -> Int {
    var bits = 1
    while 1 << bits < count { bits += 1 }
    return bits
  }

  /// The LZW minimum code size for a table of `count` entries (at least 2, as GIF asks).
  static func codeSize(_ count: Int) -> Int { max(2, tableBits(count)) }

  private static func append16(_ value: Int, to bytes: inout [UInt8]) {
    bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
  }

  /// A colour table of `colors` padded with black to 2^bits entries.
  private static func appendTable(_ colors: [UInt32], bits: Int, to bytes: inout [UInt8]) {
    for i in 0..<(1 << bits) {
      let c = i < colors.count ? colors[i] : 0
      bytes += [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
    }
  }

  private func write(_ bytes: [UInt8]) throws(CodecError) {
    do throws(FileError) { try output.write(bytes) } catch { throw CodecError(error) }
    bytesWritten += bytes.count
  }
}

/// A palette's colours hashed to their first index: open addressing over 1024 slots.
struct PaletteLookup {
  private var keys = [UInt32](repeating: 0xFFFF_FFFF, count: 1024)
  private var values = [UInt8](repeating: 0, count: 1024)

  init(_ colors: [UInt32]) {
    for (i, c) in colors.enumerated().reversed() {
      var slot = Self.slot(c)
      while keys[slot] != 0xFFFF_FFFF && keys[slot] != c { slot = (slot + 1) & 1023 }
      keys[slot] = c
      values[slot] = UInt8(truncatingIfNeeded: i)
    }
  }

  @inline(__always)
  private static func slot(_ c: UInt32) -> Int { Int((c &* 0x9E37_79B1) >> 22) }

  /// `body` with the tables as the C kernels take them (`cpk_palette_lookup`).
  func withTables<R>(_ body: (cpk_palette_lookup) -> R) -> R {
    keys.withUnsafeBufferPointer { keys in
      values.withUnsafeBufferPointer { values in
        body(cpk_palette_lookup(keys: keys.baseAddress, values: values.baseAddress))
      }
    }
  }

  /// The first index of `color` (0xRRGGBB); nil when the palette lacks it or it is not a colour.
  @inline(__always)
  func index(of color: UInt32) -> UInt8? {
    guard color <= 0xFF_FFFF else { return nil }
    var slot = Self.slot(color)
    while true {
      let key = keys[slot]
      if key == color { return values[slot] }
      if key == 0xFFFF_FFFF { return nil }
      slot = (slot + 1) & 1023
    }
  }
}

extension GIFEncoder {
  /// Each pixel's palette index: `table[colour]` for a pixel's colour index, `unchanged` for an
  /// unchanged pixel (colour index −1). Kernel: eight unchanged pixels at a time (`prepare`
  /// marks unchanged pixels eight at a time, and most of a frame's changed rectangle did not
  /// change), the rest without a branch: −1 reads the entry after the table's. Its plain twin
  /// is `paletteIndicesPlainly`.
  static func paletteIndices(
    of colorOf: [Int32], through table: [UInt8], unchanged: UInt8
  ) -> [UInt8] {
    let entries = table + [unchanged]
    let unchangedEight = UInt64(unchanged) &* 0x0101_0101_0101_0101
    return [UInt8](unsafeUninitializedCapacity: colorOf.count) { indices, initialized in
      colorOf.withUnsafeBufferPointer { colorOf in
        entries.withUnsafeBufferPointer { entries in
          guard let from = colorOf.baseAddress, let to = indices.baseAddress else { return }
          let none = entries.count - 1
          let count = colorOf.count
          var k = 0
          while k < count {
            if k + 8 <= count {
              // All eight −1: every bit of the four 64-bit words set.
              let words = UnsafeRawPointer(from + k)
              var all: UInt64 = ~0
              for w in 0..<4 { all &= words.loadUnaligned(fromByteOffset: 8 * w, as: UInt64.self) }
              if all == ~0 {
                UnsafeMutableRawPointer(to + k).storeBytes(of: unchangedEight, as: UInt64.self)
                k += 8
                continue
              }
            }
            let end = min(count, k + 8)
            while k < end {
              let c = Int(from[k])
              to[k] = entries[c < 0 ? none : c]
              k += 1
            }
          }
        }
      }
      initialized = colorOf.count
    }
  }

  /// `paletteIndices`' plain twin: one pixel at a time.
  static func paletteIndicesPlainly(
    of colorOf: [Int32], through table: [UInt8], unchanged: UInt8
  ) -> [UInt8] {
    colorOf.map { $0 < 0 ? unchanged : table[Int($0)] }
  }
}
