/// Turns a path into straight edges in device pixels, clipped to a canvas.
///
/// Curves are cut into lines whose distance from the true curve is at most `tolerance` pixels
/// (Wang's formula gives the count of equal parameter steps). Geometry outside the canvas costs
/// next to nothing: a curve whose control points all lie above, below or right of the canvas is
/// dropped, one wholly to the left becomes its chord (only its winding matters there), and large
/// curves are halved until each half is either culled or small enough to flatten. Lines are
/// clipped to the canvas rows and to its right edge; parts left of the canvas slide onto x = 0,
/// which keeps the winding every pixel sees.
///
/// Far geometry (a coordinate beyond `farCoordinate` device pixels, as path data of 1e300 gives)
/// would overflow the arithmetic of clipping and flattening. Such a line or curve is halved —
/// each half computed as half-sums, which cannot overflow — until every piece is either culled
/// (above, below or right of the canvas), wholly left of it (kept as its winding on x = 0), or
/// near; so no edge of a contour is lost. Infinite or NaN points (a transform that overflows)
/// are first moved to ±`farthestCoordinate` (NaN to 0).
public struct Flattener: Sendable {
  /// The default flattening tolerance in device pixels. Chords cut inside convex curves, so the
  /// error has one sign and adds up along an edge; 1/64 px keeps the mean coverage error of curved
  /// edges well under 1/255 while a 1024 px icon still needs only a few thousand lines.
  public static let defaultTolerance: Double = 1.0 / 64.0

  /// Canvas size in device pixels.
  public let width: Double
  public let height: Double
  /// The largest allowed distance between a curve and its lines, in device pixels.
  public let tolerance: Double

  /// Device coordinates up to this size are near: their sums, differences and products with
  /// the canvas-sized numbers of clipping stay exact enough and finite.
  static let farCoordinate = 0x1p40
  /// Where infinite coordinates are moved: far enough that no canvas sees the difference, and
  /// still room to add two of them.
  static let farthestCoordinate = 0x1p1000
  /// Halvings from `farthestCoordinate` down to `farCoordinate`, with room to spare.
  private static let maximumFarDepth = 1_100

  public init(width: Int, height: Int, tolerance: Double = Flattener.defaultTolerance) {
    self.width = Double(width)
    self.height = Double(height)
    self.tolerance = max(tolerance, 1e-6)
  }

  /// The clipped device-space lines of `path` after `transform` (user space to device pixels).
  public func lines(of path: Path, transform: Transform) -> [Line] {
    flatten(path, transform: transform).lines
  }

  /// The clipped lines of `path` and the heights at which its outline turns back vertically.
  func flatten(_ path: Path, transform: Transform) -> FlattenedPath {
    var out = FlattenedPath()
    out.lines.reserveCapacity(path.elements.count * 4)
    // Scratch for one curve's vertices and lines, shared by every curve of the path.
    withUnsafeTemporaryAllocation(of: Point.self, capacity: Self.maximumSteps + 1) { vertices in
      withUnsafeTemporaryAllocation(of: Line.self, capacity: Self.maximumSteps) { lines in
        let curve = CurveScratch(
          vertices: vertices.baseAddress.unsafelyUnwrapped,
          lines: lines.baseAddress.unsafelyUnwrapped)
        var start = Point.zero
        var current = Point.zero
        func map(_ p: Point) -> Point { Self.finite(transform.apply(p)) }
        for element in path.elements {
          switch element {
          case .move(let p):
            finishContour(from: &current, to: start, into: &out)
            start = map(p)
            current = start
          case .line(let p):
            let q = map(p)
            addLine(current, q, into: &out)
            current = q
          case .quad(let c, let p):
            let q = map(p)
            addQuad(current, map(c), q, curve: curve, into: &out)
            current = q
          case .cubic(let c1, let c2, let p):
            let q = map(p)
            addCubic(current, map(c1), map(c2), q, depth: 0, curve: curve, into: &out)
            current = q
          case .close:
            finishContour(from: &current, to: start, into: &out)
          }
        }
        finishContour(from: &current, to: start, into: &out)
      }
    }
    return out
  }

  /// Closes the contour that started at `start` with a line from `current`, and moves `current`
  /// there. (A method rather than a local function: one capturing `current` and `out` had every
  /// access checked for exclusivity at run time.)
  @inline(__always)
  private func finishContour(
    from current: inout Point, to start: Point, into out: inout FlattenedPath
  ) {
    if current != start { addLine(current, start, into: &out) }
    out.closeContour()
    current = start
  }

  // MARK: - Far geometry

