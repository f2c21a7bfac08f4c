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

  /// Appends a closed rounded rectangle, clockwise on a y-down screen. The radius is clamped as
  /// iOS clamps it: to half the shorter side for circular corners, and to half the shorter side
  /// divided by 1.52866 for continuous ones (so the corners' straight-edge run-outs never meet).
  public mutating func addRoundedRect(_ rect: Rect, cornerRadius: Double, style: CornerStyle) {
    let shortSide = min(rect.width, rect.height)
    let extent = style == .continuous ? ContinuousCorner.extent : 1
    let radius = max(0, min(cornerRadius, shortSide / 2 / extent))
    guard radius > 0 else { return addRect(rect) }
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
        for piece in ContinuousCorner.pieces {
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
