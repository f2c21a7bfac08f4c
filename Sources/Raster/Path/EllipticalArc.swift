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
  ///
  /// The centre parameterisation is computed in the space where the ellipse is the unit circle,
  /// without squaring a radius, and the sweep comes from the half-chord (2·asin h) rather than
  /// from a difference of angles: radii of 1e200 (an arc that is nearly its chord) and of 1e-160
  /// (scaled up to a half ellipse, as SVG asks) come out as exactly as ordinary ones. Control
  /// points are placed from each piece's end points along the tangents, so a huge radius does not
  /// swamp them.
  /// The largest radius drawn (2^990, about 1e298).
  static let largestRadius = 0x1p990

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
    // Step 1: the midpoint-relative start point in the ellipse's own axes, then in the space where
    // the ellipse is the unit circle.
    let dx = (from.x - to.x) / 2
    let dy = (from.y - to.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    var u = x1 / rx
    var v = y1 / ry
    var h = hypot(u, v)
    // Out-of-range radii (B.2.5): scaled up until the ellipse just reaches, which makes the end
    // points opposite ends of a diameter.
    if h > 1 {
      if h.isFinite {
        rx *= h
        ry *= h
        u /= h
        v /= h
      } else {
        // Radii so small that the chord overflows the unit circle's space: the same scaling,
        // with the ratio of the radii applied to the chord instead.
        let ratio = rx / ry
        rx = hypot(x1, y1 * ratio)
        ry = rx / ratio
        u = x1 / rx
        v = y1 / ry
      }
      h = 1
    }
    // A radius past `largestRadius` would put the far side of the arc, or its control points,
    // beyond Double's range: it is reduced to that (the ellipse then differs only ~1e298 away,
    // where no canvas reaches). End points that far apart draw their chord.
    if rx > Self.largestRadius || ry > Self.largestRadius {
      guard hypot(x1, y1) <= Self.largestRadius / 4 else {
        builder.line(to: to)
        return
      }
      rx = min(rx, Self.largestRadius)
      ry = min(ry, Self.largestRadius)
      u = x1 / rx
      v = y1 / ry
      h = hypot(u, v)
    }
    guard rx.isFinite, ry.isFinite, rx > 0, ry > 0, h > 0 else {
      builder.line(to: to)
      return
    }
    // Step 2: the centre, in unit space: on the chord's perpendicular bisector.
    var coefficient = h >= 1 ? 0 : ((1 - h) * (1 + h)).squareRoot() / h
    if largeArc == sweep { coefficient = -coefficient }
    let cu = coefficient * v
    let cv = -coefficient * u
    // Step 3: the centre in user space.
    let cxp = cu * rx
    let cyp = cv * ry
    let cx = cosPhi * cxp - sinPhi * cyp + (from.x + to.x) / 2
    let cy = sinPhi * cxp + cosPhi * cyp + (from.y + to.y) / 2
    // Step 4: the sweep, from the half-chord: the short arc subtends 2·asin(h). The start and end
    // points relative to the centre, in unit space, come straight from u, v (no angles), so
    // their directions keep full precision even when the radii are huge.
    let short = 2 * asin(min(h, 1))
    var delta = largeArc ? 2 * .pi - short : short
    if !sweep { delta = -delta }
    let start = Point(u - cu, v - cv)
    let end = Point(-u - cu, -v - cv)
    guard delta.isFinite, cx.isFinite, cy.isFinite, start.isFinite, end.isFinite else {
      builder.line(to: to)
      return
    }
    appendCubics(
      center: Point(cx, cy), rx: rx, ry: ry, sinPhi: sinPhi, cosPhi: cosPhi, start: start,
      end: end, delta: delta, builder: &builder)
  }

  /// Splits the sweep into equal pieces of at most 30° and approximates each with the standard
  /// cubic whose control arms are 4/3·tan(θ/4) of the radius long, placed from each piece's end
  /// points along the ellipse's tangents. `start` and `end` are the arc's ends relative to the
  /// centre in unit-circle space; the points between are `start` rotated.
  private func appendCubics(
    center: Point, rx: Double, ry: Double, sinPhi: Double, cosPhi: Double, start: Point,
    end: Point, delta: Double, builder: inout PathBuilder
  ) {
    let pieces = max(1, Int((abs(delta) / (.pi / 6) - 1e-9).rounded(.up)))
    let step = delta / Double(pieces)
    let arm = 4.0 / 3.0 * tan(step / 4)
    /// A unit-space vector in user space (no centre added).
    func map(_ p: Point) -> Point {
      let x = rx * p.x
      let y = ry * p.y
      return Point(cosPhi * x - sinPhi * y, sinPhi * x + cosPhi * y)
    }
    var previous = start
    var current = from
    for piece in 1...pieces {
      let last = piece == pieces
      let angle = step * Double(piece)
      let (s, c) = (sin(angle), cos(angle))
      let unit = last ? end : Point(start.x * c - start.y * s, start.x * s + start.y * c)
      let point = last ? to : center + map(unit)
      let control1 = current + map(Point(-previous.y, previous.x)) * arm
      let control2 = point - map(Point(-unit.y, unit.x)) * arm
      builder.cubic(to: point, control1: control1, control2: control2)
      previous = unit
      current = point
    }
  }
}
