import CScanKernels
import TestSupport
import Testing

@testable import Raster

/// The crowded bands' path: its C kernels against their plain Swift twin, bit for bit, and whole
/// fills with and without it.
@Suite struct CrowdedBandTests {
  /// Lines over a `width`-wide region of `rows` rows: steep, flat (up to sixty cells a row),
  /// vertical and horizontal ones, ends on whole numbers and on the region's edges, short and long.
  private static func lines(width: Int, rows: Int, count: Int, seed: UInt64) -> [Line] {
    var random = SeededGenerator(seed: seed)
    let w = Float(width)
    let h = Float(rows)
    func r(_ range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &random) }
    var lines: [Line] = []
    for k in 0..<count {
      var x0 = r(0...w)
      var y0 = r(0...h)
      var x1 = r(0...w)
      var y1 = r(0...h)
      switch k % 8 {
      case 0: x1 = x0  // vertical
      case 1: y1 = y0  // horizontal
      case 2:  // steep, within a few rows
        x1 = min(max(x0 + r(-2...2), 0), w)
        y1 = min(max(y0 + r(-5...5), 0), h)
      case 3:  // flat: 2 to 60 cells a row
        y1 = min(max(y0 + r(-1.5...1.5), 0), h)
        x1 = min(max(x0 + (y1 - y0) * r(2...60) * (k % 16 < 8 ? 1 : -1), 0), w)
      case 4:  // whole numbers, on the edges too
        x0 = Float(Int(r(0...w)))
        y0 = Float(Int(r(0...h)))
        x1 = [0, w, Float(Int(r(0...w)))][k / 8 % 3]
        y1 = Float(Int(r(0...h)))
      case 5:  // slopes around 1:2 and 1:3, where the kernels change their ways
        y1 = min(max(y0 + r(-3...3), 0), h)
        x1 = min(max(x0 + (y1 - y0) * [2, 3, -2, -3, 1.999, 2.001][k / 8 % 6], 0), w)
      default: break
      }
      lines.append(Line(x0: x0, y0: y0, x1: x1, y1: y1))
    }
    return lines
  }

  /// `csk_deposit_band` and its SSE2, AVX and plain C forms leave every cell of a band, and of
  /// the padding after it, as the plain Swift deposit does, to the bit.
  @Test func kernelsMatchTheirPlainTwin() {
    typealias Kernel = (
      UnsafeMutablePointer<Float>?, Int, UnsafePointer<csk_edge>?, Int, Int32, Int32
    ) -> Void
    var kernels: [(String, Kernel)] = [
      ("csk_deposit_band", csk_deposit_band), ("plainly", csk_deposit_band_plainly),
    ]
    #if arch(x86_64)
    kernels.append(("sse2", csk_deposit_band_sse2))
    if csk_has_avx() != 0 { kernels.append(("avx", csk_deposit_band_avx)) }
    #endif
    var checked = 0
    for (width, seed) in [(1, UInt64(1)), (5, 2), (37, 3), (200, 4), (1000, 5)] {
      let stride = width + 2
      let bandRows = CoverageAccumulator.bandRows
      let region = 3 * bandRows + 5
      let lines = Self.lines(width: width, rows: region, count: 1500, seed: seed)
      let edges = lines.map { CoverageAccumulator.Edge($0, origin: (0, 0), owner: 2) }
      for rowStart in Swift.stride(from: 0, to: region, by: bandRows) {
        let rowEnd = min(rowStart + bandRows, region)
        let layout = BandLayout(
          originX: 0, originY: 0, rowStart: rowStart, rowEnd: rowEnd, stride: stride,
          cellWords: 0, wordsPerRow: 0)
        let count = stride * bandRows + CoverageAccumulator.cellPadding(stride: stride)
        var plain = [Float](repeating: 0, count: count)
        plain.withUnsafeMutableBufferPointer { cells in
          for edge in edges {
            CoverageAccumulator.depositAreasPlainly(
              edge: edge, layout, cells: cells.baseAddress!)
          }
        }
        for (name, kernel) in kernels {
          var cells = [Float](repeating: 0, count: count)
          cells.withUnsafeMutableBufferPointer { cells in
            edges.withUnsafeBufferPointer { edges in
              edges.withMemoryRebound(to: csk_edge.self) { edges in
                kernel(
                  cells.baseAddress, stride, edges.baseAddress, edges.count, Int32(rowStart),
                  Int32(rowEnd))
              }
            }
          }
          let mismatch = cells.indices.first { cells[$0].bitPattern != plain[$0].bitPattern }
          #expect(
            mismatch == nil,
            "\(name), width \(width), rows \(rowStart)..<\(rowEnd): cell \(mismatch ?? 0)")
          checked += 1
        }
      }
    }
    #expect(checked >= 40)
  }

  /// The C kernels read `CoverageAccumulator.Edge` as `csk_edge`: the same size and fields.
  @Test func edgeLayoutIsTheKernelsOne() {
    typealias Edge = CoverageAccumulator.Edge
    #expect(MemoryLayout<Edge>.size == MemoryLayout<csk_edge>.size)
    #expect(MemoryLayout<Edge>.stride == MemoryLayout<csk_edge>.stride)
    #expect(MemoryLayout<Edge>.alignment == MemoryLayout<csk_edge>.alignment)
    let swiftOffsets = [
      \Edge.x0, \Edge.y0, \Edge.x1, \Edge.y1, \Edge.dxdy, \Edge.direction,
    ].map { MemoryLayout<Edge>.offset(of: $0) }
    let cOffsets = [
      \csk_edge.x0, \csk_edge.y0, \csk_edge.x1, \csk_edge.y1, \csk_edge.dxdy,
      \csk_edge.direction,
    ].map { MemoryLayout<csk_edge>.offset(of: $0) }
    #expect(swiftOffsets == cOffsets)
    #expect(
      [\Edge.owner, \Edge.firstRow, \Edge.endRow].map { MemoryLayout<Edge>.offset(of: $0) }
        == [\csk_edge.owner, \csk_edge.firstRow, \csk_edge.endRow].map {
          MemoryLayout<csk_edge>.offset(of: $0)
        })
  }

  /// Crowded outlines (random polylines with more lines through each row than the exact rows
  /// take, everywhere or in part of the canvas, and a star polygon) fill to the same coverage
  /// through the crowded bands' path as without it, under both rules.
  @Test func crowdedBandsGiveTheSamePixels() throws {
    var random = SeededGenerator(seed: 42)
    func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
    var paths: [(String, Path)] = []
    var everywhere = PathBuilder()
    everywhere.move(to: Point(r(0...70), r(0...70)))
    for _ in 0..<4000 { everywhere.line(to: Point(r(-3...70), r(-3...70))) }
    everywhere.close()
    paths.append(("everywhere", try #require(everywhere.build())))
    // Crowded in the lower half only, with a sparse outline above: bands of both kinds, lines
    // retired late.
    var lower = PathBuilder()
    lower.move(to: Point(10, 2))
    lower.line(to: Point(60, 5))
    lower.line(to: Point(30, 20))
    lower.close()
    lower.move(to: Point(r(0...64), r(36...64)))
    for _ in 0..<6000 { lower.line(to: Point(r(0...64), r(36...64))) }
    lower.close()
    paths.append(("lower half", try #require(lower.build())))
    var star = PathBuilder()
    let n = 2001
    for k in 0..<n {
      let a = 2 * Double.pi * Double((k * 997) % n) / Double(n)
      let p = Point(32 + 31 * cos(a), 32 + 31 * sin(a))
      if k == 0 { star.move(to: p) } else { star.line(to: p) }
    }
    star.close()
    paths.append(("star", try #require(star.build())))
    for (name, path) in paths {
      for rule in FillRule.allCases {
        var plain = Rasterizer()
        plain.accumulator.takesCrowdedBands = false
        let expected = try requireMask(plain.mask(of: path, rule: rule, width: 64, height: 64))
        #expect(expected.values.contains { $0 != 0 && $0 != 255 }, "\(name), \(rule)")
        // One thread; two threads for every run of two bands or more (the 64 rows are four
        // bands).
        for threads in [1, 2] {
          var crowded = Rasterizer()
          crowded.accumulator.crowdedThreads = threads
          crowded.accumulator.linesRowsPerThread = 0
          let mask = try requireMask(crowded.mask(of: path, rule: rule, width: 64, height: 64))
          let difference = mask.values.indices.first { mask.values[$0] != expected.values[$0] }
          #expect(
            difference == nil, "\(name), \(rule), \(threads) threads: pixel \(difference ?? 0)")
        }
      }
    }
  }
}

#if canImport(Glibc)
import Glibc
#endif
