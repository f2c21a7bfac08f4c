extension Path {
  /// The path mapped through `transform` (exact for lines and Bézier curves); nil if a point
  /// leaves the finite range.
  public func applying(_ transform: Transform) -> Path? {
    guard transform != .identity else { return self }
    var builder = PathBuilder()
    for element in elements {
      switch element {
      case .move(let p): builder.move(to: transform.apply(p))
      case .line(let p): builder.line(to: transform.apply(p))
      case .quad(let c, let p): builder.quad(to: transform.apply(p), control: transform.apply(c))
      case .cubic(let c1, let c2, let p):
        builder.cubic(
          to: transform.apply(p), control1: transform.apply(c1), control2: transform.apply(c2))
      case .close: builder.close()
      }
    }
    return builder.build()
  }

  /// The part of the path between fractions `from` and `to` of its length, as SwiftUI's
  /// `Path.trimmedPath(from:to:)` and `Shape.trim(from:to:)` give it: the fractions are clamped
  /// to 0...1 and measure the whole path (every subpath, a `close` counting as its line), in
  /// the order it is drawn. Curves stay curves, cut where their arc length reaches the
  /// fraction. A subpath wholly inside the range keeps its `close` (its joins are drawn); a cut
  /// one becomes open. Empty when `to` ≤ `from`; the path itself for 0...1.
  public func trimmed(from: Double, to: Double) -> Path {
    let (start, end) = (min(max(from, 0), 1), min(max(to, 0), 1))
    guard end > start, !isEmpty else { return .empty }
    if start == 0, end == 1 { return self }
    let pieces = PathPieces(self)
    let total = pieces.totalLength
    guard total > 0, total.isFinite else { return start == 0 ? self : .empty }
    return pieces.between(start * total, end * total)
  }
}

/// A path as a list of measured pieces (lines and cubics, a close as its line), for trimming.
struct PathPieces {
  struct Piece {
    /// The cubic's four points (a line: its ends repeated as controls at thirds).
    var p0, p1, p2, p3: Point
    var isLine: Bool
    /// The closing line of its subpath.
    var isClose: Bool
    /// Index of its subpath.
    var subpath: Int
    var length: Double
    /// Length of the path before this piece.
    var offset: Double
  }

  var pieces: [Piece] = []
  /// The sum of the pieces' lengths.
  var totalLength = 0.0

  init(_ path: Path) {
    var pen = Point.zero
    var start = Point.zero
    var subpath = -1
    func add(_ piece: Piece) {
      var piece = piece
      piece.offset = totalLength
      totalLength += piece.length
      pieces.append(piece)
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        (pen, start) = (p, p)
        subpath += 1
      case .line(let p):
        add(Self.line(pen, p, subpath: subpath, close: false))
        pen = p
      case .quad(let c, let p):
        let c1 = pen * (1.0 / 3.0) + c * (2.0 / 3.0)
        let c2 = p * (1.0 / 3.0) + c * (2.0 / 3.0)
        add(Self.cubic(pen, c1, c2, p, subpath: subpath))
        pen = p
      case .cubic(let c1, let c2, let p):
        add(Self.cubic(pen, c1, c2, p, subpath: subpath))
        pen = p
      case .close:
        add(Self.line(pen, start, subpath: subpath, close: true))
        pen = start
      }
    }
  }

  static func line(_ a: Point, _ b: Point, subpath: Int, close: Bool) -> Piece {
    Piece(
      p0: a, p1: a, p2: b, p3: b, isLine: true, isClose: close, subpath: subpath,
      length: Segment(from: a, to: b).length, offset: 0)
  }

  static func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, subpath: Int) -> Piece {
    Piece(
      p0: p0, p1: p1, p2: p2, p3: p3, isLine: false, isClose: false, subpath: subpath,
      length: CubicLength.length(p0, p1, p2, p3, 0, 1), offset: 0)
  }

  /// The pieces between arc lengths `a` < `b` of the whole path.
  func between(_ a: Double, _ b: Double) -> Path {
    var builder = PathBuilder()
    var openSubpath = -1
    // Whether the subpath being built started at its own start (nothing trimmed before).
    var whole = false
    for (index, piece) in pieces.enumerated() {
      let (s, e) = (piece.offset, piece.offset + piece.length)
      // A piece counts when some of its length lies in the range; a zero-length one (a dot's
      // move-line) when it lies in [a, b).
      guard piece.length > 0 ? (e > a && s < b) : (s >= a && s < b) else { continue }
      let t0 = s >= a ? 0 : parameter(piece, at: a - s)
      let t1 = e <= b ? 1 : parameter(piece, at: b - s)
      let cut = Self.segment(piece, t0, t1)
      if openSubpath != piece.subpath || t0 > 0 {
        builder.move(to: cut.p0)
        openSubpath = piece.subpath
        whole = t0 == 0 && (index == 0 || pieces[index - 1].subpath != piece.subpath)
      }
      if piece.isClose, t1 == 1, whole {
        builder.close()
        openSubpath = -1
      } else if piece.isLine {
        builder.line(to: cut.p3)
      } else {
        builder.cubic(to: cut.p3, control1: cut.p1, control2: cut.p2)
      }
      if t1 < 1 { break }
    }
    return builder.build() ?? .empty
  }

  /// The parameter where `piece` has run `length` of its arc length.
  func parameter(_ piece: Piece, at length: Double) -> Double {
    guard piece.length > 0 else { return 0 }
    if piece.isLine { return min(max(length / piece.length, 0), 1) }
    var (lo, hi) = (0.0, 1.0)
    for _ in 0..<60 {
      let mid = (lo + hi) / 2
      if CubicLength.length(piece.p0, piece.p1, piece.p2, piece.p3, 0, mid) < length {
        lo = mid
      } else {
        hi = mid
      }
      if hi - lo < 1e-12 { break }
    }
    return (lo + hi) / 2
  }

  /// The part of `piece` between parameters t0 ≤ t1, by de Casteljau.
  static func segment(_ piece: Piece, _ t0: Double, _ t1: Double) -> Piece {
    var out = piece
    if piece.isLine {
      out.p0 = piece.p0.lerp(to: piece.p3, t0)
      out.p3 = piece.p0.lerp(to: piece.p3, t1)
      return out
    }
    var (p0, p1, p2, p3) = (piece.p0, piece.p1, piece.p2, piece.p3)
    if t1 < 1 {
      // The part before t1.
      let (a, b, c) = (p0.lerp(to: p1, t1), p1.lerp(to: p2, t1), p2.lerp(to: p3, t1))
      let (d, e) = (a.lerp(to: b, t1), b.lerp(to: c, t1))
      (p1, p2, p3) = (a, d, d.lerp(to: e, t1))
    }
    if t0 > 0 {
      // The part after t0 / t1 of what is left.
      let u = t0 / t1
      let (a, b, c) = (p0.lerp(to: p1, u), p1.lerp(to: p2, u), p2.lerp(to: p3, u))
      let (d, e) = (a.lerp(to: b, u), b.lerp(to: c, u))
      (p0, p1, p2) = (d.lerp(to: e, u), e, c)
    }
    (out.p0, out.p1, out.p2, out.p3) = (p0, p1, p2, p3)
    return out
  }
}

