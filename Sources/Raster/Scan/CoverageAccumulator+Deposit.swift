// The scan stage's deposit (CoverageAccumulator.swift has the whole): each active line adds the
// exact area it covers in each pixel of each row it crosses, as differences along the row, and
// leaves its owner id in the cells it passes through; meeting a line it is not connected to marks
// the row for the exact resolver. `csk_deposit_claimed` (CScanKernels) does the same in C, by
// the same expressions, and is the one used (`depositsInC`); the Swift loop here is its twin
// (ClaimedDepositTests), as the crowded bands' `depositAreasPlainly` is `csk_deposit_band`'s.
//
// Invariant for the raw pointers: a band has at most `bandRows` rows; its cells and owners hold
// `stride` (at least the region's width + 2: `cellStride`) per row and its touched bits
// `wordsPerRow` words per row (`BandLayout.assertFits`); an edge's x lies in 0...width (the
// Flattener clips it), so every piece's cells — ⌊x⌋ up to ⌈x⌉, at most width + 1 — are inside
// its row.

import CScanKernels

extension CoverageAccumulator {
  /// Deposits the band's active lines; returns a bit per band row in which two unconnected lines
  /// passed through one pixel (rows in `marked` count as marked from the start). With `prefetch`
  /// (the address of the pixel of the band's first row and cell 0, and the plane's layout), the C
  /// loop prefetches each piece's first pixel for the sweep; the Swift loop, its twin, does not.
  mutating func deposit(
    _ lines: [Line], groups: [PieceGroup], layout: BandLayout, marked: UInt32,
    prefetch: (UnsafeRawPointer, PixelLayout)? = nil
  ) -> UInt32 {
    var complexRows = marked
    groups.withUnsafeBufferPointer { groups in
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
                        let bitBase = bitBuffer.baseAddress,
                        let ownerBase = ownerBuffer.baseAddress,
                        let lineBase = allLines.baseAddress,
                        let ownerLineBase = ownerLines.baseAddress,
                        let crossingBase = crossings.baseAddress
                      else { return }
                      layout.assertFits(
                        cells: cellBuffer.count, owners: ownerBuffer.count, touched: bitBase,
                        touchedWords: bitBuffer.count)
                      assert(activeEdges.count >= activeLines.count)
                      let target = DepositTarget(
                        cells: cellBase, bits: bitBase, owners: ownerBase,
                        // (An empty array may still give a base address.)
                        ownerLines: ownerLineBase,
                        groups: groups.isEmpty ? nil : groups.baseAddress,
                        crossings: crossingBase)
                      if depositsInC {
                        complexRows = Self.depositInC(
                          activeLines, activeEdges, layout, target, lines: lineBase,
                          marked: complexRows, prefetch: prefetch)
                        return
                      }
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
    }
    return complexRows
  }

