// The rasterizer's hot loops: depositing signed area and sweeping it into coverage spans.
//
// Why it is built this way: every edge deposits, into the cells of the rows it crosses, the exact
// area it adds to each pixel — as differences, so that a running sum along a row gives each
// pixel's coverage (the accumulation scheme of font-rs and libart). No edge list is sorted and no
// scanline is sampled: coverage is the exact area, for any slope. A bit per cell records which
// cells an edge touched, so the sweep jumps from run to run of touched cells: the pixel of each
// touched cell is blended as soon as its sum is known, and the stretch between two runs goes out as
// one constant-coverage span (solid interiors are filled, not blended pixel by pixel). Coverage
// goes to a writer for the row (`CoverageRow`) that keeps the row's address at hand. The sweep
// zeroes what it reads, so the buffers are ready for the next path without a clear.
//
// Summing signed areas is exact wherever a pixel holds one piece of outline, so that the winding
// inside it takes two values. Where two unconnected edges meet in one pixel (self-intersections,
// overlapping subpaths) the sum is not the area of the inside; each cell therefore remembers the
// last line that passed through it, and a row in which two unconnected lines share a pixel is
// computed exactly instead, slab by slab between its vertices and crossings
// (`CoverageAccumulator+ExactRows.swift`). Lines that follow each other along a contour (joined end
// to start, or across dropped horizontal edges without crossing) get consecutive owner ids, so the
// common meeting (a line and the next one at their shared vertex) costs one test.
//
// A line's deposit runs in two short loops, each of which keeps its values in registers: first
// where it crosses each row boundary of the band (x and ⌊x⌋), then the piece in each row; pieces
// through one or two pixels, most of them, are handled inline and wider ones out of line.
//
// Crowded bands — every row crossed by more lines than the exact resolver takes (scribbles of
// 10^5 and more lines) — show their summed areas whatever the owners say, so they skip the
// claims and turn tests and all their cells count as touched; their lines are deposited by
// `csk_deposit_band` (CScanKernels), eight rows of a line at a time in vectors, to the same sums
// bit for bit. It is in C because Swift's SIMD arithmetic on Float is a loop over the lanes,
// which the compiler left unvectorized there. Consecutive crowded bands go as one run, whose two
// halves, when long enough, are deposited on two threads into cells of their own.
//
// The only unsafe code of the scan stage lives here and in CScanKernels. The scalar twin of the
// whole is `ReferenceRasterizer` (supersampled, in the test support), checked by
// RasterizerTests; that of `csk_deposit_band` is `depositAreasPlainly`, checked to the bit by
// CrowdedBandTests.

import CScanKernels
import Dispatch

/// Receives coverage one row at a time, left to right, through the writer it gives for each row.
protocol CoverageSink {
  associatedtype Row: CoverageRow
  /// The writer for canvas row `y` (device pixels).
  func row(_ y: Int) -> Row
}

/// Writes the coverage of one row; `x` is a canvas column (device pixels).
protocol CoverageRow {
  /// `count` pixels from `x` at one coverage (never 0).
  mutating func span(x: Int, count: Int, coverage: UInt8)
  /// One pixel: the same as `span(x: x, count: 1, coverage: coverage)`, and a coverage of 0
  /// leaves the pixel as it is.
  mutating func pixel(x: Int, coverage: UInt8)
}

/// Signed-area cells for one band of rows at a time, reusable from one path to the next.
///
/// The region is processed in bands of `bandRows` rows so the cells of a band stay in cache (the
/// first level up to about 256 px wide, the second beyond) between the deposits and the sweep;
/// lines are bucketed by the first band they reach and stay active until their last. Invariant
/// between uses: every cell is 0, every owner is 0 and every touched bit is clear (the stop words
/// after each row's bits are set only while a path is rasterized).
struct CoverageAccumulator: Sendable {
  /// Rows per band: 16 rows of a 2048-pixel canvas are 128 KiB of cells (and as much of owners).
  static let bandRows = 16

  private var cells: [Float] = []
  /// Per cell, the owner id (`Edge.owner`) of the last line that passed through the pixel (0: none).
  private var owners: [Int32] = []
  /// Per line, the line ready for the deposit (see `Edge`); its owner id is the one it leaves in the
  /// cells it passes through. Ids are consecutive along a run of lines that follow each other in one
  /// contour, joined end to start directly or across horizontal edges (dropped: they change no
  /// winding) without crossing; they skip one between contours and where the next line starts at
  /// another height. Two lines whose ids differ by at most 1 are one piece of outline, so where they
  /// meet the summed area is exact and the deposit need not read them. Ids start at 2 and are at most
  /// 2 × the line count, so they fit Int32 for fewer than 2^30 lines (16 GiB of them).
  private var edges: [Edge] = []
  /// Per owner id, the index of its line (ids skipped: 0, never stored in a cell). Slot 0 holds
  /// `allMarked` instead.
  private var ownerLines: [Int32] = []
  private var touched: [UInt64] = []
  private var bucketStarts: [Int] = []
  private var sortedLines: [Int32] = []
  /// Per line, the band it is bucketed in (scratch of `bucketLines`).
  private var lineBands: [Int32] = []
  private var active: [Int32] = []
  /// The edges of the active lines, in the same order (the first `active.count`; the array is
  /// scratch, as long as the most lines active at once so far): the deposit reads them one after
  /// the other instead of from all over `edges`, which on large paths cost a cache miss per line
  /// and band.
  private var activeEdges: [Edge] = []
  /// Per band row, then per boundary: the lines through each row of the band (scratch).
  private var rowLines: [Int] = []
  var exactRows = ExactRowResolver()
  var turnRows = TurnRowIndex()
  /// Whether bands whose rows are all crowded (`Crowding.crowdedRows`) take their own path
  /// (`depositAndSweepCrowded`); without it they go the way of the others, to the same pixels
  /// (tests compare the two).
  var takesCrowdedBands = true
  /// Threads for a long run of crowded bands: 1, or 2 to deposit its halves at once (the
  /// pixels are the same).
  var crowdedThreads = 2 {
    didSet { precondition(crowdedThreads == 1 || crowdedThreads == 2) }
  }
  /// Lines times rows of a crowded run from which its halves go on two threads (about a
  /// millisecond of deposits).
  var linesRowsPerThread = 1 << 20
  /// A crowded run's second half while two threads deposit (`depositAndSweepCrowded`): its
  /// cells, and its touched bits, whose stop words are set only then.
  private var secondCells: [Float] = []
  private var secondTouched: [UInt64] = []

