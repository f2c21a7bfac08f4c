#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A circle stroked with `lineWidth` and trimmed, as SwiftUI draws
/// `Circle().trim(from:to:).stroke(color, style: StrokeStyle(lineWidth:lineCap:))
/// .rotationEffect(.degrees(-90))`: the stroke starts at 12 o'clock and runs clockwise. In points,
/// centred on the origin; `diameter` is the circle's (the stroke's centre line).
public struct RingShape: Hashable, Sendable {
  public var diameter: Double
  public var lineWidth: Double
  /// Round caps (`.round`) instead of butt caps (`.butt`).
  public var roundCaps: Bool

  public init(diameter: Double, lineWidth: Double, roundCaps: Bool) {
    self.diameter = diameter
    self.lineWidth = lineWidth
    self.roundCaps = roundCaps
  }

  /// The outline of the stroke between fractions `from` and `to` of the circle (each clamped to
  /// 0...1), filled nonzero; nil when nothing is drawn.
  public func path(from: Double, to: Double) -> Path? {
    let (start, end) = (min(max(from, 0), 1), min(max(to, 0), 1))
    let radius = diameter / 2
    let half = lineWidth / 2
    guard end > start, half > 0, radius > 0 else { return nil }
    let (outer, inner) = (radius + half, max(radius - half, 0))
    var builder = PathBuilder()
    if end - start >= 1 {
      // The whole ring: the outer circle clockwise, the inner one counter-clockwise.
      builder.addArc(center: .zero, radius: outer, from: 0, to: 2 * .pi, connect: false)
      builder.close()
      if inner > 0 {
        builder.addArc(center: .zero, radius: inner, from: 2 * .pi, to: 0, connect: false)
        builder.close()
      }
      return builder.build()
    }
    let a0 = -Double.pi / 2 + 2 * .pi * start
    let a1 = -Double.pi / 2 + 2 * .pi * end
    builder.addArc(center: .zero, radius: outer, from: a0, to: a1, connect: false)
    if roundCaps {
      let tip = Point(radius * cos(a1), radius * sin(a1))
      builder.addArc(center: tip, radius: half, from: a1, to: a1 + .pi)
    }
    builder.addArc(center: .zero, radius: inner, from: a1, to: a0)
    if roundCaps {
      let tail = Point(radius * cos(a0), radius * sin(a0))
      builder.addArc(center: tail, radius: half, from: a0 + .pi, to: a0 + 2 * .pi)
    }
    builder.close()
    return builder.build()
  }
}
