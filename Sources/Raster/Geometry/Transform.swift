#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An affine map `(x, y) -> (a·x + c·y + tx, b·x + d·y + ty)`, usually from user space to device
/// pixels. Composition reads like SwiftUI modifiers: `t.concatenating(u)` applies `t` first.
public struct Transform: Hashable, Sendable {
  public var a: Double
  public var b: Double
  public var c: Double
  public var d: Double
  public var tx: Double
  public var ty: Double

  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  public static func translation(_ x: Double, _ y: Double) -> Transform {
    Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  public static func scale(_ sx: Double, _ sy: Double) -> Transform {
    Transform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `radians`; positive turns +x towards +y (clockwise on a y-down screen).
  public static func rotation(_ radians: Double) -> Transform {
    let (s, c) = (sin(radians), cos(radians))
    return Transform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
  }

  /// The map that applies `self` first and then `next`.
  public func concatenating(_ next: Transform) -> Transform {
    Transform(
      a: a * next.a + b * next.c, b: a * next.b + b * next.d,
      c: c * next.a + d * next.c, d: c * next.b + d * next.d,
      tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
  }

  @inlinable public func apply(_ p: Point) -> Point {
    Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
  }

  public var determinant: Double { a * d - b * c }

  /// The inverse map, or nil when this one is singular or not finite.
  public var inverted: Transform? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let inv = 1 / det
    return Transform(
      a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
      tx: (c * ty - d * tx) * inv, ty: (b * tx - a * ty) * inv)
  }

  /// The largest factor by which this map stretches any length (the larger singular value).
  /// Entries far from 1 (below 1e-75 or above 1e75, whose squares and fourth powers would
  /// underflow to 0 or overflow) are scaled to the largest of them first.
  public var maxScale: Double {
    let largest = Swift.max(Swift.max(abs(a), abs(b)), Swift.max(abs(c), abs(d)))
    guard largest > 0, largest.isFinite else { return largest.isNaN ? 0 : largest }
    let s = largest < 1e-75 || largest > 1e75 ? largest : 1
    let (a, b, c, d) = (self.a / s, self.b / s, self.c / s, self.d / s)
    let p = a * a + b * b + c * c + d * d
    let q = a * d - b * c
    return s * ((p + (Swift.max(0, p * p - 4 * q * q)).squareRoot()) / 2).squareRoot()
  }

  /// The map taking the rect `viewBox` onto `target` with independent x and y scales, so the
  /// view box fills the target exactly (SVG `preserveAspectRatio="none"`).
  public static func mapping(_ viewBox: Rect, stretchedTo target: Rect) -> Transform {
    let sx = target.width / viewBox.width
    let sy = target.height / viewBox.height
    return Transform(
      a: sx, b: 0, c: 0, d: sy, tx: target.minX - viewBox.minX * sx,
      ty: target.minY - viewBox.minY * sy)
  }

  /// The map taking `viewBox` into `target` with one uniform scale, as large as fits, centred on
  /// both axes (SVG `preserveAspectRatio="xMidYMid meet"`).
  public static func mapping(_ viewBox: Rect, fittedInto target: Rect) -> Transform {
    // An axis the view box has no extent on does not limit the scale (a vertical line fits a
    // frame of any width, even 0, by its height).
    let sx = viewBox.width > 0 ? target.width / viewBox.width : .infinity
    let sy = viewBox.height > 0 ? target.height / viewBox.height : .infinity
    let s = Swift.min(sx, sy)
    let tx = target.minX + (target.width - viewBox.width * s) / 2 - viewBox.minX * s
    let ty = target.minY + (target.height - viewBox.height * s) / 2 - viewBox.minY * s
    return Transform(a: s, b: 0, c: 0, d: s, tx: tx, ty: ty)
  }
}
