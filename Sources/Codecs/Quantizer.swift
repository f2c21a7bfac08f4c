/// Chooses at most `maximumColors` colours for a set of RGB pixels and maps each pixel to the
/// nearest one. Deterministic: the same pixels always give the same palette and indices.
///
/// Colours are counted exactly first (UI frames repeat few colours); when they fit, the palette is
/// exact. Otherwise a weighted median cut splits the colour cube along the widest channel of the
/// box with the most squared error, and Lloyd (k-means) passes over the distinct colours refine
/// the centres. Each distinct colour is mapped once, to its nearest centre.
public struct Quantizer: Sendable {
  /// RGB packed as 0xRRGGBB.
  public typealias RGB = UInt32

  public struct Result: Sendable {
    /// The palette, 0xRRGGBB each.
    public var palette: [RGB]
    /// For each input pixel, its palette index.
    public var indices: [UInt8]
  }

  public var maximumColors: Int
  /// Lloyd refinement passes after the median cut.
  public var refinementPasses: Int

  public init(maximumColors: Int = 255, refinementPasses: Int = 6) {
    self.maximumColors = max(1, min(256, maximumColors))
    self.refinementPasses = refinementPasses
  }

  public func quantize(_ pixels: [RGB]) -> Result {
    let histogram = ColorHistogram(pixels)
    let (palette, assignment) = choose(histogram.colors, counts: histogram.counts)
    let table = assignment.map { UInt8(truncatingIfNeeded: $0) }
    return Result(palette: palette, indices: histogram.pixelColors.map { table[Int($0)] })
  }

  /// A palette for distinct `colors` seen `counts` times; `indices` maps each colour to its entry.
  public func quantize(_ colors: [RGB], counts: [Int]) -> Result {
    let (palette, assignment) = choose(colors, counts: counts)
    return Result(palette: palette, indices: assignment.map { UInt8(truncatingIfNeeded: $0) })
  }

  /// A palette of at most each of `sizes` colours for the same distinct `colors`: what
  /// `quantize(_:counts:)` gives with `maximumColors` set to each size, from one median cut.
  public func quantize(_ colors: [RGB], counts: [Int], sizes: [Int]) -> [Result] {
    let sizes = sizes.map { max(1, min(256, $0)) }
    let cut = sizes.filter { colors.count > $0 }
    let starts = MedianCut.cuts(colors: colors, counts: counts, sizes: cut)
    var start: [Int: MedianCut.Cut] = [:]
    for (size, palette) in zip(cut, starts) { start[size] = palette }
    return sizes.map { size in
      let (palette, assignment) = refine(colors, counts: counts, start: start[size])
      return Result(palette: palette, indices: assignment.map { UInt8(truncatingIfNeeded: $0) })
    }
  }

  private func choose(_ colors: [RGB], counts: [Int]) -> (palette: [RGB], assignment: [Int]) {
    let start =
      colors.count <= maximumColors
      ? nil : MedianCut.cuts(colors: colors, counts: counts, sizes: [maximumColors]).first
    return refine(colors, counts: counts, start: start)
  }

  /// The colours themselves when `start` is nil (they fit); else the Lloyd passes from the cut's
  /// palette (each colour's box the first guess at its nearest entry).
  private func refine(
    _ colors: [RGB], counts: [Int], start: MedianCut.Cut?
  ) -> (
    palette: [RGB], assignment: [Int]
  ) {
    guard let start, !start.palette.isEmpty else { return (colors, Array(colors.indices)) }
    var palette = start.palette
    var assignment =
      start.box.count == colors.count ? start.box : [Int](repeating: -1, count: colors.count)
    PaletteSearch(palette).search(colors, Array(colors.indices), assignment: &assignment)
    var moved = [Bool](repeating: false, count: palette.count)
    var own: [Int] = []
    var others: [Int] = []
    for _ in 0..<refinementPasses {
      let next = Self.centroids(
        colors: colors, counts: counts, assignment: assignment, previous: palette)
      // Only the entries that moved can change a colour's nearest: a colour whose own entry
      // stayed (nearest, lowest index on ties, among those that stayed) looks only at them;
      // one whose own entry moved searches them all.
      var movers: [Int] = []
      for e in palette.indices {
        moved[e] = next[e] != palette[e]
        if moved[e] { movers.append(e) }
      }
      guard !movers.isEmpty else { break }  // the passes left change nothing
      palette = next
      own.removeAll(keepingCapacity: true)
      others.removeAll(keepingCapacity: true)
      for c in colors.indices {
        if moved[assignment[c]] { own.append(c) } else { others.append(c) }
      }
      PaletteSearch(palette).search(colors, own, assignment: &assignment)
      PaletteSearch(palette, among: movers).search(colors, others, assignment: &assignment)
    }
    return (palette, assignment)
  }

  // MARK: - Refinement

  static func distance(_ a: RGB, _ b: RGB) -> Int {
    let dr = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
    let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
    let db = Int(a & 0xFF) - Int(b & 0xFF)
    return dr * dr + dg * dg + db * db
  }