  /// `p` with infinite coordinates moved to ±`farthestCoordinate` and NaN ones to 0.
  @inline(__always)
  static func finite(_ p: Point) -> Point {
    if p.isFinite { return p }
    func move(_ v: Double) -> Double {
      v.isNaN ? 0 : min(max(v, -farthestCoordinate), farthestCoordinate)
    }
    return Point(move(p.x), move(p.y))
  }

  @inline(__always)
  static func isNear(_ p: Point) -> Bool {
    abs(p.x) <= farCoordinate && abs(p.y) <= farCoordinate
  }

  /// The point halfway between `a` and `b`, as a half-sum (no difference that could overflow).
  @inline(__always)
  private static func half(_ a: Point, _ b: Point) -> Point {
    Point(a.x * 0.5 + b.x * 0.5, a.y * 0.5 + b.y * 0.5)
  }

  /// A line with a far end: its direction is noted once, then it is halved down to near pieces.
  private func addFarLine(_ p: Point, _ q: Point, into out: inout FlattenedPath) {
    out.noteDirection(down: q.y > p.y, at: p.y, height: height, line: out.lines.count)
    addFarPiece(p, q, depth: 0, into: &out)
  }

  private func addFarPiece(_ p: Point, _ q: Point, depth: Int, into out: inout FlattenedPath) {
    if (p.y <= 0 && q.y <= 0) || (p.y >= height && q.y >= height) || min(p.x, q.x) >= width {
      return
    }
    if p.x <= 0 && q.x <= 0 { return emit(0, p.y, 0, q.y, into: &out) }
    if Self.isNear(p) && Self.isNear(q) { return addLine(p, q, into: &out) }
    guard depth < Self.maximumFarDepth else { return }
    let m = Self.half(p, q)
    addFarPiece(p, m, depth: depth + 1, into: &out)
    addFarPiece(m, q, depth: depth + 1, into: &out)
  }

  /// A curve with a far control point, halved (de Casteljau, in half-sums) until its pieces are
  /// near, culled, or left of the canvas (then their chord).
  private func addFarCubic(
    _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, depth: Int,
    curve: CurveScratch, into out: inout FlattenedPath
  ) {
    switch placement(p0, p1, p2, p3) {
    case .outside: return
    case .left: return addLine(p0, p3, into: &out)
    case .visible: break
    }
    if Self.isNear(p0) && Self.isNear(p1) && Self.isNear(p2) && Self.isNear(p3) {
      return addCubic(p0, p1, p2, p3, depth: 0, curve: curve, into: &out)
    }
    guard depth < Self.maximumFarDepth else { return addLine(p0, p3, into: &out) }
    let a = Self.half(p0, p1)
    let b = Self.half(p1, p2)
    let c = Self.half(p2, p3)
    let ab = Self.half(a, b)
    let bc = Self.half(b, c)
    let mid = Self.half(ab, bc)
    addFarCubic(p0, a, ab, mid, depth: depth + 1, curve: curve, into: &out)
    addFarCubic(mid, bc, c, p3, depth: depth + 1, curve: curve, into: &out)
  }

  // MARK: - Curves

  /// Subdivision stops at this depth whatever the size; 2^-40 of any curve is far below a pixel.
  private static let maximumDepth = 40
  /// Curves needing more steps than this are halved first, so off-canvas halves can be culled.
  private static let maximumSteps = 64

  private enum Placement { case outside, left, visible }

