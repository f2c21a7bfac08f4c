/// The nearest entry of a palette to colours (squared RGB distance; ties: the lower index).
///
/// Entries are sorted by their green channel; the search starts at the entry nearest in green
/// and walks outwards, stopping on each side once the green difference alone exceeds the best
/// distance found, which keeps it exact while looking at a few entries instead of all. A search
/// may start from a hint (an entry whose distance is the best so far) and may walk only some
/// of the entries (`init(_:among:)`): the Lloyd passes of `Quantizer` look only at the entries
/// that moved. `Quantizer.nearestByScan` is the plain twin.
struct PaletteSearch {
  typealias RGB = UInt32
  /// The palette as given.
  let palette: [RGB]
  /// The palette indices walked, in order of green (then index), their colours and their greens.
  let order: [Int]
  let sorted: [RGB]
  let greens: [Int]
  /// For each green level, the first position in `sorted` whose green is at least it.
  let start: [Int]

  /// A search among every entry of `palette`, or only those in `entries`.
  init(_ palette: [RGB], among entries: [Int]? = nil) {
    self.palette = palette
    order = (entries ?? Array(palette.indices)).sorted {
      let (a, b) = (palette[$0] >> 8 & 0xFF, palette[$1] >> 8 & 0xFF)
      return a != b ? a < b : $0 < $1
    }
    sorted = order.map { palette[$0] }
    greens = sorted.map { Int($0 >> 8 & 0xFF) }
    var start = [Int](repeating: greens.count, count: 257)
    var k = greens.count
    for level in stride(from: 255, through: 0, by: -1) {
      while k > 0 && greens[k - 1] >= level { k -= 1 }
      start[level] = k
    }
    self.start = start
  }

  /// For each colour `colors[c]`, c in `which`: its nearest entry into `assignment[c]`, which,
  /// when a valid index, is where the search starts (a hint, kept unless a walked entry is
  /// nearer, or as near with a lower index).
  func search(_ colors: [RGB], _ which: [Int], assignment: inout [Int]) {
    guard !palette.isEmpty else { return }
    order.withUnsafeBufferPointer { order in
      sorted.withUnsafeBufferPointer { sorted in
        greens.withUnsafeBufferPointer { greens in
          start.withUnsafeBufferPointer { start in
            palette.withUnsafeBufferPointer { palette in
              colors.withUnsafeBufferPointer { colors in
                assignment.withUnsafeMutableBufferPointer { assignment in
                  for c in which {
                    let color = colors[c]
                    var best = -1
                    var bestDistance = Int.max
                    let hint = assignment[c]
                    if hint >= 0, hint < palette.count {
                      best = hint
                      bestDistance = Quantizer.distance(color, palette[best])
                    }
                    assignment[c] = Self.nearest(
                      color, order: order, sorted: sorted, greens: greens,
                      low: start[Int(color >> 8 & 0xFF)], best: best, bestDistance: bestDistance)
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// One colour's nearest entry among `sorted` (`order` maps back to palette indices; `low` is
  /// the first position with green at least the colour's), starting from `best` at
  /// `bestDistance` (-1 and Int.max: none yet).
  @inline(__always)
  private static func nearest(
    _ color: RGB, order: UnsafeBufferPointer<Int>, sorted: UnsafeBufferPointer<RGB>,
    greens: UnsafeBufferPointer<Int>, low: Int, best: Int, bestDistance: Int
  ) -> Int {
    var best = best
    var bestDistance = bestDistance
    let g = Int(color >> 8 & 0xFF)
    @inline(__always) func consider(_ k: Int) {
      let index = order[k]
      guard index != best else { return }
      let d = Quantizer.distance(color, sorted[k])
      if d < bestDistance || (d == bestDistance && index < best) {
        bestDistance = d
        best = index
      }
    }
    var up = low
    var down = low - 1
    while up < greens.count || down >= 0 {
      if up < greens.count {
        let dg = greens[up] - g
        if dg * dg > bestDistance {
          up = greens.count
        } else {
          consider(up)
          up += 1
        }
      }
      if down >= 0 {
        let dg = g - greens[down]
        if dg * dg > bestDistance {
          down = -1
        } else {
          consider(down)
          down -= 1
        }
      }
    }
    return best
  }
}
