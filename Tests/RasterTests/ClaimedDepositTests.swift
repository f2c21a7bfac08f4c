import CScanKernels
import TestSupport
import Testing

@testable import Raster

/// The band deposit in C (`csk_deposit_claimed`) against its Swift twin (the loop of
/// `CoverageAccumulator.deposit`): the same cells to the bit, the same touched bits, owners and
/// marked rows, band by band; and whole fills and strokes with the same pixels.
@Suite struct ClaimedDepositTests {
  /// Lines over a `width`×`height` region: in its upper 60 %, polylines (joined end to start, so
  /// owner ids run on), steep and flat, some on whole numbers and on the region's edges, and loose
  /// lines across them; below, one triangle, whose rows have no unconnected lines.
  private static func lines(width: Int, height: Int, seed: UInt64) -> (lines: [Line], starts: [Int])
  {
    var random = SeededGenerator(seed: seed)
    let w = Float(width)
    let h = Float(height) * 0.6
    func r(_ range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &random) }
    func clamped(_ x: Float, _ y: Float) -> (Float, Float) {
      (min(max(x, 0), w), min(max(y, 0), h))
    }
    var lines: [Line] = []
    var starts: [Int] = []
    for polyline in 0..<12 {
      starts.append(lines.count)
      var (x, y) = (r(0...w), r(0...h))
      for k in 0..<60 {
        let reach: Float = [0.4, 2, 8, 40][(polyline + k / 7) % 4]
        var (nx, ny) = clamped(x + r(-reach...reach), y + r(-reach...reach))
        if k % 11 == 5 { (nx, ny) = (Float(Int(nx)), Float(Int(ny))) }
        if k % 13 == 7 { nx = [0, w][k / 13 % 2] }
        if k % 17 == 3 { ny = y }  // horizontal
        lines.append(Line(x0: x, y0: y, x1: nx, y1: ny))
        (x, y) = (nx, ny)
      }
    }
    starts.append(lines.count)
    for k in 0..<40 {
      var line = Line(x0: r(0...w), y0: r(0...h), x1: r(0...w), y1: r(0...h))
      if k % 5 == 0 { line.x1 = line.x0 }
      if k % 7 == 0 { line.y1 = min(max(line.y0 + r(-1.5...1.5), 0), h) }
      lines.append(line)
    }
    starts.append(lines.count)
    let bottom = Float(height)
    let corners = [(Float(0.5), h + 2), (w - 0.5, h + 9), (w / 2, bottom)]
    for k in 0..<3 {
      let (a, b) = (corners[k], corners[(k + 1) % 3])
      lines.append(Line(x0: a.0, y0: a.1, x1: b.0, y1: b.1))
    }
    return (lines, starts)
  }

  /// Band by band, the C deposit leaves the accumulator's cells, owners and touched bits as the
  /// Swift loop does and marks the same rows, for plain fills and for stroke pieces.
  @Test func kernelMatchesItsSwiftTwin() {
    var rowsSeen = 0
    var markedRows = 0
    for (width, seed) in [(3, UInt64(1)), (40, 2), (130, 3), (300, 4)] {
      let height = 3 * CoverageAccumulator.bandRows + 7
      let (lines, starts) = Self.lines(width: width, height: height, seed: seed)
      let region = IntRect(minX: 0, minY: 0, maxX: width, maxY: height)
      for withGroups in [false, true] {
        var random = SeededGenerator(seed: seed &+ 100)
        let groups: [PieceGroup] =
          withGroups
          ? lines.indices.map { k in
            let id = Int32(k / 3)
            return PieceGroup(
              id: id, partner: Int.random(in: 0..<9, using: &random) == 0 ? id + 5 : nil)
          } : []
        var accumulator = CoverageAccumulator()
        let stride = width + 2
        let cellWords = (stride + 63) >> 6
        let wordsPerRow = cellWords + 1
        let rows = CoverageAccumulator.bandRows
        accumulator.cells = [Float](
          repeating: 0, count: stride * rows + CoverageAccumulator.cellPadding(stride: stride))
        accumulator.owners = [Int32](repeating: 0, count: stride * rows)
        accumulator.touched = [UInt64](repeating: 0, count: wordsPerRow * rows)
        for row in 0..<rows { accumulator.touched[row * wordsPerRow + cellWords] = 1 }
        let bandCount = (height + rows - 1) / rows
        accumulator.prepareEdges(lines, contourStarts: starts, region: region)
        accumulator.bucketLines(lines.count, bands: bandCount)
        for band in 0..<bandCount {
          accumulator.activateLines(of: band)
          let layout = BandLayout(
            originX: 0, originY: 0, rowStart: band * rows,
            rowEnd: min(band * rows + rows, height), stride: stride, cellWords: cellWords,
            wordsPerRow: wordsPerRow)
          var inC = accumulator
          inC.depositsInC = true
          var inSwift = accumulator
          inSwift.depositsInC = false
          let markedInC = inC.deposit(lines, groups: groups, layout: layout, marked: 0)
          let markedInSwift = inSwift.deposit(lines, groups: groups, layout: layout, marked: 0)
          let context = "width \(width), groups \(withGroups), band \(band)"
          #expect(markedInC == markedInSwift, "\(context)")
          #expect(inC.cells.map(\.bitPattern) == inSwift.cells.map(\.bitPattern), "\(context)")
          #expect(inC.owners == inSwift.owners, "\(context)")
          #expect(inC.touched == inSwift.touched, "\(context)")
          rowsSeen += layout.rowEnd - layout.rowStart
          markedRows += markedInSwift.nonzeroBitCount
        }
      }
    }
    // The inputs reach the claims' tests: some rows are marked, some not.
    #expect(markedRows > 0 && markedRows < rowsSeen, "\(markedRows) of \(rowsSeen) rows marked")
  }

  /// The C layouts of `Line` and `PieceGroup` are Swift's.
  @Test func lineAndGroupLayoutsAreTheKernelsOnes() {
    #expect(MemoryLayout<Line>.stride == MemoryLayout<csk_line>.stride)
    #expect(
      MemoryLayout<Line>.offset(of: \Line.y1) == MemoryLayout<csk_line>.offset(of: \csk_line.y1))
    #expect(MemoryLayout<PieceGroup>.stride == MemoryLayout<csk_group>.stride)
    #expect(
      MemoryLayout<PieceGroup>.offset(of: \PieceGroup.partner)
        == MemoryLayout<csk_group>.offset(of: \csk_group.partner))
  }

  /// Fills of the test paths under both rules and strokes of them give the same pixels with the
  /// deposit in C as with the Swift loop.
  @Test func fillsAndStrokesGiveTheSamePixels() throws {
    var random = SeededGenerator(seed: 7)
    let path = try #require(tangledPath(count: 300, using: &random))
    try expectTwinPixels(path, widths: [0.3, 2, 9], cap: .round) {
      $0.accumulator.depositsInC = false
    }
  }
}
