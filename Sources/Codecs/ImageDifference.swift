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

  /// Compares `expected` and `actual` (straight RGBA8, `width` pixels a row, same length): equal
  /// bytes first (memcmp), then eight bytes at a time, looking at single pixels only where the
  /// words differ. `reference(…)` is the plain pixel-by-pixel twin.
  public init(expected: [UInt8], actual: [UInt8], width: Int, tolerance: UInt8) {
    let count = min(expected.count, actual.count) / 4 * 4
    expected.withUnsafeBytes { e in
      actual.withUnsafeBytes { a in
        guard let ep = e.baseAddress, let ap = a.baseAddress, memcmp(ep, ap, count) != 0 else {
          return
        }
        let words = count / 8
        var w = 0
        while w < words {
          let x = e.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)
          let y = a.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)
          if x != y {
            comparePixel(e, a, 2 * w, width: width, tolerance: tolerance)
            comparePixel(e, a, 2 * w + 1, width: width, tolerance: tolerance)
          }
          w += 1
        }
        if words * 8 < count { comparePixel(e, a, words * 2, width: width, tolerance: tolerance) }
      }
    }
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
      for c in 0..<4 { delta = max(delta, abs(Int(expected[i + c]) - Int(actual[i + c]))) }
      if delta > 0 {
        difference.record(delta: delta, pixel: i / 4, width: width, tolerance: tolerance)
      }
      i += 4
    }
    return difference
  }

  private init() {}

  private mutating func comparePixel(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, _ pixel: Int, width: Int,
    tolerance: UInt8
  ) {
    var delta = 0
    for c in 0..<4 { delta = max(delta, abs(Int(e[pixel * 4 + c]) - Int(a[pixel * 4 + c]))) }
    if delta > 0 { record(delta: delta, pixel: pixel, width: width, tolerance: tolerance) }
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
    guard let first, let box else {
      return maximumDelta == 0
        ? "identical" : "within tolerance (largest channel delta \(maximumDelta))"
    }
    return
      "\(differingPixels) pixels differ, largest channel delta \(maximumDelta), first at (\(first.x), "
      + "\(first.y)), all within (\(box.minX), \(box.minY))–(\(box.maxX - 1), \(box.maxY - 1))"
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
    var overlay = [UInt8](repeating: 255, count: width * height * 4)
    for i in stride(from: 0, to: overlay.count, by: 4) {
      var delta = 0
      for c in 0..<4 { delta = max(delta, abs(Int(expected[i + c]) - Int(actual[i + c]))) }
      if delta > Int(tolerance) {
        (overlay[i], overlay[i + 1], overlay[i + 2]) = (255, 0, 255)
      } else {
        for c in 0..<3 { overlay[i + c] = UInt8(255 - (255 - Int(expected[i + c])) / 4) }
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
