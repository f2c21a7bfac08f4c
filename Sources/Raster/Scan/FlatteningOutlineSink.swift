/// Takes a stroke's outline to the rasterizer's lines, each with its piece: each point is mapped
/// to device pixels by `transform` and each line clipped by `flattener`, exactly as
/// `Flattener.flatten` does for the same outline as a `Path` (the same lines). The stroker traces
/// into it directly (`Rasterizer.stroke`), and a `StrokeOutline` is replayed into it. `flat` is
/// the rasterizer's scratch, reused from one stroke to the next.
///
/// Most of a stroke's lines lie inside the canvas: `line(to:group:)` takes them as
/// `Flattener.addLine` does, by its expressions, and keeps them and their pieces in `pending`
/// (the caller's scratch, `pendingCapacity` of each), which goes to `flat` a block at a time —
/// two checked array appends a line cost more than the rest of the line's way. Any other line
/// goes through `addLine` after the pending ones, so the order stays. `finish` must end the
/// outline before `flat` is read.
struct FlatteningOutlineSink: OutlineSink {
  let flattener: Flattener
  let transform: Transform
  var flat: FlattenedPath
  private(set) var count = 0
  /// The contour's start and the pen, in device pixels; whether a contour is open.
  private var start = Point.zero
  private var current = Point.zero
  /// Lines (and their pieces) inside the canvas not yet in `flat`: the first `pendingCount` of
  /// `pending`.
  private let pending: Pending
  private var pendingCount = 0

  /// Scratch for lines not yet appended: as many lines as pieces.
  struct Pending {
    let lines: UnsafeMutablePointer<Line>
    let groups: UnsafeMutablePointer<PieceGroup>
    let capacity: Int
  }

  /// Lines a `Pending` holds (`Rasterizer` allocates it on the stack): 6 KiB.
  static let pendingCapacity = 256

  init(flattener: Flattener, transform: Transform, reusing flat: FlattenedPath, pending: Pending) {
    precondition(pending.capacity > 0)
    self.flattener = flattener
    self.transform = transform
    self.flat = flat
    self.pending = pending
    self.flat.removeAll()
  }

  /// Replays `outline` (whose path has only moves, lines and closes, as `Stroker` makes it).
  mutating func add(_ outline: StrokeOutline) {
    for (element, group) in zip(outline.path.elements, outline.groups) {
      switch element {
      case .move(let p): move(to: p, group: group)
      case .line(let p): line(to: p, group: group)
      case .close: close(group: group)
      case .quad, .cubic: preconditionFailure("a stroke's outline has no curves")
      }
    }
    finish()
  }

  @inline(__always)
  private func map(_ p: Point) -> Point { Flattener.finite(transform.apply(p)) }

  mutating func move(to p: Point, group: PieceGroup) {
    finishContour(group)
    start = map(p)
    current = start
    count += 1
  }

  /// Inlined into the stroker's joins: most of its lines come through here.
  @inline(__always)
  mutating func line(to p: Point, group: PieceGroup) {
    // The point as mapped; `map`'s clamping is left to the lines that go to `addLine`: a point
    // that is not finite fails the test of the inside case.
    let q = transform.apply(p)
    let a = current
    current = q
    count &+= 1
    // `Flattener.addLine`'s inside case: ends within the canvas rows and columns (so near, and
    // not on its right edge), not horizontal.
    let lowX = a.x < q.x ? a.x : q.x
    let highX = a.x < q.x ? q.x : a.x
    let lowY = a.y < q.y ? a.y : q.y
    let highY = a.y < q.y ? q.y : a.y
    guard a.y != q.y, lowY >= 0, highY <= flattener.height, lowX >= 0,
      highX <= flattener.width, lowX < flattener.width
    else {
      addOther(from: a, to: p, group: group)
      return
    }
    // A line whose height is a vanishing part of its width changes the winding of no pixel.
    guard ((q.x - a.x) / (q.y - a.y)).isFinite else { return }
    flat.noteDirection(
      down: q.y > a.y, at: a.y, height: flattener.height, line: flat.lines.count &+ pendingCount)
    let line = Line(x0: Float(a.x), y0: Float(a.y), x1: Float(q.x), y1: Float(q.y))
    guard line.y0 != line.y1 else { return }
    pending.lines[pendingCount] = line
    pending.groups[pendingCount] = group
    pendingCount &+= 1
    if pendingCount == pending.capacity { flush() }
  }

  /// A line that is not `line(to:group:)`'s inside case: through `Flattener.addLine`, after the
  /// pending lines.
  @inline(never)
  private mutating func addOther(from a: Point, to p: Point, group: PieceGroup) {
    let q = map(p)
    current = q
    flush()
    flattener.addLine(a, q, into: &flat)
    sync(group)
  }

  mutating func close(group: PieceGroup) {
    finishContour(group)
    count += 1
  }

  /// Ends the outline (its last contour).
  mutating func finish() {
    flush()
    finishContour(flat.groups.last ?? PieceGroup(id: 0))
  }

  /// Appends the pending lines and their pieces to `flat` (whose lines and pieces are as many).
  private mutating func flush() {
    guard pendingCount > 0 else { return }
    flat.lines.append(contentsOf: UnsafeBufferPointer(start: pending.lines, count: pendingCount))
    flat.groups.append(contentsOf: UnsafeBufferPointer(start: pending.groups, count: pendingCount))
    pendingCount = 0
  }

  private mutating func finishContour(_ group: PieceGroup) {
    flush()
    if current != start {
      flattener.addLine(current, start, into: &flat)
      sync(group)
    }
    flat.closeContour()
    current = start
  }

  @inline(__always)
  private mutating func sync(_ group: PieceGroup) {
    while flat.groups.count < flat.lines.count { flat.groups.append(group) }
  }
}
