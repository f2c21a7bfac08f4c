#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A projective map of the plane (a homography): `(x, y)` goes to `(X / W, Y / W)` with
/// `X = m11·x + m21·y + m31`, `Y = m12·x + m22·y + m32`, `W = m13·x + m23·y + m33` — the
/// row-vector layout of CoreGraphics' `ProjectionTransform`, so an affine `Transform` is the one
/// with `m13 = m23 = 0, m33 = 1`. Straight lines stay straight; points where `W ≤ 0` lie behind
/// the eye and have no image (`apply` returns nil for them). Composition reads like `Transform`'s:
/// `p.concatenating(q)` applies `p` first.
public struct Projection: Hashable, Sendable {
  public var m11, m12, m13: Double
  public var m21, m22, m23: Double
  public var m31, m32, m33: Double

  public init(
    m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double, m31: Double,
    m32: Double, m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }

  /// The affine map as a projection.
  public init(_ t: Transform) {
    self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
  }

  public static let identity = Projection(.identity)

  /// The smallest `W` a point may have to be drawn: points nearer the eye's plane than this
  /// would be magnified more than a million times.
  public static let nearestW = 1e-6

  /// SwiftUI's `rotation3DEffect` (the `_Rotation3DEffect` projection, as Core Animation's
  /// `CATransform3D` composes it): a point of the plane z = 0 is moved so `anchor` (and
  /// `anchorZ` on the z-axis) is the origin, rotated by `radians` about `axis` by the right-hand
  /// rule (positive about z turns +x towards +y, clockwise on a y-down screen, as
  /// `rotationEffect`), seen by an eye at `eyeDistance` in front of the plane (`W = 1 − z/d`,
  /// Core Animation's `m34 = −1/d`; an infinite distance is an orthographic view), and moved
  /// back. Units are the caller's (points). Nil for a zero axis or a distance that is not
  /// positive.
  public static func rotation(
    radians: Double, axis: (x: Double, y: Double, z: Double), anchor: Point, anchorZ: Double = 0,
    eyeDistance: Double
  ) -> Projection? {
    let length = (axis.x * axis.x + axis.y * axis.y + axis.z * axis.z).squareRoot()
    guard length > 0, length.isFinite, eyeDistance > 0, !eyeDistance.isNaN, radians.isFinite
    else { return nil }
    let (ux, uy, uz) = (axis.x / length, axis.y / length, axis.z / length)
    let (s, c) = (sin(radians), cos(radians))
    let k = 1 - c
    // Rodrigues' rotation, column convention: q = R·p.
    let r = [
      [c + ux * ux * k, ux * uy * k - uz * s, ux * uz * k + uy * s],
      [uy * ux * k + uz * s, c + uy * uy * k, uy * uz * k - ux * s],
      [uz * ux * k - uy * s, uz * uy * k + ux * s, c + uz * uz * k],
    ]
    // p = (x − ax, y − ay, −az); q = R·p is affine in (x, y): q = qx·x + qy·y + q0.
    let qx = (r[0][0], r[1][0], r[2][0])
    let qy = (r[0][1], r[1][1], r[2][1])
    func q0(_ row: Int) -> Double {
      -r[row][0] * anchor.x - r[row][1] * anchor.y - r[row][2] * anchorZ
    }
    let inverseDistance = eyeDistance.isInfinite ? 0 : 1 / eyeDistance
    // W = 1 − q.z/d; X = q.x + ax·W; Y = q.y + ay·W.
    let w = (
      x: -qx.2 * inverseDistance, y: -qy.2 * inverseDistance, one: 1 - q0(2) * inverseDistance
    )
    return Projection(
      m11: qx.0 + anchor.x * w.x, m12: qx.1 + anchor.y * w.x, m13: w.x,
      m21: qy.0 + anchor.x * w.y, m22: qy.1 + anchor.y * w.y, m23: w.y,
      m31: q0(0) + anchor.x * w.one, m32: q0(1) + anchor.y * w.one, m33: w.one)
  }

  /// Whether the map is affine (no perspective division).
  public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

  /// The affine part when the map is affine.
  public var affine: Transform? {
    isAffine ? Transform(a: m11, b: m12, c: m21, d: m22, tx: m31, ty: m32) : nil
  }

  /// `W` at `p`: positive in front of the eye.
  @inlinable public func w(_ p: Point) -> Double { m13 * p.x + m23 * p.y + m33 }

  /// The image of `p`, or nil when `p` is behind the eye (`W` below `nearestW`).
  @inlinable public func apply(_ p: Point) -> Point? {
    let w = m13 * p.x + m23 * p.y + m33
    guard w >= Self.nearestW else { return nil }
    return Point((m11 * p.x + m21 * p.y + m31) / w, (m12 * p.x + m22 * p.y + m32) / w)
  }

