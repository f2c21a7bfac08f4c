// Exact coverage for the rows where summing signed areas is not enough: rows in which two
// unconnected edges share a pixel (self-intersections, overlapping subpaths). A sibling of the
// accumulation kernel, sharing its `depositPiece`.
//
// The row is cut into horizontal slabs at every end point and every crossing of its edges, so no
// two edges cross inside a slab. In a slab the edges are sorted by x and walked left to right
// with their winding; each inside run, from the edge where the fill rule turns inside to the one
// where it turns outside, is a trapezoid whose exact area per pixel is deposited (its left edge
// with +height, its right edge with −height). The sum along the row is then the exact covered
// area of each pixel, for either rule and any overlap.

/// Resolves complex rows exactly; keeps its scratch between calls.
struct ExactRowResolver: Sendable {
  /// Rows with more edges than this keep the summed-area coverage (the pair search is quadratic).
  static let maximumPieces = 512
  /// Pair tests allowed for one path, so a pathological path cannot hang the renderer; rows past
  /// the budget keep the summed-area coverage.
  static let pairBudget = 20_000_000
  /// Slab visits (slabs × pieces of a row) allowed for one path, for the same reason: a row of
  /// n pieces can have n²/2 crossings, hence slabs, each of which walks its pieces. Rows past the
  /// budget keep the summed-area coverage.
  static let slabBudget = 100_000_000
  /// Rows with at most this many pieces sort each slab's pieces afresh; more crowded rows update
  /// the previous slab's order (`orderSlab`). Both give the same order.
  static let sortedSlabPieces = 32

  private struct Piece {
    var x0: Float, y0: Float, dxdy: Float, y1: Float, winding: Int32

    func x(at y: Float) -> Float { x0 + (y - y0) * dxdy }
  }

  private var remainingPairs = 0
  private var remainingSlabs = 0
  private var pieces: [Piece] = []
  private var events: [Float] = []
  private var order: [(x: Float, index: Int32)] = []
  /// Per piece, whether it is in `order`.
  private var inOrder: [Bool] = []
  private var row: [Float] = []
  /// The cells of `row` that deposits reached: `touchedLow..<touchedHigh` (empty when low ≥ high).
  private var touchedLow = Int.max
  private var touchedHigh = 0

  mutating func startPath() {
    remainingPairs = Self.pairBudget
    remainingSlabs = Self.slabBudget
  }

  /// Whether a row through which `count` lines pass can be resolved exactly within the limits on
  /// pieces and pairs; reserves its share of the pair budget.
  mutating func admits(pieces count: Int) -> Bool {
    guard mayAdmit(pieces: count) else { return false }
    remainingPairs -= count * count
    return true
  }

  /// Whether `admits` can still take a row of `count` lines (false: it never will again, since
  /// the budget only shrinks), reserving nothing.
  func mayAdmit(pieces count: Int) -> Bool {
    count <= Self.maximumPieces && count * count <= remainingPairs
  }

  /// Cuts an admitted row into its pieces and slabs; whether its slabs fit the slab budget
  /// (reserving them). Then `resolve` computes the row.
  mutating func prepare(
    row rowIndex: Int, lines: [Line], active: [Int32], layout: BandLayout
  )
    -> Bool
  {
    let top = Float(rowIndex)
    let bottom = top + 1
    collectPieces(top: top, bottom: bottom, lines: lines, active: active, layout: layout)
    collectEvents(top: top, bottom: bottom)
    let slabs = (events.count - 1) * pieces.count
    guard slabs <= remainingSlabs else { return false }
    remainingSlabs -= slabs
    events.sort()
    return true
  }

  /// Computes the exact coverage of the row `prepare` cut last and sends it to `sink`.
  mutating func resolve<Sink: CoverageSink>(
    row rowIndex: Int, region: IntRect, rule: FillRule, into sink: inout Sink
  ) {
    let width = region.width
    if row.count < width + 2 { row = [Float](repeating: 0, count: width + 2) }
    order.removeAll(keepingCapacity: true)
    inOrder.removeAll(keepingCapacity: true)
    inOrder.append(contentsOf: repeatElement(false, count: pieces.count))
    for slab in 0..<(events.count - 1) {
      let ya = events[slab]
      let yb = events[slab + 1]
      if yb - ya > 1e-6 { depositSlab(ya, yb, rule: rule) }
    }
    emit(width: width, x0: region.minX, y: region.minY + rowIndex, into: &sink)
  }

  // MARK: - Private

  private mutating func collectPieces(
    top: Float, bottom: Float, lines: [Line], active: [Int32], layout: BandLayout
  ) {
    pieces.removeAll(keepingCapacity: true)
    for index in active {
      let line = lines[Int(index)]
      var (xa, ya, xb, yb) = (
        line.x0 - layout.originX, line.y0 - layout.originY, line.x1 - layout.originX,
        line.y1 - layout.originY
      )
      var winding: Int32 = 1
      if ya > yb {
        swap(&xa, &xb)
        swap(&ya, &yb)
        winding = -1
      }
      guard ya < bottom, yb > top, ya < yb else { continue }
      let dxdy = (xb - xa) / (yb - ya)
      pieces.append(
        Piece(x0: xa, y0: ya, dxdy: dxdy, y1: yb, winding: winding))
    }
  }

