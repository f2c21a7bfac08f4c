// The scan stage's crowded bands (CoverageAccumulator.swift has the whole): bands in which every
// row is crossed by more lines than the exact resolver takes are swept as summed, so they skip
// claims and turn tests; their lines are deposited by `csk_deposit_band` (CScanKernels) eight
// rows at a time, a long run's two halves on two threads, each into cells of its own.
//
// Invariant for the raw pointers: a run's cells hold its rows × `stride` plus `cellPadding`
// (the kernel adds 0 to up to that many cells past a row's end); its touched bits hold
// `wordsPerRow` words a row with the stop word set (`reserveRows`); the second thread's cells and
// bits are its own arrays, sized the same way.

import CScanKernels
import Dispatch

extension CoverageAccumulator {
  // MARK: - Crowded bands

  /// What the crowded bands need to know: the lines through each row, and how many lines
  /// end by each band's end. Made once per path, at the first band with enough lines that a
  /// row may be crowded, in one pass over the edges.
  struct Crowding {
    /// Per row of the region, the lines through it (the lines `countRowLines` counts).
    var rowLines: [Int32]
    /// Per band, the lines whose rows end by its end since the bands they are bucketed in.
    var ending: [Int32]
    /// The lines that end by the current band's end (its `ending`, summed).
    var ended = 0
    var band: Int
    /// Lines taken out of the active ones since the first band of `ending`.
    var retired = 0

    /// For the bands from `band` on (the earlier bands' lines have been retired).
    init(edges: [Edge], lines: Int, band: Int) {
      let bandRows = CoverageAccumulator.bandRows
      var rowLines = [Int32](repeating: 0, count: 1)
      var ending = [Int32](repeating: 0, count: 1)
      edges.withUnsafeBufferPointer { edges in
        let edges = edges[..<lines]
        let rows = edges.reduce(0) { max($0, Int($1.endRow)) }
        let bands = (rows + bandRows - 1) / bandRows + 1
        rowLines = [Int32](repeating: 0, count: rows + 1)
        ending = [Int32](repeating: 0, count: bands)
        for edge in edges {
          let first = Int(edge.firstRow)
          let end = Int(edge.endRow)
          if first < end {
            rowLines[first] += 1
            rowLines[end] -= 1
          }
          // Bucketed in band ⌊first / bandRows⌋ (or the last, for lines at the bottom edge),
          // retired at the end of the first band from then on that ends at or below `end`.
          let retiredIn = max(first / bandRows, (end + bandRows - 1) / bandRows - 1)
          ending[min(retiredIn, bands - 1)] += 1
        }
        for row in 1..<rowLines.count { rowLines[row] += rowLines[row - 1] }
      }
      self.rowLines = rowLines
      self.ending = ending
      self.band = band
      ended = ending[..<min(band, ending.count)].reduce(0) { $0 + Int($1) }
      retired = ended
    }

    /// The band rows that the exact resolver cannot take, whatever is marked in them: rows
    /// through which more lines pass than it admits, or whose pairs exceed what is left of the
    /// pair budget (which only shrinks; see `ExactRowResolver.mayAdmit`). Such rows show their
    /// summed areas whether marked or not, so finding out whether unconnected lines share their
    /// pixels is pointless there.
    func crowdedRows(layout: BandLayout, exactRows: ExactRowResolver) -> UInt32 {
      var crowded: UInt32 = 0
      for row in layout.rowStart..<min(layout.rowEnd, rowLines.count)
      where !exactRows.mayAdmit(pieces: Int(rowLines[row])) {
        crowded |= 1 << UInt32(row - layout.rowStart)
      }
      return crowded
    }

    /// The lines still active that end by the end of `band` (called for each band in turn).
    mutating func endedLines(by band: Int) -> Int {
      while self.band <= band {
        if self.band < ending.count { ended += Int(ending[self.band]) }
        self.band += 1
      }
      return ended - retired
    }
  }

