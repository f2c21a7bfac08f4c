import TestSupport
import Testing

@testable import Raster

struct MissingMask: Error {}

func requireMask(_ mask: Mask?) throws -> Mask {
  guard let mask else { throw MissingMask() }
  return mask
}

private func coverageSum(_ mask: Mask) -> Double {
  mask.values.reduce(0.0) { $0 + Double($1) } / 255
}

private func polygon(_ points: [Point]) -> Path {
  var builder = PathBuilder()
  builder.move(to: points[0])
  for p in points.dropFirst() { builder.line(to: p) }
  builder.close()
  return builder.build() ?? .empty
}

private func shoelaceArea(_ points: [Point]) -> Double {
  var sum = 0.0
  for i in points.indices {
    let p = points[i]
    let q = points[(i + 1) % points.count]
    sum += p.x * q.y - q.x * p.y
  }
  return abs(sum) / 2
}

@Suite struct RasterizerTests {
  /// Coverage sums to the polygon's area: exact area per pixel, up to 8-bit rounding (half a
  /// unit per partially covered pixel).
  @Test func coverageSumEqualsPolygonAreaForRandomConvexPolygons() throws {
    var random = SeededGenerator()
    for _ in 0..<200 {
      let centre = Point(
        Double.random(in: 20...44, using: &random), Double.random(in: 20...44, using: &random))
      let count = Int.random(in: 3...9, using: &random)
      let angles = (0..<count).map { _ in Double.random(in: 0..<(2 * .pi), using: &random) }
        .sorted()
      // Points on one circle, in angle order: always a convex polygon.
      let r = Double.random(in: 2...18, using: &random)
      let points = angles.map { a in Point(centre.x + r * cos(a), centre.y + r * sin(a)) }
      var rasterizer = Rasterizer()
      let mask = try requireMask(rasterizer.mask(of: polygon(points), width: 64, height: 64))
      let partial = mask.values.filter { $0 != 0 && $0 != 255 }.count
      let error = abs(coverageSum(mask) - shoelaceArea(points))
      #expect(error <= Double(partial) * 0.5 / 255 + 1e-3, "\(points)")
    }
  }

