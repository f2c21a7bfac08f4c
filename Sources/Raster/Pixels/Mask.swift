/// An 8-bit coverage (or alpha) plane in device space: 0 = uncovered, 255 = fully covered.
public struct Mask: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// Row-major coverage, `values[y * width + x]`.
  public var values: [UInt8]

  /// An all-zero mask; nil for sizes `Pixmap` would refuse.
  public init?(width: Int, height: Int) {
    guard Pixmap.isValidSize(width: width, height: height) else { return nil }
    self.width = width
    self.height = height
    self.values = [UInt8](repeating: 0, count: width * height)
  }

  public subscript(x: Int, y: Int) -> UInt8 {
    get { values[y * width + x] }
    set { values[y * width + x] = newValue }
  }
}
