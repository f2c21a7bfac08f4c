#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a path and a `StrokeStyle` into the outline of its stroke, a path to be filled with the
/// nonzero rule (user space in, user space out).
///
/// Each subpath's centre line (`Centerline`, dashed by `Dasher`) becomes one contour: the left
/// edge forward, the end cap, the right edge back, the start cap — or, for a closed subpath, the
/// two edges as two contours of opposite direction. Where the edge is on the outside of a turn
/// the join is the style's (miter within the limit, else bevel; round; bevel); inside a curve it
/// follows the curve's offset. On the inside of a turn the two edges are joined at the point
/// where they cross when both segments are long enough to hold it; otherwise through the vertex
/// itself (the "pivot"), which makes the outline cross itself there. Every segment's rectangle
/// and every join's wedge is then traced with the same orientation, so the nonzero winding is
/// positive exactly on their union: self-overlaps never double, and a turn tighter than the
/// half-width leaves no hole and no spike. The rasterizer resolves the crossing rows exactly.
public struct Stroker: Sendable {
  /// The largest distance between a curve (or round join or cap) and the lines that stand for
  /// it, in user units: the fill's tolerance divided by the transform's scale.
  public let tolerance: Double

  public init(tolerance: Double) {
    self.tolerance = max(tolerance, 1e-9)
  }

  /// The stroker whose curves are as accurate as the fill's after `transform` (user space to
  /// device pixels).
  public init(transform: Transform, deviceTolerance: Double = Flattener.defaultTolerance) {
    let scale = transform.maxScale
    self.init(tolerance: scale > 0 && scale.isFinite ? deviceTolerance / scale : deviceTolerance)
  }

  /// The most outline points a stroke may have (`estimatedPoints`), as many as the elements a
  /// path may have (4 M): a few hundred MB of outline and lines, about a second of filling.
  public static let maximumPoints = 1 << 22

  /// An upper estimate of the outline's points, made without building it: the centre line's
  /// pieces (as `Centerline` cuts curves), two edges, a join's or a cap's arc at every vertex
  /// and dash end. Callers refuse strokes over `maximumPoints` before drawing them.
  public func estimatedPoints(of path: Path, style: StrokeStyle) -> Double {
    let half = style.width / 2
    guard half > 0, half.isFinite else { return 0 }
    let centre = Centerline(tolerance: tolerance, halfWidth: half)
    var pieces = 0.0
    var pen = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p): pen = p
      case .line(let p): (pieces, pen) = (pieces + 1, p)
      case .quad(let c, let p):
        // Degree elevation as weighted sums, which cannot overflow.
        let c1 = pen * (1.0 / 3.0) + c * (2.0 / 3.0)
        let c2 = p * (1.0 / 3.0) + c * (2.0 / 3.0)
        pieces += Double(centre.pieces(pen, c1, c2, p))
        pen = p
      case .cubic(let c1, let c2, let p):
        pieces += Double(centre.pieces(pen, c1, c2, p))
        pen = p
      case .close: pieces += 1
      }
    }
    let arc = OutlineBuilder(half: half, style: style, tolerance: tolerance).arcPoints
    let ends = 2 * (dashCount(of: path, style: style) + Double(path.elements.count))
    return pieces * (2 + (style.join == .round ? arc : 2)) + ends * arc
  }

  /// About how many dashes `style` cuts `path` into (an upper bound: the control polygon's
  /// length over the pattern's), 0 for a solid stroke. `Dasher.maximumDashes` is the most drawn.
  public func dashCount(of path: Path, style: StrokeStyle) -> Double {
    let pattern = style.effectiveDash
    guard !pattern.isEmpty else { return 0 }
    var length = 0.0
    var pen = Point.zero
    var start = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p): (pen, start) = (p, p)
      case .line(let p): (length, pen) = (length + Segment(from: pen, to: p).length, p)
      case .quad(let c, let p):
        length += Segment(from: pen, to: c).length + Segment(from: c, to: p).length
        pen = p
      case .cubic(let c1, let c2, let p):
        length +=
          Segment(from: pen, to: c1).length + Segment(from: c1, to: c2).length
          + Segment(from: c2, to: p).length
        pen = p
      case .close: (length, pen) = (length + Segment(from: pen, to: start).length, start)
      }
    }
    let subpaths = path.elements.filter { if case .move = $0 { true } else { false } }.count
    return (length / pattern.reduce(0, +) + Double(subpaths)) * Double(pattern.count / 2)
  }

  /// The stroke's outline, to be filled with `.nonzero`; empty when nothing would be drawn (a
  /// zero width, or only zero-length pieces with butt caps).
  public func outline(of path: Path, style: StrokeStyle) -> Path {
    let half = style.width / 2
    guard half > 0, half.isFinite else { return .empty }
    let centre = Centerline(tolerance: tolerance, halfWidth: half)
    var lines = centre.polylines(of: path)
    let pattern = style.effectiveDash
    if !pattern.isEmpty {
      lines = Dasher(pattern: pattern, phase: style.dashPhase).dashes(of: lines)
    }
    var outline = OutlineBuilder(half: half, style: style, tolerance: tolerance)
    for line in lines {
      // A hard bound beside the estimate: far geometry can make a centre line (whose points are
      // rounded at 1e158) far longer than the control polygon the estimate measures. Past
      // `maximumPoints` the rest of the stroke is not drawn.
      guard outline.builder.count < Self.maximumPoints else { break }
      outline.add(line)
    }
    return outline.builder.build() ?? .empty
  }
}

