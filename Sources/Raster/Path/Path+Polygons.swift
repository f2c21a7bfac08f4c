extension Path {
  /// The most points `polygons(tolerance:)` makes for one path; past it, curves get fewer
  /// pieces (coarser, never more work).
  public static let maximumPolygonPoints = 1 << 22

  /// Each subpath as a polygon of points in user space (the fill's implicit close implied),
  /// curves split into lines that stay within `tolerance` user units of them (the usual bound on
  /// a Bézier's distance to its chords from its second differences). Used where a path must be
  /// flattened before a map that is not affine: a projection keeps lines straight, so flattening
  /// first and mapping the points is exact for the flattened outline.
  public func polygons(tolerance: Double) -> [[Point]] {
    flattenedSubpaths(tolerance: tolerance).map(\.points)
  }

  /// A subpath flattened: its points, and whether it was closed (`close`), so that its last
  /// point joins its first for a stroke too, not only for a fill.
  public struct FlattenedSubpath: Hashable, Sendable {
    public var points: [Point]
    public var closed: Bool
  }

  /// Each subpath of two points or more flattened as `polygons(tolerance:)` flattens it, with
  /// whether it was closed.
  public func flattenedSubpaths(tolerance: Double) -> [FlattenedSubpath] {
    let tolerance = tolerance > 0 && tolerance.isFinite ? tolerance : Flattener.defaultTolerance
    // A budget per curve so that no path makes more than the maximum.
    let curves = elements.reduce(0) {
      switch $1 {
      case .quad, .cubic: return $0 + 1
      default: return $0
      }
    }
    let budget = max(1, (Self.maximumPolygonPoints - elements.count) / max(1, curves))
    var polygons: [FlattenedSubpath] = []
    var current: [Point] = []
    var last = Point.zero
    func pieces(_ deviation: Double) -> Int {
      // Chords of a curve whose second differences are at most `deviation` stay within
      // deviation/(8n²) of it.
      let n = (deviation / (8 * tolerance)).squareRoot().rounded(.up)
      return Int(min(max(n, 1), Double(budget)))
    }
    for element in elements {
      switch element {
      case .move(let p):
        if current.count > 1 { polygons.append(FlattenedSubpath(points: current, closed: false)) }
        current = [p]
        last = p
      case .line(let p):
        current.append(p)
        last = p
      case .quad(let c, let p):
        let second = (last - c * 2 + p).length * 2
        let n = pieces(second)
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          current.append(last * (u * u) + c * (2 * u * t) + p * (t * t))
        }
        last = p
      case .cubic(let c1, let c2, let p):
        let second = max((last - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length) * 6
        let n = pieces(second)
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          current.append(
            last * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t))
        }
        last = p
      case .close:
        if current.count > 1 { polygons.append(FlattenedSubpath(points: current, closed: true)) }
        last = current.first ?? last
        current = [last]
      }
    }
    if current.count > 1 { polygons.append(FlattenedSubpath(points: current, closed: false)) }
    return polygons
  }

  /// The path flattened, cut to what lies in front of the eye and mapped by `projection`, as a
  /// path of lines in the projection's target space (nil when nothing is in front).
  public func projected(by projection: Projection, tolerance: Double) -> Path? {
    var builder = PathBuilder()
    var any = false
    for polygon in polygons(tolerance: tolerance) {
      let mapped = ProjectedPolygon.clipped(polygon, to: projection)
      guard mapped.count > 2 else { continue }
      builder.move(to: mapped[0])
      for p in mapped.dropFirst() { builder.line(to: p) }
      builder.close()
      any = true
    }
    return any ? builder.build() : nil
  }
}
