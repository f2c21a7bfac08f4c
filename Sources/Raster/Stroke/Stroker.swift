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
    // Pieces of curves, each of which may add a fan inside the curve (`join`).
    var curved = 0.0
    var pen = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p): pen = p
      case .line(let p): (pieces, pen) = (pieces + 1, p)
      case .quad(let c, let p):
        // Degree elevation as weighted sums, which cannot overflow.
        let c1 = pen * (1.0 / 3.0) + c * (2.0 / 3.0)
        let c2 = p * (1.0 / 3.0) + c * (2.0 / 3.0)
        curved += Double(centre.pieces(pen, c1, c2, p))
        pen = p
      case .cubic(let c1, let c2, let p):
        curved += Double(centre.pieces(pen, c1, c2, p))
        pen = p
      case .close: pieces += 1
      }
    }
    pieces += curved
    let arc = (Double.pi / OutlineArcs.step(half: half, tolerance: tolerance)).rounded(.up) + 1
    let ends = 2 * (dashCount(of: path, style: style) + Double(path.elements.count))
    // A round cap is a half turn of arc; a butt or square one two points.
    return pieces * (2 + (style.join == .round ? arc : 2)) + ends * (style.cap == .round ? arc : 2)
      + 7 * curved
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

  /// The stroke's outline, to be filled with `.nonzero` (through the `Rasterizer` methods that
  /// take a `StrokeOutline`, which use its pieces); empty when nothing would be drawn (a zero
  /// width, or only zero-length pieces with butt caps).
  public func outline(of path: Path, style: StrokeStyle) -> StrokeOutline {
    var sink = PathOutlineSink()
    trace(path, style: style, into: &sink)
    return sink.finished()
  }

  /// Traces the stroke's outline into `sink`.
  func trace<Sink: OutlineSink>(_ path: Path, style: StrokeStyle, into sink: inout Sink) {
    let half = style.width / 2
    guard half > 0, half.isFinite else { return }
    let centre = Centerline(tolerance: tolerance, halfWidth: half)
    var lines = centre.polylines(of: path)
    let pattern = style.effectiveDash
    if !pattern.isEmpty {
      lines = Dasher(pattern: pattern, phase: style.dashPhase).dashes(of: lines)
    }
    var outline = OutlineBuilder(half: half, style: style, tolerance: tolerance, sink: sink)
    for line in lines {
      // A hard bound beside the estimate: far geometry can make a centre line (whose points are
      // rounded at 1e158) far longer than the control polygon the estimate measures. Past
      // `maximumPoints` the rest of the stroke is not drawn.
      guard outline.sink.count < Self.maximumPoints else { break }
      outline.add(line)
    }
    sink = outline.sink
  }
}

/// The pieces of round joins and caps.
enum OutlineArcs {
  /// The angle of each piece: the arc of radius `half` strays at most `tolerance` from its
  /// chords, in at most `maximumPieces` a turn.
  static func step(half: Double, tolerance: Double) -> Double {
    let ratio = 1 - min(tolerance / half, 1)
    return max(2 * acos(ratio), 2 * .pi / Double(maximumPieces))
  }

  /// Pieces of a full circle at most: a 4096-gon strays 0.005 px from a circle of 16384 px.
  static let maximumPieces = 4_096
}

/// Builds the outline contours of polylines.
struct OutlineBuilder<Sink: OutlineSink> {
  let half: Double
  let style: StrokeStyle
  let tolerance: Double
  var sink: Sink
  /// The group of the elements being added.
  private var group = PieceGroup(id: 0)
  /// The first group of the next polyline.
  private var nextGroup: Int32 = 0
  /// Scratch of `add`, as long as the most segments of a polyline so far (only the first
  /// `segments` hold the polyline's): per segment, its `Frame` and group; per vertex, its
  /// `Corner` (vertex i between segments i − 1 and i). Written through buffer pointers, so that
  /// building them costs no uniqueness check per element.
  private var frames: [Frame] = []
  private var groups: [PieceGroup] = []
  private var corners: [Corner] = []
  /// The angle of each piece of a round join or cap: the arc strays at most `tolerance` from its
  /// chords.
  let arcStep: Double
  /// The smallest cos²(φ/2) of a turn φ inside a curve whose outer corner is a miter (`join`).
  let smoothMiterCosineSquared: Double
  /// Wedges (vertex, the edge's end before it, its start after it) of pivots inside a curve, traced
  /// as contours of their own once the current contour is closed (see `join`).
  private var fans: [(Point, Point, Point)] = []

