/// The nearest entry of a palette to colours (squared RGB distance; ties: the lower index).
///
/// Entries are sorted by the sum of their channels, r + g + b (the grey axis, along which UI
/// colours spread most: light and dark shades of a few hues); the search starts at the entry
/// nearest in that sum and walks outwards, stopping on each side once the sum's difference s
/// alone rules out the best distance d found: (Δr + Δg + Δb)² ≤ 3·(Δr² + Δg² + Δb²), so s² > 3d
/// means farther. That keeps it exact while looking at a few entries instead of all. A search
/// may start from a hint (an entry whose distance is the best so far) and may walk only some
/// of the entries (`init(_:among:)`): the Lloyd passes of `Quantizer` look only at the entries
/// that moved. `Quantizer.nearestByScan` is the plain twin.
struct PaletteSearch {
  typealias RGB = UInt32
  /// The palette as given.
  let palette: [RGB]
  /// The palette indices walked, in order of channel sum (then index), their colours and sums.
  let order: [Int]
  let sorted: [RGB]
  let sums: [Int]
  /// For each channel sum 0...765, the first position in `sorted` whose sum is at least it.
  let start: [Int]

  /// r + g + b of a 0xRRGGBB colour.
  @inline(__always)
  static func sum(_ color: RGB) -> Int {
    Int(color >> 16 & 0xFF) + Int(color >> 8 & 0xFF) + Int(color & 0xFF)
  }

  /// A search among every entry of `palette`, or only those in `entries`.
  init(_ palette: [RGB], among entries: [Int]? = nil) {
    self.palette = palette
    var list = entries ?? Array(palette.indices)
    if zip(list, list.dropFirst()).contains(where: { $0 >= $1 }) { list.sort() }
    // A counting sort by channel sum, stable: entries of one sum stay in index order.
    var next = [Int](repeating: 0, count: 767)
    for e in list { next[Self.sum(palette[e]) + 1] += 1 }
    for level in 1..<767 { next[level] += next[level - 1] }
    var order = [Int](repeating: 0, count: list.count)
    for e in list {
      let level = Self.sum(palette[e])
      order[next[level]] = e
      next[level] += 1
    }
    self.order = order
    sorted = order.map { palette[$0] }
    sums = sorted.map(Self.sum)
    var start = [Int](repeating: sums.count, count: 767)
    var k = sums.count
    for level in stride(from: 765, through: 0, by: -1) {
      while k > 0 && sums[k - 1] >= level { k -= 1 }
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
        sums.withUnsafeBufferPointer { sums in
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
                      color, order: order, sorted: sorted, sums: sums,
                      low: start[Self.sum(color)], best: best, bestDistance: bestDistance)
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
  /// the first position with channel sum at least the colour's), starting from `best` at
  /// `bestDistance` (-1 and Int.max: none yet).
  @inline(__always)
  private static func nearest(
    _ color: RGB, order: UnsafeBufferPointer<Int>, sorted: UnsafeBufferPointer<RGB>,
    sums: UnsafeBufferPointer<Int>, low: Int, best: Int, bestDistance: Int
  ) -> Int {
    var best = best
    var bestDistance = bestDistance
    let key = Self.sum(color)
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
    // ⌊s² / 3⌋ > d implies s² / 3 > d, and unlike 3d it cannot overflow (d starts at Int.max).
    while up < sums.count || down >= 0 {
      if up < sums.count {
        let ds = sums[up] - key
        if ds * ds / 3 > bestDistance {
          up = sums.count
        } else {
          consider(up)
          up += 1
        }
      }
      if down >= 0 {
        let ds = key - sums[down]
        if ds * ds / 3 > bestDistance {
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
