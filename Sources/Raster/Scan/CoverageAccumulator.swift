// The rasterizer's hot loops: depositing signed area and sweeping it into coverage spans.
//
// Why it is built this way: every edge deposits, into the cells of the rows it crosses, the exact
// area it adds to each pixel — as differences, so that a running sum along a row gives each
// pixel's coverage (the accumulation scheme of font-rs and libart). No edge list is sorted and no
// scanline is sampled: coverage is the exact area, for any slope. A bit per cell records which
// cells an edge touched, so the sweep jumps from touched cell to touched cell and hands the runs
// between them to the sink as constant-coverage spans (solid interiors are filled, not blended
// pixel by pixel). The sweep zeroes what it reads, so the buffers are ready for the next path
// without a clear.
//
// The only unsafe code of the scan stage lives here. Its scalar twin is
// `ReferenceRasterizer` (supersampled, in the test support), checked by RasterizerTests.

/// Receives the coverage of one row at a time, left to right: constant-coverage spans and single
/// edge pixels, in device pixels. Coverage 0 is never sent.
protocol CoverageSink {
  mutating func span(x: Int, y: Int, count: Int, coverage: UInt8)
}

/// Signed-area cells over a rectangle of pixels, reusable from one path to the next.
///
/// Invariant between uses: every cell is 0 and every touched bit is clear.
struct CoverageAccumulator: Sendable {
  private var cells: [Float] = []
  private var touched: [UInt64] = []
  private var region = IntRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
  /// Cells per row: the region's width plus two, for the deposits right of the last column.
  private var stride = 0
  private var wordsPerRow = 0

  /// Prepares cells for `region` (device pixels); grows the storage when needed.
  mutating func reset(region: IntRect) {
    self.region = region
    stride = region.width + 2
    wordsPerRow = (stride + 63) >> 6
    let cellCount = stride * region.height
    let wordCount = wordsPerRow * region.height
    if cells.count < cellCount { cells = [Float](repeating: 0, count: cellCount) }
    if touched.count < wordCount { touched = [UInt64](repeating: 0, count: wordCount) }
  }

  /// Deposits the exact signed area of every line. Lines are in canvas pixels and must lie
  /// inside the region given to `reset`.
  mutating func accumulate(_ lines: [Line]) {
    let ox = Float(region.minX)
    let oy = Float(region.minY)
    let rows = region.height
    let stride = self.stride
    let wordsPerRow = self.wordsPerRow
    cells.withUnsafeMutableBufferPointer { cellBuffer in
      touched.withUnsafeMutableBufferPointer { bitBuffer in
        guard let cellBase = cellBuffer.baseAddress, let bitBase = bitBuffer.baseAddress else {
          return
        }
        for line in lines {
          Self.deposit(
            line, ox: ox, oy: oy, rows: rows, stride: stride, wordsPerRow: wordsPerRow,
            cells: cellBase, bits: bitBase)
        }
      }
    }
  }

  /// Runs along each row summing the deposits, sends the coverage to `sink`, and leaves the
  /// cells and bits zero.
  mutating func sweep<Sink: CoverageSink>(rule: FillRule, into sink: inout Sink) {
    let width = region.width
    let stride = self.stride
    let wordsPerRow = self.wordsPerRow
    let minX = region.minX
    let minY = region.minY
    cells.withUnsafeMutableBufferPointer { cellBuffer in
      touched.withUnsafeMutableBufferPointer { bitBuffer in
        guard let cellBase = cellBuffer.baseAddress, let bitBase = bitBuffer.baseAddress else {
          return
        }
        for row in 0..<region.height {
          let cells = cellBase + row * stride
          let bits = bitBase + row * wordsPerRow
          var sum: Float = 0
          var next = 0  // first column not yet sent
          for word in 0..<wordsPerRow {
            var mask = bits[word]
            if mask == 0 { continue }
            bits[word] = 0
            while mask != 0 {
              let x = word << 6 | mask.trailingZeroBitCount
              mask &= mask &- 1
              if x > next, next < width {
                let c = Self.coverage(sum, rule)
                if c != 0 { sink.span(x: minX + next, y: minY + row, count: min(x, width) - next, coverage: c) }
              }
              sum += cells[x]
              cells[x] = 0
              if x < width {
                let c = Self.coverage(sum, rule)
                if c != 0 { sink.span(x: minX + x, y: minY + row, count: 1, coverage: c) }
                next = x + 1
              } else {
                next = width
              }
            }
          }
          if next < width {
            let c = Self.coverage(sum, rule)
            if c != 0 { sink.span(x: minX + next, y: minY + row, count: width - next, coverage: c) }
          }
        }
      }
    }
  }

