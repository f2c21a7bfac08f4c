#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a rounded rectangle's corners are drawn.
public enum CornerStyle: String, Hashable, Sendable, CaseIterable {
  /// Quarter circles of the corner radius (SwiftUI `RoundedCornerStyle.circular`).
  case circular
  /// Apple's continuous-curvature corner (`.continuous`, the iOS 7+ "squircle"): it leaves the
  /// straight edge 1.52866·r before the corner and bends in three cubic pieces, so the curvature
  /// grows smoothly instead of jumping.
  case continuous
}

extension PathBuilder {
  /// The cubic control-arm length of a quarter circle of radius 1: 4/3·(√2 − 1).
  static let quarterCircleArm = 0.552_284_749_831

  /// Appends a closed rectangle, clockwise on a y-down screen.
  public mutating func addRect(_ rect: Rect) {
    move(to: Point(rect.minX, rect.minY))
    line(to: Point(rect.maxX, rect.minY))
    line(to: Point(rect.maxX, rect.maxY))
    line(to: Point(rect.minX, rect.maxY))
    close()
  }

  /// Appends a closed ellipse inscribed in `rect`, as four cubics.
  public mutating func addEllipse(in rect: Rect) {
    let (cx, cy) = ((rect.minX + rect.maxX) / 2, (rect.minY + rect.maxY) / 2)
    let (rx, ry) = (rect.width / 2, rect.height / 2)
    let (kx, ky) = (rx * Self.quarterCircleArm, ry * Self.quarterCircleArm)
    move(to: Point(cx + rx, cy))
    cubic(
      to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ky), control2: Point(cx + kx, cy + ry))
    cubic(
      to: Point(cx - rx, cy), control1: Point(cx - kx, cy + ry), control2: Point(cx - rx, cy + ky))
    cubic(
      to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ky), control2: Point(cx - kx, cy - ry))
    cubic(
      to: Point(cx + rx, cy), control1: Point(cx + kx, cy - ry), control2: Point(cx + rx, cy - ky))
    close()
  }

  /// Continues the current subpath along a circle of `radius` around `center` from angle
  /// `start` to `end` (radians; on a y-down screen increasing angles turn clockwise), as cubics
  /// of at most a quarter turn each. With `connect` a line runs from the current point to the
  /// arc's first point; without, a new subpath starts there.
  public mutating func addArc(
    center: Point, radius: Double, from start: Double, to end: Double, connect: Bool = true
  ) {
    let first = Point(center.x + radius * cos(start), center.y + radius * sin(start))
    if connect { line(to: first) } else { move(to: first) }
    let pieces = max(1, Int((abs(end - start) / (Double.pi / 2)).rounded(.up)))
    let step = (end - start) / Double(pieces)
    let arm = 4.0 / 3.0 * tan(step / 4) * radius
    var angle = start
    for _ in 0..<pieces {
      let next = angle + step
      let (c0, s0, c1, s1) = (cos(angle), sin(angle), cos(next), sin(next))
      cubic(
        to: Point(center.x + radius * c1, center.y + radius * s1),
        control1: Point(center.x + radius * c0 - arm * s0, center.y + radius * s0 + arm * c0),
        control2: Point(center.x + radius * c1 + arm * s1, center.y + radius * s1 - arm * c1))
      angle = next
    }
  }

  /// Appends a closed rounded rectangle, clockwise on a y-down screen. Circular corners are
  /// clamped to half the shorter side, as iOS clamps them. A continuous corner of radius r runs
  /// 1.52866·r along each edge, so up to half the shorter side over 1.52866 it is Apple's curve
  /// as it is; past that it blends towards the circular corner that spans the same half side,
  /// reaching it (a circle, a capsule) at half the shorter side — the smooth approach to a
  /// stadium that measurements of iOS's continuous corners show (Flutter's iOS-matched
  /// `RoundedSuperellipse` becomes a circle, n = 2, at radius = half the side), where clamping
  /// alone would leave a square-ish pill.
  public mutating func addRoundedRect(_ rect: Rect, cornerRadius: Double, style: CornerStyle) {
    let half = min(rect.width, rect.height) / 2
    if style == .continuous, cornerRadius >= half {
      return addRoundedRect(rect, cornerRadius: half, style: .circular)
    }
    let extent = style == .continuous ? ContinuousCorner.extent : 1
    let radius = max(0, min(cornerRadius, half / extent))
    guard radius > 0 else { return addRect(rect) }
    // How far a continuous corner has gone towards the circular one (0 below the clamp).
    let towardsCircle =
      style == .continuous && cornerRadius > radius
      ? (cornerRadius - radius) / (half - radius) : 0
    // Corners clockwise from the top right; u points back along the incoming edge, v along the
    // outgoing one, both away from the corner.
    let corners: [(corner: Point, u: Point, v: Point)] = [
      (Point(rect.maxX, rect.minY), Point(-1, 0), Point(0, 1)),
      (Point(rect.maxX, rect.maxY), Point(0, -1), Point(-1, 0)),
      (Point(rect.minX, rect.maxY), Point(1, 0), Point(0, -1)),
      (Point(rect.minX, rect.minY), Point(0, 1), Point(1, 0)),
    ]
    move(to: Point(rect.minX + radius * extent, rect.minY))
    for (corner, u, v) in corners {
      func at(_ a: Double, _ b: Double) -> Point { corner + u * (a * radius) + v * (b * radius) }
      line(to: at(extent, 0))
      switch style {
      case .circular:
        let k = 1 - Self.quarterCircleArm
        cubic(to: at(0, 1), control1: at(k, 0), control2: at(0, k))
      case .continuous:
        let pieces =
          towardsCircle > 0
          ? ContinuousCorner.blended(towardsCircle) : ContinuousCorner.pieces
        for piece in pieces {
          if let start = piece.lineTo { line(to: at(start.x, start.y)) }
          cubic(
            to: at(piece.end.x, piece.end.y), control1: at(piece.control1.x, piece.control1.y),
            control2: at(piece.control2.x, piece.control2.y))
        }
      }
    }
    close()
  }
}

