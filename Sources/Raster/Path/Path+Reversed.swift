extension Path {
  /// The same outline traced the other way: every subpath runs from its end back to its start
  /// (curves with their control points swapped), so the winding number it adds is negated. A
  /// closed subpath stays closed and starts where it started (its closing line becomes its first
  /// piece); an open one starts at its old end. Adding a reversed shape to another and filling
  /// nonzero cuts it out where the two overlap once.
  public var reversed: Path {
    var builder = PathBuilder()
    var start = Point.zero
    var pen = Point.zero
    // The open subpath's pieces, each with the point it starts from.
    var pieces: [(from: Point, element: PathElement)] = []
    func finish(closed: Bool) {
      guard !pieces.isEmpty || closed else { return }
      if closed {
        builder.move(to: start)
        if pen != start { builder.line(to: pen) }
      } else {
        builder.move(to: pen)
      }
      for (from, element) in pieces.reversed() {
        switch element {
        case .line: builder.line(to: from)
        case .quad(let c, _): builder.quad(to: from, control: c)
        case .cubic(let c1, let c2, _): builder.cubic(to: from, control1: c2, control2: c1)
        case .move, .close: break
        }
      }
      if closed { builder.close() }
      pieces.removeAll()
    }
    for element in elements {
      switch element {
      case .move(let p):
        finish(closed: false)
        start = p
        pen = p
      case .line(let p), .quad(_, let p), .cubic(_, _, let p):
        pieces.append((pen, element))
        pen = p
      case .close:
        finish(closed: true)
        pen = start
      }
    }
    finish(closed: false)
    return builder.build() ?? .empty
  }

  /// The area the path's subpaths enclose, each closed, signed by the way they run: positive
  /// where a subpath turns clockwise on screen (x right, y down), negative counter-clockwise;
  /// curves are taken as their polygons within `tolerance` user units. A shape's holes, traced
  /// the other way, subtract.
  public func signedArea(tolerance: Double = 1e-3) -> Double {
    var area = 0.0
    for polygon in polygons(tolerance: tolerance) {
      guard var previous = polygon.last else { continue }
      for point in polygon {
        area += previous.x * point.y - point.x * previous.y
        previous = point
      }
    }
    return area / 2
  }
}
