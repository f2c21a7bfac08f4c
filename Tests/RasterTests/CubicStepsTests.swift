import Foundation
import TestSupport
import Testing

@testable import Raster

/// `CubicSteps` (forward differences) against the curve evaluated afresh at each t.
@Suite struct CubicStepsTests {
  /// The vertex at t by the Bernstein form: the point, moved against the part of B″ across the
  /// tangent by h²/12.
  static func reference(_ p: [Point], t: Double, h: Double) -> Point {
    let u = 1 - t
    let point =
      p[0] * (u * u * u) + p[1] * (3 * u * u * t) + p[2] * (3 * u * t * t) + p[3] * (t * t * t)
    let tangent = (p[1] - p[0]) * (u * u) + (p[2] - p[1]) * (2 * u * t) + (p[3] - p[2]) * (t * t)
    let second = ((p[2] - p[1] * 2 + p[0]) * u + (p[3] - p[2] * 2 + p[1]) * t) * 6
    let tt = tangent.x * tangent.x + tangent.y * tangent.y
    guard tt > 1e-24 else { return point }
    let along = (second.x * tangent.x + second.y * tangent.y) / tt
    return point - (second - tangent * along) * (h * h / 12)
  }

  @Test func stepsAgreeWithTheCurveEvaluatedAtEachT() {
    var random = SeededGenerator(seed: 11)
    for _ in 0..<500 {
      let scale = [1.0, 100, 1e5].randomElement(using: &random)!
      let p = (0..<4).map { _ in
        Point(Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random))
          * scale
      }
      let n = Int.random(in: 1...600, using: &random)
      var steps = CubicSteps(p[0], p[1], p[2], p[3], pieces: n)
      #expect(steps.isFinite)
      let h = 1 / Double(n)
      for i in 1..<n {
        let vertex = steps.next()
        let expected = Self.reference(p, t: Double(i) * h, h: h)
        // Forward differences gather rounding over the steps: a few ulps of the curve's size
        // per step at most.
        #expect((vertex - expected).length <= 1e-12 * scale * Double(n), "n \(n), step \(i)")
      }
    }
  }

  /// Within `safeCoordinate`, vertices are finite, however large the curve.
  @Test func curvesWithinTheSafeReachGiveFiniteVertices() {
    var random = SeededGenerator(seed: 12)
    for _ in 0..<300 {
      let scale = pow(10, Double.random(in: 100...150, using: &random))
      let p = (0..<4).map { _ in
        Point(Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random))
          * scale
      }
      var steps = CubicSteps(p[0], p[1], p[2], p[3], pieces: 16)
      #expect(steps.isFinite)
      for _ in 1..<16 { #expect(steps.next().isFinite) }
    }
  }

  @Test func farCurvesAreNotFinite() {
    let far = 1.5e308
    let steps = CubicSteps(Point(-far, 0), Point(far, 0), Point(-far, 1), Point(far, 1), pieces: 4)
    #expect(!steps.isFinite)
  }
}
