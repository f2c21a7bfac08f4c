import Foundation

@testable import Raster

/// The true stroke region of a polyline-or-curve path, built from its definition rather than
/// from an outline: the union of each segment's rectangle (half the width on each side), of a
/// disc at each vertex inside a curve (where the true edge is the curve's offset) and at round
/// joins and caps, of the miter or bevel wedge at corners, and of square caps' squares. Curves
/// are cut into `curvePieces` pieces, far finer than the stroker's tolerance. Coverage is
/// sampled `samples`² times a pixel; all in device pixels (the path is given in them).
struct StrokeReference {
  struct Piece {
    var polygons: [[Point]] = []
    var discs: [Point] = []
    var segments: [(Point, Point)] = []
  }

  let half: Double
  let style: StrokeStyle
  var pieces = Piece()

  init(path: Path, style: StrokeStyle, curvePieces: Int = 256) {
    half = style.width / 2
    self.style = style
    // The centre lines: (points, smooth flags, closed).
    var lines: [([Point], [Bool], Bool)] = []
    var points: [Point] = []
    var smooth: [Bool] = []
    var start = Point.zero
    func finish(_ closed: Bool) {
      if closed, points.count > 1, points.last == points.first {
        points.removeLast()
        smooth.removeLast()
      }
      if !points.isEmpty { lines.append((points, smooth, closed && points.count > 1)) }
      points = []
      smooth = []
    }
    func add(_ p: Point, _ s: Bool) {
      if points.last != p {
        points.append(p)
        smooth.append(s)
      }
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish(false)
        start = p
        add(p, false)
      case .line(let p): add(p, false)
      case .quad(let c, let p):
        let p0 = points.last ?? start
        for k in 1...curvePieces {
          let t = Double(k) / Double(curvePieces)
          let u = 1 - t
          add(p0 * (u * u) + c * (2 * u * t) + p * (t * t), k < curvePieces)
        }
      case .cubic(let c1, let c2, let p):
        let p0 = points.last ?? start
        for k in 1...curvePieces {
          let t = Double(k) / Double(curvePieces)
          let u = 1 - t
          add(
            p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t),
            k < curvePieces)
        }
      case .close:
        add(start, false)
        finish(true)
      }
    }
    finish(false)
    for (points, smooth, closed) in lines { addLine(points, smooth, closed) }
  }

  private mutating func addLine(_ points: [Point], _ smooth: [Bool], _ closed: Bool) {
    let h = half
    if points.count == 1 {
      switch style.cap {
      case .butt: break
      case .round: pieces.discs.append(points[0])
      case .square:
        let p = points[0]
        pieces.polygons.append([
          p + Point(-h, -h), p + Point(h, -h), p + Point(h, h), p + Point(-h, h),
        ])
      }
      return
    }
    let count = points.count
    let segments = closed ? count : count - 1
    func direction(_ i: Int) -> Point {
      let d = points[(i + 1) % count] - points[i]
      return d * (1 / d.length)
    }
    for i in 0..<segments {
      let a = points[i]
      let b = points[(i + 1) % count]
      var d = direction(i)
      let n = Point(-d.y, d.x) * h
      var (from, to) = (a, b)
      if !closed, style.cap == .square {
        if i == 0 { from = from - d * h }
        if i == segments - 1 { to = to + d * h }
      }
      d = d * 1
      pieces.polygons.append([from + n, to + n, to - n, from - n])
      pieces.segments.append((a, b))
    }
    if !closed, style.cap == .round {
      pieces.discs.append(points[0])
      pieces.discs.append(points[count - 1])
    }
    let vertices = closed ? Array(0..<count) : Array(1..<(count - 1))
    for v in vertices {
      let a = (v - 1 + segments) % segments
      let b = v % segments
      let p = points[v]
      if smooth[v] || style.join == .round {
        pieces.discs.append(p)
        continue
      }
      let da = direction(a)
      let db = direction(b)
      let cross = da.x * db.y - da.y * db.x
      guard cross != 0 || (da.x * db.x + da.y * db.y) < 0 else { continue }
      // The outer side: right of the turn's direction.
      let side: Double = cross > 0 ? -1 : 1
      let na = Point(-da.y, da.x) * side
      let nb = Point(-db.y, db.x) * side
      let cosine = na.x * nb.x + na.y * nb.y
      var wedge = [p, p + na * h]
      if style.join == .miter, (1 + cosine) / 2 > 0,
        2 / (1 + cosine) <= style.miterLimit * style.miterLimit
      {
        wedge.append(p + (na + nb) * (h / (1 + cosine)))
      }
      wedge.append(p + nb * h)
      pieces.polygons.append(wedge)
    }
  }

  /// The x-interval where the horizontal line at `y` crosses a convex polygon, if it does.
  static func span(of polygon: [Point], at y: Double) -> (Double, Double)? {
    var low = Double.infinity
    var high = -Double.infinity
    for i in polygon.indices {
      let a = polygon[i]
      let b = polygon[(i + 1) % polygon.count]
      if (a.y <= y && y <= b.y) || (b.y <= y && y <= a.y) {
        if a.y == b.y {
          low = min(low, a.x, b.x)
          high = max(high, a.x, b.x)
        } else {
          let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
          low = min(low, x)
          high = max(high, x)
        }
      }
    }
    return low <= high ? (low, high) : nil
  }

  /// Coverage of each pixel of a `width`×`height` canvas, 0...1: `rows` sample lines a pixel,
  /// each exact along x (the union of the pieces' intervals, measured); only pieces whose
  /// bounds reach a pixel row are looked at.
  func coverage(width: Int, height: Int, rows: Int = 64) -> [Double] {
    var polygonsAt = [[Int]](repeating: [], count: height)
    var discsAt = [[Int]](repeating: [], count: height)
    func rowRange(_ low: Double, _ high: Double) -> ClosedRange<Int>? {
      let y0 = max(0, Int(floor(low)))
      let y1 = min(height - 1, Int(floor(high)))
      return y0 <= y1 ? y0...y1 : nil
    }
    for (i, polygon) in pieces.polygons.enumerated() {
      let ys = polygon.map(\.y)
      if let low = ys.min(), let high = ys.max(), let range = rowRange(low, high) {
        for y in range { polygonsAt[y].append(i) }
      }
    }
    for (i, centre) in pieces.discs.enumerated() {
      if let range = rowRange(centre.y - half, centre.y + half) {
        for y in range { discsAt[y].append(i) }
      }
    }
    var result = [Double](repeating: 0, count: width * height)
    for y in 0..<height {
      for r in 0..<rows {
        let sampleY = Double(y) + (Double(r) + 0.5) / Double(rows)
        var spans: [(Double, Double)] = []
        for i in polygonsAt[y] {
          if let span = Self.span(of: pieces.polygons[i], at: sampleY) { spans.append(span) }
        }
        for i in discsAt[y] {
          let dy = sampleY - pieces.discs[i].y
          let squared = half * half - dy * dy
          if squared >= 0 {
            let dx = squared.squareRoot()
            spans.append((pieces.discs[i].x - dx, pieces.discs[i].x + dx))
          }
        }
        spans.sort { $0.0 < $1.0 }
        // The union, run by run, spread over the pixels it covers.
        var k = 0
        while k < spans.count {
          var (low, high) = spans[k]
          k += 1
          while k < spans.count, spans[k].0 <= high {
            high = max(high, spans[k].1)
            k += 1
          }
          low = max(low, 0)
          high = min(high, Double(width))
          guard low < high else { continue }
          for x in Int(floor(low))...min(width - 1, Int(floor(high))) {
            let covered = min(high, Double(x + 1)) - max(low, Double(x))
            if covered > 0 { result[y * width + x] += covered / Double(rows) }
          }
        }
      }
    }
    return result.map { min($0, 1) }
  }
}
