// The scan stage: signed-area cells for a band of rows at a time, and the band loop that drives
// the stages, each in a file of its own:
//
// - CoverageAccumulator+Edges.swift: lines become edges with owner ids, bucketed by the first
//   band they reach; each band activates its lines and retires those that ended.
// - CoverageAccumulator+Deposit.swift: each active line deposits its exact area into the cells of
//   the rows it crosses and claims the cells for its owner id.
// - CoverageAccumulator+CrowdedBands.swift: bands every row of which is crowded, deposited by the
//   C kernel (CScanKernels) on up to two threads.
// - CoverageAccumulator+Turns.swift and +ExactRows.swift: rows where the summed area would be
//   wrong, found and computed exactly.
// - CoverageAccumulator+Sweep.swift: each row summed left to right into coverage spans.
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
// common meeting (a line and the next one at their shared vertex) costs one test. A stroke's
// outline carries a group per line (`PieceGroup`): lines of adjoining groups count as connected,
// since the stroker guarantees their pieces do not overlap.
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
//
// Unsafe code: the deposit, crowded-band, exact-row and sweep stages index cells, owners and
// touched bits through raw pointers; each file states the invariant that keeps those indices inside the
// buffers, and debug builds assert it (`BandLayout.assertFits` and checks in the loops). Other
// unsafe code in Raster: the Flattener's per-curve scratch, the pixel kernels (Pixels/Kernels,
// Pixmap), the blur's kernels; and the C kernels. Their twins: the
// supersampled `ReferenceRasterizer` (Rasterizer+Reference.swift, in Sources so the tests and
// `bench` share it) for the whole scan stage, checked by RasterizerTests and AccuracyTests;
// `depositAreasPlainly` for `csk_deposit_band` (CrowdedBandTests, to the bit); the Swift loop of
// `deposit` for `csk_deposit_claimed` (ClaimedDepositTests); `sweepRows` with `SolidColorRow`
// for `csk_sweep_solid` (SolidSweepTests); the scalar twins in Blend for the pixel kernels
// (KernelTwinTests).

import CScanKernels
import Dispatch

/// Receives coverage one row at a time, left to right, through the writer it gives for each row.
protocol CoverageSink {
  associatedtype Row: CoverageRow
  /// The writer for canvas row `y` (device pixels).
  func row(_ y: Int) -> Row
  /// Where row `y`'s pixels lie, so that the deposit can prefetch the pixels the sweep will
  /// blend; nil for none. A hint only: it changes no pixel.
  var pixelLayout: PixelLayout? { get }
  /// The plane and colour the rows blend a solid colour into, for the sweep's C kernel
  /// (`csk_sweep_solid`, which does what the rows would, to the same pixels); nil for other rows.
  var solidColor: SolidColorPlane? { get }
}

extension CoverageSink {
  var solidColor: SolidColorPlane? { nil }
}

/// A plane of packed premultiplied pixels (`rowPixels` a row, canvas pixel (0, 0) at `pixels`)
/// that a solid colour is blended into, with the colour scaled by every coverage (`scaled`: its
/// `CoverageScaledColor.entries`).
struct SolidColorPlane {
  let pixels: UnsafeMutablePointer<UInt32>
  let rowPixels: Int
  let scaled: UnsafePointer<UInt32>
}

/// Where the pixels of a row-major plane lie: the address of canvas pixel (0, 0), bytes a row,
/// and log2 of the bytes a pixel. Only ever prefetched, never read or written through: an
/// address past the plane is harmless.
struct PixelLayout {
  let first: UnsafeRawPointer
  let rowBytes: Int
  let pixelShift: Int

  /// The address of canvas pixel (`x`, `y`), computed without a check (it is only prefetched).
  func address(x: Int, y: Int) -> UnsafeRawPointer {
    first.advanced(by: y &* rowBytes &+ x &<< pixelShift)
  }
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

