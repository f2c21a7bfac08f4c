extension Path {
  /// The smallest rectangle that holds the path as drawn (user space): its points and the
  /// extremes of its curves, without the control points that lie off them — as SVG's
  /// `getBBox()` and Core Graphics' `CGPath.boundingBoxOfPath` give it, where `bounds` holds
  /// the control points too. nil for an empty path.
  public var curveBounds: Rect? {
    var box: Rect?
    func include(_ p: Point) {
      box = box?.including(p) ?? Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
    }
    var current = Point(0, 0)
    var start = Point(0, 0)
    for element in elements {
      switch element {
      case .move(let p):
        include(p)
        (current, start) = (p, p)
      case .line(let p):
        include(p)
        current = p
      case .quad(let c, let p):
        for t in Self.quadExtremes(current.x, c.x, p.x) + Self.quadExtremes(current.y, c.y, p.y) {
          let u = 1 - t
          include(
            Point(
              u * u * current.x + 2 * u * t * c.x + t * t * p.x,
              u * u * current.y + 2 * u * t * c.y + t * t * p.y))
        }
        include(p)
        current = p
      case .cubic(let c1, let c2, let p):
        let ts =
          Self.cubicExtremes(current.x, c1.x, c2.x, p.x)
          + Self.cubicExtremes(current.y, c1.y, c2.y, p.y)
        for t in ts {
          let u = 1 - t
          let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
          include(
            Point(
              a * current.x + b * c1.x + c * c2.x + d * p.x,
              a * current.y + b * c1.y + c * c2.y + d * p.y))
        }
        include(p)
        current = p
      case .close:
        current = start
      }
    }
    return box
  }

  /// Where a quadratic Bézier's coordinate (ends a and c, control b) turns, strictly inside
  /// (0, 1): the root of its derivative.
  static func quadExtremes(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    let denominator = a - 2 * b + c
    guard denominator != 0 else { return [] }
    let t = (a - b) / denominator
    return t > 0 && t < 1 ? [t] : []
  }

  /// Where a cubic Bézier's coordinate (p0 … p3) turns, strictly inside (0, 1): the roots of its
  /// derivative, a quadratic in t.
  static func cubicExtremes(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
    // d/dt / 3 = a t² + b t + c.
    let a = -p0 + 3 * p1 - 3 * p2 + p3
    let b = 2 * (p0 - 2 * p1 + p2)
    let c = p1 - p0
    var roots: [Double] = []
    if abs(a) < 1e-12 * max(1, abs(b), abs(c)) {
      if b != 0 { roots = [-c / b] }
    } else {
      let discriminant = b * b - 4 * a * c
      if discriminant >= 0 {
        let s = discriminant.squareRoot()
        // The root without cancellation first, the other from the product of the roots.
        let q = -0.5 * (b + (b < 0 ? -s : s))
        roots = q != 0 ? [q / a, c / q] : [0]
      }
    }
    return roots.filter { $0 > 0 && $0 < 1 }
  }
}
