/// An axis-aligned rectangle in a continuous space (user space or device pixels, as the API using
/// it states). `minX <= maxX` and `minY <= maxY` for any rect made by the initialisers.
public struct Rect: Hashable, Sendable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = Swift.min(minX, maxX)
    self.minY = Swift.min(minY, maxY)
    self.maxX = Swift.max(minX, maxX)
    self.maxY = Swift.max(minY, maxY)
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
  }

  public var width: Double { maxX - minX }
  public var height: Double { maxY - minY }

  /// The smallest rect holding both.
  public func union(_ other: Rect) -> Rect {
    Rect(
      minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
      maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
  }

  /// The overlap of two rects; nil when they do not overlap (touching edges give an empty rect).
  public func intersection(_ other: Rect) -> Rect? {
    let (x0, y0) = (Swift.max(minX, other.minX), Swift.max(minY, other.minY))
    let (x1, y1) = (Swift.min(maxX, other.maxX), Swift.min(maxY, other.maxY))
    guard x0 <= x1, y0 <= y1 else { return nil }
    return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  /// The smallest rect holding this one and `point`.
  public func including(_ point: Point) -> Rect {
    Rect(
      minX: Swift.min(minX, point.x), minY: Swift.min(minY, point.y),
      maxX: Swift.max(maxX, point.x), maxY: Swift.max(maxY, point.y))
  }

  /// The whole pixels this rect touches, as a pixel rect (floor of the minimum, ceiling of the
  /// maximum). Coordinates beyond ±2^30 are clamped so the result is always representable.
  public var roundedOut: IntRect {
    let limit = Double(1 << 30)
    func clamp(_ v: Double) -> Int { Int(Swift.max(-limit, Swift.min(limit, v))) }
    return IntRect(
      minX: clamp(minX.rounded(.down)), minY: clamp(minY.rounded(.down)),
      maxX: clamp(maxX.rounded(.up)), maxY: clamp(maxY.rounded(.up)))
  }
}

/// An axis-aligned rectangle of whole pixels: columns `minX..<maxX`, rows `minY..<maxY`.
public struct IntRect: Hashable, Sendable {
  public var minX: Int
  public var minY: Int
  public var maxX: Int
  public var maxY: Int

  public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
    self.minX = minX
    self.minY = minY
    self.maxX = Swift.max(minX, maxX)
    self.maxY = Swift.max(minY, maxY)
  }

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
  }

  public var width: Int { maxX - minX }
  public var height: Int { maxY - minY }
  public var isEmpty: Bool { maxX <= minX || maxY <= minY }

  /// The pixels in both rects; empty (zero-sized) when they do not overlap.
  public func intersection(_ other: IntRect) -> IntRect {
    let lx = Swift.max(minX, other.minX)
    let ly = Swift.max(minY, other.minY)
    return IntRect(
      minX: lx, minY: ly,
      maxX: Swift.max(lx, Swift.min(maxX, other.maxX)),
      maxY: Swift.max(ly, Swift.min(maxY, other.maxY)))
  }

  /// This rect grown by `amount` pixels on every side (shrunk when negative).
  public func outset(by amount: Int) -> IntRect {
    IntRect(minX: minX - amount, minY: minY - amount, maxX: maxX + amount, maxY: maxY + amount)
  }
}

/// Grows to the smallest pixel rect holding every pixel added.
public struct PixelBounds: Sendable {
  private var minX = Int.max
  private var minY = Int.max
  private var maxX = Int.min
  private var maxY = Int.min

  public init() {}

  /// Adds pixels `x...lastX` of row `y`.
  public mutating func add(x: Int, through lastX: Int? = nil, y: Int) {
    minX = Swift.min(minX, x)
    maxX = Swift.max(maxX, lastX ?? x)
    minY = Swift.min(minY, y)
    maxY = Swift.max(maxY, y)
  }

  /// Adds every pixel of `rect` (nothing when it is empty).
  public mutating func add(_ rect: IntRect) {
    guard !rect.isEmpty else { return }
    add(x: rect.minX, through: rect.maxX - 1, y: rect.minY)
    add(x: rect.minX, y: rect.maxY - 1)
  }

  /// The bounds; nil when nothing was added.
  public var rect: IntRect? {
    maxX < minX ? nil : IntRect(minX: minX, minY: minY, maxX: maxX + 1, maxY: maxY + 1)
  }
}
