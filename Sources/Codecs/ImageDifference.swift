import Dispatch
import Raster

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How two images of one size differ, measured on straight RGBA8 pixels: the canonical form in
/// which PNG colour types, bit depths and optimisers no longer matter.
public struct ImageDifference: Sendable, CustomStringConvertible {
  /// Pixels with some channel differing by more than the tolerance.
  public private(set) var differingPixels = 0
  /// The largest difference of any channel of any pixel, tolerated or not.
  public private(set) var maximumDelta = 0
  /// The first differing pixel in reading order.
  public private(set) var first: (x: Int, y: Int)?
  /// The differing pixels' bounds: the smallest rectangle holding every one (`maxX`, `maxY`
  /// exclusive, as every `IntRect`).
  public var box: IntRect? { bounds.rect }
  private var bounds = PixelBounds()
  /// Perceptual comparisons: pixels over the threshold excused as anti-aliasing, and the
  /// largest OKLab distance of a pixel that counts.
  public private(set) var excusedPixels = 0
  public private(set) var maximumDistance = 0.0
  /// The method's name, for the description.
  private var perceptual = false

  /// Compares `expected` and `actual` (straight RGBA8, `width` × `height`) by `method`, in bands
  /// of rows on the cores (each band's bytes compared by `memcmp` first), merged in order: the
  /// same figures whatever the number of bands.
  public init(
    expected: [UInt8], actual: [UInt8], width: Int, height: Int, method: ComparisonMethod
  ) {
    self.init()
    let pixels = min(expected.count, actual.count, width * height * 4) / 4
    guard pixels > 0, width > 0 else { return }
    if case .perceptual = method { perceptual = true }
    let rows = pixels / width
    let bandCount = RowBands<ImageDifference>.count(rows: rows)
    let partials = RowBands<ImageDifference>(count: bandCount)
    DispatchQueue.concurrentPerform(iterations: bandCount) { band in
      let first = rows * band / bandCount * width
      let end = band == bandCount - 1 ? pixels : rows * (band + 1) / bandCount * width
      partials.store(
        Self.band(
          expected, actual, width: width, height: height, pixels: first..<end, method: method),
        at: band)
    }
    for band in 0..<bandCount {
      let part = partials.take(band) ?? ImageDifference()
      differingPixels += part.differingPixels
      excusedPixels += part.excusedPixels
      maximumDelta = max(maximumDelta, part.maximumDelta)
      maximumDistance = max(maximumDistance, part.maximumDistance)
      if first == nil { first = part.first }
      if let box = part.box { bounds.add(box) }
    }
  }

  /// One band's difference: nothing when its bytes are equal, else judged by `method`.
  private static func band(
    _ expected: [UInt8], _ actual: [UInt8], width: Int, height: Int, pixels: Range<Int>,
    method: ComparisonMethod
  ) -> ImageDifference {
    let differs = expected.withUnsafeBytes { e in
      actual.withUnsafeBytes { a in
        guard let ep = e.baseAddress, let ap = a.baseAddress else { return false }
        return memcmp(ep + pixels.lowerBound * 4, ap + pixels.lowerBound * 4, pixels.count * 4)
          != 0
      }
    }
    guard differs else { return ImageDifference() }
    switch method {
    case .exact(let tolerance):
      var part = ImageDifference()
      expected.withUnsafeBytes { e in
        actual.withUnsafeBytes { a in
          part.compareExactly(e, a, pixels: pixels, width: width, tolerance: tolerance)
        }
      }
      return part
    case .perceptual(let threshold):
      return perceptualBand(
        expected, actual, width: width, height: height, pixels: pixels,
        threshold: Float(threshold))
    }
  }