  /// Deposits every line (canvas pixels, inside `region`) and sweeps the region's rows into
  /// `sink`, band by band.
  mutating func rasterize<Sink: CoverageSink>(
    _ path: FlattenedPath, region: IntRect, rule: FillRule, into sink: inout Sink
  ) {
    let lines = path.lines
    let bandRows = Self.bandRows
    let stride = region.width + 2
    let cellWords = (stride + 63) >> 6
    // One more word per row, set, stops the sweep's scan for the next touched word.
    let wordsPerRow = cellWords + 1
    let cellCount = stride * bandRows + Self.cellPadding(stride: stride)
    if cells.count < cellCount {
      // The crowded bands' deposit adds 0 to some cells past the band (`cellPadding`).
      cells = [Float](repeating: 0, count: cellCount)
    }
    if owners.count < stride * bandRows {
      owners = [Int32](repeating: 0, count: stride * bandRows)
    }
    if touched.count < wordsPerRow * bandRows {
      touched = [UInt64](repeating: 0, count: wordsPerRow * bandRows)
    }
    // Rows whose stop word is set: a band's, or a run of crowded bands' (`reserveRows`).
    var stopRows = bandRows
    for row in 0..<bandRows { touched[row * wordsPerRow + cellWords] = 1 }
    defer { for row in 0..<stopRows { touched[row * wordsPerRow + cellWords] = 0 } }
    let bands = (region.height + bandRows - 1) / bandRows
    prepareEdges(lines, contourStarts: path.contourStarts, region: region)
    bucketLines(lines.count, bands: bands)
    active.removeAll(keepingCapacity: true)
    exactRows.startPath()
    // Vertical turns of the outline inside the region's rows, from the top down (rows relative to
    // the region); `nextTurn` is the first not yet reached by the bands.
    let turns = Self.turnsByRow(path.turns, region: region)
    var nextTurn = 0
    let originY = Float(region.minY)
    // Set up at the first band with enough lines that a row may be crowded (`crowdedRows`).
    var crowding: Crowding? = nil
    // Crowded bands taken together at most: the cells (4 bytes each) of a thread's share stay
    // within 256 KiB.
    let runBands =
      max(1, min(Self.crowdedRunBands, 65_536 / (stride * bandRows))) * max(1, crowdedThreads)
    var band = 0
    while band < bands {
      let rowStart = band * bandRows
      let rowEnd = min(rowStart + bandRows, region.height)
      activateLines(of: band)
      let layout = BandLayout(
        originX: Float(region.minX), originY: originY, rowStart: rowStart, rowEnd: rowEnd,
        stride: stride, cellWords: cellWords, wordsPerRow: wordsPerRow)
      var crowded: UInt32 = 0
      if takesCrowdedBands, !exactRows.mayAdmit(pieces: active.count) {
        if crowding == nil { crowding = Crowding(edges: edges, lines: lines.count, band: band) }
        crowded = crowding.unsafelyUnwrapped.crowdedRows(layout: layout, exactRows: exactRows)
      }
      let allRows: UInt32 = 1 &<< UInt32(rowEnd &- rowStart) &- 1
      if crowded == allRows {
        // No row of the band can be resolved exactly: no pixel need be claimed, no turn
        // tested; the band is swept as summed, as it would be after all of that. So are the
        // crowded bands after it, taken with it: their rows see the lines in the order they
        // would see them band by band (the active lines, then each band's own; lines that
        // ended stay and are skipped), and the deposit makes one pass over them.
        var last = band
        var runEnd = rowEnd
        while last + 1 < bands, last + 1 - band < runBands {
          let nextEnd = min(runEnd + bandRows, region.height)
          let next = BandLayout(
            originX: layout.originX, originY: originY, rowStart: runEnd, rowEnd: nextEnd,
            stride: stride, cellWords: cellWords, wordsPerRow: wordsPerRow)
          let nextRows: UInt32 = 1 &<< UInt32(nextEnd &- runEnd) &- 1
          guard
            crowding.unsafelyUnwrapped.crowdedRows(layout: next, exactRows: exactRows)
              == nextRows
          else { break }
          last += 1
          runEnd = nextEnd
          activateLines(of: last)
        }
        let run = BandLayout(
          originX: layout.originX, originY: originY, rowStart: rowStart, rowEnd: runEnd,
          stride: stride, cellWords: cellWords, wordsPerRow: wordsPerRow)
        reserveRows(runEnd - rowStart, layout: run, stopRows: &stopRows)
        depositAndSweepCrowded(run, bands: last + 1 - band, region: region, rule: rule, into: &sink)
        while nextTurn < turns.count, Int(turns[nextTurn].y) - region.minY < runEnd {
          nextTurn += 1
        }
        retireLines(endingBy: runEnd, band: last, crowding: &crowding)
        band = last + 1
        continue
      }
      var complexRows = deposit(lines, layout: layout, marked: crowded)
      let bandTurns = nextTurn
      while nextTurn < turns.count, Int(turns[nextTurn].y) - region.minY < rowEnd { nextTurn += 1 }
      complexRows = turnRows.mark(
        turns[bandTurns..<nextTurn], lines: lines, active: active, regionMinY: region.minY,
        marked: complexRows)
      // The exact rows are sent before the sweep sends the others (rows are independent), so
      // that a row whose slabs exceed the budget can still be swept.
      var exact: UInt32 = 0
      if complexRows != 0 {
        countRowLines(complexRows, lines: lines, layout: layout)
        var candidates = complexRows
        while candidates != 0 {
          let bandRow = candidates.trailingZeroBitCount
          candidates &= candidates - 1
          if exactRows.admits(pieces: rowLines[bandRow]),
            exactRows.prepare(row: rowStart + bandRow, lines: lines, active: active, layout: layout)
          {
            exactRows.resolve(row: rowStart + bandRow, region: region, rule: rule, into: &sink)
            exact |= 1 << bandRow
          }
        }
      }
      sweep(layout: layout, region: region, rule: rule, complexRows: exact, into: &sink)
      retireLines(endingBy: rowEnd, band: band, crowding: &crowding)
      band += 1
    }
  }

