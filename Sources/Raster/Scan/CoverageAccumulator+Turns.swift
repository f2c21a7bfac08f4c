// Finding the rows whose summed areas would be wrong near a vertical turn of the outline: a
// sibling of the accumulation kernel (safe code; it reads lines only).

extension CoverageAccumulator {
  /// Whether another part of the outline passes through the pixels of `turn`'s row where the
  /// turn makes the winding change part-way down the row: the x-range, within the row, of the
  /// chain of lines through the turn. Only then can the summed area be wrong there.
  static func turnMeetsOtherEdges(
    _ turn: FlattenedPath.Turn, _ lines: [Line], _ active: [Int32]
  ) -> Bool {
    guard lines.count > 1 else { return false }
    let top = turn.y.rounded(.down)
    let bottom = top + 1
    func inRow(_ y: Float) -> Bool { y > top && y < bottom }
    /// Joined end to start, directly or across a dropped horizontal edge.
    func joined(_ a: Line, _ b: Line) -> Bool { a.y1 == b.y0 && (a.x1 == b.x0 || inRow(a.y1)) }
    var first = min(max(turn.line, 1), lines.count - 1) - 1
    var last = first + 1
    while first > 0, inRow(lines[first].y0), joined(lines[first - 1], lines[first]) { first -= 1 }
    while last + 1 < lines.count, inRow(lines[last].y1), joined(lines[last], lines[last + 1]) {
      last += 1
    }
    // The pixels the chain covers in this row; another line matters only if it enters them.
    let (low, high) = chainPixels(lines, first, last, top: top)
    for index in active where index < first || index > last {
      let l = lines[Int(index)]
      guard min(l.y0, l.y1) < bottom, max(l.y0, l.y1) > top else { continue }
      if max(l.x0, l.x1) > low, min(l.x0, l.x1) < high { return true }
    }
    return false
  }

  /// ⌊lowest⌋ and ⌈highest⌉ x of `lines[first...last]` within the row from `top` to `top` + 1.
  static func chainPixels(_ lines: [Line], _ first: Int, _ last: Int, top: Float) -> (Float, Float)
  {
    let bottom = top + 1
    var low = Float.infinity
    var high = -Float.infinity
    func include(_ l: Line, _ y: Float) {
      let x = l.y0 == l.y1 ? l.x0 : l.x0 + (y - l.y0) * (l.x1 - l.x0) / (l.y1 - l.y0)
      low = min(low, x)
      high = max(high, x)
    }
    for l in lines[first...last] {
      include(l, max(min(l.y0, l.y1), top))
      include(l, min(max(l.y0, l.y1), bottom))
    }
    return (low.rounded(.down), high.rounded(.up))
  }
}

/// Decides, for the vertical turns reaching one band, which rows `turnMeetsOtherEdges` marks, in
/// time near-linear in the turns and lines. A row already marked needs no test; a band with few
/// turns left tests them one by one. Otherwise each row with turns is done at once: the lines
/// through the row, sorted by their lowest and highest x, count those that enter the pixels of a
/// turn's chain by binary search, and the chain's own lines are taken off that count. Chains are
/// runs of joined lines, each walked once per row. Keeps its scratch between calls.
struct TurnRowIndex: Sendable {
  /// Bands with at most this many turns in unmarked rows test them one by one.
  static let directTests = 4

  private var lows: [Float] = []
  private var highs: [Float] = []
  /// The x of the vertical lines among them (lowest x = highest x).
  private var verticals: [Float] = []
  private var chainLines: [Int] = []

  /// `marked` with the band rows added in which some turn meets other edges (rows relative to the
  /// band, as `1 << (row % bandRows)`); `turns` are the band's, grouped by row from the top down
  /// (within a row, in any order: the answer is whether any of them meets other edges).
  mutating func mark(
    _ turns: ArraySlice<FlattenedPath.Turn>, lines: [Line], active: [Int32], regionMinY: Int,
    marked: UInt32, directTests: Int = Self.directTests
  ) -> UInt32 {
    var marked = marked
    func bit(_ turn: FlattenedPath.Turn) -> UInt32 {
      1 << ((Int(turn.y) - regionMinY) % CoverageAccumulator.bandRows)
    }
    var left = 0
    for turn in turns where marked & bit(turn) == 0 { left += 1 }
    if left <= directTests {
      for turn in turns where marked & bit(turn) == 0 {
        if CoverageAccumulator.turnMeetsOtherEdges(turn, lines, active) { marked |= bit(turn) }
      }
      return marked
    }
    var start = turns.startIndex
    while start < turns.endIndex {
      let row = Int(turns[start].y)
      var end = start + 1
      while end < turns.endIndex, Int(turns[end].y) == row { end += 1 }
      if marked & bit(turns[start]) == 0, rowMeetsOtherEdges(turns[start..<end], lines, active) {
        marked |= bit(turns[start])
      }
      start = end
    }
    return marked
  }

