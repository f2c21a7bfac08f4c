/// The colours a GIF's frames share: at most 255 (index 255 is kept for transparency), chosen by
/// `Quantizer` from sample frames, with a fast nearest-colour lookup.
public struct GIFPalette: Hashable, Sendable {
  /// 0xRRGGBB entries: at least one (black when none is given, as when every sampled frame is
  /// transparent), so every colour has a nearest entry.
  public let colors: [UInt32]

  public init(colors: [UInt32]) {
    self.colors = colors.isEmpty ? [0] : Array(colors.prefix(255))
  }

  /// A palette for frames like `samples` (premultiplied, opaque).
  public static func from(_ samples: [[UInt32]]) -> GIFPalette {
    var counts = ColorCounts()
    for pixels in samples { counts.add(ColorCounts(pixels)) }
    return from(counts)
  }

  /// A palette for the colours counted in sample frames.
  public static func from(_ counts: ColorCounts, maximumColors: Int = 255) -> GIFPalette {
    GIFPalette(
      colors: Quantizer(maximumColors: min(255, maximumColors), refinementPasses: 10).quantize(
        counts.colors, counts: counts.counts
      ).palette)
  }

  /// A palette for the first frame that favours what stays on screen: pixels equal in `first`
  /// and `last` (static content, drawn once and shown throughout) weigh `persistence` times as
  /// much as the rest.
  public static func forFirstFrame(
    _ first: [UInt32], last: [UInt32], persistence: Int, skippingTransparent: Bool = false,
    maximumColors: Int = 255
  ) -> GIFPalette {
    var histogram = ColorHistogram()
    for pixel in first where !(skippingTransparent && pixel == 0) { histogram.add(rgb(pixel)) }
    var counts = histogram.counts
    // Pixels that stay to the last frame count `persistence` times: added a run of one colour
    // at a time.
    var run = ColorHistogram.Run()
    var (staying, stayingCount): (UInt32, Int) = (0, 0)
    first.withUnsafeBufferPointer { first in
      last.withUnsafeBufferPointer { last in
        for i in 0..<min(first.count, last.count) {
          let pixel = first[i]
          guard last[i] == pixel, !(skippingTransparent && pixel == 0) else { continue }
          if pixel != staying, stayingCount > 0 {
            counts[Int(histogram.index(of: rgb(staying), run: &run))] +=
              (persistence - 1) * stayingCount
            stayingCount = 0
          }
          (staying, stayingCount) = (pixel, stayingCount + 1)
        }
      }
    }
    if stayingCount > 0 {
      counts[Int(histogram.index(of: rgb(staying), run: &run))] += (persistence - 1) * stayingCount
    }
    let result = Quantizer(maximumColors: min(255, maximumColors), refinementPasses: 10).quantize(
      histogram.colors, counts: counts)
    return GIFPalette(colors: result.palette)
  }

  /// 0xRRGGBB of a packed premultiplied opaque pixel (r in the low byte).
  @inline(__always)
  static func rgb(_ packed: UInt32) -> UInt32 {
    (packed & 0xFF) << 16 | (packed >> 8 & 0xFF) << 8 | (packed >> 16 & 0xFF)
  }

  /// The nearest entry to each colour, and the summed squared error weighted by `counts`.
  func nearest(_ colors: [UInt32], counts: [Int]) -> (indices: [Int], squaredError: Int) {
    let indices = Quantizer.nearest(colors, in: self.colors)
    var error = 0
    for (i, color) in colors.enumerated() {
      error += Quantizer.distance(color, self.colors[indices[i]]) * counts[i]
    }
    return (indices, error)
  }
}

/// How often each colour (0xRRGGBB) occurs in some frames, colours in order of first
/// appearance: what the global palette is chosen from, gathered frame by frame so the frames
/// need not all be in memory at once.
public struct ColorCounts: Sendable {
  public private(set) var colors: [UInt32] = []
  public private(set) var counts: [Int] = []
  private var positions: [UInt32: Int] = [:]

  public init() {}

  /// The colours of one frame's premultiplied opaque pixels; with `skippingTransparent`, a
  /// matted frame's (`GIFMatte`), whose 0 pixels are transparent and have no colour.
  ///
  /// Counted a run of equal pixels at a time (UI frames are mostly runs): the same colours in
  /// the same order and the same counts as one pixel at a time.
  public init(_ pixels: [UInt32], skippingTransparent: Bool = false) {
    var histogram = ColorHistogram()
    pixels.withUnsafeBufferPointer { pixels in
      var start = 0
      while start < pixels.count {
        let pixel = pixels[start]
        var end = start &+ 1
        while end < pixels.count, pixels[end] == pixel { end &+= 1 }
        if !(skippingTransparent && pixel == 0) {
          histogram.add(GIFPalette.rgb(pixel), count: end &- start)
        }
        start = end
      }
    }
    colors = histogram.colors
    counts = histogram.counts
  }

  /// Adds `other`'s counts; its new colours come after this one's, in their order.
  public mutating func add(_ other: ColorCounts) {
    if positions.isEmpty {
      for (i, color) in colors.enumerated() { positions[color] = i }
    }
    for (color, count) in zip(other.colors, other.counts) {
      if let at = positions[color] {
        counts[at] += count
      } else {
        positions[color] = colors.count
        colors.append(color)
        counts.append(count)
      }
    }
  }
}