  /// Bands of crowded rows taken together at most, for one thread (`rasterize`).
  static let crowdedRunBands = 4

  /// Makes the lines bucketed in `band` active, after those already.
  @inline(__always)
  private mutating func activateLines(of band: Int) {
    let wasActive = active.count
    for i in bucketStarts[band]..<bucketStarts[band + 1] { active.append(sortedLines[i]) }
    if activeEdges.count < active.count {
      // Grown as needed (geometrically), not to the line count at once: on large paths the
      // active lines are a fraction of them.
      activeEdges.append(contentsOf: repeatElement(Edge(), count: active.count - activeEdges.count))
    }
    active.withUnsafeBufferPointer { active in
      edges.withUnsafeBufferPointer { edges in
        activeEdges.withUnsafeMutableBufferPointer { activeEdges in
          for k in wasActive..<active.count { activeEdges[k] = edges[Int(active[k])] }
        }
      }
    }
  }

  /// Makes room for `rows` rows of cells, owners and touched bits (a run of crowded bands), with
  /// the stop word of each row set (`stopRows` rows have theirs set).
  private mutating func reserveRows(_ rows: Int, layout: BandLayout, stopRows: inout Int) {
    guard rows > stopRows else { return }
    let cellCount = layout.stride * rows + Self.cellPadding(stride: layout.stride)
    if cells.count < cellCount {
      cells.append(contentsOf: repeatElement(0, count: cellCount - cells.count))
    }
    if owners.count < layout.stride * rows {
      owners.append(contentsOf: repeatElement(0, count: layout.stride * rows - owners.count))
    }
    if touched.count < layout.wordsPerRow * rows {
      touched.append(
        contentsOf: repeatElement(0, count: layout.wordsPerRow * rows - touched.count))
    }
    for row in stopRows..<rows { touched[row * layout.wordsPerRow + layout.cellWords] = 1 }
    stopRows = rows
  }

  /// The vertical turns of `turns` whose row is one of the region's and which turn inside it
  /// (not on a boundary), grouped by row from the top down; many are put in their rows by a
  /// counting sort (the order within a row does not matter to `TurnRowIndex.mark`).
  private static func turnsByRow(
    _ turns: [FlattenedPath.Turn], region: IntRect
  ) -> [FlattenedPath.Turn] {
    let inside = turns.filter { turn in
      // Whole heights (every Float from 2^23 on, and ±∞) turn on a row boundary: no matter.
      guard turn.y.isFinite, turn.y != turn.y.rounded(.down) else { return false }
      let row = Int(turn.y) - region.minY
      return row >= 0 && row < region.height
    }
    guard inside.count > region.height else { return inside.sorted { $0.y < $1.y } }
    var starts = [Int](repeating: 0, count: region.height + 1)
    for turn in inside { starts[Int(turn.y) - region.minY + 1] += 1 }
    for row in 0..<region.height { starts[row + 1] += starts[row] }
    var sorted = inside
    for turn in inside {
      let row = Int(turn.y) - region.minY
      sorted[starts[row]] = turn
      starts[row] += 1
    }
    return sorted
  }

  /// Retires the active lines that end in the band ending at row `rowEnd` (relative to the
  /// region): those whose rows end by then (their lower end is at most the band's bottom).
  /// Once `crowding` is set up, only when they are a quarter of the active lines or more: until
  /// then they stay, and every pass over the active lines skips them (they have no row left),
  /// which costs less than moving the others band after band.
  @inline(__always)
  private mutating func retireLines(endingBy rowEnd: Int, band: Int, crowding: inout Crowding?) {
    if let ended = crowding?.endedLines(by: band) {
      guard ended > 0, ended * 4 >= active.count else { return }
    }
    let kept = active.withUnsafeMutableBufferPointer { active in
      activeEdges.withUnsafeMutableBufferPointer { activeEdges in
        var kept = 0
        for k in active.indices where Int(activeEdges[k].endRow) > rowEnd {
          active[kept] = active[k]
          activeEdges[kept] = activeEdges[k]
          kept += 1
        }
        return kept
      }
    }
    crowding?.retired += active.count - kept
    active.removeLast(active.count - kept)
  }

  /// Sets `rowLines[r]`, for the band rows `r` in `candidates`, to the number of active lines
  /// passing through the row (the lines the exact resolver takes). For a row or two, a pass over
  /// the lines per row; for more, one pass over their edges (whose rows ⌊y0⌋ ..< ⌈y1⌉, relative
  /// to the region, are exactly the rows they pass through), so that crowded bands do not pay
  /// for every row.
  private mutating func countRowLines(_ candidates: UInt32, lines: [Line], layout: BandLayout) {
    let rows = layout.rowEnd - layout.rowStart
    rowLines.removeAll(keepingCapacity: true)
    rowLines.append(contentsOf: repeatElement(0, count: rows + 1))
    if candidates.nonzeroBitCount <= 2 {
      var left = candidates
      while left != 0 {
        let bandRow = left.trailingZeroBitCount
        left &= left - 1
        let top = layout.originY + Float(layout.rowStart + bandRow)
        var count = 0
        for index in active {
          let line = lines[Int(index)]
          if min(line.y0, line.y1) < top + 1, max(line.y0, line.y1) > top { count += 1 }
        }
        rowLines[bandRow] = count
      }
      return
    }
    activeEdges.withUnsafeBufferPointer { edges in
      rowLines.withUnsafeMutableBufferPointer { counts in
        for edge in edges[..<active.count] {
          let first = max(Int(edge.firstRow), layout.rowStart) - layout.rowStart
          let end = min(Int(edge.endRow), layout.rowEnd) - layout.rowStart
          if first < end {
            counts[first] += 1
            counts[end] -= 1
          }
        }
        for row in 1..<rows { counts[row] += counts[row - 1] }
      }
    }
  }