  /// The map that applies `self` first and then `next`.
  public func concatenating(_ next: Projection) -> Projection {
    Projection(
      m11: m11 * next.m11 + m12 * next.m21 + m13 * next.m31,
      m12: m11 * next.m12 + m12 * next.m22 + m13 * next.m32,
      m13: m11 * next.m13 + m12 * next.m23 + m13 * next.m33,
      m21: m21 * next.m11 + m22 * next.m21 + m23 * next.m31,
      m22: m21 * next.m12 + m22 * next.m22 + m23 * next.m32,
      m23: m21 * next.m13 + m22 * next.m23 + m23 * next.m33,
      m31: m31 * next.m11 + m32 * next.m21 + m33 * next.m31,
      m32: m31 * next.m12 + m32 * next.m22 + m33 * next.m32,
      m33: m31 * next.m13 + m32 * next.m23 + m33 * next.m33)
  }

  /// `t` first, then `self`.
  public func after(_ t: Transform) -> Projection { Projection(t).concatenating(self) }

  /// `self` first, then `t`.
  public func concatenating(_ t: Transform) -> Projection { concatenating(Projection(t)) }

  public var determinant: Double {
    m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31)
      + m13 * (m21 * m32 - m22 * m31)
  }

  /// The inverse map (the adjugate over the determinant), or nil when singular or not finite.
  public var inverted: Projection? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let i = 1 / det
    let inverse = Projection(
      m11: (m22 * m33 - m23 * m32) * i, m12: (m13 * m32 - m12 * m33) * i,
      m13: (m12 * m23 - m13 * m22) * i,
      m21: (m23 * m31 - m21 * m33) * i, m22: (m11 * m33 - m13 * m31) * i,
      m23: (m13 * m21 - m11 * m23) * i,
      m31: (m21 * m32 - m22 * m31) * i, m32: (m12 * m31 - m11 * m32) * i,
      m33: (m11 * m22 - m12 * m21) * i)
    let entries = [
      inverse.m11, inverse.m12, inverse.m13, inverse.m21, inverse.m22, inverse.m23, inverse.m31,
      inverse.m32, inverse.m33,
    ]
    return entries.allSatisfy(\.isFinite) ? inverse : nil
  }

  /// The largest factor by which the map stretches short lengths at `p` (the larger singular
  /// value of its Jacobian there); 0 behind the eye.
  public func localScale(at p: Point) -> Double {
    let w = self.w(p)
    guard w >= Self.nearestW, let image = apply(p) else { return 0 }
    // d(X/W) = (dX − image·dW)/W.
    let jacobian = Transform(
      a: (m11 - image.x * m13) / w, b: (m12 - image.y * m13) / w,
      c: (m21 - image.x * m23) / w, d: (m22 - image.y * m23) / w, tx: 0, ty: 0)
    return jacobian.maxScale
  }

  /// The largest local scale over `box` (the largest is at a corner: `1/W` is largest at one
  /// and the stretch grows with it), in front of the eye.
  public func maxScale(over box: Rect) -> Double {
    box.corners.map(localScale(at:)).max() ?? 0
  }

  /// The device box around the image of the part of `box` in front of the eye, or nil when
  /// none of it is.
  public func bounds(of box: Rect) -> Rect? {
    let polygon = ProjectedPolygon.clipped(box.corners, to: self)
    guard let first = polygon.first else { return nil }
    return polygon.dropFirst().reduce(
      Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
    ) {
      $0.including($1)
    }
  }
}

extension Rect {
  /// The corners, clockwise on a y-down screen from the top left.
  public var corners: [Point] {
    [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
  }
}

/// Polygons through a projection: the part in front of the eye, then mapped.
public enum ProjectedPolygon {
  /// `polygon` (closed, in the projection's source space) cut to the half-plane where `W` is at
  /// least `Projection.nearestW` (Sutherland–Hodgman against one line, which keeps a closed
  /// polygon closed), then mapped point by point. Empty when nothing is in front.
  public static func clipped(_ polygon: [Point], to projection: Projection) -> [Point] {
    guard !polygon.isEmpty else { return [] }
    let limit = Projection.nearestW * 2
    var kept: [Point] = []
    kept.reserveCapacity(polygon.count + 2)
    var previous = polygon[polygon.count - 1]
    var previousW = projection.w(previous)
    for point in polygon {
      let w = projection.w(point)
      if (w >= limit) != (previousW >= limit) {
        let t = (limit - previousW) / (w - previousW)
        kept.append(previous + (point - previous) * t)
      }
      if w >= limit { kept.append(point) }
      (previous, previousW) = (point, w)
    }
    return kept.compactMap { projection.apply($0) }
  }
}
