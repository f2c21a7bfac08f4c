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
    var low = Float.infinity
    var high = -Float.infinity
    for l in lines[first...last] {
      for y in [max(min(l.y0, l.y1), top), min(max(l.y0, l.y1), bottom)] {
        let x = l.y0 == l.y1 ? l.x0 : l.x0 + (y - l.y0) * (l.x1 - l.x0) / (l.y1 - l.y0)
        low = min(low, x)
        high = max(high, x)
      }
    }
    // The pixels the chain covers in this row; another line matters only if it enters them.
    low = low.rounded(.down)
    high = high.rounded(.up)
    for index in active where index < first || index > last {
      let l = lines[Int(index)]
      guard min(l.y0, l.y1) < bottom, max(l.y0, l.y1) > top else { continue }
      if max(l.x0, l.x1) > low, min(l.x0, l.x1) < high { return true }
    }
    return false
  }

}
