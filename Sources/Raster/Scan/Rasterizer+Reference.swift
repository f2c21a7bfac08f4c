/// The slow, obviously-correct twin of `Rasterizer`, for tests: it flattens far more finely (to
/// 1/1000 px) with its own code, and measures each pixel's coverage on `rowsPerPixel` evenly
/// spaced horizontal sample lines, on each of which the inside intervals are found from sorted
/// edge crossings and integrated exactly along x. With 16 rows this is at least as accurate as
/// 16×16 point samples per pixel; accuracy tests use 64.
struct ReferenceRasterizer {
  let width: Int
  let height: Int
  let rowsPerPixel: Int

  private struct Edge {
    var x0, y0, x1, y1: Double
    var winding: Int
  }

  /// Coverage per pixel in 0...1, row-major.
  func coverage(of path: Path, transform: Transform, rule: FillRule) -> [Double] {
    let edges = polygon(of: path, transform: transform)
    var result = [Double](repeating: 0, count: width * height)
    // Edges by the pixel rows they span, so each sample line looks only at nearby edges.
    var buckets = [[Int]](repeating: [], count: height)
    for (i, e) in edges.enumerated() {
      let top = max(0, Int(min(e.y0, e.y1).rounded(.down)))
      let bottom = min(height - 1, Int(max(e.y0, e.y1).rounded(.down)))
      if top <= bottom { for row in top...bottom { buckets[row].append(i) } }
    }
    let n = Double(rowsPerPixel)
    var rowCoverage = [Double](repeating: 0, count: width + 1)
    for row in 0..<height {
      for i in rowCoverage.indices { rowCoverage[i] = 0 }
      for sample in 0..<rowsPerPixel {
        let y = Double(row) + (Double(sample) + 0.5) / n
        var crossings: [(x: Double, winding: Int)] = []
        for index in buckets[row] {
          let e = edges[index]
          let (lo, hi) = (min(e.y0, e.y1), max(e.y0, e.y1))
          guard lo <= y, y < hi else { continue }
          crossings.append((e.x0 + (y - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0), e.winding))
        }
        crossings.sort { $0.x < $1.x }
        var winding = 0
        for (i, crossing) in crossings.enumerated() {
          winding += crossing.winding
          let inside = rule == .nonzero ? winding != 0 : winding & 1 != 0
          guard inside, i + 1 < crossings.count else { continue }
          addInterval(crossing.x, crossings[i + 1].x, weight: 1 / n, into: &rowCoverage)
        }
      }
      for x in 0..<width { result[row * width + x] = min(1, rowCoverage[x]) }
    }
    return result
  }

  /// Adds `weight` times the length of [a, b) ∩ each pixel column to that column.
  private func addInterval(_ a: Double, _ b: Double, weight: Double, into row: inout [Double]) {
    let lo = max(0, a)
    let hi = min(Double(width), b)
    guard lo < hi else { return }
    let first = Int(lo.rounded(.down))
    let last = min(width - 1, Int(hi.rounded(.up)) - 1)
    for x in first...max(first, last) {
      let overlap = min(hi, Double(x + 1)) - max(lo, Double(x))
      if overlap > 0 { row[x] += overlap * weight }
    }
  }

  /// The path as straight edges in device space, curves cut into many short pieces.
  private func polygon(of path: Path, transform: Transform) -> [Edge] {
    var edges: [Edge] = []
    var start = Point.zero
    var current = Point.zero
    func add(_ p: Point, _ q: Point) {
      if p.y != q.y {
        edges.append(Edge(x0: p.x, y0: p.y, x1: q.x, y1: q.y, winding: q.y > p.y ? 1 : -1))
      }
    }
    func addCurve(_ points: [Point]) {
      var span = 0.0
      for i in 1..<points.count { span += (points[i] - points[i - 1]).length }
      let steps = min(20_000, max(16, Int((span / 0.05).rounded(.up))))
      var previous = points[0]
      for i in 1...steps {
        let q = i == steps ? points[points.count - 1] : bezier(points, Double(i) / Double(steps))
        add(previous, q)
        previous = q
      }
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        add(current, start)
        start = transform.apply(p)
        current = start
      case .line(let p):
        let q = transform.apply(p)
        add(current, q)
        current = q
      case .quad(let c, let p):
        let q = transform.apply(p)
        addCurve([current, transform.apply(c), q])
        current = q
      case .cubic(let c1, let c2, let p):
        let q = transform.apply(p)
        addCurve([current, transform.apply(c1), transform.apply(c2), q])
        current = q
      case .close:
        add(current, start)
        current = start
      }
    }
    add(current, start)
    return edges
  }

  /// de Casteljau evaluation.
  private func bezier(_ points: [Point], _ t: Double) -> Point {
    var p = points
    while p.count > 1 {
      for i in 0..<(p.count - 1) { p[i] = p[i].lerp(to: p[i + 1], t) }
      p.removeLast()
    }
    return p[0]
  }
}