  /// Counting sort of line indices by the first band each reaches (stable: lines keep their
  /// order within a band, so cells sum their deposits in the same order every time).
  private mutating func bucketLines(_ count: Int, bands: Int) {
    bucketStarts.removeAll(keepingCapacity: true)
    bucketStarts.append(contentsOf: repeatElement(0, count: bands + 1))
    if sortedLines.count < count {
      sortedLines = [Int32](repeating: 0, count: count)
      lineBands = [Int32](repeating: 0, count: count)
    }
    edges.withUnsafeBufferPointer { edges in
      bucketStarts.withUnsafeMutableBufferPointer { starts in
        sortedLines.withUnsafeMutableBufferPointer { sorted in
          lineBands.withUnsafeMutableBufferPointer { lineBand in
            for index in 0..<count {
              let band = min(bands - 1, Int(edges[index].firstRow) / Self.bandRows)
              lineBand[index] = Int32(truncatingIfNeeded: band)
              starts[band + 1] += 1
            }
            for b in 0..<bands { starts[b + 1] += starts[b] }
            // Placing a line advances its band's start; afterwards each start is the next
            // band's, so they move back up by one.
            for index in 0..<count {
              let band = Int(lineBand[index])
              sorted[starts[band]] = Int32(truncatingIfNeeded: index)
              starts[band] += 1
            }
            for b in stride(from: bands, to: 0, by: -1) { starts[b] = starts[b - 1] }
            starts[0] = 0
          }
        }
      }
    }
  }

  /// Makes each line's `Edge`, with its owner id (see `edges`).
  private mutating func prepareEdges(_ lines: [Line], contourStarts: [Int], region: IntRect) {
    if edges.count < lines.count {
      edges = [Edge](repeating: Edge(), count: lines.count)
      ownerLines = [Int32](repeating: 0, count: 2 * lines.count + 1)
    }
    let originX = Float(region.minX)
    let originY = Float(region.minY)
    lines.withUnsafeBufferPointer { lines in
      edges.withUnsafeMutableBufferPointer { edges in
        ownerLines.withUnsafeMutableBufferPointer { ownerLines in
          var id: Int32 = 0
          var nextContour = 0
          var previous = Line(x0: .nan, y0: .nan, x1: .nan, y1: .nan)
          for (index, line) in lines.enumerated() {
            var joined = line.y0 == previous.y1 && line.x0 == previous.x1
            if !joined, line.y0 == previous.y1 {
              // Across dropped horizontal edges the next line of a contour starts at the same
              // height; the two are one simple piece of outline unless they cross.
              while nextContour < contourStarts.count, contourStarts[nextContour] < index {
                nextContour += 1
              }
              let startsContour =
                nextContour < contourStarts.count && contourStarts[nextContour] == index
              joined = !startsContour && !Self.mayIntersect(previous, line)
            }
            previous = line
            id &+= joined ? 1 : 2
            edges[index] = Edge(line, origin: (originX, originY), owner: id)
            ownerLines[Int(id)] = Int32(truncatingIfNeeded: index)
          }
        }
      }
    }
  }

  /// A line as the deposit takes it: its ends relative to the region's origin (band cells), the
  /// upper end first, with the direction the outline runs (+1 down, −1 up), dx/dy, the rows it
  /// reaches (⌊y0⌋ ..< ⌈y1⌉, relative to the region) and its owner id. A horizontal line has
  /// y0 = y1 and deposits nothing.
  struct Edge {
    var x0: Float = 0
    var y0: Float = 0
    var x1: Float = 0
    var y1: Float = 0
    var dxdy: Float = 0
    var direction: Float = 1
    var owner: Int32 = 0
    var firstRow: Int32 = 0
    var endRow: Int32 = 0

    init() {}

    @inline(__always)
    init(_ line: Line, origin: (x: Float, y: Float), owner: Int32) {
      x0 = line.x0 - origin.x
      y0 = line.y0 - origin.y
      x1 = line.x1 - origin.x
      y1 = line.y1 - origin.y
      if y0 > y1 {
        swap(&x0, &x1)
        swap(&y0, &y1)
        direction = -1
      }
      dxdy = y0 < y1 ? (x1 - x0) / (y1 - y0) : 0
      self.owner = owner
      firstRow = Int32(truncatingIfNeeded: CoverageAccumulator.floorNonNegative(y0))
      endRow = Int32(truncatingIfNeeded: CoverageAccumulator.ceilNonNegative(y1))
    }
  }

  /// Deposits the band's active lines; returns a bit per band row in which two unconnected lines
  /// passed through one pixel (rows in `marked` count as marked from the start).
  private mutating func deposit(_ lines: [Line], layout: BandLayout, marked: UInt32) -> UInt32 {
    var complexRows = marked
    active.withUnsafeBufferPointer { activeLines in
      lines.withUnsafeBufferPointer { allLines in
        cells.withUnsafeMutableBufferPointer { cellBuffer in
          owners.withUnsafeMutableBufferPointer { ownerBuffer in
            touched.withUnsafeMutableBufferPointer { bitBuffer in
              activeEdges.withUnsafeBufferPointer { activeEdges in
                ownerLines.withUnsafeMutableBufferPointer { ownerLines in
                  withUnsafeTemporaryAllocation(of: Crossing.self, capacity: Self.bandRows + 1) {
                    crossings in
                    guard let cellBase = cellBuffer.baseAddress,
                      let bitBase = bitBuffer.baseAddress, let ownerBase = ownerBuffer.baseAddress,
                      let lineBase = allLines.baseAddress,
                      let ownerLineBase = ownerLines.baseAddress,
                      let crossingBase = crossings.baseAddress
                    else { return }
                    let target = DepositTarget(
                      cells: cellBase, bits: bitBase, owners: ownerBase,
                      ownerLines: ownerLineBase, crossings: crossingBase)
                    // Once every row of the band is marked, the claims' connection tests could
                    // only mark them again: `allMarked` (in the slot of owner id 0, which no
                    // line has) lets them skip it.
                    let allRows: UInt32 = 1 &<< UInt32(layout.rowEnd &- layout.rowStart) &- 1
                    for k in activeLines.indices {
                      let marked = Self.deposit(
                        line: Int(activeLines[k]), edge: activeEdges[k], lines: lineBase, layout,
                        into: target)
                      if marked != 0 {
                        complexRows |= marked
                        if complexRows == allRows { ownerLineBase[Self.allMarked] = 1 }
                      }
                    }
                    ownerLineBase[Self.allMarked] = 0
                  }
                }
              }
            }
          }
        }
      }
    }
    return complexRows
  }

