/// A point or vector in a 2-D space whose units the API using it states (user space or pixels).
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double

  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  @inlinable public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(0, 0)

  @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
  @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
  @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
  @inlinable public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }

  /// The point a fraction `t` of the way from `self` to `other` (t = 0 gives `self`).
  @inlinable public func lerp(to other: Point, _ t: Double) -> Point {
    Point(x + (other.x - x) * t, y + (other.y - y) * t)
  }

  /// The Euclidean length of this point taken as a vector.
  @inlinable public var length: Double { (x * x + y * y).squareRoot() }

  /// True when both coordinates are finite (neither NaN nor infinite).
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}