  /// The perceptual judgement of `pixels` (indices in reading order): equal eight-byte words
  /// skipped, each other pixel judged by `PerceptualDifference.verdict` (which reads neighbours
  /// in any row).
  private static func perceptualBand(
    _ expected: [UInt8], _ actual: [UInt8], width: Int, height: Int, pixels: Range<Int>,
    threshold: Float
  ) -> ImageDifference {
    // The band's figures and cache are the closure's own locals, not captured variables, so
    // their accesses are checked at compile time rather than one by one at run time.
    expected.withUnsafeBytes { e in
      actual.withUnsafeBytes { a in
        var part = ImageDifference()
        var cache = PerceptualDifference.OKLabCache()
        var pixel = pixels.lowerBound
        let end = pixels.upperBound
        while pixel < end {
          if pixel + 1 < end,
            e.loadUnaligned(fromByteOffset: pixel * 4, as: UInt64.self)
              == a.loadUnaligned(fromByteOffset: pixel * 4, as: UInt64.self)
          {
            pixel += 2
            continue
          }
          let delta = Self.delta(e, a, at: pixel * 4)
          if delta > 0 {
            part.maximumDelta = max(part.maximumDelta, delta)
            let (x, y) = (pixel % width, pixel / width)
            var distance: Float = 0
            switch PerceptualDifference.verdict(
              e, a, x: x, y: y, width: width, height: height, threshold: threshold,
              distance: &distance, cache: &cache)
            {
            case .same: break
            case .antialiased: part.excusedPixels += 1
            case .different:
              part.differingPixels += 1
              part.maximumDistance = max(part.maximumDistance, Double(distance))
              if part.first == nil { part.first = (x, y) }
              part.bounds.add(x: x, y: y)
            }
          }
          pixel += 1
        }
        return part
      }
    }
  }

  /// Compares `expected` and `actual` (straight RGBA8, `width` pixels a row, same length): equal
  /// bytes first (memcmp), then eight bytes at a time, looking at single pixels only where the
  /// words differ. `reference(…)` is the plain pixel-by-pixel twin.
  public init(expected: [UInt8], actual: [UInt8], width: Int, tolerance: UInt8) {
    self.init()
    let count = min(expected.count, actual.count) / 4 * 4
    expected.withUnsafeBytes { e in
      actual.withUnsafeBytes { a in
        guard let ep = e.baseAddress, let ap = a.baseAddress, memcmp(ep, ap, count) != 0 else {
          return
        }
        compareExactly(e, a, pixels: 0..<(count / 4), width: width, tolerance: tolerance)
      }
    }
  }

  /// The exact comparison of `pixels` (indices in reading order), eight bytes at a time, looking
  /// at single pixels only where the words differ.
  private mutating func compareExactly(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, pixels: Range<Int>, width: Int,
    tolerance: UInt8
  ) {
    var pixel = pixels.lowerBound
    while pixel + 1 < pixels.upperBound {
      if e.loadUnaligned(fromByteOffset: pixel * 4, as: UInt64.self)
        != a.loadUnaligned(fromByteOffset: pixel * 4, as: UInt64.self)
      {
        comparePixel(e, a, pixel, width: width, tolerance: tolerance)
        comparePixel(e, a, pixel + 1, width: width, tolerance: tolerance)
      }
      pixel += 2
    }
    if pixel < pixels.upperBound { comparePixel(e, a, pixel, width: width, tolerance: tolerance) }
  }

  /// The plain twin of `init(expected:actual:width:tolerance:)`: every pixel, channel by channel.
  public static func reference(
    expected: [UInt8], actual: [UInt8], width: Int, tolerance: UInt8
  ) -> ImageDifference {
    var difference = ImageDifference()
    let count = min(expected.count, actual.count) / 4 * 4
    var i = 0
    while i < count {
      var delta = 0
      if expected[i + 3] != 0 || actual[i + 3] != 0 {
        for c in 0..<4 { delta = max(delta, abs(Int(expected[i + c]) - Int(actual[i + c]))) }
      }
      if delta > 0 {
        difference.record(delta: delta, pixel: i / 4, width: width, tolerance: tolerance)
      }
      i += 4
    }
    return difference
  }

  private init() {}

  /// The difference of two images with the same pixels, by any method: none at all.
  public static var identical: ImageDifference { ImageDifference() }

  private mutating func comparePixel(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, _ pixel: Int, width: Int,
    tolerance: UInt8
  ) {
    let delta = Self.delta(e, a, at: pixel * 4)
    if delta > 0 { record(delta: delta, pixel: pixel, width: width, tolerance: tolerance) }
  }