  /// Deposits the active lines into a run of crowded bands (`bands` of them, rows `run`) without
  /// claiming pixels, and sweeps it. Every cell of the run's rows counts as touched (the sweep
  /// visits all of them; an untouched cell adds 0 and its pixel goes out on its own, as the span
  /// it would be part of would show it). Each cell gets the same areas in the same order as from
  /// `deposit`, so the sums are the same to the bit. A long run with many lines is cut in two
  /// halves of whole bands whose deposits go on two threads, each into cells of its own (the
  /// deposit adds 0 to cells past its rows): a cell's sum comes from one thread, in the same
  /// order.
  mutating func depositAndSweepCrowded<Sink: CoverageSink>(
    _ run: BandLayout, bands: Int, region: IntRect, rule: FillRule, into sink: inout Sink
  ) {
    let rows = run.rowEnd - run.rowStart
    let lines = active.count
    guard crowdedThreads > 1, bands > 1, lines * rows >= linesRowsPerThread else {
      touched.withUnsafeMutableBufferPointer { bits in
        Self.touchAll(rows: rows, run, bits.baseAddress.unsafelyUnwrapped)
      }
      cells.withUnsafeMutableBufferPointer { cells in
        activeEdges.withUnsafeBufferPointer { edges in
          assert(rows * run.stride + Self.cellPadding(stride: run.stride) <= cells.count)
          assert(lines <= edges.count)
          Self.deposit(edges, lines, run, into: cells.baseAddress.unsafelyUnwrapped)
        }
      }
      sweep(layout: run, region: region, rule: rule, exactRows: 0, into: &sink)
      return
    }
    let middle = run.rowStart + bands / 2 * Self.bandRows
    let first = BandLayout(
      originX: run.originX, originY: run.originY, rowStart: run.rowStart, rowEnd: middle,
      stride: run.stride, cellWords: run.cellWords, wordsPerRow: run.wordsPerRow)
    let second = BandLayout(
      originX: run.originX, originY: run.originY, rowStart: middle, rowEnd: run.rowEnd,
      stride: run.stride, cellWords: run.cellWords, wordsPerRow: run.wordsPerRow)
    let secondRows = run.rowEnd - middle
    touched.withUnsafeMutableBufferPointer { bits in
      Self.touchAll(rows: middle - run.rowStart, run, bits.baseAddress.unsafelyUnwrapped)
    }
    let cellCount = run.stride * secondRows + Self.cellPadding(stride: run.stride)
    if secondCells.count < cellCount {
      secondCells.append(contentsOf: repeatElement(0, count: cellCount - secondCells.count))
    }
    if secondTouched.count < run.wordsPerRow * secondRows {
      secondTouched.append(
        contentsOf: repeatElement(0, count: run.wordsPerRow * secondRows - secondTouched.count))
    }
    secondTouched.withUnsafeMutableBufferPointer { bits in
      let bits = bits.baseAddress.unsafelyUnwrapped
      for row in 0..<secondRows { bits[row * run.wordsPerRow + run.cellWords] = 1 }
      Self.touchAll(rows: secondRows, run, bits)
    }
    cells.withUnsafeMutableBufferPointer { firstCells in
      secondCells.withUnsafeMutableBufferPointer { secondCells in
        activeEdges.withUnsafeBufferPointer { edges in
          let padding = Self.cellPadding(stride: run.stride)
          assert((middle - run.rowStart) * run.stride + padding <= firstCells.count)
          assert(secondRows * run.stride + padding <= secondCells.count)
          assert(lines <= edges.count)
          let halves = [
            CrowdedHalf(cells: firstCells.baseAddress.unsafelyUnwrapped, layout: first),
            CrowdedHalf(cells: secondCells.baseAddress.unsafelyUnwrapped, layout: second),
          ]
          let edges = SendableEdges(base: edges.baseAddress.unsafelyUnwrapped)
          DispatchQueue.concurrentPerform(iterations: 2) { half in
            Self.deposit(
              UnsafeBufferPointer(start: edges.base, count: lines), lines, halves[half].layout,
              into: halves[half].cells)
          }
        }
      }
    }
    sweep(layout: first, region: region, rule: rule, exactRows: 0, into: &sink)
    swap(&cells, &secondCells)
    swap(&touched, &secondTouched)
    sweep(layout: second, region: region, rule: rule, exactRows: 0, into: &sink)
    swap(&cells, &secondCells)
    swap(&touched, &secondTouched)
    secondTouched.withUnsafeMutableBufferPointer { bits in
      for row in 0..<secondRows { bits[row * run.wordsPerRow + run.cellWords] = 0 }
    }
  }