  /// The row's slab boundaries, unsorted: its top and bottom, every piece end inside it, every
  /// crossing.
  private mutating func collectEvents(top: Float, bottom: Float) {
    events.removeAll(keepingCapacity: true)
    events.append(top)
    events.append(bottom)
    for p in pieces {
      if p.y0 > top { events.append(p.y0) }
      if p.y1 < bottom { events.append(p.y1) }
    }
    for i in pieces.indices {
      let p = pieces[i]
      for j in (i + 1)..<pieces.count {
        let q = pieces[j]
        let lo = max(max(p.y0, q.y0), top)
        let hi = min(min(p.y1, q.y1), bottom)
        guard lo < hi, p.dxdy != q.dxdy else { continue }
        // x_p(y) = x_q(y)
        let y = (q.x0 - q.y0 * q.dxdy - p.x0 + p.y0 * p.dxdy) / (p.dxdy - q.dxdy)
        if y > lo, y < hi { events.append(y) }
      }
    }
  }

  /// Sets `order` to the pieces through the slab's middle `ym`, by x there and then by index: the
  /// order of a stable sort by x of the pieces taken in index order. Starts from the previous
  /// slab's order, which differs only by the pieces that cross, end or start between the two:
  /// an insertion sort restores it in a few moves.
  private mutating func orderSlab(_ ym: Float) {
    let alive = order.count
    // Room for every piece, so that the loops below write through pointers.
    order.append(
      contentsOf: repeatElement((x: Float(0), index: Int32(0)), count: pieces.count - alive))
    let count = pieces.withUnsafeBufferPointer { pieces in
      order.withUnsafeMutableBufferPointer { order in
        inOrder.withUnsafeMutableBufferPointer { inOrder in
          var count = 0
          for k in 0..<alive {
            let index = order[k].index
            let p = pieces[Int(index)]
            if p.y0 < ym && p.y1 > ym {
              order[count] = (p.x(at: ym), index)
              count += 1
            } else {
              inOrder[Int(index)] = false  // ended: the slabs go down
            }
          }
          for (i, p) in pieces.enumerated() where !inOrder[i] && p.y0 < ym && p.y1 > ym {
            order[count] = (p.x(at: ym), Int32(i))
            count += 1
            inOrder[i] = true
          }
          // Insertion sort by x, then index.
          var k = 1
          while k < count {
            let entry = order[k]
            var j = k
            while j > 0,
              order[j - 1].x > entry.x
                || (order[j - 1].x == entry.x && order[j - 1].index > entry.index)
            {
              order[j] = order[j - 1]
              j -= 1
            }
            order[j] = entry
            k += 1
          }
          return count
        }
      }
    }
    order.removeLast(order.count - count)
  }

  private mutating func depositSlab(_ ya: Float, _ yb: Float, rule: FillRule) {
    let ym = (ya + yb) / 2
    if pieces.count <= Self.sortedSlabPieces {
      order.removeAll(keepingCapacity: true)
      for (i, p) in pieces.enumerated() where p.y0 < ym && p.y1 > ym {
        order.append((p.x(at: ym), Int32(i)))
      }
      order.sort { $0.x < $1.x }  // stable: ties keep the index order
    } else {
      orderSlab(ym)
    }
    let height = yb - ya
    var winding: Int32 = 0
    var entering: Piece?
    for entry in order {
      let piece = pieces[Int(entry.index)]
      let wasInside = Self.inside(winding, rule)
      winding += piece.winding
      let isInside = Self.inside(winding, rule)
      if !wasInside, isInside {
        entering = piece
      } else if wasInside, !isInside, let left = entering {
        deposit(left, ya, yb, height)
        deposit(piece, ya, yb, -height)
        entering = nil
      }
    }
    // Edges right of the canvas were dropped: a run still open reaches past the right edge.
    if let left = entering { deposit(left, ya, yb, height) }
  }

  private mutating func deposit(_ piece: Piece, _ ya: Float, _ yb: Float, _ height: Float) {
    let width = Float(row.count - 2)
    let from = min(max(piece.x(at: ya), 0), width)
    let to = min(max(piece.x(at: yb), 0), width)
    let (first, last) = row.withUnsafeMutableBufferPointer { buffer in
      // `row` holds width + 2 cells: a piece deposits into cells ⌊min⌋ ... ⌈max⌉ ≤ width + 1.
      CoverageAccumulator.depositPiece(
        from: from, to: to, height: height, cells: buffer.baseAddress.unsafelyUnwrapped)
    }
    // The piece deposited into cells first ... last + 1.
    touchedLow = min(touchedLow, first)
    touchedHigh = max(touchedHigh, last + 2)
  }

  private static func inside(_ winding: Int32, _ rule: FillRule) -> Bool {
    rule == .nonzero ? winding != 0 : winding & 1 != 0
  }

  /// Sums the row into coverage runs for `sink`, and clears it. Only the touched cells are
  /// visited: before them the sum is 0, after them it is constant.
  private mutating func emit<Sink: CoverageSink>(width: Int, x0: Int, y: Int, into sink: inout Sink)
  {
    let low = min(touchedLow, width)
    let high = min(touchedHigh, row.count)
    var sum: Float = 0
    var runStart = low
    var runCoverage: UInt8 = 0
    var out = sink.row(y)
    for x in low..<max(low, high) {
      let cell = row[x]
      // Between the row's pieces most cells are empty: the sum, and so the coverage, stays.
      if cell == 0 { continue }
      sum += cell
      row[x] = 0
      guard x < width else { continue }
      let c = CoverageAccumulator.coverage(sum, .nonzero)
      if c != runCoverage {
        if runCoverage != 0 {
          out.span(x: x0 + runStart, count: x - runStart, coverage: runCoverage)
        }
        runStart = x
        runCoverage = c
      }
    }
    if runCoverage != 0 {
      out.span(x: x0 + runStart, count: width - runStart, coverage: runCoverage)
    }
    touchedLow = Int.max
    touchedHigh = 0
  }
}