  // MARK: - Kernels

  /// Coverage 0...255 from an accumulated signed area (a winding number weighted by area).
  @inline(__always)
  static func coverage(_ sum: Float, _ rule: FillRule) -> UInt8 {
    var a = abs(sum)
    if rule == .evenodd {
      a -= 2 * (a * 0.5).rounded(.down)
      if a > 1 { a = 2 - a }
    } else if a > 1 {
      a = 1
    }
    return UInt8(truncatingIfNeeded: Int32(a * 255 + 0.5))
  }

  @inline(__always)
  private static func add(
    _ value: Float, at x: Int, _ cells: UnsafeMutablePointer<Float>,
    _ bits: UnsafeMutablePointer<UInt64>
  ) {
    cells[x] += value
    bits[x >> 6] |= 1 &<< UInt64(x & 63)
  }

  /// One line's area, row by row: in each row the part of the line crossing it covers, of each
  /// pixel it passes, the area right of it; pixels further right get the row's full height.
  private static func deposit(
    _ line: Line, ox: Float, oy: Float, rows: Int, stride: Int, wordsPerRow: Int,
    cells: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>
  ) {
    var x0 = line.x0 - ox
    var y0 = line.y0 - oy
    var x1 = line.x1 - ox
    var y1 = line.y1 - oy
    var direction: Float = 1
    if y0 > y1 {
      swap(&x0, &x1)
      swap(&y0, &y1)
      direction = -1
    }
    guard y0 < y1 else { return }
    let dxdy = (x1 - x0) / (y1 - y0)
    let lowX = min(x0, x1)
    let highX = max(x0, x1)
    let firstRow = max(0, Int(y0))
    let endRow = min(rows, Int(y1.rounded(.up)))
    var x = x0
    for row in firstRow..<max(firstRow, endRow) {
      let rowTop = Float(row)
      let bottom = min(rowTop + 1, y1)
      let d = (bottom - max(rowTop, y0)) * direction
      let xNext = bottom == y1 ? x1 : min(max(x0 + (bottom - y0) * dxdy, lowX), highX)
      let rowCells = cells + row * stride
      let rowBits = bits + row * wordsPerRow
      let xa = min(x, xNext)
      let xb = max(x, xNext)
      let xaFloor = xa.rounded(.down)
      let xbCeil = xb.rounded(.up)
      let ia = Int(xaFloor)
      let ib = Int(xbCeil)
      if ib <= ia + 1 {
        let mid = 0.5 * (x + xNext) - xaFloor
        add(d - d * mid, at: ia, rowCells, rowBits)
        add(d * mid, at: ia + 1, rowCells, rowBits)
      } else {
        let s = 1 / (xb - xa)
        let xaFraction = xa - xaFloor
        let first = 0.5 * s * (1 - xaFraction) * (1 - xaFraction)
        let xbFraction = xb - xbCeil + 1
        let last = 0.5 * s * xbFraction * xbFraction
        add(d * first, at: ia, rowCells, rowBits)
        if ib == ia + 2 {
          add(d * (1 - first - last), at: ia + 1, rowCells, rowBits)
        } else {
          let second = s * (1.5 - xaFraction)
          add(d * (second - first), at: ia + 1, rowCells, rowBits)
          let step = d * s
          for xi in (ia + 2)..<(ib - 1) { add(step, at: xi, rowCells, rowBits) }
          let beforeLast = second + Float(ib - ia - 3) * s
          add(d * (1 - beforeLast - last), at: ib - 1, rowCells, rowBits)
        }
        add(d * last, at: ib, rowCells, rowBits)
      }
      x = xNext
    }
  }
}
