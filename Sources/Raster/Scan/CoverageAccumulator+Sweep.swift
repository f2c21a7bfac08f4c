// The scan stage's sweep (CoverageAccumulator.swift has the whole): each row of a band is summed
// left to right; a touched cell's pixel goes out on its own and the stretch between two runs of
// touched cells as one span of constant coverage. The sweep zeroes what it reads, so the cells,
// owners and bits are ready for the next band. Rows the exact resolver computed hold its
// deposits, whose sums are coverages already: they are swept with the nonzero rule.
//
// With the nonzero rule into a solid colour, `csk_sweep_solid` (CScanKernels) sweeps the band
// by the same steps (its twin is `sweepRows`; SolidSweepTests compare them), blending a run's
// pixels four at a time in SSE2.
//
// Invariant for the raw pointers: as for the deposit (`BandLayout.assertFits`), and each row's
// stop word — the word after its `cellWords` words of touched bits — is set, so the scan for the
// next touched word ends inside the row.

import CScanKernels

extension CoverageAccumulator {
  /// Runs along each row of the band summing the deposits and sends the coverage to `sink`
  /// (rows in `exactRows` hold the exact resolver's deposits, summed with the nonzero rule); leaves
  /// the cells, owners and bits zero.
  mutating func sweep<Sink: CoverageSink>(
    layout: BandLayout, region: IntRect, rule: FillRule, exactRows: UInt32, into sink: inout Sink
  ) {
    cells.withUnsafeMutableBufferPointer { cellBuffer in
      owners.withUnsafeMutableBufferPointer { ownerBuffer in
        touched.withUnsafeMutableBufferPointer { bitBuffer in
          guard let cellBase = cellBuffer.baseAddress, let bitBase = bitBuffer.baseAddress,
            let ownerBase = ownerBuffer.baseAddress
          else { return }
          layout.assertFits(
            cells: cellBuffer.count, owners: ownerBuffer.count, touched: bitBase,
            touchedWords: bitBuffer.count)
          if rule == .nonzero, sweepsInC, let solid = sink.solidColor {
            // Rows relative to the region; `sweepRows` does the same (`csk_sweep_solid`).
            let firstPixel =
              solid.pixels + ((region.minY &+ layout.rowStart) &* solid.rowPixels &+ region.minX)
            csk_sweep_solid(
              cellBase, ownerBase, bitBase, layout.stride, layout.wordsPerRow, layout.cellWords,
              layout.rowEnd &- layout.rowStart, region.width, firstPixel, solid.rowPixels,
              solid.scaled)
            return
          }
          // One loop for each rule, so the rule is known inside it.
          if rule == .nonzero {
            Self.sweepRows(
              cells: cellBase, owners: ownerBase, bits: bitBase, layout: layout, region: region,
              rule: .nonzero, exactRows: exactRows, into: &sink)
          } else {
            Self.sweepRows(
              cells: cellBase, owners: ownerBase, bits: bitBase, layout: layout, region: region,
              rule: .evenodd, exactRows: exactRows, into: &sink)
          }
        }
      }
    }
  }

  /// The band's rows, top down (the band's cells, owners and bits start at the given pointers).
  @inline(__always)
  static func sweepRows<Sink: CoverageSink>(
    cells: UnsafeMutablePointer<Float>, owners: UnsafeMutablePointer<Int32>,
    bits: UnsafeMutablePointer<UInt64>, layout: BandLayout, region: IntRect, rule: FillRule,
    exactRows: UInt32, into sink: inout Sink
  ) {
    var cells = cells
    var owners = owners
    var bits = bits
    for row in layout.rowStart..<layout.rowEnd {
      var out = sink.row(region.minY &+ row)
      // Band rows are < 32.
      if rule != .nonzero, exactRows & (1 &<< UInt32(row &- layout.rowStart)) != 0 {
        sweepRow(
          cells: cells, owners: owners, bits: bits, words: layout.cellWords, width: region.width,
          x0: region.minX, rule: .nonzero, into: &out)
      } else {
        sweepRow(
          cells: cells, owners: owners, bits: bits, words: layout.cellWords, width: region.width,
          x0: region.minX, rule: rule, into: &out)
      }
      cells += layout.stride
      owners += layout.stride
      bits += layout.wordsPerRow
    }
  }

  /// One row: each touched cell's pixel goes out on its own but the last of a run; from there to
  /// the next run the coverage is constant and goes out as one span. `bits[words]` must be
  /// nonzero: it ends the scan.
  @inline(__always)
  static func sweepRow<Row: CoverageRow>(
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
        // The run's last pixel has the coverage of the stretch after it (no cell changes the
        // sum in between): it goes out with that stretch's span (none where the coverage is 0),
        // unless cells from `width` on, which are not pixels, follow it in the run.
        let shown = last <= width ? last &- 1 : width
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

  static func clearRow(
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
    /// Per line, its stroke piece (nil for a plain fill).
    let groups: UnsafePointer<PieceGroup>?
    let crossings: UnsafeMutablePointer<Crossing>
  }
}