  /// The index of the nearest palette entry for every colour (ties: the lower index), by
  /// `PaletteSearch`.
  ///
  /// `hints`, when given, holds an entry for each colour (say its nearest in a palette close to
  /// this one): the search starts with that entry's distance as the best, so it stops sooner;
  /// the answer is the same. (The Lloyd passes call `PaletteSearch` with their own hints.)
  static func nearest(_ colors: [RGB], in palette: [RGB], hints: [Int]? = nil) -> [Int] {
    guard !palette.isEmpty else { return [Int](repeating: -1, count: colors.count) }
    var result = hints ?? [Int](repeating: -1, count: colors.count)
    if result.count != colors.count { result = [Int](repeating: -1, count: colors.count) }
    PaletteSearch(palette).search(colors, Array(colors.indices), assignment: &result)
    return result
  }

  /// The nearest entry by trying every one: the scalar twin `nearest` is tested against.
  static func nearestByScan(_ colors: [RGB], in palette: [RGB]) -> [Int] {
    colors.map { color in
      var best = 0
      var bestDistance = Int.max
      for (i, entry) in palette.enumerated() {
        let d = distance(color, entry)
        if d < bestDistance {
          bestDistance = d
          best = i
        }
      }
      return best
    }
  }

  /// Each centre moved to the weighted mean of its colours (kept where it has none).
  static func centroids(colors: [RGB], counts: [Int], assignment: [Int], previous: [RGB]) -> [RGB] {
    var sums = [(r: Int, g: Int, b: Int, n: Int)](repeating: (0, 0, 0, 0), count: previous.count)
    for (i, color) in colors.enumerated() {
      let k = assignment[i]
      let n = counts[i]
      sums[k].r += Int(color >> 16 & 0xFF) * n
      sums[k].g += Int(color >> 8 & 0xFF) * n
      sums[k].b += Int(color & 0xFF) * n
      sums[k].n += n
    }
    return sums.enumerated().map { k, s in
      guard s.n > 0 else { return previous[k] }
      let r = RGB((s.r + s.n / 2) / s.n)
      let g = RGB((s.g + s.n / 2) / s.n)
      let b = RGB((s.b + s.n / 2) / s.n)
      return r << 16 | g << 8 | b
    }
  }
}

/// Exact colour counts in an open-addressing table, colours in order of first appearance.
struct ColorHistogram {
  private(set) var colors: [UInt32] = []
  /// Each colour's count, in the order of `colors`.
  var counts: [Int] {
    guard pending > 0 else { return counted }
    var all = counted
    all[Int(last.slot)] += pending
    return all
  }
  /// The counts but for the `pending` pixels of the last colour added (`last`): a run of one
  /// colour costs no array write a pixel.
  private var counted: [Int] = []
  private var last = Run()
  private var pending = 0
  /// For each pixel, the index of its colour in `colors` (empty unless recorded).
  private(set) var pixelColors: [Int32] = []
  private var keys: [UInt32]
  private var slots: [Int32]

  /// An empty histogram; the hash table starts small and doubles as colours arrive, so a frame
  /// of few colours costs little whatever its size.
  init() {
    keys = [UInt32](repeating: 0, count: 1024)
    slots = [Int32](repeating: -1, count: 1024)
  }

  /// Counts `pixels` (0xRRGGBB); `recordingPixels` also keeps each pixel's colour index.
  init(_ pixels: [UInt32], recordingPixels: Bool = true) {
    self.init()
    if recordingPixels { pixelColors.reserveCapacity(pixels.count) }
    for pixel in pixels {
      let slot = add(pixel)
      if recordingPixels { pixelColors.append(slot) }
    }
  }

  /// A colour and its slot, the last one looked up: runs of one colour are the rule in UI frames.
  struct Run {
    var color: UInt32 = 0
    var slot: Int32 = -1
  }

  /// Counts one more pixel of `color`; returns its colour index. A pixel of the last colour
  /// added only adds to `pending`.
  @inline(__always) @discardableResult
  mutating func add(_ color: UInt32) -> Int32 {
    if color == last.color, last.slot >= 0 {
      pending += 1
      return last.slot
    }
    if pending > 0 {
      counted[Int(last.slot)] += pending
      pending = 0
    }
    let slot = add(color, count: 1)
    last = Run(color: color, slot: slot)
    return slot
  }

  /// Counts `count` more pixels of `color`; returns its colour index.
  @inline(__always) @discardableResult
  mutating func add(_ color: UInt32, count: Int) -> Int32 {
    var position = find(color)
    if slots[position] < 0 {
      if colors.count * 2 >= keys.count {
        grow()
        position = find(color)
      }
      keys[position] = color
      slots[position] = Int32(colors.count)
      colors.append(color)
      counted.append(count)
    } else {
      counted[Int(slots[position])] += count
    }
    return slots[position]
  }

  /// The index of `color`, which must have been added; `run` caches the last lookup.
  @inline(__always)
  func index(of color: UInt32, run: inout Run) -> Int32 {
    if color == run.color, run.slot >= 0 { return run.slot }
    run = Run(color: color, slot: slots[find(color)])
    return run.slot
  }

  private func find(_ key: UInt32) -> Int {
    var h = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & (keys.count - 1)
    while slots[h] >= 0 && keys[h] != key { h = (h + 1) & (keys.count - 1) }
    return h
  }

  private mutating func grow() {
    let old = colors
    keys = [UInt32](repeating: 0, count: keys.count * 2)
    slots = [Int32](repeating: -1, count: keys.count)
    for (i, color) in old.enumerated() {
      let at = find(color)
      keys[at] = color
      slots[at] = Int32(i)
    }
  }
}