  // MARK: - Crowded bands

  /// What the crowded bands need to know: the lines through each row, and how many lines
  /// end by each band's end. Made once per path, at the first band with enough lines that a
  /// row may be crowded, in one pass over the edges.
  struct Crowding {
    /// Per row of the region, the lines through it (the lines `countRowLines` counts).
    private var rowLines: [Int32]
    /// Per band, the lines whose rows end by its end since the bands they are bucketed in.
    private var ending: [Int32]
    /// The lines that end by the current band's end (its `ending`, summed).
    private var ended = 0
    private var band: Int
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
  private mutating func depositAndSweepCrowded<Sink: CoverageSink>(
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
          Self.deposit(edges, lines, run, into: cells.baseAddress.unsafelyUnwrapped)
        }
      }
      sweep(layout: run, region: region, rule: rule, complexRows: 0, into: &sink)
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
    sweep(layout: first, region: region, rule: rule, complexRows: 0, into: &sink)
    swap(&cells, &secondCells)
    swap(&touched, &secondTouched)
    sweep(layout: second, region: region, rule: rule, complexRows: 0, into: &sink)
    swap(&cells, &secondCells)
    swap(&touched, &secondTouched)
    secondTouched.withUnsafeMutableBufferPointer { bits in
      for row in 0..<secondRows { bits[row * run.wordsPerRow + run.cellWords] = 0 }
    }
  }

  /// Sets the touched bit of every cell of `rows` rows from `bits` (cells 0 ..< stride: the
  /// row's own, no further; the next row's follow).
  private static func touchAll(
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
  private static func deposit(
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

  /// Runs along each row of the band summing the deposits and sends the coverage to `sink`
  /// (rows marked complex are only cleared: the exact resolver sends those); leaves the cells,
  /// owners and bits zero.
  private mutating func sweep<Sink: CoverageSink>(
    layout: BandLayout, region: IntRect, rule: FillRule, complexRows: UInt32, into sink: inout Sink
  ) {
    cells.withUnsafeMutableBufferPointer { cellBuffer in
      owners.withUnsafeMutableBufferPointer { ownerBuffer in
        touched.withUnsafeMutableBufferPointer { bitBuffer in
          guard let cellBase = cellBuffer.baseAddress, let bitBase = bitBuffer.baseAddress,
            let ownerBase = ownerBuffer.baseAddress
          else { return }
          // One loop for each rule, so the rule is known inside it.
          if rule == .nonzero {
            Self.sweepRows(
              cells: cellBase, owners: ownerBase, bits: bitBase, layout: layout, region: region,
              rule: .nonzero, complexRows: complexRows, into: &sink)
          } else {
            Self.sweepRows(
              cells: cellBase, owners: ownerBase, bits: bitBase, layout: layout, region: region,
              rule: .evenodd, complexRows: complexRows, into: &sink)
          }
        }
      }
    }
  }

  /// The band's rows, top down (the band's cells, owners and bits start at the given pointers).
  @inline(__always)
  private static func sweepRows<Sink: CoverageSink>(
    cells: UnsafeMutablePointer<Float>, owners: UnsafeMutablePointer<Int32>,
    bits: UnsafeMutablePointer<UInt64>, layout: BandLayout, region: IntRect, rule: FillRule,
    complexRows: UInt32, into sink: inout Sink
  ) {
    var cells = cells
    var owners = owners
    var bits = bits
    for row in layout.rowStart..<layout.rowEnd {
      // Band rows are < 32.
      if complexRows & (1 &<< UInt32(row &- layout.rowStart)) != 0 {
        clearRow(cells: cells, owners: owners, bits: bits, words: layout.cellWords)
      } else {
        var out = sink.row(region.minY &+ row)
        sweepRow(
          cells: cells, owners: owners, bits: bits, words: layout.cellWords, width: region.width,
          x0: region.minX, rule: rule, into: &out)
      }
      cells += layout.stride
      owners += layout.stride
      bits += layout.wordsPerRow
    }
  }

  /// One row: each touched cell's pixel goes out on its own; between runs of touched cells the
  /// coverage is constant and goes out as one span. `bits[words]` must be nonzero: it ends the
  /// scan.
  @inline(__always)
  private static func sweepRow<Row: CoverageRow>(
    cells: UnsafeMutablePointer<Float>, owners: UnsafeMutablePointer<Int32>,
    bits: UnsafeMutablePointer<UInt64>, words: Int, width: Int, x0: Int, rule: FillRule,
    into out: inout Row
  ) {
    var sum: Float = 0
    var next = 0  // first column not yet sent
    var word = 0
    while true {
      while bits[word] == 0 { word &+= 1 }
      if word == words { break }
      var mask = bits[word]
      bits[word] = 0
      let base = word &<< 6
      repeat {
        let start = mask.trailingZeroBitCount
        // Adding the run's lowest bit carries through the run: the sum's lowest bit outside the
        // mask is the run's end (64 when the carry leaves the word), and masking clears the run.
        let carried = mask &+ (1 &<< UInt64(start))
        let end = (carried & ~mask).trailingZeroBitCount
        mask &= carried
        let first = base | start
        let last = base &+ end  // one past the run's last cell
        let gap = min(first, width) &- next  // untouched pixels since the last run
        if gap > 0 {
          let c = coverage(sum, rule)
          if c != 0 { out.span(x: x0 &+ next, count: gap, coverage: c) }
        }
        let shown = min(last, width)  // cells from `width` on are not pixels
        var x = first
        while x < shown {
          sum += cells[x]
          cells[x] = 0
          owners[x] = 0
          out.pixel(x: x0 &+ x, coverage: coverage(sum, rule))
          x &+= 1
        }
        while x < last {
          sum += cells[x]
          cells[x] = 0
          owners[x] = 0
          x &+= 1
        }
        next = shown
      } while mask != 0
      word &+= 1
    }
    if next < width {
      let c = coverage(sum, rule)
      if c != 0 { out.span(x: x0 &+ next, count: width &- next, coverage: c) }
    }
  }

  private static func clearRow(
    cells: UnsafeMutablePointer<Float>, owners: UnsafeMutablePointer<Int32>,
    bits: UnsafeMutablePointer<UInt64>, words: Int
  ) {
    for word in 0..<words {
      var mask = bits[word]
      bits[word] = 0
      while mask != 0 {
        let x = word << 6 | mask.trailingZeroBitCount
        mask &= mask &- 1
        cells[x] = 0
        owners[x] = 0
      }
    }
  }

  // MARK: - Kernels

  /// Coverage 0...255 from an accumulated signed area (a winding number weighted by area).
  @inline(__always)
  static func coverage(_ sum: Float, _ rule: FillRule) -> UInt8 {
    var a = abs(sum)
    if rule == .evenodd {
      a -= 2 * Float(Int(a * 0.5))  // a ≥ 0: truncation is floor
      if a > 1 { a = 2 - a }
    } else if a > 1 {
      a = 1
    }
    // Adding 2^23 leaves a·255 rounded to the nearest integer in the low mantissa bits
    // (0 ≤ a·255 ≤ 255 here), without a checked float-to-integer conversion.
    return UInt8(truncatingIfNeeded: (a * 255 + 8_388_608).bitPattern)
  }

  /// Where deposits go: one band's cells, owners and touched bits; the owner ids' lines; and
  /// scratch for one line's row crossings (`bandRows` + 1).
  struct DepositTarget {
    let cells: UnsafeMutablePointer<Float>
    let bits: UnsafeMutablePointer<UInt64>
    let owners: UnsafeMutablePointer<Int32>
    let ownerLines: UnsafePointer<Int32>
    let crossings: UnsafeMutablePointer<Crossing>
  }

  /// Where a line crosses a row boundary (band cells: x and y relative to the region), with ⌊x⌋:
  /// each crossing ends one row's piece and starts the next, so it is computed once.
  struct Crossing {
    let x: Float
    let y: Float
    let floor: Int

    @inline(__always)
    init(x: Float, y: Float) {
      self.x = x
      self.y = y
      floor = CoverageAccumulator.floorNonNegative(x)
    }
  }

  /// One line's area (line `index`, whose edge is `edge`), row by row within the band; returns
  /// the band rows in which it shared a pixel with a line it is not connected to.
  @inline(__always)
  private static func deposit(
    line index: Int, edge: Edge, lines: UnsafePointer<Line>, _ layout: BandLayout,
    into target: DepositTarget
  ) -> UInt32 {
    guard edge.y0 < edge.y1 else { return 0 }
    let x0 = edge.x0
    let y0 = edge.y0
    let x1 = edge.x1
    let y1 = edge.y1
    let direction = edge.direction
    let dxdy = edge.dxdy
    let lowX = x0 < x1 ? x0 : x1
    let highX = x0 < x1 ? x1 : x0
    let firstRow = max(layout.rowStart, Int(edge.firstRow))
    let endRow = min(layout.rowEnd, Int(edge.endRow))
    guard firstRow < endRow else { return 0 }
    let owner = edge.owner
    let rows = endRow &- firstRow
    // First where the line crosses each row boundary of the band (the first at its top or the
    // row's, the last at its bottom or the row's), then the pieces between: two short loops
    // that each keep their values in registers, where one did not.
    let crossings = target.crossings
    let rowTop = Float(firstRow)
    let top = rowTop < y0 ? y0 : rowTop
    let firstX = rowTop <= y0 ? x0 : clamp(x0 + (rowTop - y0) * dxdy, lowX, highX)
    crossings[0] = Crossing(x: firstX, y: top)
    // Boundaries before the last lie above y1 (rows end at ⌈y1⌉): no test against the end.
    var boundary = rowTop
    for k in 1..<rows {
      boundary += 1
      crossings[k] = Crossing(x: clamp(x0 + (boundary - y0) * dxdy, lowX, highX), y: boundary)
    }
    let lastBoundary = rowTop + Float(rows)
    let bottom = y1 < lastBoundary ? y1 : lastBoundary
    let lastX = bottom == y1 ? x1 : clamp(x0 + (bottom - y0) * dxdy, lowX, highX)
    crossings[rows] = Crossing(x: lastX, y: bottom)
    var complexRows: UInt32 = 0
    var bandRow = firstRow &- layout.rowStart
    var cells = target.cells + bandRow &* layout.stride
    var owners = target.owners + bandRow &* layout.stride
    var bits = target.bits + bandRow &* layout.wordsPerRow
    var upper = crossings[0]
    for k in 1...rows {
      let lower = crossings[k]
      let ia = min(upper.floor, lower.floor)
      // ⌈high⌉ ≤ ia + n exactly when high ≤ ia + n: no ceiling is needed to tell the cases.
      let high = upper.x < lower.x ? lower.x : upper.x
      let iaFloat = Float(ia)
      let d = (lower.y - upper.y) * direction
      // Deposit the piece and claim the pixels it passes through; meeting an unconnected line
      // marks the row. Pieces through one or two pixels (most) are done here.
      var unconnected = false
      if high <= iaFloat + 1 {
        depositOnePixel(from: upper.x, to: lower.x, floor: ia, height: d, cells: cells)
        markPair(ia, bits)
        unconnected = claim(ia, owners, owner, index, lines, target.ownerLines)
      } else if high <= iaFloat + 2 {
        depositTwoPixels(from: upper.x, to: lower.x, floor: ia, height: d, cells: cells)
        markTriple(ia, bits)
        unconnected = claim(ia, owners, owner, index, lines, target.ownerLines)
        unconnected = claim(ia &+ 1, owners, owner, index, lines, target.ownerLines) || unconnected
      } else {
        unconnected = depositAndClaimWidePiece(
          from: upper.x, to: lower.x, floor: ia, ceiling: ceilNonNegative(high), height: d,
          cells: cells, bits: bits,
          owners: owners, owner: owner, line: index, lines: lines, ownerLines: target.ownerLines)
      }
      if unconnected { complexRows |= 1 &<< UInt32(bandRow) }
      upper = lower
      bandRow &+= 1
      cells += layout.stride
      owners += layout.stride
      bits += layout.wordsPerRow
    }
    return complexRows
  }

  /// `v` limited to `low...high` (low ≤ high; no NaN here).
  @inline(__always)
  private static func clamp(_ v: Float, _ low: Float, _ high: Float) -> Float {
    let below = v < high ? v : high
    return below > low ? below : low
  }

  /// Whether the line with owner id `previous` (0: none) may not be connected to the line with id
  /// `owner` (≥ 2): neither none, nor the same or a neighbouring id. It is one sign test, so that
  /// the common cases (none, the same line, its neighbour) share one well-predicted branch.
  @inline(__always)
  static func mayBeUnconnected(_ previous: Int32, _ owner: Int32) -> Bool {
    let offset = previous &- owner &+ 1  // 0...2 for a neighbour or the same line
    // Negative iff offset < 0 or offset > 2, and previous > 0 (ids are < 2^31 - 2).
    return (offset | (2 &- offset)) & (0 &- previous) < 0
  }

  /// The slot of `ownerLines` that holds, while a band's lines are deposited, whether every row
  /// of the band is marked already (1) or not (0); no line has owner id 0.
  static let allMarked = 0

  /// Whether the line with owner id `owner` is connected to line `index`; false without a test
  /// once every row of the band is marked (`allMarked`), where the answer could only mark a row
  /// again. Out of line: it is rarely needed, and the deposit loop keeps more in registers
  /// without it.
  @inline(never)
  private static func connected(
    _ owner: Int32, _ index: Int, lines: UnsafePointer<Line>, ownerLines: UnsafePointer<Int32>
  ) -> Bool {
    ownerLines[allMarked] == 0 && connected(lines[Int(ownerLines[Int(owner)])], lines[index])
  }

  /// Whether segments `a` and `b` may intersect: false only when each lies strictly on one side
  /// of the other's line. Computed in Double from the Float ends, so only near-degenerate
  /// geometry can be misjudged; touching and collinear count as intersecting.
  static func mayIntersect(_ a: Line, _ b: Line) -> Bool {
    func side(_ l: Line, _ x: Float, _ y: Float) -> Double {
      (Double(l.x1) - Double(l.x0)) * (Double(y) - Double(l.y0))
        - (Double(l.y1) - Double(l.y0)) * (Double(x) - Double(l.x0))
    }
    let a0 = side(b, a.x0, a.y0)
    let a1 = side(b, a.x1, a.y1)
    let b0 = side(a, b.x0, b.y0)
    let b1 = side(a, b.x1, b.y1)
    return !((a0 > 0 && a1 > 0) || (a0 < 0 && a1 < 0) || (b0 > 0 && b1 > 0) || (b0 < 0 && b1 < 0))
  }

  /// Whether two lines share an end point (consecutive pieces of one outline).
  @inline(__always)
  private static func connected(_ a: Line, _ b: Line) -> Bool {
    (a.x1 == b.x0 && a.y1 == b.y0) || (a.x0 == b.x1 && a.y0 == b.y1)
      || (a.x0 == b.x0 && a.y0 == b.y0) || (a.x1 == b.x1 && a.y1 == b.y1)
  }

  /// ⌈v⌉ for 0 ≤ v < 2^22 (cell and row positions), without a libm call or the range checks of
  /// `Int(_: Float)`: adding 2^23 leaves v rounded to the nearest integer in the low mantissa
  /// bits; one step up where that rounded down. `rounded(.up)` is its plain twin (tested).
  @inline(__always)
  static func ceilNonNegative(_ v: Float) -> Int {
    let n = Int(truncatingIfNeeded: (v + 8_388_608).bitPattern & 0x7F_FFFF)
    return Float(n) < v ? n + 1 : n
  }

  /// ⌊v⌋ for 0 ≤ v < 2^22, the same way; `rounded(.down)` is its plain twin (tested).
  @inline(__always)
  static func floorNonNegative(_ v: Float) -> Int {
    let n = Int(truncatingIfNeeded: (v + 8_388_608).bitPattern & 0x7F_FFFF)
    return Float(n) > v ? n - 1 : n
  }

  /// Sets the touched bits of cells `first` and `first + 1`: one read-modify-write of the word
  /// holding `first`, and of the next word when the pair straddles two. `markTouched` is its
  /// plain twin.
  @inline(__always)
  static func markPair(_ first: Int, _ bits: UnsafeMutablePointer<UInt64>) {
    let word = first &>> 6
    let bit = UInt64(first & 63)
    bits[word] |= 3 &<< bit
    if bit == 63 { bits[word &+ 1] |= 1 }
  }

  /// Sets the touched bits of cells `first` ... `first + 2`, the same way as `markPair`.
  @inline(__always)
  static func markTriple(_ first: Int, _ bits: UnsafeMutablePointer<UInt64>) {
    let word = first &>> 6
    let bit = UInt64(first & 63)
    bits[word] |= 7 &<< bit
    if bit >= 62 { bits[word &+ 1] |= 7 &>> (64 &- bit) }
  }

  /// Sets the touched bits of cells `first...last`.
  @inline(__always)
  static func markTouched(_ first: Int, _ last: Int, _ bits: UnsafeMutablePointer<UInt64>) {
    var word = first >> 6
    let lastWord = last >> 6
    var mask = ~UInt64(0) &<< UInt64(first & 63)
    while word < lastWord {
      bits[word] |= mask
      word += 1
      mask = ~0
    }
    bits[word] |= mask & (~UInt64(0) &>> UInt64(63 - (last & 63)))
  }

  /// Deposits, into one row of cells, a piece of edge that runs from x = `from` at the top of a
  /// horizontal slab to x = `to` at its bottom, the slab being `height` tall (signed by the
  /// edge's direction, |height| ≤ 1): of each pixel it passes, the area right of it; pixels
  /// further right get the full height. Returns the first and last pixel the piece passes
  /// through; it writes cells `first ... last + 1`. The deposit loop makes the same three cases
  /// inline, with its touched bits and claims.
  @inline(__always)
  static func depositPiece(
    from x: Float, to xNext: Float, height d: Float, cells: UnsafeMutablePointer<Float>
  ) -> (first: Int, last: Int) {
    let ia = floorNonNegative(x < xNext ? x : xNext)
    // ⌈high⌉ ≤ ia + n exactly when high ≤ ia + n.
    let high = x < xNext ? xNext : x
    let iaFloat = Float(ia)
    if high <= iaFloat + 1 {
      depositOnePixel(from: x, to: xNext, floor: ia, height: d, cells: cells)
      return (ia, ia)
    }
    if high <= iaFloat + 2 {
      depositTwoPixels(from: x, to: xNext, floor: ia, height: d, cells: cells)
      return (ia, ia &+ 1)
    }
    let ib = ceilNonNegative(high)
    depositWidePiece(from: x, to: xNext, floor: ia, ceiling: ib, height: d, cells: cells)
    return (ia, ib &- 1)
  }

  /// `depositPiece` for a piece within one pixel: ⌈max(x, xNext)⌉ ≤ `ia` + 1, `ia` = ⌊min⌋.
  @inline(__always)
  static func depositOnePixel(
    from x: Float, to xNext: Float, floor ia: Int, height d: Float,
    cells: UnsafeMutablePointer<Float>
  ) {
    let mid = 0.5 * (x + xNext) - Float(ia)
    cells[ia] += d - d * mid
    cells[ia &+ 1] += d * mid
  }

  /// For a piece through two pixels or more, from x = `xa` to `xb` (either order) with ⌊min⌋ =
  /// `ia` and ⌈max⌉ = `ib`: 1/|xb − xa|, the fraction of its first pixel left of the piece, and
  /// the area right of the piece in its first and in its last pixel, per unit of height.
  @inline(__always)
  private static func endAreas(
    from x: Float, to xNext: Float, floor ia: Int, ceiling ib: Int
  )
    -> (s: Float, xaFraction: Float, first: Float, last: Float)
  {
    let xa = x < xNext ? x : xNext
    let xb = x < xNext ? xNext : x
    let s = 1 / (xb - xa)
    let xaFraction = xa - Float(ia)
    let first = 0.5 * s * (1 - xaFraction) * (1 - xaFraction)
    let xbFraction = xb - Float(ib) + 1
    let last = 0.5 * s * xbFraction * xbFraction
    return (s, xaFraction, first, last)
  }

  /// `depositPiece` for a piece through two pixels: ⌈max(x, xNext)⌉ = `ia` + 2, `ia` = ⌊min⌋.
  @inline(__always)
  static func depositTwoPixels(
    from x: Float, to xNext: Float, floor ia: Int, height d: Float,
    cells: UnsafeMutablePointer<Float>
  ) {
    let (_, _, first, last) = endAreas(from: x, to: xNext, floor: ia, ceiling: ia &+ 2)
    cells[ia] += d * first
    cells[ia &+ 1] += d * (1 - first - last)
    cells[ia &+ 2] += d * last
  }

  /// `depositPiece` for a piece through three pixels or more: `ib` = ⌈max(x, xNext)⌉ ≥ `ia` + 3,
  /// `ia` = ⌊min⌋.
  @inline(__always)
  static func depositWidePiece(
    from x: Float, to xNext: Float, floor ia: Int, ceiling ib: Int, height d: Float,
    cells: UnsafeMutablePointer<Float>
  ) {
    let (s, xaFraction, first, last) = endAreas(from: x, to: xNext, floor: ia, ceiling: ib)
    cells[ia] += d * first
    let second = s * (1.5 - xaFraction)
    cells[ia &+ 1] += d * (second - first)
    let step = d * s
    for xi in (ia &+ 2)..<(ib &- 1) { cells[xi] += step }
    let beforeLast = second + Float(ib &- ia &- 3) * s
    cells[ib &- 1] += d * (1 - beforeLast - last)
    cells[ib] += d * last
  }

  /// The deposit loop's case for pieces through three pixels or more: deposits, marks and claims
  /// the pixels (see `claim`). Out of line, so that the loop keeps its values in registers.
  @inline(never)
  private static func depositAndClaimWidePiece(
    from x: Float, to xNext: Float, floor ia: Int, ceiling ib: Int, height d: Float,
    cells: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>,
    owners: UnsafeMutablePointer<Int32>, owner: Int32, line: Int, lines: UnsafePointer<Line>,
    ownerLines: UnsafePointer<Int32>
  ) -> Bool {
    depositWidePiece(from: x, to: xNext, floor: ia, ceiling: ib, height: d, cells: cells)
    markTouched(ia, ib, bits)
    var unconnected = false
    for cell in ia..<ib where claim(cell, owners, owner, line, lines, ownerLines) {
      unconnected = true
    }
    return unconnected
  }

  /// Claims pixel `cell` for the line with owner id `owner` (index `line`); whether the pixel
  /// was last claimed by a line not connected to it.
  @inline(__always)
  private static func claim(
    _ cell: Int, _ owners: UnsafeMutablePointer<Int32>, _ owner: Int32, _ line: Int,
    _ lines: UnsafePointer<Line>, _ ownerLines: UnsafePointer<Int32>
  ) -> Bool {
    let previous = owners[cell]
    owners[cell] = owner
    return mayBeUnconnected(previous, owner)
      && !connected(previous, line, lines: lines, ownerLines: ownerLines)
  }
}

/// Where one band's cells sit: the region origin (canvas pixels), the band's rows (relative to
/// the region) and the cell layout.
struct BandLayout {
  let originX: Float
  let originY: Float
  let rowStart: Int
  let rowEnd: Int
  let stride: Int
  /// Words of touched bits per row that hold cells.
  let cellWords: Int
  /// Words of touched bits per row: `cellWords` and the set stop word after them.
  let wordsPerRow: Int
}