  private func placement(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> Placement {
    let minY = min(min(p0.y, p1.y), min(p2.y, p3.y))
    let maxY = max(max(p0.y, p1.y), max(p2.y, p3.y))
    let minX = min(min(p0.x, p1.x), min(p2.x, p3.x))
    let maxX = max(max(p0.x, p1.x), max(p2.x, p3.x))
    if maxY <= 0 || minY >= height || minX >= width { return .outside }
    return maxX <= 0 ? .left : .visible
  }

  /// A quadratic is flattened as the cubic it equals (degree elevation is exact).
  private func addQuad(
    _ p0: Point, _ p1: Point, _ p2: Point, curve: CurveScratch,
    into out: inout FlattenedPath
  ) {
    guard Self.isNear(p0) && Self.isNear(p1) && Self.isNear(p2) else {
      // Weighted sums, which cannot overflow.
      let c1 = Point(p0.x / 3 + p1.x * (2.0 / 3), p0.y / 3 + p1.y * (2.0 / 3))
      let c2 = Point(p2.x / 3 + p1.x * (2.0 / 3), p2.y / 3 + p1.y * (2.0 / 3))
      return addFarCubic(p0, c1, c2, p2, depth: 0, curve: curve, into: &out)
    }
    let c1 = p0 + (p1 - p0) * (2.0 / 3.0)
    let c2 = p2 + (p1 - p2) * (2.0 / 3.0)
    addCubic(p0, c1, c2, p2, depth: 0, curve: curve, into: &out)
  }

  private func addCubic(
    _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, depth: Int,
    curve: CurveScratch, into out: inout FlattenedPath
  ) {
    guard Self.isNear(p0) && Self.isNear(p1) && Self.isNear(p2) && Self.isNear(p3) else {
      return addFarCubic(p0, p1, p2, p3, depth: 0, curve: curve, into: &out)
    }
    switch placement(p0, p1, p2, p3) {
    case .outside: return
    case .left: return addLine(p0, p3, into: &out)
    case .visible: break
    }
    let dd = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
    let steps = (0.75 * dd / tolerance).squareRoot().rounded(.up)
    if steps > Double(Self.maximumSteps), depth < Self.maximumDepth {
      // de Casteljau halves.
      let a = p0.lerp(to: p1, 0.5)
      let b = p1.lerp(to: p2, 0.5)
      let c = p2.lerp(to: p3, 0.5)
      let ab = a.lerp(to: b, 0.5)
      let bc = b.lerp(to: c, 0.5)
      let mid = ab.lerp(to: bc, 0.5)
      addCubic(p0, a, ab, mid, depth: depth + 1, curve: curve, into: &out)
      addCubic(mid, bc, c, p3, depth: depth + 1, curve: curve, into: &out)
      return
    }
    let n = Int(min(Double(Self.maximumSteps), max(1, steps)))
    // The vertices first, then the lines: appending may call into the runtime, which would
    // otherwise cost the stepping loop its registers at every line.
    let vertices = curve.vertices
    var stepper = CubicSteps(p0, p1, p2, p3, pieces: n)
    for i in 1..<n { vertices[i] = stepper.next() }
    vertices[0] = p0
    vertices[n] = p3
    // Mostly every line of the curve lies inside the canvas: they skip the clipping and are
    // appended together. (Every line's lower x is then below the width, as appendInside needs.)
    var low = vertices[0]
    var high = low
    for i in 1...n {
      let v = vertices[i]
      low = Point(v.x < low.x ? v.x : low.x, v.y < low.y ? v.y : low.y)
      high = Point(v.x > high.x ? v.x : high.x, v.y > high.y ? v.y : high.y)
    }
    guard low.x >= 0, low.y >= 0, high.x < width, high.y <= height else {
      for i in 0..<n { addLine(vertices[i], vertices[i &+ 1], into: &out) }
      return
    }
    var count = 0
    for i in 0..<n {
      let p = vertices[i]
      let q = vertices[i &+ 1]
      // The tests of addLine, in its order; the bounds hold already.
      guard p.y != q.y, ((q.x - p.x) / (q.y - p.y)).isFinite else { continue }
      out.noteDirection(down: q.y > p.y, at: p.y, height: height, line: out.lines.count &+ count)
      let line = Line(x0: Float(p.x), y0: Float(p.y), x1: Float(q.x), y1: Float(q.y))
      if line.y0 != line.y1 {
        curve.lines[count] = line
        count &+= 1
      }
    }
    out.lines.append(contentsOf: UnsafeBufferPointer(start: curve.lines, count: count))
  }

  /// Scratch for one curve: `maximumSteps` + 1 vertices and `maximumSteps` lines.
  struct CurveScratch {
    let vertices: UnsafeMutablePointer<Point>
    let lines: UnsafeMutablePointer<Line>
  }

  // MARK: - Lines

  /// Clips the edge p→q to the canvas rows and right edge and appends what is left.
  @inline(__always)
  func addLine(_ p: Point, _ q: Point, into out: inout FlattenedPath) {
    guard p.y != q.y else { return }  // horizontal edges change no winding
    guard Self.isNear(p) && Self.isNear(q) else { return addFarLine(p, q, into: &out) }
    // A line whose height is a vanishing part of its width changes the winding of no pixel.
    guard ((q.x - p.x) / (q.y - p.y)).isFinite else { return }
    out.noteDirection(down: q.y > p.y, at: p.y, height: height, line: out.lines.count)
    // Most lines lie inside the canvas (and not on its right edge, where they are dropped).
    let lowX = p.x < q.x ? p.x : q.x
    let highX = p.x < q.x ? q.x : p.x
    let lowY = p.y < q.y ? p.y : q.y
    let highY = p.y < q.y ? q.y : p.y
    if lowY >= 0, highY <= height, lowX >= 0, highX <= width, lowX < width {
      appendInside(p, q, into: &out)
      return
    }
    addClipped(p, q, into: &out)
  }

  /// Appends a→b, which lies inside the canvas already: no clamping is needed, only the check
  /// that its ends did not round to one Float height.
  @inline(__always)
  private func appendInside(_ a: Point, _ b: Point, into out: inout FlattenedPath) {
    let line = Line(x0: Float(a.x), y0: Float(a.y), x1: Float(b.x), y1: Float(b.y))
    if line.y0 != line.y1 { out.lines.append(line) }
  }

  /// The rest of `addLine`: a line that reaches outside the canvas.
  private func addClipped(_ p: Point, _ q: Point, into out: inout FlattenedPath) {
    var a = p
    var b = q
    // Clip to the rows 0...height, keeping the direction.
    let top = min(a.y, b.y)
    let bottom = max(a.y, b.y)
    if bottom <= 0 || top >= height { return }
    if top < 0 || bottom > height {
      let dxdy = (b.x - a.x) / (b.y - a.y)
      func at(_ y: Double, from s: Point) -> Point { Point(s.x + (y - s.y) * dxdy, y) }
      let a0 = a
      if a.y < 0 { a = at(0, from: a0) } else if a.y > height { a = at(height, from: a0) }
      if b.y < 0 { b = at(0, from: a0) } else if b.y > height { b = at(height, from: a0) }
    }
    // Split at x = 0 and x = width.
    let minX = min(a.x, b.x)
    let maxX = max(a.x, b.x)
    if minX >= width { return }
    if maxX <= 0 {
      emit(0, a.y, 0, b.y, into: &out)
      return
    }
    if minX >= 0 && maxX <= width {
      appendInside(a, b, into: &out)
      return
    }
    var cuts: [Double] = [0, 1]
    for edge in [0, width] where (a.x - edge) * (b.x - edge) < 0 {
      cuts.append((edge - a.x) / (b.x - a.x))
    }
    cuts.sort()
    for i in 0..<(cuts.count - 1) {
      let s = a.lerp(to: b, cuts[i])
      let e = a.lerp(to: b, cuts[i + 1])
      let midX = (s.x + e.x) / 2
      if midX >= width { continue }
      if midX <= 0 {
        emit(0, s.y, 0, e.y, into: &out)
      } else {
        emit(s.x, s.y, e.x, e.y, into: &out)
      }
    }
  }

  private func emit(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, into out: inout FlattenedPath
  ) {
    func cx(_ v: Double) -> Float { Float(min(max(v, 0), width)) }
    func cy(_ v: Double) -> Float { Float(min(max(v, 0), height)) }
    let line = Line(x0: cx(x0), y0: cy(y0), x1: cx(x1), y1: cy(y1))
    if line.y0 != line.y1 { out.lines.append(line) }
  }
}

/// A flattened outline: its clipped lines, and the heights (device pixels) of the vertices where
/// it turns back vertically. Right of such a turn the winding changes part-way down a pixel row,
/// which the rasterizer must know to keep coverage exact where other edges share those pixels.
struct FlattenedPath {
  /// A vertical turn: its height (device pixels) and the index of the first line after it.
  struct Turn {
    var y: Float
    var line: Int
  }

