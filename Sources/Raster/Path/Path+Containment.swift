extension Path {
  /// The tolerance, in user units, to which `contains` and `distance(to:)` flatten curves: a
  /// hundredth of a point, far below a finger's or a pixel's size.
  public static let hitTolerance = 0.01

  /// The winding number of the path about `point` (user space): the subpaths, each closed as a
  /// fill closes it, counted +1 where an edge crosses the horizontal through the point upwards
  /// to its right and −1 where downwards (y down). A point on an edge may count on either side.
  public func winding(at point: Point, tolerance: Double = Path.hitTolerance) -> Int {
    guard let bounds, point.x >= bounds.minX, point.x <= bounds.maxX, point.y >= bounds.minY,
      point.y <= bounds.maxY
    else { return 0 }
    var winding = 0
    for subpath in flattenedSubpaths(tolerance: tolerance) {
      let points = subpath.points
      var a = points[points.count - 1]
      for b in points {
        defer { a = b }
        // Half-open in y, so that a vertex on the horizontal is counted once.
        guard (a.y <= point.y) != (b.y <= point.y) else { continue }
        let x = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
        if x > point.x { winding += b.y < a.y ? 1 : -1 }
      }
    }
    return winding
  }

  /// Whether `point` (user space) lies inside the path filled with `rule`.
  public func contains(
    _ point: Point, rule: FillRule, tolerance: Double = Path.hitTolerance
  )
    -> Bool
  {
    let w = winding(at: point, tolerance: tolerance)
    return rule == .nonzero ? w != 0 : w & 1 != 0
  }

  /// The distance, in user units, from `point` to the path's outline as a stroke follows it:
  /// each subpath's lines, a closed one's closing line included; infinity for an empty path.
  public func distance(to point: Point, tolerance: Double = Path.hitTolerance) -> Double {
    var nearest = Double.infinity
    for subpath in flattenedSubpaths(tolerance: tolerance) {
      let points = subpath.points
      var a = subpath.closed ? points[points.count - 1] : points[0]
      for b in points.dropFirst(subpath.closed ? 0 : 1) {
        defer { a = b }
        let d = b - a
        let squared = d.x * d.x + d.y * d.y
        let along = (point - a).x * d.x + (point - a).y * d.y
        let t = squared > 0 ? min(max(along / squared, 0), 1) : 0
        nearest = min(nearest, (point - (a + d * t)).length)
      }
    }
    return nearest
  }
}