  /// Exhaustive over sub-pixel offsets: a 1×1 square at every 1/16 offset covers exactly the
  /// overlap areas of the four pixels it touches.
  @Test func unitSquareAtEverySixteenthOffset() throws {
    var rasterizer = Rasterizer()
    for i in 0..<16 {
      for j in 0..<16 {
        let fx = Double(i) / 16
        let fy = Double(j) / 16
        let square = polygon([
          Point(2 + fx, 2 + fy), Point(3 + fx, 2 + fy), Point(3 + fx, 3 + fy),
          Point(2 + fx, 3 + fy),
        ])
        let mask = try requireMask(rasterizer.mask(of: square, width: 6, height: 6))
        let expected: [(Int, Int, Double)] = [
          (2, 2, (1 - fx) * (1 - fy)), (3, 2, fx * (1 - fy)), (2, 3, (1 - fx) * fy),
          (3, 3, fx * fy),
        ]
        for (x, y, area) in expected {
          #expect(
            abs(Double(mask[x, y]) - area * 255) <= 0.5 + 1e-6, "offset \(fx),\(fy) px \(x),\(y)")
        }
      }
    }
  }

  /// Every triangle with vertices on a 1/4-pixel grid inside 2×2 pixels: the coverage sum is its
  /// area, for both winding directions.
  @Test func smallTrianglesOnAQuarterPixelGrid() throws {
    var rasterizer = Rasterizer()
    let grid = (0...8).flatMap { x in
      (0...8).map { y in Point(1 + Double(x) / 4, 1 + Double(y) / 4) }
    }
    var random = SeededGenerator(seed: 7)
    for _ in 0..<400 {
      let points = (0..<3).map { _ in grid[Int.random(in: 0..<grid.count, using: &random)] }
      let area = shoelaceArea(points)
      for ordered in [points, points.reversed()] {
        let mask = try requireMask(rasterizer.mask(of: polygon(ordered), width: 4, height: 4))
        let partial = mask.values.filter { $0 != 0 && $0 != 255 }.count
        #expect(abs(coverageSum(mask) - area) <= Double(partial) * 0.5 / 255 + 1e-4, "\(ordered)")
      }
    }
  }

  @Test func nonzeroAndEvenOddDifferOnSelfIntersections() throws {
    let star = try PathDataParser.parse("M50 3L79 94L2 37H98L21 94Z")
    let transform = Transform.scale(0.64, 0.64)
    var rasterizer = Rasterizer()
    let nonzero = try requireMask(
      rasterizer.mask(of: star, transform: transform, rule: .nonzero, width: 64, height: 64))
    let evenodd = try requireMask(
      rasterizer.mask(of: star, transform: transform, rule: .evenodd, width: 64, height: 64))
    // The centre pentagon has winding 2: filled by nonzero, empty by even-odd; the points agree.
    #expect(nonzero[32, 36] == 255)
    #expect(evenodd[32, 36] == 0)
    #expect(nonzero[32, 6] == evenodd[32, 6])
    #expect(nonzero[32, 6] == 255)
  }

  @Test func oppositeSubpathCutsAHoleUnderNonzero() throws {
    let ring = try PathDataParser.parse("M0 0H40V40H0ZM10 10V30H30V10Z")
    var rasterizer = Rasterizer()
    let mask = try requireMask(rasterizer.mask(of: ring, width: 40, height: 40))
    #expect(mask[20, 20] == 0)
    #expect(mask[5, 5] == 255)
  }

  // MARK: - Robustness

  @Test func hugeAndNegativeCoordinatesAreClippedWithoutCost() throws {
    // A triangle reaching ±1e7 that covers the whole canvas, and one wholly outside.
    let huge = polygon([Point(-1e7, -1e7), Point(3e7, -1e7), Point(-1e7, 3e7)])
    var rasterizer = Rasterizer()
    let mask = try requireMask(rasterizer.mask(of: huge, width: 32, height: 32))
    #expect(mask.values.allSatisfy { $0 == 255 })
    let outside = polygon([Point(-1e7, -1e7), Point(-1e6, -1e7), Point(-1e7, -1e6)])
    let empty = try requireMask(rasterizer.mask(of: outside, width: 32, height: 32))
    #expect(empty.values.allSatisfy { $0 == 0 })
  }

  @Test func hugeCurvesAreCulledNotFlattened() throws {
    // A circle of radius 1e7 px through the canvas: flattening it whole at 1/64 px would need
    // millions of lines; culling keeps only the pieces near the canvas.
    let path = try PathDataParser.parse("M0 1e7A1e7 1e7 0 1 1 0 -1e7A1e7 1e7 0 1 1 0 1e7Z")
    let lines = Flattener(width: 64, height: 64).lines(
      of: path, transform: .translation(1e7 + 32, 32))
    #expect(lines.count < 5_000)
    var rasterizer = Rasterizer()
    let mask = try requireMask(
      rasterizer.mask(of: path, transform: .translation(1e7 + 32, 32), width: 64, height: 64))
    // The circle's left edge is the vertical line x = 32 (to within 1e-4 px here).
    #expect(mask[31, 32] == 0)
    #expect(mask[33, 32] == 255)
  }

  @Test func subPixelSliversAndDegenerateSegments() throws {
    let path = try PathDataParser.parse(
      "M1 1L1 1L1 1ZM2 2L30 2.001L2 2.002ZM5 5L5 5L20 20L5 5Z M7 7h0v0z")
    var rasterizer = Rasterizer()
    let mask = try requireMask(rasterizer.mask(of: path, width: 32, height: 32))
    #expect(coverageSum(mask) < 0.05)
  }

  @Test func tensOfThousandsOfSegments() throws {
    var builder = PathBuilder()
    builder.move(to: Point(0, 0))
    var random = SeededGenerator(seed: 99)
    for _ in 0..<40_000 {
      builder.line(
        to: Point(
          Double.random(in: -10...138, using: &random), Double.random(in: -10...138, using: &random)
        ))
    }
    builder.close()
    let path = try #require(builder.build())
    var rasterizer = Rasterizer()
    for rule in FillRule.allCases {
      let mask = try requireMask(rasterizer.mask(of: path, rule: rule, width: 128, height: 128))
      #expect(mask.values.contains { $0 != 0 })
    }
  }

  @Test func fillingTheSamePathTwiceGivesTheSamePixels() throws {
    let path = try PathDataParser.parse(TestShapes.cases[3].data)
    var rasterizer = Rasterizer()
    let a = rasterizer.mask(of: path, transform: .scale(0.7, 0.7), width: 70, height: 70)
    let b = rasterizer.mask(of: path, transform: .scale(0.7, 0.7), width: 70, height: 70)
    #expect(a == b)
    var fresh = Rasterizer()
    #expect(fresh.mask(of: path, transform: .scale(0.7, 0.7), width: 70, height: 70) == a)
  }

  @Test func fillBlendsCoverageWithTheColour() throws {
    var pixmap = try #require(Pixmap(width: 4, height: 4, filledWith: Color.white.premultiplied))
    let half = polygon([Point(0, 0), Point(2, 0), Point(2, 4), Point(0, 4)])
    var rasterizer = Rasterizer()
    rasterizer.fill(
      half, transform: .translation(0.5, 0), color: Color.black.premultiplied, into: &pixmap)
    // Half coverage is 128/255: black at alpha 128 over white leaves 255·127/255 = 127.
    #expect(pixmap[0, 0] == PremultipliedRGBA8(r: 127, g: 127, b: 127, a: 255))
    #expect(pixmap[1, 0] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
    #expect(pixmap[2, 0] == PremultipliedRGBA8(r: 127, g: 127, b: 127, a: 255))
    #expect(pixmap[3, 0] == PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
  }

  /// A translucent fill is blended exactly once per pixel, wherever the sweep's runs of edge
  /// cells begin and end — also for shapes cut by the right edge of the canvas, whose clipped
  /// edges touch the cells just past it: every pixel equals the colour scaled by the mask's
  /// coverage, source-over the background.
  @Test func translucentFillsBlendEachPixelOnce() throws {
    let color = Color(r: 255, g: 149, b: 0).opacity(0.5).premultiplied
    let background = Color.white.premultiplied
    var random = SeededGenerator(seed: 77)
    var rasterizer = Rasterizer()
    var shapes: [Path] = []
    for right in [99.3, 100, 100.5, 101, 150, 1e6] {
      shapes.append(polygon([Point(10.25, 3), Point(right, 5.5), Point(right, 40), Point(12, 38)]))
    }
    // One subpath ending exactly on the right edge over another that goes past it.
    shapes.append(try PathDataParser.parse("M10 3H100V40H10Z M20 8H150V30H20Z"))
    shapes.append(try PathDataParser.parse("M10 3H64V40H10Z M20 8H150V30H20Z"))
    for _ in 0..<60 {
      // Vertices on a coarse grid, so that edges often lie exactly on x = 100 and on cell-word
      // boundaries (x = 64).
      let points = (0..<7).map { _ in
        Point(
          Double(Int.random(in: -10...65, using: &random)) * 2,
          Double.random(in: -5...50, using: &random))
      }
      shapes.append(polygon(points))
    }
    for (index, shape) in shapes.enumerated() {
      for rule in [FillRule.nonzero, .evenodd] {
        let mask = try requireMask(rasterizer.mask(of: shape, rule: rule, width: 100, height: 44))
        var pixmap = try #require(Pixmap(width: 100, height: 44, filledWith: background))
        rasterizer.fill(shape, rule: rule, color: color, into: &pixmap)
        var wrong = 0
        for y in 0..<44 {
          for x in 0..<100
          where pixmap[x, y]
            != Blend.sourceOver(color.scaled(by: mask.values[y * 100 + x]), background)
          {
            wrong += 1
          }
        }
        #expect(wrong == 0, "shape \(index), \(rule): \(wrong) pixels differ")
      }
    }
  }
}

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CellRoundingTests {
  /// The 16-bit touched-pair store against the word-by-word one, at every position of three
  /// words, over empty and full words.
  @Test func markPairMatchesMarkTouched() {
    for start in [UInt64(0), ~0, 0x5555_5555_5555_5555] {
      for first in 0..<(3 * 64 - 1) {
        var pair = [UInt64](repeating: start, count: 4)
        var plain = pair
        pair.withUnsafeMutableBufferPointer { CoverageAccumulator.markPair(first, $0.baseAddress!) }
        plain.withUnsafeMutableBufferPointer {
          CoverageAccumulator.markTouched(first, first + 1, $0.baseAddress!)
        }
        #expect(pair == plain, "cell \(first)")
      }
    }
  }

  @Test func markTripleMatchesMarkTouched() {
    for start in [UInt64(0), ~0, 0x5555_5555_5555_5555] {
      for first in 0..<(3 * 64 - 2) {
        var triple = [UInt64](repeating: start, count: 4)
        var plain = triple
        triple.withUnsafeMutableBufferPointer {
          CoverageAccumulator.markTriple(first, $0.baseAddress!)
        }
        plain.withUnsafeMutableBufferPointer {
          CoverageAccumulator.markTouched(first, first + 2, $0.baseAddress!)
        }
        #expect(triple == plain, "cell \(first)")
      }
    }
  }

  /// The one-test owner check against its plain statement, over every owner id pair in a small
  /// domain and around the largest ids.
  @Test func ownerCheckMatchesItsPlainTwin() {
    func plain(_ previous: Int32, _ owner: Int32) -> Bool {
      previous != 0 && abs(Int(previous) - Int(owner)) > 1
    }
    let small = Array(Int32(0)...300)
    let large = (Int32.max - 300)...(Int32.max - 2)
    var mismatches: [(previous: Int32, owner: Int32)] = []
    for owner in Array(Int32(2)...300) + Array(large) {
      for previous in small + Array(large)
      where CoverageAccumulator.mayBeUnconnected(previous, owner) != plain(previous, owner) {
        mismatches.append((previous, owner))
      }
    }
    #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
  }

  /// The accumulator's floor and ceiling agree with `rounded(.down)` / `rounded(.up)` around
  /// every integer up to 4096 (the integer, and one and two ulps either side), at halves, and on
  /// a million pseudo-random values below 2^22.
  @Test func floorAndCeilingMatchTheirPlainTwins() {
    func check(_ v: Float) {
      guard v >= 0, v < 4_194_304 else { return }
      #expect(CoverageAccumulator.floorNonNegative(v) == Int(v.rounded(.down)), "floor \(v)")
      #expect(CoverageAccumulator.ceilNonNegative(v) == Int(v.rounded(.up)), "ceil \(v)")
    }
    for i in 0...4096 {
      let n = Float(i)
      for v in [n, n.nextUp, n.nextUp.nextUp, n.nextDown, n.nextDown.nextDown, n + 0.5] { check(v) }
    }
    var seed: UInt32 = 12345
    for _ in 0..<1_000_000 {
      seed = seed &* 1_664_525 &+ 1_013_904_223
      check(Float(seed >> 10) / Float(1 << (seed & 15)))
    }
  }
}

