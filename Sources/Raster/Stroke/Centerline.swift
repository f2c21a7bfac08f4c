#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One subpath's centre line as a polyline in user space, ready to be stroked.
///
/// Consecutive points differ (zero-length segments are dropped). A single point is a dot: caps
/// only, facing `direction`. `smooth[i]` is true where point i lies inside a curve, where the
/// stroke's true edge is the offset of the curve: its joins follow that, not the stroke's style.
struct Polyline {
  var points: [Point] = []
  var smooth: [Bool] = []
  /// Whether the subpath was closed with `Z`: its ends are joined, not capped.
  var closed = false
  /// The direction a dot's square cap faces (the path's tangent there, or +x).
  var direction = Point(1, 0)
  /// The path's own tangents (units) where it starts and ends, which a curve's first and last
  /// chords only approach: the caps face them. Nil where none is known (a dash cut from the
  /// middle of a piece), and then the caps face the chords.
  var startTangent: Point?
  var endTangent: Point?

  /// Makes room for `more` points, growing the storage at least twofold (repeated calls stay
  /// linear, as appends are).
  mutating func reserve(_ more: Int) {
    let needed = points.count + more
    guard points.capacity < needed else { return }
    let capacity = max(needed, 2 * points.capacity)
    points.reserveCapacity(capacity)
    smooth.reserveCapacity(capacity)
  }

  /// Appends points inside a curve, each differing from the one before it.
  mutating func appendSmooth(_ inner: UnsafeBufferPointer<Point>) {
    points.append(contentsOf: inner)
    smooth.append(contentsOf: repeatElement(true, count: inner.count))
  }

  /// Whether a path that arrives at a point going `arriving` and leaves it going `leaving`
  /// (units) goes on smoothly: the same direction, to within a few millionths of a radian.
  static func continues(_ arriving: Point?, _ leaving: Point?) -> Bool {
    guard let a = arriving, let b = leaving else { return false }
    return a.x * b.x + a.y * b.y > 0 && abs(a.x * b.y - a.y * b.x) <= 1e-6
  }

  /// Marks the last point smooth where the element before it and the one after meet with the
  /// same tangent (two arcs of an ellipse, a curve and the line along its end): the stroke's
  /// edge there is the offset of one smooth curve, not a join. Where the curve turns hard over a
  /// tiny distance (the end of a very flat ellipse), the chords beside the junction can meet at
  /// a large angle, and a miter join of them reached a width past the true edge.
  mutating func markSmoothJunction(arriving: Point?, leaving: Point?) {
    guard points.count > 1, Self.continues(arriving, leaving) else { return }
    smooth[smooth.count - 1] = true
  }

  mutating func append(_ p: Point, smooth isSmooth: Bool) {
    if let last = points.last, last == p { return }
    points.append(p)
    smooth.append(isSmooth)
  }
}

/// Cuts a path into polylines for stroking. Curves are divided until each piece lies within
/// `tolerance` of its chord (Wang's formula, as the fill's flattening) and turns by at most the
/// angle at which a stroke of half-width `halfWidth` strays `tolerance` from its true offset, so
/// both edges of a wide stroke around a curve stay as accurate as the curve.
struct Centerline {
  let tolerance: Double
  let halfWidth: Double
  /// The most a piece may turn: where a stroke of half-width `halfWidth` strays `tolerance` from
  /// its true offset.
  let maximumTurn: Double

  init(tolerance: Double, halfWidth: Double) {
    self.tolerance = tolerance
    self.halfWidth = halfWidth
    let ratio = halfWidth > tolerance ? 1 - tolerance / halfWidth : 0
    maximumTurn = ratio > 0 ? 2 * acos(ratio) : Double.pi / 2
  }

  /// Most pieces a curve is cut into, whatever its size.
  static let maximumPieces = 4_096