/// The continuous corner in units of the corner radius, in a frame whose origin is the corner,
/// x along the incoming edge (away from the corner) and y along the outgoing edge.
enum ContinuousCorner {
  /// How far from the corner the curve leaves each straight edge.
  static let extent = 1.52866

  struct Piece {
    var lineTo: Point?
    var control1: Point
    var control2: Point
    var end: Point
  }

  /// From (extent, 0) to (0, extent): cubic, short line, cubic, short line, cubic.
  static let pieces: [Piece] = [
    Piece(
      lineTo: nil, control1: Point(1.08849, 0), control2: Point(0.86841, 0),
      end: Point(0.66993, 0.06550)),
    Piece(
      lineTo: Point(0.63149, 0.07491), control1: Point(0.37282, 0.16906),
      control2: Point(0.16906, 0.37282), end: Point(0.07491, 0.63149)),
    Piece(
      lineTo: Point(0.06550, 0.66993), control1: Point(0, 0.86841), control2: Point(0, 1.08849),
      end: Point(0, 1.52866)),
  ]

  /// The quarter circle of radius `extent` around (extent, extent) — the circular corner that
  /// spans the same length of each edge — cut where the continuous corner's pieces meet: at
  /// the turns (radians from the incoming edge) of its two short lines, the lines of zero
  /// length. Each piece is one cubic of its arc.
  static let circularPieces: [Piece] = {
    let r = extent
    func point(_ angle: Double) -> Point { Point(r - r * sin(angle), r - r * cos(angle)) }
    func tangent(_ angle: Double) -> Point { Point(-cos(angle), sin(angle)) }
    // The short lines' directions: atan(Δb / −Δa) of (0.63149 − 0.66993, 0.07491 − 0.06550).
    let turn = atan2(0.07491 - 0.06550, 0.66993 - 0.63149)
    let cuts = [0, turn, Double.pi / 2 - turn, Double.pi / 2]
    return (0..<3).map { i in
      let (a, b) = (cuts[i], cuts[i + 1])
      let arm = 4.0 / 3.0 * tan((b - a) / 4) * r
      return Piece(
        lineTo: i == 0 ? nil : point(a), control1: point(a) + tangent(a) * arm,
        control2: point(b) - tangent(b) * arm, end: point(b))
    }
  }()

  /// Apple's corner moved a fraction `t` (0…1) of the way to `circularPieces`, point by point:
  /// the same pieces, so the corner stays smooth and meets the edges where both do.
  static func blended(_ t: Double) -> [Piece] {
    func mix(_ a: Point, _ b: Point) -> Point { a * (1 - t) + b * t }
    return zip(pieces, circularPieces).map { c, o in
      Piece(
        lineTo: c.lineTo.flatMap { a in o.lineTo.map { mix(a, $0) } },
        control1: mix(c.control1, o.control1), control2: mix(c.control2, o.control2),
        end: mix(c.end, o.end))
    }
  }
}

extension Path {
  /// A rounded rectangle (see `PathBuilder.addRoundedRect`); empty for a degenerate rect.
  public static func roundedRect(_ rect: Rect, cornerRadius: Double, style: CornerStyle) -> Path {
    var builder = PathBuilder()
    builder.addRoundedRect(rect, cornerRadius: cornerRadius, style: style)
    return builder.build() ?? .empty
  }

  /// An ellipse inscribed in `rect`.
  public static func ellipse(in rect: Rect) -> Path {
    var builder = PathBuilder()
    builder.addEllipse(in: rect)
    return builder.build() ?? .empty
  }

  /// A rectangle.
  public static func rect(_ rect: Rect) -> Path {
    var builder = PathBuilder()
    builder.addRect(rect)
    return builder.build() ?? .empty
  }
}