/// Builds the outline contours of polylines.
struct OutlineBuilder {
  let half: Double
  let style: StrokeStyle
  let tolerance: Double
  var builder = PathBuilder()
  /// The angle of each piece of a round join or cap: the arc strays at most `tolerance` from its
  /// chords.
  let arcStep: Double

  init(half: Double, style: StrokeStyle, tolerance: Double) {
    self.half = half
    self.style = style
    self.tolerance = tolerance
    let ratio = 1 - min(tolerance / half, 1)
    arcStep = max(2 * acos(ratio), 2 * .pi / Double(Self.maximumArcPieces))
  }

  /// Pieces of a full circle at most: a 4096-gon strays 0.005 px from a circle of 16384 px.
  static let maximumArcPieces = 4_096

  /// Points of a half-turn arc (a round cap; a join turns less).
  var arcPoints: Double { (Double.pi / arcStep).rounded(.up) + 1 }

  mutating func add(_ line: Polyline) {
    let points = line.points
    if points.count == 1 {
      addDot(points[0], direction: line.direction)
      return
    }
    guard points.count > 1 else { return }
    let count = points.count
    let segments = line.closed ? count : count - 1
    // Unit directions and left normals (x right, y down: the left of the direction (1, 0) is
    // (0, 1)), one per segment.
    var directions: [Point] = []
    directions.reserveCapacity(segments)
    var lengths: [Double] = []
    lengths.reserveCapacity(segments)
    for i in 0..<segments {
      let segment = Segment(from: points[i], to: points[(i + 1) % count])
      directions.append(segment.direction)
      lengths.append(segment.length)
    }
    func normal(_ i: Int) -> Point { Point(-directions[i].y, directions[i].x) }
    func length(_ i: Int) -> Double { lengths[i] }

    if line.closed {
      // The left edge forward as one contour, the right edge backward as another.
      for side in [1.0, -1.0] {
        let order = side > 0 ? Array(0..<segments) : Array((0..<segments).reversed())
        var first = true
        for (k, i) in order.enumerated() {
          let next = order[(k + 1) % order.count]
          // Going backward, segment i runs from point i+1 to point i.
          let (from, to) =
            side > 0 ? (points[i], points[(i + 1) % count]) : (points[(i + 1) % count], points[i])
          let n = normal(i) * (half * side)
          if first {
            builder.move(to: from + n)
            first = false
          }
          builder.line(to: to + n)
          let vertex = side > 0 ? (i + 1) % count : i
          join(
            at: to, from: i, to: next, side: side, smooth: line.smooth[vertex],
            lengths: (length(i), length(next)), normal: normal, directions: directions)
        }
        builder.close()
      }
      return
    }

    // Open: left forward, end cap, right backward, start cap.
    builder.move(to: points[0] + normal(0) * half)
    for i in 0..<segments {
      builder.line(to: points[i + 1] + normal(i) * half)
      if i + 1 < segments {
        join(
          at: points[i + 1], from: i, to: i + 1, side: 1, smooth: line.smooth[i + 1],
          lengths: (length(i), length(i + 1)), normal: normal, directions: directions)
      }
    }
    cap(at: points[count - 1], direction: directions[segments - 1])
    for i in stride(from: segments - 1, through: 0, by: -1) {
      builder.line(to: points[i] - normal(i) * half)
      if i > 0 {
        join(
          at: points[i], from: i, to: i - 1, side: -1, smooth: line.smooth[i],
          lengths: (length(i), length(i - 1)), normal: normal, directions: directions)
      }
    }
    cap(at: points[0], direction: -directions[0])
    builder.close()
  }

