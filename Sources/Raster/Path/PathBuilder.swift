/// Accumulates path elements and checks them into a `Path`.
///
/// A drawing call with no current subpath starts one at the last subpath's start point (or at the
/// origin), as SVG does after a close. `build()` returns nil if any coordinate was not finite.
public struct PathBuilder: Sendable {
  private var elements: [PathElement] = []
  private var bounds: Rect?
  private var allFinite = true
  /// Where the open subpath started; nil when no subpath is open.
  private var subpathStart: Point?
  /// The start of the most recent subpath, open or closed.
  private var lastStart = Point.zero
  /// The end point of the last element.
  public private(set) var currentPoint = Point.zero

  public init() {}

  /// The number of elements added so far.
  public var count: Int { elements.count }

  public mutating func move(to p: Point) {
    if case .move = elements.last { elements.removeLast() }
    append(.move(p), p)
    subpathStart = p
    lastStart = p
  }

  public mutating func line(to p: Point) {
    ensureSubpath()
    append(.line(p), p)
  }

  public mutating func quad(to p: Point, control c: Point) {
    ensureSubpath()
    include(c)
    append(.quad(c, p), p)
  }

  public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
    ensureSubpath()
    include(c1)
    include(c2)
    append(.cubic(c1, c2, p), p)
  }

  /// Closes the open subpath with a straight line to its start; the current point becomes that
  /// start. Does nothing when no subpath is open.
  public mutating func close() {
    guard let start = subpathStart else { return }
    elements.append(.close)
    currentPoint = start
    subpathStart = nil
  }

  /// Adds every subpath of `path` as it is.
  public mutating func add(_ path: Path) {
    for element in path.elements {
      switch element {
      case .move(let p): move(to: p)
      case .line(let p): line(to: p)
      case .quad(let c, let p): quad(to: p, control: c)
      case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
      case .close: close()
      }
    }
  }

  /// The finished path; nil if any coordinate was NaN or infinite.
  public func build() -> Path? {
    guard allFinite else { return nil }
    var finished = elements
    if case .move = finished.last { finished.removeLast() }
    return finished.isEmpty ? .empty : Path(validatedElements: finished, bounds: bounds)
  }

  // MARK: - Private

  private mutating func ensureSubpath() {
    if subpathStart == nil { move(to: elements.isEmpty ? currentPoint : lastStart) }
  }

  private mutating func append(_ element: PathElement, _ end: Point) {
    elements.append(element)
    include(end)
    currentPoint = end
  }

  private mutating func include(_ p: Point) {
    if !p.isFinite { allFinite = false }
    bounds = bounds?.including(p) ?? Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
  }
}
