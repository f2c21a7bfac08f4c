// The scan stage's edges (CoverageAccumulator.swift has the whole): each line becomes an `Edge`
// with an owner id (consecutive along a run of joined lines), is bucketed by the first band it
// reaches, is made active by that band and retired after its last. Safe code but for the active
// lines' copy of their edges, read through a buffer pointer by the deposit.

extension CoverageAccumulator {
  /// Makes the lines bucketed in `band` active, after those already.
  @inline(__always)
  mutating func activateLines(of band: Int) {
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
  mutating func reserveRows(_ rows: Int, layout: BandLayout, stopRows: inout Int) {
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
  static func turnsByRow(
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
  mutating func retireLines(endingBy rowEnd: Int, band: Int, crowding: inout Crowding?) {
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
  mutating func countRowLines(_ candidates: UInt32, lines: [Line], layout: BandLayout) {
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
  mutating func bucketLines(_ count: Int, bands: Int) {
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
            // Lines come in contour order, so a run of them mostly shares a band: each loop
            // keeps the current band's count (or place) in a register and touches memory only
            // where the band changes, instead of adding to the same counter in memory line after
            // line (each add waited for the store before it).
            var current = 0
            var run = 0
            for index in 0..<count {
              let band = min(bands - 1, Int(edges[index].firstRow) / Self.bandRows)
              lineBand[index] = Int32(truncatingIfNeeded: band)
              if band != current {
                starts[current + 1] += run
                current = band
                run = 0
              }
              run += 1
            }
            starts[current + 1] += run
            for b in 0..<bands { starts[b + 1] += starts[b] }
            // Placing a line advances its band's start; afterwards each start is the next
            // band's, so they move back up by one.
            current = 0
            var place = starts[0]
            for index in 0..<count {
              let band = Int(lineBand[index])
              if band != current {
                starts[current] = place
                current = band
                place = starts[band]
              }
              sorted[place] = Int32(truncatingIfNeeded: index)
              place += 1
            }
            starts[current] = place
            for b in stride(from: bands, to: 0, by: -1) { starts[b] = starts[b - 1] }
            starts[0] = 0
          }
        }
      }
    }
  }

  /// Makes each line's `Edge`, with its owner id (see `edges`).
  mutating func prepareEdges(_ lines: [Line], contourStarts: [Int], region: IntRect) {
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
}
