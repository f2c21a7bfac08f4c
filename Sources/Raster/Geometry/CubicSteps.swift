/// The vertices that stand for a cubic Bézier cut into `n` pieces of equal parameter step
/// h = 1/n, in the curve's own space (user space for the stroker, device pixels for the fill's
/// flattening): for t = h, 2h, …, (n − 1)h, the curve's point moved off the curve, away from its
/// centre of curvature, by 2/3 of the local sagitta (h²/12·|B''⊥|). Each chord then strays as far
/// outside the curve as inside, so the error of an edge (a fill's, or a stroke's offset) averages
/// to zero instead of always having the sign of the curvature. The ends are the caller's (exact).
///
/// The curve, its tangent (B′/3) and its second derivative B″ are polynomials in t of degree
/// 3, 2 and 1; each `next()` advances them by forward differences (a few additions a vertex).
struct CubicSteps {
  private var point: Point
  private var pointStep: Point
  private var pointStep2: Point
  private let pointStep3: Point
  private var tangent: Point
  private var tangentStep: Point
  private let tangentStep2: Point
  private var second: Point
  private let secondStep: Point
  private let sagitta: Double

  /// At t = 0, for `pieces` pieces (at least 1).
  init(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, pieces: Int) {
    let h = 1 / Double(pieces)
    let a1 = (p1 - p0) * 3
    let a2 = (p2 - p1 * 2 + p0) * 3
    let a3 = p3 - p2 * 3 + p1 * 3 - p0
    let hh = h * h
    let hhh = hh * h
    point = p0
    pointStep = a3 * hhh + a2 * hh + a1 * h
    pointStep2 = a3 * (6 * hhh) + a2 * (2 * hh)
    pointStep3 = a3 * (6 * hhh)
    let tangentA = (p1 - p0) - (p2 - p1) * 2 + (p3 - p2)
    let tangentB = ((p2 - p1) - (p1 - p0)) * 2
    tangent = p1 - p0
    tangentStep = tangentA * hh + tangentB * h
    tangentStep2 = tangentA * (2 * hh)
    let d0 = p0 - p1 * 2 + p2
    let d1 = p1 - p2 * 2 + p3
    second = d0 * 6
    secondStep = (d1 - d0) * (6 * h)
    sagitta = hh / 12
  }

  /// Control points no farther than this from the origin (in each coordinate) give finite
  /// vertices: `next()` multiplies differences of them, which overflow past about 1e154.
  static let safeCoordinate = 1e150

  /// Whether every step is finite: false for far geometry (coordinates past about 1e307),
  /// whose differences overflow. (Finite steps are not enough for finite vertices: see
  /// `safeCoordinate`.)
  var isFinite: Bool {
    pointStep.isFinite && pointStep2.isFinite && tangentStep.isFinite && secondStep.isFinite
      && second.isFinite && tangent.isFinite
  }

  /// The vertex at the next step of t.
  @inline(__always)
  mutating func next() -> Point {
    point = point + pointStep
    pointStep = pointStep + pointStep2
    pointStep2 = pointStep2 + pointStep3
    tangent = tangent + tangentStep
    tangentStep = tangentStep + tangentStep2
    second = second + secondStep
    let tt = tangent.x * tangent.x + tangent.y * tangent.y
    guard tt > 1e-24 else { return point }
    let along = (second.x * tangent.x + second.y * tangent.y) / tt
    return point - (second - tangent * along) * sagitta
  }
}
