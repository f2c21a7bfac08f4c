#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An SVG elliptical arc in endpoint form, converted to cubic Béziers by SVG 2's implementation
/// notes (B.2.4 "conversion from endpoint to center parameterization", B.2.5 "out-of-range
/// parameters"): radii are made positive and scaled up when too small to reach the end point, a
/// zero radius draws a straight line, and equal end points draw nothing.
struct EllipticalArc {
  let from: Point
  let to: Point
  let radii: Point
  let rotationDegrees: Double
  let largeArc: Bool
  let sweep: Bool

  init(
    from: Point, to: Point, radii: Point, rotationDegrees: Double, largeArc: Bool, sweep: Bool
  ) {
    self.from = from
    self.to = to
    self.radii = radii
    self.rotationDegrees = rotationDegrees
    self.largeArc = largeArc
    self.sweep = sweep
  }

  /// Appends the arc as cubics of at most 30° each. The cubic's radial error grows with the sixth
  /// power of its angle: 2.7e-4·r for 90°, 3.7e-7·r for 30°, which keeps an arc of radius 10,000
  /// pixels within 0.004 px of the true ellipse.
  func append(to builder: inout PathBuilder) {
    if from == to { return }
    var rx = abs(radii.x)
    var ry = abs(radii.y)
    if rx == 0 || ry == 0 {
      builder.line(to: to)
      return
    }
    let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
    let (sinPhi, cosPhi) = (sin(phi), cos(phi))
    // Step 1: the midpoint-relative start point in the ellipse's own axes.
    let dx = (from.x - to.x) / 2
    let dy = (from.y - to.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    // Out-of-range radii: scale up until the ellipse just reaches.
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lambda > 1 {
      let s = lambda.squareRoot()
      rx *= s
      ry *= s
    }
    // Step 2: the centre in the ellipse's axes.
    let rx2 = rx * rx
    let ry2 = ry * ry
    let numerator = rx2 * ry2 - rx2 * y1 * y1 - ry2 * x1 * x1
    let denominator = rx2 * y1 * y1 + ry2 * x1 * x1
    var coefficient = (max(0, numerator) / denominator).squareRoot()
    if largeArc == sweep { coefficient = -coefficient }
    let cxp = coefficient * rx * y1 / ry
    let cyp = -coefficient * ry * x1 / rx
    // Step 3: the centre in user space.
    let cx = cosPhi * cxp - sinPhi * cyp + (from.x + to.x) / 2
    let cy = sinPhi * cxp + cosPhi * cyp + (from.y + to.y) / 2
    // Step 4: start angle and sweep.
    let theta1 = atan2((y1 - cyp) / ry, (x1 - cxp) / rx)
    let theta2 = atan2((-y1 - cyp) / ry, (-x1 - cxp) / rx)
    var delta = theta2 - theta1
    if sweep, delta < 0 { delta += 2 * .pi }
    if !sweep, delta > 0 { delta -= 2 * .pi }
    guard delta.isFinite, cx.isFinite, cy.isFinite else {
      builder.line(to: to)
      return
    }
    appendCubics(
      center: Point(cx, cy), rx: rx, ry: ry, sinPhi: sinPhi, cosPhi: cosPhi, start: theta1,
      delta: delta, builder: &builder)
  }

  /// Splits the sweep into equal pieces of at most 30° and approximates each with the standard
  /// cubic whose control arms are 4/3·tan(θ/4) of the radius long.
  private func appendCubics(
    center: Point, rx: Double, ry: Double, sinPhi: Double, cosPhi: Double, start: Double,
    delta: Double, builder: inout PathBuilder
  ) {
    let pieces = max(1, Int((abs(delta) / (.pi / 6) - 1e-9).rounded(.up)))
    let step = delta / Double(pieces)
    let arm = 4.0 / 3.0 * tan(step / 4)
    func map(_ ux: Double, _ uy: Double) -> Point {
      let x = rx * ux
      let y = ry * uy
      return Point(center.x + cosPhi * x - sinPhi * y, center.y + sinPhi * x + cosPhi * y)
    }
    var angle = start
    for piece in 0..<pieces {
      let next = angle + step
      let (s0, c0) = (sin(angle), cos(angle))
      let (s1, c1) = (sin(next), cos(next))
      let c1p = map(c0 - arm * s0, s0 + arm * c0)
      let c2p = map(c1 + arm * s1, s1 - arm * c1)
      // The last piece ends exactly on the requested end point.
      let end = piece == pieces - 1 ? to : map(c1, s1)
      builder.cubic(to: end, control1: c1p, control2: c2p)
      angle = next
    }
  }
}