  func polylines(of path: Path) -> [Polyline] {
    var result: [Polyline] = []
    var current = Polyline()
    var start = Point.zero
    var pen = Point.zero
    var hasSubpath = false
    func finish(closed: Bool) {
      guard hasSubpath else { return }
      if closed, current.points.count > 1, current.points.last == current.points.first {
        current.points.removeLast()
        current.smooth.removeLast()
      }
      current.closed = closed && current.points.count > 1
      result.append(current)
      current = Polyline()
      hasSubpath = false
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish(closed: false)
        start = p
        pen = p
        hasSubpath = true
        current.append(p, smooth: false)
      case .line(let p):
        if p != pen {
          let direction = Segment(from: pen, to: p).direction
          if current.points.count == 1 {
            (current.direction, current.startTangent) = (direction, direction)
          } else {
            current.markSmoothJunction(arriving: current.endTangent, leaving: direction)
          }
          current.endTangent = direction
        }
        current.append(p, smooth: false)
        pen = p
      case .quad(let c, let p):
        // Degree elevation as weighted sums, which cannot overflow.
        let c1 = pen * (1.0 / 3.0) + c * (2.0 / 3.0)
        let c2 = p * (1.0 / 3.0) + c * (2.0 / 3.0)
        addCubic(pen, c1, c2, p, into: &current)
        pen = p
      case .cubic(let c1, let c2, let p):
        addCubic(pen, c1, c2, p, into: &current)
        pen = p
      case .close:
        if current.points.count > 1 {
          // The closing line, if the subpath does not end at its start, and the junction at
          // the start (vertex 0 of the closed polyline).
          var arriving = current.endTangent
          if let last = current.points.last, last != start {
            let closing = Segment(from: last, to: start).direction
            current.markSmoothJunction(arriving: arriving, leaving: closing)
            arriving = closing
          }
          current.append(start, smooth: false)
          if Polyline.continues(arriving, current.startTangent) { current.smooth[0] = true }
        }
        finish(closed: true)
        // (A path's subpaths each start with `.move`: one follows a close if more is drawn.)
        pen = start
      }
    }
    finish(closed: false)
    return result
  }

  /// How many pieces the cubic is cut into: Wang's formula for the chord distance, and the
  /// control polygon's turning (an upper bound of the curve's) against the largest turn per piece
  /// the stroke's edge allows; at most `maximumPieces`.
  func pieces(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> Int {
    let dd = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
    let flat = (0.75 * dd / tolerance).squareRoot()
    var turning = 0.0
    var previous: Point? = nil
    func turn(to leg: Point) {
      guard leg.x != 0 || leg.y != 0 else { return }
      if let a = previous {
        turning += abs(atan2(a.x * leg.y - a.y * leg.x, a.x * leg.x + a.y * leg.y))
      }
      previous = leg
    }
    turn(to: p1 - p0)
    turn(to: p2 - p1)
    turn(to: p3 - p2)
    let pieces = min(
      Double(Self.maximumPieces), max(1, flat.rounded(.up), (turning / maximumTurn).rounded(.up)))
    return pieces.isFinite ? Int(pieces) : Self.maximumPieces
  }

  private func addCubic(
    _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, into line: inout Polyline
  ) {
    if line.points.count == 1 {
      let first = [p1, p2, p3].first { $0 != p0 }
      if let first {
        line.direction = Segment(from: p0, to: first).direction
        line.startTangent = line.direction
      }
    } else if let first = p1 != p0 ? p1 : p2 != p0 ? p2 : p3 != p0 ? p3 : nil {
      line.markSmoothJunction(
        arriving: line.endTangent, leaving: Segment(from: p0, to: first).direction)
    }
    // The last control point apart from the end (no array: this runs for every curve).
    if let last = p2 != p3 ? p2 : p1 != p3 ? p1 : p0 != p3 ? p0 : nil {
      line.endTangent = Segment(from: last, to: p3).direction
    }
    let n = pieces(p0, p1, p2, p3)
    guard n > 1 else {
      line.append(p3, smooth: false)
      return
    }
    line.reserve(n)
    // As the fill's flattening does, inner vertices move off the curve by 2/3 of the local
    // sagitta (`CubicSteps`): each chord then strays as far outside as inside, and so do the
    // stroke's edges.
    var steps = CubicSteps(p0, p1, p2, p3, pieces: n)
    let reach = max(
      max(abs(p0.x), abs(p0.y), abs(p1.x), abs(p1.y)),
      max(abs(p2.x), abs(p2.y), abs(p3.x), abs(p3.y)))
    guard steps.isFinite, reach <= CubicSteps.safeCoordinate else {
      // Far geometry, whose differences or their products overflow: each vertex from the
      // Bernstein form's weighted sums, which cannot (on the curve: at such sizes the sagitta is
      // nothing).
      let h = 1 / Double(n)
      for i in 1..<n {
        let t = Double(i) * h
        let u = 1 - t
        line.append(
          p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t),
          smooth: true)
      }
      line.append(p3, smooth: false)
      return
    }
    // The vertices go through a small buffer, appended a block at a time: an append a vertex
    // (two checked arrays) cost more than the vertex.
    let blockSize = 64
    withUnsafeTemporaryAllocation(of: Point.self, capacity: blockSize) { block in
      var filled = 0
      var previous = line.points.last ?? Point(.nan, .nan)
      for _ in 1..<n {
        let vertex = steps.next()
        guard vertex != previous else { continue }
        block[filled] = vertex
        filled &+= 1
        previous = vertex
        if filled == blockSize {
          line.appendSmooth(UnsafeBufferPointer(rebasing: block[..<filled]))
          filled = 0
        }
      }
      line.appendSmooth(UnsafeBufferPointer(rebasing: block[..<filled]))
    }
    line.append(p3, smooth: false)
  }
}