  /// Whether `turnMeetsOtherEdges` holds for any of `turns`, all in one pixel row.
  private mutating func rowMeetsOtherEdges(
    _ turns: ArraySlice<FlattenedPath.Turn>, _ lines: [Line], _ active: [Int32]
  ) -> Bool {
    guard lines.count > 1, let firstTurn = turns.first else { return false }
    let top = firstTurn.y.rounded(.down)
    let bottom = top + 1
    func inRow(_ y: Float) -> Bool { y > top && y < bottom }
    func throughRow(_ l: Line) -> Bool { min(l.y0, l.y1) < bottom && max(l.y0, l.y1) > top }
    /// Whether line `k` continues line `k - 1` inside the row (`turnMeetsOtherEdges`' joins).
    func link(_ k: Int) -> Bool {
      let a = lines[k - 1]
      let b = lines[k]
      return inRow(b.y0) && a.y1 == b.y0 && (a.x1 == b.x0 || inRow(a.y1))
    }
    // The lines through the row (all of them are active), by lowest and by highest x.
    lows.removeAll(keepingCapacity: true)
    highs.removeAll(keepingCapacity: true)
    verticals.removeAll(keepingCapacity: true)
    for index in active {
      let l = lines[Int(index)]
      guard throughRow(l) else { continue }
      let low = min(l.x0, l.x1)
      let high = max(l.x0, l.x1)
      lows.append(low)
      highs.append(high)
      if low == high { verticals.append(low) }
    }
    lows.sort()
    highs.sort()
    verticals.sort()
    // Lines with max x > low and min x < high: those with min x < high, less those with
    // max x ≤ low (their min x is below high too, unless both equal low = high: a vertical line
    // there).
    func entering(_ low: Float, _ high: Float) -> Int {
      var count = Self.countBelow(lows, high) - Self.countNotAbove(highs, low)
      if low == high {
        count += Self.countNotAbove(verticals, low) - Self.countBelow(verticals, low)
      }
      return count
    }
    chainLines.removeAll(keepingCapacity: true)
    for turn in turns { chainLines.append(min(max(turn.line, 1), lines.count - 1)) }
    chainLines.sort()
    var previousLine = -1
    // The last run of joined lines walked: runs partition the lines, and the turns come in order.
    var run = (first: -1, last: -1)
    func runAround(_ k: Int) -> (first: Int, last: Int) {
      if run.first <= k, k <= run.last { return run }
      var first = k
      while first > 0, link(first) { first -= 1 }
      var last = k
      while last + 1 < lines.count, link(last + 1) { last += 1 }
      run = (first, last)
      return run
    }
    var chain = (first: -1, last: -1)
    for line in chainLines where line != previousLine {
      previousLine = line
      let first = runAround(line - 1).first
      let last = runAround(line).last
      if first == chain.first, last == chain.last { continue }
      chain = (first, last)
      let (low, high) = CoverageAccumulator.chainPixels(lines, first, last, top: top)
      var own = 0
      for l in lines[first...last] where throughRow(l) {
        if max(l.x0, l.x1) > low, min(l.x0, l.x1) < high { own += 1 }
      }
      if entering(low, high) > own { return true }
    }
    return false
  }

  /// The number of elements of sorted `values` below `v`.
  private static func countBelow(_ values: [Float], _ v: Float) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let mid = (low + high) / 2
      if values[mid] < v { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The number of elements of sorted `values` at most `v`.
  private static func countNotAbove(_ values: [Float], _ v: Float) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let mid = (low + high) / 2
      if values[mid] <= v { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