/// Arc lengths of cubic Béziers by adaptive Gauss–Legendre quadrature of |B′(t)|.
enum CubicLength {
  /// Five-point Gauss–Legendre nodes and weights on [−1, 1].
  static let nodes = [
    (0.0, 0.568_888_888_888_888_9),
    (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (-0.906_179_845_938_664, 0.236_926_885_056_189_1),
    (0.906_179_845_938_664, 0.236_926_885_056_189_1),
  ]

  /// The arc length of the cubic between parameters t0 and t1, to a relative error of about
  /// 1e-10. The speed |B′(t)| has a kink where B′ vanishes (a cusp) and a sharp dip where it
  /// nearly does, which Gauss rules integrate badly and whose halves can agree by chance; so
  /// the range is first split where either coordinate's derivative is zero, and each piece is
  /// split at least twice and then until a rule agrees with the sum of its halves' rules.
  static func length(
    _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t0: Double, _ t1: Double
  ) -> Double {
    guard t1 > t0 else { return 0 }
    // B′(t) = 3[(1−t)²(p1−p0) + 2t(1−t)(p2−p1) + t²(p3−p2)].
    let (d0, d1, d2) = (p1 - p0, p2 - p1, p3 - p2)
    func speed(_ t: Double) -> Double {
      let u = 1 - t
      return (d0 * (u * u) + d1 * (2 * t * u) + d2 * (t * t)).length * 3
    }
    func rule(_ a: Double, _ b: Double) -> Double {
      let (mid, half) = ((a + b) / 2, (b - a) / 2)
      return nodes.reduce(0) { $0 + $1.1 * speed(mid + half * $1.0) } * half
    }
    func adaptive(_ a: Double, _ b: Double, _ whole: Double, _ depth: Int) -> Double {
      let m = (a + b) / 2
      let (left, right) = (rule(a, m), rule(m, b))
      if depth == 0
        || (depth <= 10 && abs(left + right - whole) <= 1e-10 * max(left + right, 1e-300))
      {
        return left + right
      }
      return adaptive(a, m, left, depth - 1) + adaptive(m, b, right, depth - 1)
    }
    var breaks = [t0, t1]
    for (a, b, c) in [(d0.x, d1.x, d2.x), (d0.y, d1.y, d2.y)] {
      breaks += derivativeRoots(a, b, c).filter { $0 > t0 && $0 < t1 }
    }
    breaks.sort()
    var total = 0.0
    for i in 1..<breaks.count where breaks[i] > breaks[i - 1] {
      total += adaptive(breaks[i - 1], breaks[i], rule(breaks[i - 1], breaks[i]), 12)
    }
    return total
  }

  /// The t in (0, 1) where (1−t)²·a + 2t(1−t)·b + t²·c is zero.
  static func derivativeRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    // As A t² + B t + C.
    let (qa, qb, qc) = (a - 2 * b + c, 2 * (b - a), a)
    let scale = max(abs(qa), abs(qb), abs(qc))
    guard scale > 0, scale.isFinite else { return [] }
    let (na, nb, nc) = (qa / scale, qb / scale, qc / scale)
    var roots: [Double] = []
    if abs(na) < 1e-12 {
      if abs(nb) > 1e-12 { roots.append(-nc / nb) }
    } else {
      let discriminant = nb * nb - 4 * na * nc
      if discriminant >= 0 {
        let q = -(nb + (nb < 0 ? -1 : 1) * discriminant.squareRoot()) / 2
        roots.append(q / na)
        if q != 0 { roots.append(nc / q) }
      }
    }
    return roots.filter { $0 > 0 && $0 < 1 && $0.isFinite }
  }
}