  /// The largest difference of a channel between the straight RGBA8 pixels at byte offset `i`
  /// of `e` and `a`; 0 when both are fully transparent, whose colour channels mean nothing (an
  /// optimiser may set them to anything, or an encoder keep what was drawn before).
  @inline(__always)
  static func delta(_ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, at i: Int) -> Int {
    if e[i + 3] == 0 && a[i + 3] == 0 { return 0 }
    var delta = 0
    for c in 0..<4 { delta = max(delta, abs(Int(e[i + c]) - Int(a[i + c]))) }
    return delta
  }

  private mutating func record(delta: Int, pixel: Int, width: Int, tolerance: UInt8) {
    maximumDelta = max(maximumDelta, delta)
    guard delta > Int(tolerance) else { return }
    differingPixels += 1
    let (x, y) = (pixel % width, pixel / width)
    if first == nil { first = (x, y) }
    bounds.add(x: x, y: y)
  }

  public var description: String {
    let excused =
      excusedPixels > 0
      ? ", \(excusedPixels) anti-aliased pixel\(excusedPixels == 1 ? "" : "s") excused" : ""
    guard let first, let box else {
      return maximumDelta == 0
        ? "identical"
        : perceptual
          ? "perceptually the same (largest channel delta \(maximumDelta)\(excused))"
          : "within tolerance (largest channel delta \(maximumDelta))"
    }
    let distance =
      perceptual ? ", largest ΔE \((maximumDistance * 1000).rounded() / 1000)" : ""
    return
      "\(differingPixels) pixels differ\(distance), largest channel delta \(maximumDelta)\(excused), "
      + "first at (\(first.x), \(first.y)), all within (\(box.minX), \(box.minY))–"
      + "(\(box.maxX - 1), \(box.maxY - 1))"
  }

  /// How the difference image is laid out.
  public enum Style: String, Sendable, CaseIterable {
    /// Differing pixels in magenta over a faded copy of the expected image.
    case overlay
    /// Expected | actual | overlay, side by side.
    case triptych
  }

  /// The difference image (straight RGBA8) and its width.
  public static func image(
    expected: [UInt8], actual: [UInt8], width: Int, height: Int, tolerance: UInt8, style: Style
  ) -> (rgba: [UInt8], width: Int) {
    image(
      expected: expected, actual: actual, width: width, height: height,
      method: .exact(tolerance: tolerance), style: style)
  }

  /// The difference image by `method`: pixels that count in magenta, anti-aliased pixels a
  /// perceptual comparison excused in yellow, over a faded copy of the expected image.
  public static func image(
    expected: [UInt8], actual: [UInt8], width: Int, height: Int, method: ComparisonMethod,
    style: Style
  ) -> (rgba: [UInt8], width: Int) {
    var overlay = [UInt8](repeating: 255, count: width * height * 4)
    var cache = PerceptualDifference.OKLabCache()
    expected.withUnsafeBytes { e in
      actual.withUnsafeBytes { a in
        for i in stride(from: 0, to: overlay.count, by: 4) {
          let delta = Self.delta(e, a, at: i)
          var verdict = PerceptualDifference.Verdict.same
          switch method {
          case .exact(let tolerance): if delta > Int(tolerance) { verdict = .different }
          case .perceptual(let threshold):
            if delta > 0 {
              verdict = PerceptualDifference.verdict(
                e, a, x: i / 4 % width, y: i / 4 / width, width: width, height: height,
                threshold: Float(threshold), cache: &cache)
            }
          }
          switch verdict {
          case .different: (overlay[i], overlay[i + 1], overlay[i + 2]) = (255, 0, 255)
          case .antialiased: (overlay[i], overlay[i + 1], overlay[i + 2]) = (255, 214, 0)
          case .same:
            for c in 0..<3 { overlay[i + c] = UInt8(255 - (255 - Int(expected[i + c])) / 4) }
          }
        }
      }
    }
    guard style == .triptych else { return (overlay, width) }
    var out = [UInt8](repeating: 255, count: width * 3 * height * 4)
    let row = width * 4
    for y in 0..<height {
      for (k, source) in [expected, actual, overlay].enumerated() {
        let from = y * row
        let to = (y * width * 3 + k * width) * 4
        out.replaceSubrange(to..<(to + row), with: source[from..<(from + row)])
      }
    }
    return (out, width * 3)
  }
}