  /// The loop above in C (`csk_deposit_claimed`), to the same cells, bits, owners and rows.
  static func depositInC(
    _ activeLines: UnsafeBufferPointer<Int32>, _ activeEdges: UnsafeBufferPointer<Edge>,
    _ layout: BandLayout, _ target: DepositTarget, lines: UnsafePointer<Line>, marked: UInt32,
    prefetch: (UnsafeRawPointer, PixelLayout)?
  ) -> UInt32 {
    guard let indices = activeLines.baseAddress, let edges = activeEdges.baseAddress else {
      return marked
    }
    return edges.withMemoryRebound(to: csk_edge.self, capacity: activeLines.count) { edges in
      lines.withMemoryRebound(to: csk_line.self, capacity: 1) { lines in
        let groups = target.groups.map {
          UnsafeRawPointer($0).assumingMemoryBound(to: csk_group.self)
        }
        var band = csk_band_target(
          cells: target.cells, owners: target.owners, bits: target.bits,
          stride: layout.stride, words_per_row: layout.wordsPerRow,
          row_start: Int32(truncatingIfNeeded: layout.rowStart),
          row_end: Int32(truncatingIfNeeded: layout.rowEnd), lines: lines,
          owner_lines: target.ownerLines, groups: groups,
          prefetch: prefetch?.0, prefetch_row_bytes: prefetch?.1.rowBytes ?? 0,
          prefetch_pixel_shift: Int32(truncatingIfNeeded: prefetch?.1.pixelShift ?? 0))
        return csk_deposit_claimed(&band, edges, indices, activeLines.count, marked)
      }
    }
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
  static func deposit(
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
    assert(rows <= bandRows, "more rows than the crossings hold")
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
      assert(ia >= 0 && ceilNonNegative(high) < layout.stride, "a piece outside its row's cells")
      let d = (lower.y - upper.y) * direction
      // Deposit the piece and claim the pixels it passes through; meeting an unconnected line
      // marks the row. Pieces through one or two pixels (most) are done here.
      var unconnected = false
      if high <= iaFloat + 1 {
        depositOnePixel(from: upper.x, to: lower.x, floor: ia, height: d, cells: cells)
        markPair(ia, bits)
        unconnected = claim(ia, owners, owner, index, lines, target.ownerLines, target.groups)
      } else if high <= iaFloat + 2 {
        depositTwoPixels(from: upper.x, to: lower.x, floor: ia, height: d, cells: cells)
        markTriple(ia, bits)
        unconnected = claim(ia, owners, owner, index, lines, target.ownerLines, target.groups)
        unconnected =
          claim(ia &+ 1, owners, owner, index, lines, target.ownerLines, target.groups)
          || unconnected
      } else {
        unconnected = depositAndClaimWidePiece(
          from: upper.x, to: lower.x, floor: ia, ceiling: ceilNonNegative(high), height: d,
          cells: cells, bits: bits,
          owners: owners, owner: owner, line: index, lines: lines, ownerLines: target.ownerLines,
          groups: target.groups)
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
  static func clamp(_ v: Float, _ low: Float, _ high: Float) -> Float {
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

  /// Whether the line with owner id `owner` is connected to line `index` — joined to it, or, in
  /// a stroke's outline, of an adjoining piece (`PieceGroup`); false without a test once every
  /// row of the band is marked (`allMarked`), where the answer could only mark a row again. Out
  /// of line: it is rarely needed, and the deposit loop keeps more in registers without it.
  @inline(never)
  static func connected(
    _ owner: Int32, _ index: Int, lines: UnsafePointer<Line>, ownerLines: UnsafePointer<Int32>,
    groups: UnsafePointer<PieceGroup>?
  ) -> Bool {
    guard ownerLines[allMarked] == 0 else { return false }
    let other = Int(ownerLines[Int(owner)])
    if let groups, groups[other].adjoins(groups[index]) { return true }
    return connected(lines[other], lines[index])
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

  /// Whether two lines share an end point (consecutive pieces of one outline). Two copies of one
  /// line do not count: their areas add up to twice the line's, which the sum cannot tell from
  /// a winding of 2 (a stroke's outline traces some arcs twice).
  @inline(__always)
  static func connected(_ a: Line, _ b: Line) -> Bool {
    let sameStart = a.x0 == b.x0 && a.y0 == b.y0
    let sameEnd = a.x1 == b.x1 && a.y1 == b.y1
    return (a.x1 == b.x0 && a.y1 == b.y0) || (a.x0 == b.x1 && a.y0 == b.y1)
      || (sameStart != sameEnd)
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
  static func endAreas(
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
  static func depositAndClaimWidePiece(
    from x: Float, to xNext: Float, floor ia: Int, ceiling ib: Int, height d: Float,
    cells: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>,
    owners: UnsafeMutablePointer<Int32>, owner: Int32, line: Int, lines: UnsafePointer<Line>,
    ownerLines: UnsafePointer<Int32>, groups: UnsafePointer<PieceGroup>?
  ) -> Bool {
    depositWidePiece(from: x, to: xNext, floor: ia, ceiling: ib, height: d, cells: cells)
    markTouched(ia, ib, bits)
    var unconnected = false
    for cell in ia..<ib where claim(cell, owners, owner, line, lines, ownerLines, groups) {
      unconnected = true
    }
    return unconnected
  }

  /// Claims pixel `cell` for the line with owner id `owner` (index `line`); whether the pixel
  /// was last claimed by a line not connected to it.
  @inline(__always)
  static func claim(
    _ cell: Int, _ owners: UnsafeMutablePointer<Int32>, _ owner: Int32, _ line: Int,
    _ lines: UnsafePointer<Line>, _ ownerLines: UnsafePointer<Int32>,
    _ groups: UnsafePointer<PieceGroup>?
  ) -> Bool {
    let previous = owners[cell]
    owners[cell] = owner
    return mayBeUnconnected(previous, owner)
      && !connected(previous, line, lines: lines, ownerLines: ownerLines, groups: groups)
  }
}
