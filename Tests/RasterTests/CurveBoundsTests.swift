import TestSupport
import Testing

@testable import Raster

/// `Path.curveBounds`: the extent of the path as drawn, against the extent of many points on
/// each curve (dense sampling, which can only fall inside the true box, and reaches it within
/// the sampling's step).
@Suite struct CurveBoundsTests {
  /// The box of 20,001 points along every element (the ends included).
  static func sampled(_ path: Path) -> Rect? {
    var box: Rect?
    func include(_ p: Point) {
      box = box?.including(p) ?? Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
    }
    var current = Point(0, 0)
    var start = Point(0, 0)
    let n = 20_000
    for element in path.elements {
      switch element {
      case .move(let p):
        include(p)
        (current, start) = (p, p)
      case .line(let p):
        include(p)
        current = p
      case .quad(let c, let p):
        for i in 0...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          include(current * (u * u) + c * (2 * u * t) + p * (t * t))
        }
        current = p
      case .cubic(let c1, let c2, let p):
        for i in 0...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          include(
            current * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t))
        }
        current = p
      case .close: current = start
      }
    }
    return box
  }

  /// The curves' extremes, not their control points: a quadratic bulging to 100 (control at
  /// 200), a cubic with a loop, an S; lines and arcs as before; random curves against sampling.
  @Test func theBoxIsTheCurvesNotTheirControlPoints() throws {
    let quad = try PathDataParser.parse("M0 0 Q 50 200 100 0 Z")
    #expect(quad.curveBounds == Rect(minX: 0, minY: 0, maxX: 100, maxY: 100))
    #expect(quad.bounds == Rect(minX: 0, minY: 0, maxX: 100, maxY: 200))
    let loop = try PathDataParser.parse("M0 30 C 100 30 -40 0 60 60")
    let box = try #require(loop.curveBounds)
    let sampled = try #require(Self.sampled(loop))
    #expect(abs(box.minX - sampled.minX) < 1e-6 && abs(box.maxX - sampled.maxX) < 1e-6)
    #expect(abs(box.minY - sampled.minY) < 1e-6 && abs(box.maxY - sampled.maxY) < 1e-6)
    #expect(
      try PathDataParser.parse("M3 4 L 10 -2 H 7").curveBounds
        == Rect(minX: 3, minY: -2, maxX: 10, maxY: 4))
    #expect(Path.empty.curveBounds == nil)
    var generator = SeededGenerator(seed: 2026_12_05)
    for _ in 0..<300 {
      func point() -> Point {
        Point(
          Double(generator.next() % 2001) / 10 - 100, Double(generator.next() % 2001) / 10 - 100)
      }
      let (a, b, c, d) = (point(), point(), point(), point())
      let data =
        "M\(a.x) \(a.y) C\(b.x) \(b.y) \(c.x) \(c.y) \(d.x) \(d.y) Q\(a.x) \(b.y) \(c.x) \(d.y)"
      let path = try PathDataParser.parse(data)
      let exact = try #require(path.curveBounds)
      let dense = try #require(Self.sampled(path))
      // Sampling lies inside the true box and reaches it within (step · speed)² terms.
      for (e, s) in [(exact.minX, dense.minX), (exact.minY, dense.minY)] {
        #expect(e <= s + 1e-9 && s - e < 1e-4, "\(data)")
      }
      for (e, s) in [(exact.maxX, dense.maxX), (exact.maxY, dense.maxY)] {
        #expect(e >= s - 1e-9 && e - s < 1e-4, "\(data)")
      }
    }
  }
}
