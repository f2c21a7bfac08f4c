/// Takes a stroke's outline to the rasterizer's lines, each with its piece: each point is mapped
/// to device pixels by `transform` and each line clipped by `flattener`, exactly as
/// `Flattener.flatten` does for the same outline as a `Path` (the same lines). The stroker traces
/// into it directly (`Rasterizer.stroke`), and a `StrokeOutline` is replayed into it. `flat` is
/// the rasterizer's scratch, reused from one stroke to the next.
struct FlatteningOutlineSink: OutlineSink {
  let flattener: Flattener
  let transform: Transform
  var flat: FlattenedPath
  private(set) var count = 0
  /// The contour's start and the pen, in device pixels; whether a contour is open.
  private var start = Point.zero
  private var current = Point.zero

  init(flattener: Flattener, transform: Transform, reusing flat: FlattenedPath) {
    self.flattener = flattener
    self.transform = transform
    self.flat = flat
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
    let q = map(p)
    flattener.addLine(current, q, into: &flat)
    current = q
    sync(group)
    count += 1
  }

  mutating func close(group: PieceGroup) {
    finishContour(group)
    count += 1
  }

  /// Ends the outline (its last contour).
  mutating func finish() {
    finishContour(flat.groups.last ?? PieceGroup(id: 0))
  }

  private mutating func finishContour(_ group: PieceGroup) {
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