@Suite struct TurnRowTests {
  /// Outlines with many vertical turns: tiny triangles (some overlapping), rows of one-pixel
  /// sawteeth (chains of joined lines inside a row), vertical strokes at whole x, random walks.
  private static func outlines() -> [Path] {
    var random = SeededGenerator(seed: 7)
    func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
    var paths: [Path] = []
    var triangles = PathBuilder()
    for _ in 0..<120 {
      let (x, y) = (r(0...60), r(0...60))
      triangles.move(to: Point(x, y))
      triangles.line(to: Point(x + r(0.2...3), y + r(0.1...1.5)))
      triangles.line(to: Point(x + r(-1...1), y + r(0.3...2.5)))
      triangles.close()
    }
    paths.append(triangles.build() ?? .empty)
    var saw = PathBuilder()
    saw.move(to: Point(1, 0.2))
    for row in stride(from: 0, to: 60, by: 3) {
      let xs = Array(4..<58)
      for (i, x) in (row % 2 == 0 ? xs : xs.reversed()).enumerated() {
        saw.line(to: Point(Double(x) + r(-0.3...0.3), Double(row) + (i % 2 == 0 ? 0.2 : 0.8)))
      }
      if Int(r(0...3)) == 0 { saw.line(to: Point(r(0...60), Double(row) + 0.5)) }
    }
    saw.close()
    paths.append(saw.build() ?? .empty)
    var strokes = PathBuilder()
    for _ in 0..<100 {
      let x = Double(Int(r(0...60)))
      let y = r(0...58)
      strokes.move(to: Point(x, y))
      strokes.line(to: Point(x, y + r(0.1...1.5)))
      strokes.line(
        to: Point(x + [0, 0, 0.5][Int.random(in: 0...2, using: &random)], y + r(0.1...0.9)))
      strokes.close()
    }
    paths.append(strokes.build() ?? .empty)
    var walk = PathBuilder()
    var p = Point(30, 30)
    walk.move(to: p)
    for _ in 0..<3000 {
      p = Point(min(max(p.x + r(-1.5...1.5), 0), 64), min(max(p.y + r(-0.7...0.7), 0), 64))
      walk.line(to: p)
    }
    walk.close()
    paths.append(walk.build() ?? .empty)
    return paths
  }