  var cells: [Float] = []
  /// Per cell, the owner id (`Edge.owner`) of the last line that passed through the pixel (0: none).
  var owners: [Int32] = []
  /// Per line, the line ready for the deposit (see `Edge`); its owner id is the one it leaves in the
  /// cells it passes through. Ids are consecutive along a run of lines that follow each other in one
  /// contour, joined end to start directly or across horizontal edges (dropped: they change no
  /// winding) without crossing; they skip one between contours and where the next line starts at
  /// another height. Two lines whose ids differ by at most 1 are one piece of outline, so where they
  /// meet the summed area is exact and the deposit need not read them. Ids start at 2 and are at most
  /// 2 × the line count, so they fit Int32 for fewer than 2^30 lines (16 GiB of them).
  var edges: [Edge] = []
  /// Per owner id, the index of its line (ids skipped: 0, never stored in a cell). Slot 0 holds
  /// `allMarked` instead.
  var ownerLines: [Int32] = []
  var touched: [UInt64] = []
  var bucketStarts: [Int] = []
  var sortedLines: [Int32] = []
  /// Per line, the band it is bucketed in (scratch of `bucketLines`).
  var lineBands: [Int32] = []
  var active: [Int32] = []
  /// The edges of the active lines, in the same order (the first `active.count`; the array is
  /// scratch, as long as the most lines active at once so far): the deposit reads them one after
  /// the other instead of from all over `edges`, which on large paths cost a cache miss per line
  /// and band.
  var activeEdges: [Edge] = []
  /// Per band row, then per boundary: the lines through each row of the band (scratch).
  var rowLines: [Int] = []
  var exactRows = ExactRowResolver()
  var turnRows = TurnRowIndex()
  /// Whether bands whose rows are all crowded (`Crowding.crowdedRows`) take their own path
  /// (`depositAndSweepCrowded`); without it they go the way of the others, to the same pixels
  /// (tests compare the two).
  var takesCrowdedBands = true
  /// Whether a band's lines are deposited by `csk_deposit_claimed` (C) rather than by the Swift
  /// loop of `deposit`, its twin (the same cells, bits, owners and rows; tests compare the two).
  var depositsInC = true
  /// Whether a band is swept by `csk_sweep_solid` (C) where the sink blends a solid colour
  /// (`CoverageSink.solidColor`) and the rule is nonzero, rather than by `sweepRows`, its twin
  /// (the same pixels, cells, owners and bits; tests compare the two).
  var sweepsInC = true
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
  var secondCells: [Float] = []
  var secondTouched: [UInt64] = []

  /// Deposits every line (canvas pixels, inside `region`) and sweeps the region's rows into
  /// `sink`, band by band.
  mutating func rasterize<Sink: CoverageSink>(
    _ path: FlattenedPath, region: IntRect, rule: FillRule, into sink: inout Sink
  ) {
    let lines = path.lines
    let bandRows = Self.bandRows
    let stride = Self.cellStride(width: region.width)
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
    let pixelLayout = sink.pixelLayout
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
      var complexRows = deposit(
        lines, groups: path.groups, layout: layout, marked: crowded,
        prefetch: pixelLayout.map { ($0.address(x: region.minX, y: region.minY &+ rowStart), $0) })
      let bandTurns = nextTurn
      while nextTurn < turns.count, Int(turns[nextTurn].y) - region.minY < rowEnd { nextTurn += 1 }
      complexRows = turnRows.mark(
        turns[bandTurns..<nextTurn], lines: lines, active: active, regionMinY: region.minY,
        marked: complexRows)
      // An exact row's cells are replaced by the exact resolver's deposits before the sweep; a
      // row whose slabs exceed the budget keeps its summed areas.
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
            resolveExactly(bandRow: bandRow, layout: layout, width: region.width, rule: rule)
            exact |= 1 << bandRow
          }
        }
      }
      sweep(layout: layout, region: region, rule: rule, exactRows: exact, into: &sink)
      retireLines(endingBy: rowEnd, band: band, crowding: &crowding)
      band += 1
    }
  }

  /// Bands of crowded rows taken together at most, for one thread (`rasterize`).
  static let crowdedRunBands = 4

  /// Cells a row of a band holds for a region `width` pixels wide: its `width` + 2 cells, padded
  /// to a whole and odd number of 64-byte lines, so that a band's rows start in different sets
  /// of the first-level cache (rows of 1026 cells, 4104 bytes, put the same column of all 16 rows
  /// of cells, and of owners, in one or two sets, which a line's pieces down the band thrashed).
  /// The padding cells are never written.
  static func cellStride(width: Int) -> Int {
    let lines = (width + 2 + 15) / 16
    return (lines | 1) * 16
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

  /// Debug builds check the invariant the raw-pointer stages rely on: the rows of this band (or
  /// run of bands) fit the buffers given — `cells` values with the crowded kernel's padding,
  /// `owners` values, `touchedWords` words of touched bits — and each row's stop word is set.
  func assertFits(cells: Int, owners: Int, touched: UnsafePointer<UInt64>, touchedWords: Int) {
    let rows = rowEnd - rowStart
    assert(rows > 0 && stride >= 2, "an empty band")
    assert(cellWords == (stride + 63) >> 6 && wordsPerRow == cellWords + 1, "a bad bit layout")
    assert(
      rows * stride + CoverageAccumulator.cellPadding(stride: stride) <= cells,
      "\(rows) rows of \(stride) cells do not fit \(cells)")
    assert(rows * stride <= owners, "\(rows) rows of \(stride) owners do not fit \(owners)")
    assert(rows * wordsPerRow <= touchedWords, "\(rows) rows of bits do not fit \(touchedWords)")
    assert(
      (0..<rows).allSatisfy { touched[$0 * wordsPerRow + cellWords] != 0 },
      "a row's stop word is clear")
  }
}
