/// A rectangle of premultiplied RGBA8 pixels in device space, rows top to bottom.
///
/// Storage is one packed UInt32 per pixel (bytes r, g, b, a in memory); `pixels[y * width + x]`.
public struct Pixmap: Hashable, Sendable {
  /// The largest width or height accepted, in pixels.
  public static let maximumSide = 1 << 15
  /// The most pixels one pixmap may hold (256 Mi pixels, 1 GiB).
  public static let maximumPixels = 1 << 28

  public let width: Int
  public let height: Int
  /// Packed premultiplied pixels, row-major.
  public var pixels: [UInt32]

  /// A pixmap filled with `color`; nil when a side is not in 1...maximumSide or the area exceeds
  /// `maximumPixels`.
  public init?(width: Int, height: Int, filledWith color: PremultipliedRGBA8 = .transparent) {
    guard Self.isValidSize(width: width, height: height) else { return nil }
    self.width = width
    self.height = height
    self.pixels = [UInt32](repeating: color.packed, count: width * height)
  }

  /// Wraps existing packed pixels; nil when the count does not match the size.
  public init?(width: Int, height: Int, pixels: [UInt32]) {
    guard Self.isValidSize(width: width, height: height), pixels.count == width * height else {
      return nil
    }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  public static func isValidSize(width: Int, height: Int) -> Bool {
    (1...maximumSide).contains(width) && (1...maximumSide).contains(height)
      && width * height <= maximumPixels
  }

  public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

  public subscript(x: Int, y: Int) -> PremultipliedRGBA8 {
    get { PremultipliedRGBA8(packed: pixels[y * width + x]) }
    set { pixels[y * width + x] = newValue.packed }
  }

  /// Sets every pixel to `color`.
  public mutating func fill(with color: PremultipliedRGBA8) {
    let count = pixels.count
    withUnsafeMutablePixels { Kernels.fill($0, with: color.packed, count: count) }
  }
}