  init(half: Double, style: StrokeStyle, tolerance: Double, sink: Sink) {
    self.half = half
    self.style = style
    self.tolerance = tolerance
    self.sink = sink
    arcStep = OutlineArcs.step(half: half, tolerance: tolerance)
    // A miter of a turn φ reaches half/cos(φ/2): past the arc by at most 2·tolerance where
    // cos²(φ/2) ≥ (half / (half + 2·tolerance))².
    let ratio = half / (half + 2 * tolerance)
    smoothMiterCosineSquared = ratio * ratio
  }

  // MARK: - Elements, each with its group

  /// Traces the pending fans (`join`), each as a contour of its own wound twice, in a group of
  /// its own (it overlaps the pieces about it, so the rasterizer resolves its pixels exactly).
  private mutating func emitFans() {
    for (vertex, start, end) in fans {
      group = PieceGroup(id: nextGroup)
      nextGroup &+= 2
      emitMove(to: start)
      emitLine(to: vertex)
      emitLine(to: end)
      emitLine(to: start)
      emitLine(to: vertex)
      emitLine(to: end)
      emitClose()
    }
    fans.removeAll(keepingCapacity: true)
  }

  private mutating func emitMove(to p: Point) { sink.move(to: p, group: group) }
  private mutating func emitLine(to p: Point) { sink.line(to: p, group: group) }
  private mutating func emitClose() { sink.close(group: group) }

  // MARK: - Polylines

  /// A segment of a polyline: its unit direction, its left normal (x right, y down: the left of
  /// the direction (1, 0) is (0, 1)) and its length.
  struct Frame {
    var direction = Point(1, 0)
    var normal = Point(0, 1)
    var length = 0.0
  }

  /// What both edges need at a vertex between segments `a` and `b` (`a` first along the path),
  /// computed once for the two: with the left normals `na` and `nb`, unit directions `da` and
  /// `db`, and lengths `la` and `lb`. The right edge, traced the other way, sees the normals and
  /// directions negated and swapped, which leaves `cosine`, `dot` and `pivots` as they are,
  /// negates `cross` and `offset`, and swaps the lengths (the same results bit for bit).
  struct Corner {
    /// na · nb.
    var cosine: Double
    /// da × db: positive where the path turns left.
    var cross: Double
    /// da · db.
    var dot: Double
    /// Where the left edges' lines cross, from the vertex: (na + nb)·half / (1 + na · nb).
    var offset: Point
    /// Whether the inner edges are joined through the vertex (the "pivot") rather than where
    /// they cross: the crossing lies `overlap` back along each segment, and must lie within half
    /// of each.
    var pivots: Bool

    init(
      half: Double, _ na: Point, _ nb: Point, _ da: Point, _ db: Point, _ la: Double,
      _ lb: Double
    ) {
      cosine = na.x * nb.x + na.y * nb.y
      cross = da.x * db.y - da.y * db.x
      dot = da.x * db.x + da.y * db.y
      let reach = half / (1 + cosine)
      offset = (na + nb) * reach
      // The overlap is half·tan(φ/2) for a turn φ: half·|sin φ| / (1 + cos φ), and |sin φ| is
      // |da × db| (no cancellation at small turns, unlike √((1 − cos φ)/(1 + cos φ))).
      let overlap = abs(cross) * reach
      pivots = !(cosine > -0.99 && overlap <= 0.5 * min(la, lb))
    }