  /// The batched row test (sorted extents, chains walked once) marks exactly the rows that
  /// `turnMeetsOtherEdges` marks turn by turn; every line is passed as active, a superset of the
  /// lines the rasterizer passes that differs only by lines outside the row.
  @Test func batchedRowsMatchTurnByTurnTests() {
    var marked = 0
    var unmarked = 0
    for path in Self.outlines() {
      let flat = Flattener(width: 64, height: 64).flatten(path, transform: .identity)
      let all = flat.lines.indices.map { Int32($0) }
      let turns = flat.turns.filter { $0.y != $0.y.rounded(.down) }.sorted { $0.y < $1.y }
      var index = TurnRowIndex()
      var start = 0
      while start < turns.count {
        var end = start + 1
        while end < turns.count, Int(turns[end].y) == Int(turns[start].y) { end += 1 }
        let row = turns[start..<end]
        let oneByOne = row.contains {
          CoverageAccumulator.turnMeetsOtherEdges($0, flat.lines, all)
        }
        let batched =
          index.mark(
            row, lines: flat.lines, active: all, regionMinY: 0, marked: 0, directTests: 0) != 0
        #expect(batched == oneByOne, "row \(Int(turns[start].y))")
        if oneByOne { marked += 1 } else { unmarked += 1 }
        start = end
      }
    }
    // Both answers occur, so both are checked.
    #expect(marked > 30 && unmarked > 30, "\(marked) marked, \(unmarked) not")
  }
}
