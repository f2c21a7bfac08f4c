/// Weighted median cut: start from one box holding every colour; repeatedly split the box with
/// the largest weighted squared error at the weighted median of its widest channel; each box's
/// weighted mean is a palette entry.
///
/// The boxes are ranges of one array of colour indices, sorted in place by a packed key
/// (channel value, colour, index) so the sort compares integers. A box keeps its sums (weight,
/// and per channel the weighted values and squares) as integers, exact, so the half below the
/// cut is summed while the median is found and the half above is the box minus it. The
/// statistics are computed from those sums as `MedianCutReference` computes them from its
/// members (the same floating-point operations on the same exact values), so both give the same
/// boxes; a test holds them to it.
enum MedianCut {
  /// A box: `members[start..<end]`, its integer sums and its squared error.
  private struct Box {
    var start: Int
    var end: Int
    var sums: Sums
    var error: Double
    /// The channel (0 = R, 1 = G, 2 = B) by which `keys[start..<end]` hold the members' keys
    /// in order, a part of a box sorted by it; -1 when none.
    var sortedBy = -1
  }

  /// Weight, weighted value and weighted square per channel (R, G, B), exact in 64 bits for any
  /// input the encoders make (weights below 2^33 in total).
  private struct Sums {
    var n = 0
    var r = 0, g = 0, b = 0
    var rr = 0, gg = 0, bb = 0

    @inline(__always)
    mutating func add(_ color: UInt32, weight w: Int) {
      let (cr, cg, cb) = (Int(color >> 16 & 0xFF), Int(color >> 8 & 0xFF), Int(color & 0xFF))
      n += w
      r += w * cr
      g += w * cg
      b += w * cb
      rr += w * cr * cr
      gg += w * cg * cg
      bb += w * cb * cb
    }

    static func - (a: Sums, b: Sums) -> Sums {
      Sums(
        n: a.n - b.n, r: a.r - b.r, g: a.g - b.g, b: a.b - b.b, rr: a.rr - b.rr,
        gg: a.gg - b.gg, bb: a.bb - b.bb)
    }

    /// The per-channel means, as the twin computes them.
    var mean: (Double, Double, Double) {
      let n = Double(self.n)
      return (Double(r) / n, Double(g) / n, Double(b) / n)
    }

    /// The summed variance (the box's squared error) and the channel with the largest (the first
    /// when equal: 0 = R, 1 = G, 2 = B).
    var errorAndWidest: (error: Double, widest: Int) {
      let n = Double(self.n)
      let (mr, mg, mb) = mean
      let variance = (
        Double(rr) - n * mr * mr, Double(gg) - n * mg * mg, Double(bb) - n * mb * mb
      )
      var widest = 0
      var largest = variance.0
      if variance.1 > largest { (widest, largest) = (1, variance.1) }
      if variance.2 > largest { widest = 2 }
      return (0 + variance.0 + variance.1 + variance.2, widest)
    }
  }

  /// The palette of `size` entries (fewer when the colours run out).
  static func palette(colors: [UInt32], counts: [Int], size: Int) -> [UInt32] {
    palettes(colors: colors, counts: counts, sizes: [size])[0]
  }

  /// The palette for each of `sizes`: one cut, its boxes taken as they stand when there are as
  /// many as each size asks (the cut to a size is the start of the cut to any larger one).
  static func palettes(colors: [UInt32], counts: [Int], sizes: [Int]) -> [[UInt32]] {
    cuts(colors: colors, counts: counts, sizes: sizes).map(\.palette)
  }

  /// A cut to some size: the palette (one entry a box) and, per colour, its box's entry (a
  /// good first guess at its nearest).
  struct Cut {
    var palette: [UInt32]
    var box: [Int]
  }

  /// `palettes(colors:counts:sizes:)` with each colour's box.
  static func cuts(colors: [UInt32], counts: [Int], sizes: [Int]) -> [Cut] {
    guard !colors.isEmpty, let largest = sizes.max() else {
      return sizes.map { _ in Cut(palette: [], box: []) }
    }
    var members = Array(0..<colors.count)
    var keys = [UInt64](repeating: 0, count: colors.count)
    var all = Sums()
    for (i, color) in colors.enumerated() { all.add(color, weight: counts[i]) }
    var boxes = [Box(start: 0, end: colors.count, sums: all, error: all.errorAndWidest.error)]
    var taken: [Int: Cut] = [:]
    func cut() -> Cut {
      var box = [Int](repeating: 0, count: colors.count)
      for (b, range) in boxes.enumerated() {
        for k in range.start..<range.end { box[members[k]] = b }
      }
      return Cut(palette: entries(boxes), box: box)
    }
    func take() {
      guard sizes.contains(boxes.count), taken[boxes.count] == nil else { return }
      taken[boxes.count] = cut()
    }
    take()
    while boxes.count < largest {
      var worst = 0
      for k in 1..<boxes.count where boxes[k].error > boxes[worst].error { worst = k }
      let box = boxes[worst]
      guard box.end - box.start > 1, box.error > 0 else { break }
      let widest = box.sums.errorAndWidest.widest
      // Sorted by (channel, colour): colours are distinct, so the order is total. A part of a
      // box sorted by the same channel is in that order already (its keys too).
      if box.sortedBy != widest {
        let shift = UInt32(16 - 8 * widest)
        for k in box.start..<box.end {
          let i = members[k]
          let color = colors[i]
          keys[k] = UInt64(color >> shift & 0xFF) << 56 | UInt64(color) << 32 | UInt64(i)
        }
        keys.withUnsafeMutableBufferPointer {
          var part = UnsafeMutableBufferPointer(rebasing: $0[box.start..<box.end])
          part.sort()
        }
        for k in box.start..<box.end { members[k] = Int(truncatingIfNeeded: keys[k] & 0xFFFF_FFFF) }
      }
      // The cut after the first member at which the weight below reaches half, but never after
      // the last member (then before it, where the loop stopped summing), and the sums below it.
      var lower = Sums()
      var cut = box.end - 1
      for k in box.start..<(box.end - 1) {
        let i = members[k]
        lower.add(colors[i], weight: counts[i])
        if lower.n * 2 >= box.sums.n {
          cut = k + 1
          break
        }
      }
      let upper = box.sums - lower
      boxes[worst] = Box(
        start: box.start, end: cut, sums: lower, error: lower.errorAndWidest.error,
        sortedBy: widest)
      boxes.append(
        Box(
          start: cut, end: box.end, sums: upper, error: upper.errorAndWidest.error,
          sortedBy: widest))
      take()
    }
    let rest = sizes.contains { taken[$0] == nil } ? cut() : nil
    return sizes.map { taken[$0] ?? rest ?? Cut(palette: [], box: []) }
  }

  /// Each box's mean, rounded, as 0xRRGGBB.
  private static func entries(_ boxes: [Box]) -> [UInt32] {
    boxes.map { box in
      let (r, g, b) = box.sums.mean
      func level(_ v: Double) -> UInt32 { UInt32(min(255, max(0, v.rounded()))) }
      return level(r) << 16 | level(g) << 8 | level(b)
    }
  }
}