    /// Whether the pieces on either side of the vertex may overlap where the outline does not
    /// merge them: where it pivots, and at turns of more than 90°, where the outer join and the
    /// far ends of the two segments' rectangles can cover the same ground twice.
    var separates: Bool { cosine < 0 || pivots }
  }

  /// Numbers the segments' pieces (`PieceGroup`) into `groups`: a new group each time the
  /// centre line has run `half`/2 since the group began, two on where the vertex `separates` its
  /// pieces, so that pieces of adjoining groups lie within about a half-width of centre line of
  /// each other and never overlap. For a closed polyline whose last group adjoins its first
  /// across the closing vertex, the first and last groups name each other (`partner`).
  private mutating func numberSegments(_ segments: Int, closed: Bool) {
    let stretch = half / 2
    let first = nextGroup
    var id = first
    frames.withUnsafeBufferPointer { frames in
      corners.withUnsafeBufferPointer { corners in
        groups.withUnsafeMutableBufferPointer { groups in
          var begun = 0.0
          var run = 0.0
          groups[0] = PieceGroup(id: id)
          for i in 1..<max(segments, 1) {
            run += frames[i - 1].length
            if corners[i].separates {
              id &+= 2
              begun = run
            } else if run - begun >= stretch {
              id &+= 1
              begun = run
            }
            groups[i] = PieceGroup(id: id)
          }
          let last = id
          guard closed, segments > 1, !corners[0].separates else { return }
          for i in 0..<segments {
            let id = groups[i].id
            if id == first {
              groups[i].partner = last
            } else if id == last {
              groups[i].partner = first
            }
          }
        }
      }
    }
    nextGroup = id &+ 2
  }