  /// Joins, at `vertex`, the edge on `side` (1: left of the path's direction, −1: right) of
  /// segment `a` to that of segment `b`, the edge being traced in the direction that goes from
  /// `a` to `b`. The pen is at the end of `a`'s edge; it ends at the start of `b`'s.
  private mutating func join(
    at vertex: Point, from a: Int, to b: Int, side: Double, smooth: Bool,
    lengths: (Double, Double), normal: (Int) -> Point, directions: [Point]
  ) {
    // Traced directions: forward on the left side, backward on the right.
    let da = directions[a] * side
    let db = directions[b] * side
    let na = normal(a) * side
    let nb = normal(b) * side
    let start = vertex + na * half
    let end = vertex + nb * half
    let cross = da.x * db.y - da.y * db.x
    let dot = da.x * db.x + da.y * db.y
    if start == end { return }
    // The traced edge turns towards its own side (the left normal, when `side` maps the trace
    // to the left edge) when the path turns that way: then this edge is on the inside.
    // An exact reversal has no inside: the forward pass draws its join and the backward one
    // goes through the vertex, so that the two do not trace one arc twice (the rasterizer's sum
    // would count it double).
    let inner = cross > 0 || (cross == 0 && dot < 0 && side < 0)
    if inner {
      // Where the two edges cross: v + (na + nb)·h / (1 + na·nb), if both segments hold it.
      let cosine = na.x * nb.x + na.y * nb.y
      let overlap = half * ((1 - cosine) / max(1 + cosine, 1e-12)).squareRoot()
      if cosine > -0.99, overlap <= 0.5 * min(lengths.0, lengths.1) {
        builder.line(to: vertex + (na + nb) * (half / (1 + cosine)))
      } else {
        builder.line(to: vertex)
      }
      builder.line(to: end)
      return
    }
    // The outside of the turn.
    if smooth {
      // Inside a curve: the offset curve's corner is a small miter; at a cusp, round.
      if dot > 0.5 {
        let cosine = na.x * nb.x + na.y * nb.y
        builder.line(to: vertex + (na + nb) * (half / (1 + cosine)))
        builder.line(to: end)
      } else {
        arc(around: vertex, from: na, to: nb)
      }
      return
    }
    switch style.join {
    case .bevel:
      builder.line(to: end)
    case .round:
      arc(around: vertex, from: na, to: nb)
    case .miter:
      // The miter's length over the width is 1/sin(θ/2), θ the angle between the segments:
      // 1/cos(φ/2) for a turn φ, and cos²(φ/2) = (1 + cos φ)/2.
      let cosine = na.x * nb.x + na.y * nb.y
      let halfCosSquared = (1 + cosine) / 2
      if halfCosSquared > 0, 1 / halfCosSquared <= style.miterLimit * style.miterLimit {
        builder.line(to: vertex + (na + nb) * (half / (1 + cosine)))
      }
      builder.line(to: end)
    }
  }

