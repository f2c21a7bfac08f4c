import Raster

/// `Text.LineStyle.Pattern`: a solid line, or one of dots and dashes. Apple does not publish the
/// lengths; ours, in line thicknesses: a dot 1 on and 1.5 off, a dash 4 on and 2 off, and the
/// mixed patterns of those, restarting every period from the line's left end so that runs join.
public enum LinePattern: String, CaseIterable, Hashable, Sendable {
  case solid, dot, dash, dashDot, dashDotDot

  /// On and off lengths, in line thicknesses (empty: solid).
  var lengths: [Double] {
    switch self {
    case .solid: []
    case .dot: [1, 1.5]
    case .dash: [4, 2]
    case .dashDot: [4, 2, 1, 2]
    case .dashDotDot: [4, 2, 1, 2, 1, 2]
    }
  }

  /// The bar from `rect.minX` to `rect.maxX` cut into this pattern's dashes, their phase counted
  /// from x = 0 (the line's left end) in steps of `rect.height`.
  func pieces(of rect: Rect) -> [Rect] {
    let lengths = self.lengths.map { $0 * rect.height }
    let period = lengths.reduce(0, +)
    guard period > 0 else { return [rect] }
    var out: [Rect] = []
    var x = (rect.minX / period).rounded(.down) * period
    // Bounded: a line is at most a few thousand points, a dash at least a fraction of one.
    while x < rect.maxX, out.count < 100_000 {
      for (i, length) in lengths.enumerated() {
        defer { x += length }
        guard i % 2 == 0 else { continue }
        let a = max(x, rect.minX)
        let b = min(x + length, rect.maxX)
        if b > a { out.append(Rect(x: a, y: rect.minY, width: b - a, height: rect.height)) }
      }
    }
    return out
  }
}