  mutating func add(_ line: Polyline) {
    let points = line.points
    if points.count == 1 {
      group = PieceGroup(id: nextGroup)
      nextGroup &+= 2
      addDot(points[0], direction: line.direction)
      return
    }
    guard points.count > 1 else { return }
    let count = points.count
    let segments = line.closed ? count : count - 1
    // A frame per segment; a corner per vertex between two segments (vertex i lies between
    // segments i − 1 and i; a closed polyline's vertex 0 between its last and first).
    if self.frames.count < segments {
      let more = segments - self.frames.count
      self.frames.append(contentsOf: repeatElement(Frame(), count: more))
      self.groups.append(contentsOf: repeatElement(PieceGroup(id: 0), count: more))
      self.corners.append(
        contentsOf: repeatElement(
          Corner(half: 1, Point(0, 1), Point(0, 1), Point(1, 0), Point(1, 0), 1, 1), count: more))
    }
    let half = self.half
    points.withUnsafeBufferPointer { points in
      self.frames.withUnsafeMutableBufferPointer { frames in
        self.corners.withUnsafeMutableBufferPointer { corners in
          for i in 0..<segments {
            let segment = Segment(from: points[i], to: points[i + 1 == count ? 0 : i + 1])
            let d = segment.direction
            frames[i] = Frame(direction: d, normal: Point(-d.y, d.x), length: segment.length)
          }
          for b in 0..<segments {
            let a = b == 0 ? segments - 1 : b - 1
            let (fa, fb) = (frames[a], frames[b])
            corners[b] = Corner(
              half: half, fa.normal, fb.normal, fa.direction, fb.direction, fa.length, fb.length)
          }
        }
      }
    }
    numberSegments(segments, closed: line.closed)
    let frames = self.frames
    let corners = self.corners
    let groups = self.groups

    if line.closed {
      // The left edge forward as one contour, the right edge backward as another, each from
      // the middle of its first segment's edge (so that the closing line continues that edge).
      let n0 = frames[0].normal * half
      group = groups[0]
      emitMove(to: (points[0] + n0) * 0.5 + (points[1 % count] + n0) * 0.5)
      for i in 0..<segments {
        let next = i + 1 == segments ? 0 : i + 1
        group = groups[i]
        join(
          at: points[next], corner: corners[next], left: true, na: frames[i].normal,
          nb: frames[next].normal, smooth: line.smooth[next], nextGroup: groups[next])
      }
      // The closing line is the first half of the first segment's edge.
      group = groups[0]
      emitClose()
      // Going backward, segment i runs from point i + 1 to point i.
      let last = segments - 1
      let nLast = frames[last].normal * -half
      group = groups[last]
      emitMove(to: (points[0] + nLast) * 0.5 + (points[last] + nLast) * 0.5)
      for i in stride(from: last, through: 0, by: -1) {
        let next = i == 0 ? last : i - 1
        group = groups[i]
        join(
          at: points[i], corner: corners[i], left: false, na: -frames[i].normal,
          nb: -frames[next].normal,
          smooth: line.smooth[i], nextGroup: groups[next])
      }
      group = groups[last]
      emitClose()
      emitFans()
      return
    }

    // Open: left forward, end cap, right backward, start cap.
    group = groups[0]
    emitMove(to: points[0] + frames[0].normal * half)
    for i in 0..<segments {
      group = groups[i]
      if i + 1 < segments {
        join(
          at: points[i + 1], corner: corners[i + 1], left: true, na: frames[i].normal,
          nb: frames[i + 1].normal, smooth: line.smooth[i + 1],
          nextGroup: groups[i + 1])
      } else {
        emitLine(to: points[i + 1] + frames[i].normal * half)
      }
    }
    cap(
      at: points[count - 1], direction: line.endTangent ?? frames[segments - 1].direction,
      chord: frames[segments - 1].direction)
    for i in stride(from: segments - 1, through: 0, by: -1) {
      group = groups[i]
      if i > 0 {
        join(
          at: points[i], corner: corners[i], left: false, na: -frames[i].normal,
          nb: -frames[i - 1].normal,
          smooth: line.smooth[i], nextGroup: groups[i - 1])
      } else {
        emitLine(to: points[0] - frames[0].normal * half)
      }
    }
    cap(
      at: points[0], direction: -(line.startTangent ?? frames[0].direction),
      chord: -frames[0].direction)
    emitClose()
    emitFans()
  }

