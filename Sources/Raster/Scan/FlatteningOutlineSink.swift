/// Takes a stroke's outline straight to the rasterizer's lines: each point is mapped to device
/// pixels by `transform` and each line clipped by `flattener`, exactly as `Flattener.flatten`
/// does for the same outline as a `Path` (the same lines, the same pixels), without building the
/// path. `flat` is the rasterizer's scratch, reused from one stroke to the next.
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

  @inline(__always)
  private func map(_ p: Point) -> Point { Flattener.finite(transform.apply(p)) }

  mutating func move(to p: Point, group: PieceGroup) {
    finishContour(group)
    start = map(p)
    current = start
    count += 1
  }

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
