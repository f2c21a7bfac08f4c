// Exact coverage for the rows where summing signed areas is not enough: rows in which two
// unconnected edges share a pixel (self-intersections, overlapping subpaths). A sibling of the
// accumulation kernel, sharing its `depositPiece`.
//
// The row is cut into horizontal slabs at every end point and every crossing of its edges, so no
// two edges cross inside a slab. In a slab the edges are sorted by x and walked left to right
// with their winding; each inside run, from the edge where the fill rule turns inside to the one
// where it turns outside, is a trapezoid whose exact area per pixel is deposited (its left edge
// with +height, its right edge with −height). The sum along the row is then the exact covered
// area of each pixel, for either rule and any overlap. The deposits go into the row's own cells
// in the band, cleared first, with their touched bits: the sweep then sends the row as any other
// (with the nonzero rule, since its sums are coverages already).
//
// Invariant for the raw pointers: as for the deposit (`BandLayout.assertFits`); a piece is
// clamped to 0...width, so it writes cells 0 ... width + 1 of its row. The crossings of a row's
// pieces are found by `csk_row_crossings` (CScanKernels), four pairs at a time, into room for
// every pair; `crossingsPlainly` is its twin.

import CScanKernels

extension CoverageAccumulator {
  /// Replaces the summed areas of band row `bandRow` (of a region `width` pixels wide) by the
  /// exact coverage of the row `exactRows.prepare` cut last.
  mutating func resolveExactly(bandRow: Int, layout: BandLayout, width: Int, rule: FillRule) {
    cells.withUnsafeMutableBufferPointer { cellBuffer in
      owners.withUnsafeMutableBufferPointer { ownerBuffer in
        touched.withUnsafeMutableBufferPointer { bitBuffer in
          guard let cellBase = cellBuffer.baseAddress, let bitBase = bitBuffer.baseAddress,
            let ownerBase = ownerBuffer.baseAddress
          else { return }
          layout.assertFits(
            cells: cellBuffer.count, owners: ownerBuffer.count, touched: bitBase,
            touchedWords: bitBuffer.count)
          assert(bandRow >= 0 && bandRow < layout.rowEnd - layout.rowStart)
          let cells = cellBase + bandRow * layout.stride
          let bits = bitBase + bandRow * layout.wordsPerRow
          Self.clearRow(
            cells: cells, owners: ownerBase + bandRow * layout.stride, bits: bits,
            words: layout.cellWords)
          assert(width + 2 <= layout.stride)
          exactRows.resolve(rule: rule, width: width, cells: cells, bits: bits)
        }
      }
    }
  }
}

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

  /// A line's part within the row: its upper end, dx/dy, its lower end's y and its winding (the
  /// layout of `csk_piece`).
  struct Piece {
    var x0: Float, y0: Float, dxdy: Float, y1: Float, winding: Int32

    func x(at y: Float) -> Float { x0 + (y - y0) * dxdy }
  }

  /// Whether `collectEvents` finds the crossings with `csk_row_crossings` rather than
  /// `crossingsPlainly`, its twin (the same heights; tests compare the two).
  var findsCrossingsInC = true

  private var remainingPairs = 0
  private var remainingSlabs = 0
  private var pieces: [Piece] = []
  private var events: [Float] = []
  private var order: [(x: Float, index: Int32)] = []
  /// Per piece, whether it is in `order`.
  private var inOrder: [Bool] = []

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

  /// The cells of a row `width` pixels wide (`width` + 2 cells, all zero) and its touched bits,
  /// for `resolve`.
  struct Target {
    let cells: UnsafeMutablePointer<Float>
    let bits: UnsafeMutablePointer<UInt64>
    let width: Float
  }

  /// Deposits the exact coverage of the row `prepare` cut last into `cells` (`width` + 2 of
  /// them, zero) and sets the touched bits of the cells it reaches in `bits`: summed along the
  /// row, the cells give each pixel's covered area.
  mutating func resolve(
    rule: FillRule, width: Int, cells: UnsafeMutablePointer<Float>,
    bits: UnsafeMutablePointer<UInt64>
  ) {
    let target = Target(cells: cells, bits: bits, width: Float(width))
    order.removeAll(keepingCapacity: true)
    inOrder.removeAll(keepingCapacity: true)
    inOrder.append(contentsOf: repeatElement(false, count: pieces.count))
    for slab in 0..<(events.count - 1) {
      let ya = events[slab]
      let yb = events[slab + 1]
      if yb - ya > 1e-6 { depositSlab(ya, yb, rule: rule, into: target) }
    }
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
    guard findsCrossingsInC else {
      events.append(contentsOf: Self.crossingsPlainly(pieces, top: top, bottom: bottom))
      return
    }
    // Room for every pair, cut back to the crossings found.
    let start = events.count
    let room = pieces.count * (pieces.count - 1) / 2
    events.append(contentsOf: repeatElement(0, count: room))
    let found = pieces.withUnsafeBufferPointer { pieces in
      events.withUnsafeMutableBufferPointer { events in
        guard let piecesBase = pieces.baseAddress, let eventsBase = events.baseAddress else {
          return 0
        }
        return piecesBase.withMemoryRebound(to: csk_piece.self, capacity: pieces.count) {
          csk_row_crossings($0, pieces.count, top, bottom, eventsBase + start)
        }
      }
    }
    events.removeLast(room - found)
  }

  /// The heights strictly inside the row from `top` to `bottom` where two pieces' lines cross
  /// within the part of the row both span, pair by pair (i < j) in order: `csk_row_crossings`'
  /// plain twin.
  static func crossingsPlainly(_ pieces: [Piece], top: Float, bottom: Float) -> [Float] {
    var crossings: [Float] = []
    for i in pieces.indices {
      let p = pieces[i]
      for j in (i + 1)..<pieces.count {
        let q = pieces[j]
        let lo = max(max(p.y0, q.y0), top)
        let hi = min(min(p.y1, q.y1), bottom)
        guard lo < hi, p.dxdy != q.dxdy else { continue }
        // x_p(y) = x_q(y)
        let y = (q.x0 - q.y0 * q.dxdy - p.x0 + p.y0 * p.dxdy) / (p.dxdy - q.dxdy)
        if y > lo, y < hi { crossings.append(y) }
      }
    }
    return crossings
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

  private mutating func depositSlab(
    _ ya: Float, _ yb: Float, rule: FillRule, into target: Target
  ) {
    let ym = (ya + yb) / 2
    if pieces.count <= Self.sortedSlabPieces {
      order.removeAll(keepingCapacity: true)
      for (i, p) in pieces.enumerated() where p.y0 < ym && p.y1 > ym {
        order.append((p.x(at: ym), Int32(i)))
      }
      // By x, ties in index order (the order of a stable sort by x): an insertion sort, since
      // the slab's pieces are few.
      order.withUnsafeMutableBufferPointer { order in
        var k = 1
        while k < order.count {
          let entry = order[k]
          var j = k
          while j > 0, order[j - 1].x > entry.x {
            order[j] = order[j - 1]
            j -= 1
          }
          order[j] = entry
          k += 1
        }
      }
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
        Self.deposit(left, ya, yb, height, into: target)
        Self.deposit(piece, ya, yb, -height, into: target)
        entering = nil
      }
    }
    // Edges right of the canvas were dropped: a run still open reaches past the right edge.
    if let left = entering { Self.deposit(left, ya, yb, height, into: target) }
  }

  private static func deposit(
    _ piece: Piece, _ ya: Float, _ yb: Float, _ height: Float, into target: Target
  ) {
    let width = target.width
    let from = min(max(piece.x(at: ya), 0), width)
    let to = min(max(piece.x(at: yb), 0), width)
    // Cells ⌊min⌋ ... ⌈max⌉ ≤ width + 1.
    let (first, last) = CoverageAccumulator.depositPiece(
      from: from, to: to, height: height, cells: target.cells)
    CoverageAccumulator.markTouched(first, last + 1, target.bits)
  }

  private static func inside(_ winding: Int32, _ rule: FillRule) -> Bool {
    rule == .nonzero ? winding != 0 : winding & 1 != 0
  }
}