  /// A cap at `point` for a path arriving in `direction` (unit). The pen is at the left edge's
  /// end; it ends at the right edge's.
  private mutating func cap(at point: Point, direction d: Point) {
    let n = Point(-d.y, d.x) * half
    switch style.cap {
    case .butt:
      builder.line(to: point - n)
    case .square:
      let out = d * half
      builder.line(to: point + n + out)
      builder.line(to: point - n + out)
      builder.line(to: point - n)
    case .round:
      arc(around: point, from: Point(-d.y, d.x), to: Point(d.y, -d.x), through: d)
    }
  }

  /// A zero-length piece: a disc for round caps, a square facing `direction` for square caps,
  /// nothing for butt. Both are traced in the segments' direction (the left edge forward, the
  /// right edge back: decreasing angle), so where a dot overlaps another piece their windings
  /// add instead of cancelling.
  private mutating func addDot(_ p: Point, direction d: Point) {
    switch style.cap {
    case .butt: return
    case .round:
      // A polygon with the disc's area (see `arcPieces`).
      let steps = max(8, Int((2 * Double.pi / arcStep).rounded(.up)))
      let step = 2 * Double.pi / Double(steps)
      let radius = half * (step / sin(step)).squareRoot()
      builder.move(to: p + Point(radius, 0))
      for k in 1..<steps {
        let angle = -step * Double(k)
        builder.line(to: p + Point(cos(angle), sin(angle)) * radius)
      }
      builder.close()
    case .square:
      let along = d * half
      let left = Point(-d.y, d.x) * half
      builder.move(to: p - along + left)
      builder.line(to: p + along + left)
      builder.line(to: p + along - left)
      builder.line(to: p - along - left)
      builder.close()
    }
  }

  /// The arc of radius `half` around `centre` from direction `a` to direction `b` (units), the
  /// short way; a half turn goes through the direction `a` rotated by −90° (for a join, the
  /// direction the path arrived in). The pen is at the arc's start; it ends at its end.
  private mutating func arc(around centre: Point, from a: Point, to b: Point) {
    let start = atan2(a.y, a.x)
    var sweep = atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)
    if sweep >= .pi { sweep = -.pi }
    arcPieces(around: centre, start: start, sweep: sweep, end: centre + b * half)
  }

  /// The half-turn arc from `a` to `b` passing through direction `through`.
  private mutating func arc(around centre: Point, from a: Point, to b: Point, through: Point) {
    let start = atan2(a.y, a.x)
    // Turning from a towards `through`: increasing angle when a × through > 0.
    let sweep = (a.x * through.y - a.y * through.x) > 0 ? Double.pi : -Double.pi
    arcPieces(around: centre, start: start, sweep: sweep, end: centre + b * half)
  }

  /// The arc in pieces of at most `arcStep`. The inner vertices lie a little outside the circle,
  /// at the radius that gives the pieces the area of the arc (h·√(s / sin s) for pieces of angle
  /// s), so the chords' error averages to zero instead of always cutting inside; the ends stay
  /// on the circle, where the edges meet them.
  private mutating func arcPieces(around centre: Point, start: Double, sweep: Double, end: Point) {
    guard sweep.isFinite, start.isFinite else {
      builder.line(to: end)
      return
    }
    let steps = max(1, Int((abs(sweep) / arcStep).rounded(.up)))
    let step = abs(sweep) / Double(steps)
    let radius = step > 1e-9 ? half * (step / sin(step)).squareRoot() : half
    for k in 1..<steps {
      let angle = start + sweep * Double(k) / Double(steps)
      builder.line(to: centre + Point(cos(angle), sin(angle)) * radius)
    }
    builder.line(to: end)
  }
}