  var lines: [Line] = []
  /// Per line, the stroke piece it bounds (`PieceGroup`; `FlatteningOutlineSink` fills it); empty
  /// for a plain fill.
  var groups: [PieceGroup] = []
  var turns: [Turn] = []
  /// The index of each contour's first line, ascending (a contour that kept no lines repeats the
  /// next one's).
  var contourStarts: [Int] = []
  private var contourStartLine = 0
  private var firstDown: Bool?
  private var lastDown: Bool?
  private var contourStartY = 0.0

  @inline(__always)
  /// Notes the direction of the next line (index `line`), which starts at height `y`.
  mutating func noteDirection(down: Bool, at y: Double, height: Double, line: Int) {
    // Most lines go on in the direction of the one before (the outline's inlined test).
    if lastDown == down { return }
    noteChange(down: down, at: y, height: height, line: line)
  }

  @inline(never)
  private mutating func noteChange(down: Bool, at y: Double, height: Double, line: Int) {
    if let lastDown {
      if lastDown != down, y > 0, y < height { turns.append(Turn(y: Float(y), line: line)) }
    } else {
      firstDown = down
      contourStartY = y
      contourStartLine = line
      contourStarts.append(line)
    }
    lastDown = down
  }

  /// Empties the path, keeping its storage.
  mutating func removeAll() {
    lines.removeAll(keepingCapacity: true)
    groups.removeAll(keepingCapacity: true)
    turns.removeAll(keepingCapacity: true)
    contourStarts.removeAll(keepingCapacity: true)
    contourStartLine = 0
    firstDown = nil
    lastDown = nil
    contourStartY = 0
  }

  mutating func closeContour() {
    if let firstDown, let lastDown, firstDown != lastDown {
      turns.append(Turn(y: Float(contourStartY), line: contourStartLine))
    }
    firstDown = nil
    lastDown = nil
  }
}