  /// Sets the touched bit of every cell of `rows` rows from `bits` (cells 0 ..< stride: the
  /// row's own, no further; the next row's follow).
  static func touchAll(
    rows: Int, _ layout: BandLayout, _ bits: UnsafeMutablePointer<UInt64>
  ) {
    let stride = layout.stride
    for row in 0..<rows {
      let words = bits + row * layout.wordsPerRow
      for word in 0..<(stride >> 6) { words[word] = ~0 }
      if stride & 63 != 0 { words[stride >> 6] = ~0 >> UInt64(64 - stride & 63) }
    }
  }

  /// `csk_deposit_band` for the first `count` of `edges`, into the rows of `layout` from `cells`
  /// (its first row; `cellPadding(stride:)` more cells after its rows: the edges' x lie in
  /// 0 ... width = stride − 2, the region running to the canvas's right edge).
  static func deposit(
    _ edges: UnsafeBufferPointer<Edge>, _ count: Int, _ layout: BandLayout,
    into cells: UnsafeMutablePointer<Float>
  ) {
    edges.withMemoryRebound(to: csk_edge.self) { edges in
      csk_deposit_band(
        cells, layout.stride, edges.baseAddress.unsafelyUnwrapped, count,
        Int32(layout.rowStart), Int32(layout.rowEnd))
    }
  }

  /// One half of a crowded run for its thread: its cells (each thread's own) and rows.
  private struct CrowdedHalf: @unchecked Sendable {
    let cells: UnsafeMutablePointer<Float>
    let layout: BandLayout
  }

  /// The active lines' edges, which both threads only read.
  private struct SendableEdges: @unchecked Sendable {
    let base: UnsafePointer<Edge>
  }

  /// Cells after the band's rows that `csk_deposit_band` may add 0 to: seven rows of a group of
  /// eight reaching past the band, and four cells past a row's last.
  static func cellPadding(stride: Int) -> Int { 7 * stride + 4 }

  /// The plain twin of `csk_deposit_band` for one edge: its area within the band, row by row, as
  /// `deposit` makes it but without touched bits or claims (the crossings of the row boundaries
  /// by the same expressions, each piece by `depositPiece`).
  static func depositAreasPlainly(
    edge: Edge, _ layout: BandLayout, cells: UnsafeMutablePointer<Float>
  ) {
    guard edge.y0 < edge.y1 else { return }
    let x0 = edge.x0
    let y0 = edge.y0
    let x1 = edge.x1
    let y1 = edge.y1
    let lowX = x0 < x1 ? x0 : x1
    let highX = x0 < x1 ? x1 : x0
    let firstRow = max(layout.rowStart, Int(edge.firstRow))
    let endRow = min(layout.rowEnd, Int(edge.endRow))
    guard firstRow < endRow else { return }
    let rows = endRow - firstRow
    let rowTop = Float(firstRow)
    var upperY = rowTop < y0 ? y0 : rowTop
    var upperX = rowTop <= y0 ? x0 : clamp(x0 + (rowTop - y0) * edge.dxdy, lowX, highX)
    var rowCells = cells + (firstRow - layout.rowStart) * layout.stride
    var boundary = rowTop
    for _ in 1..<rows {
      boundary += 1
      let x = clamp(x0 + (boundary - y0) * edge.dxdy, lowX, highX)
      _ = depositPiece(
        from: upperX, to: x, height: (boundary - upperY) * edge.direction, cells: rowCells)
      upperX = x
      upperY = boundary
      rowCells += layout.stride
    }
    let lastBoundary = rowTop + Float(rows)
    let bottom = y1 < lastBoundary ? y1 : lastBoundary
    let lastX = bottom == y1 ? x1 : clamp(x0 + (bottom - y0) * edge.dxdy, lowX, highX)
    _ = depositPiece(
      from: upperX, to: lastX, height: (bottom - upperY) * edge.direction, cells: rowCells)
  }
}