  /// Ends the edge on one side (`left` of the path's direction, or right) of the segment before
  /// `vertex` and joins it to that of the segment after, the edge being traced in the direction
  /// that goes from the one to the other (backward on the right), with `na` and `nb` their
  /// normals on that side (the left normals, negated on the right); the pen ends where the next
  /// segment's edge goes on in a straight line. Where the two edges meet at one point (where
  /// they cross on the inside, at a miter outside) the pen goes straight there, so an edge of a
  /// curve is one line a piece. The lines are of the current group, but for the one from a
  /// pivot, of `nextGroup`.
  private mutating func join(
    at vertex: Point, corner: Corner, left: Bool, na: Point, nb: Point, smooth: Bool,
    nextGroup: PieceGroup
  ) {
    let start = vertex + na * half
    let end = vertex + nb * half
    if start == end {
      emitLine(to: start)
      return
    }
    // The traced edge turns towards its own side when the path turns that way: then this edge
    // is on the inside. An exact reversal has no inside: the forward pass draws its join and the
    // backward one goes through the vertex, so that the two do not trace one arc twice (the
    // rasterizer's sum would count it double).
    let cross = left ? corner.cross : -corner.cross
    let inner = cross > 0 || (cross == 0 && corner.dot < 0 && !left)
    // Where the two edges' lines cross.
    let meeting = left ? vertex + corner.offset : vertex - corner.offset
    if inner {
      // Where the edges cross, if both segments hold it; else through the vertex.
      if !corner.pivots {
        emitLine(to: meeting)
      } else {
        emitLine(to: start)
        emitLine(to: vertex)
        group = nextGroup
        emitLine(to: end)
        // Inside a curve the stroke holds the whole fan of normals between the two segments'
        // (SVG 2: every point within half the width along a normal). Where the curve is tighter
        // than the half-width, the pivots' wedges reach past the centre of curvature across
        // other segments' rectangles, and their windings there summed to 0 in streaks. So each
        // wedge is traced twice more, as a contour of its own, the way the pivot traces it:
        // measured, a half circle of radius 10 px under a 50 px stroke then covers SVG 2's area
        // to 0.2 px² (`StrokeTests.theInsideOfATightCurveIsSolid`), either way round; traced
        // the other way, holes remained near the centre.
        if smooth { fans.append((vertex, start, end)) }
      }
      return
    }
    // The outside of the turn.
    if smooth {
      // Inside a curve: the offset curve's corner is a small miter where that strays from the
      // curve's offset (an arc about the vertex) by at most twice the tolerance, which the
      // centre line's pieces are cut to keep; where a curve turns hard within one piece (the end
      // of a very flat ellipse, a cusp), round.
      if (1 + corner.dot) / 2 >= smoothMiterCosineSquared {
        emitLine(to: meeting)
      } else {
        emitLine(to: start)
        arc(around: vertex, from: na, to: nb)
      }
      return
    }
    switch style.join {
    case .bevel:
      emitLine(to: start)
      emitLine(to: end)
    case .round:
      emitLine(to: start)
      arc(around: vertex, from: na, to: nb)
    case .miter:
      // The miter's length over the width is 1/sin(θ/2), θ the angle between the segments:
      // 1/cos(φ/2) for a turn φ, and cos²(φ/2) = (1 + cos φ)/2.
      let halfCosSquared = (1 + corner.cosine) / 2
      if halfCosSquared > 0, 1 / halfCosSquared <= style.miterLimit * style.miterLimit {
        emitLine(to: meeting)
      } else {
        emitLine(to: start)
        emitLine(to: end)
      }
    }
  }

  /// A cap at `point` for a path arriving in `direction` (unit: the path's own tangent) along
  /// a last piece of direction `chord`. The pen is at the left edge's end; it ends at the right
  /// edge's. Where a curve's tangent and its last chord differ, the cap still faces the tangent
  /// (square to the curve, as the true stroke's end is): short lines join it to the chord's
  /// edges, which end within the flattening tolerance of the true offset curve.
  private mutating func cap(at point: Point, direction d: Point, chord: Point) {
    let n = Point(-d.y, d.x) * half
    let turned = d != chord
    defer { if turned { emitLine(to: point - Point(-chord.y, chord.x) * half) } }
    if turned { emitLine(to: point + n) }
    switch style.cap {
    case .butt:
      emitLine(to: point - n)
    case .square:
      let out = d * half
      emitLine(to: point + n + out)
      emitLine(to: point - n + out)
      emitLine(to: point - n)
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
      emitMove(to: p + Point(radius, 0))
      for k in 1..<steps {
        let angle = -step * Double(k)
        emitLine(to: p + Point(cos(angle), sin(angle)) * radius)
      }
      emitClose()
    case .square:
      let along = d * half
      let left = Point(-d.y, d.x) * half
      emitMove(to: p - along + left)
      emitLine(to: p + along + left)
      emitLine(to: p + along - left)
      emitLine(to: p - along - left)
      emitClose()
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
      emitLine(to: end)
      return
    }
    let steps = max(1, Int((abs(sweep) / arcStep).rounded(.up)))
    let step = abs(sweep) / Double(steps)
    let radius = step > 1e-9 ? half * (step / sin(step)).squareRoot() : half
    for k in 1..<steps {
      let angle = start + sweep * Double(k) / Double(steps)
      emitLine(to: centre + Point(cos(angle), sin(angle)) * radius)
    }
    emitLine(to: end)
  }
}
