#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a fill or stroke covers its pixels with: a colour or one of SwiftUI's gradients. The
/// geometry is in the same user space as the path it paints (the layer's own units), so the
/// layer's transform maps both.
public enum Paint: Hashable, Sendable {
  /// A straight-alpha colour.
  case solid(Color)
  /// `LinearGradient`: colour by the projection onto the line from `start` to `end` (t = 0 at
  /// `start`, 1 at `end`); when they coincide, the last stop's colour.
  case linear(Gradient, start: Point, end: Point)
  /// `RadialGradient`: colour by the distance from `center`, t = 0 at `startRadius` and 1 at
  /// `endRadius`.
  case radial(Gradient, center: Point, startRadius: Double, endRadius: Double)
  /// `AngularGradient` (conic): colour by the angle around `center`, radians, 0 towards +x and
  /// increasing towards +y (clockwise on a y-down screen), t = 0 at `startAngle` and 1 at
  /// `endAngle`. A sweep over a full turn draws only its last turn; a shorter one fills the
  /// missing sector with the colours at 1 and 0, changing halfway across it (Apple's
  /// `AngularGradient`).
  case angular(Gradient, center: Point, startAngle: Double, endAngle: Double)

  /// The solid colour, nil for gradients.
  public var solidColor: Color? {
    if case .solid(let color) = self { return color }
    return nil
  }

  /// Whether every pixel it paints is fully transparent.
  public var isClear: Bool {
    switch self {
    case .solid(let color): return color.premultiplied.a == 0
    case .linear(let g, _, _), .radial(let g, _, _, _), .angular(let g, _, _, _):
      return g.stops.allSatisfy { $0.color.premultiplied.a == 0 }
    }
  }
}

/// Where a gradient's t comes from at a device pixel: the paint's geometry mapped through the
/// inverse of the user-to-device transform.
struct GradientShader: Sendable {
  enum Geometry: Sendable {
    /// t = a·x + b·y + c in device pixels (a projection is affine under any affine map).
    case linear(a: Double, b: Double, c: Double)
    case radial(center: Point, startRadius: Double, endRadius: Double)
    case angular(center: Point, startAngle: Double, endAngle: Double)
    /// Every pixel at t.
    case constant(Double)
  }

  let geometry: Geometry
  /// Device pixels to the paint's user space (unused by `linear` and `constant`).
  let toUser: Transform
  let gradient: Gradient

  /// Nil for a solid paint.
  init?(_ paint: Paint, transform: Transform) {
    let inverse = transform.inverted ?? Transform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
    toUser = inverse
    switch paint {
    case .solid: return nil
    case .linear(let gradient, let start, let end):
      self.gradient = gradient
      let axis = end - start
      let squared = axis.x * axis.x + axis.y * axis.y
      guard squared > 0, squared.isFinite else {
        geometry = .constant(1)
        return
      }
      // t = ((M⁻¹p − start) · axis) / |axis|², with M⁻¹p = (ia·x + ic·y + itx, ib·x + id·y + ity).
      let (ux, uy) = (axis.x / squared, axis.y / squared)
      geometry = .linear(
        a: inverse.a * ux + inverse.b * uy, b: inverse.c * ux + inverse.d * uy,
        c: (inverse.tx - start.x) * ux + (inverse.ty - start.y) * uy)
    case .radial(let gradient, let center, let r0, let r1):
      self.gradient = gradient
      geometry = .radial(center: center, startRadius: r0, endRadius: r1)
    case .angular(let gradient, let center, let a0, let a1):
      self.gradient = gradient
      geometry = .angular(center: center, startAngle: a0, endAngle: a1)
    }
  }

  /// The gradient's t at the device point (x, y), before clamping.
  @inline(__always)
  func t(x: Double, y: Double) -> Double {
    switch geometry {
    case .constant(let t): return t
    case .linear(let a, let b, let c): return a * x + b * y + c
    case .radial(let center, let r0, let r1):
      let p = toUser.apply(Point(x, y))
      let d = (p - center).length
      guard r1 != r0 else { return d < r0 ? 0 : 1 }
      return (d - r0) / (r1 - r0)
    case .angular(let center, let start, let end):
      let p = toUser.apply(Point(x, y))
      return Self.angularT(atan2(p.y - center.y, p.x - center.x), start: start, end: end)
    }
  }

  /// SwiftUI's conic mapping of an angle (radians) to t.
  static func angularT(_ angle: Double, start: Double, end: Double) -> Double {
    let turn = 2 * Double.pi
    let sweep = end - start
    guard sweep.isFinite, start.isFinite else { return 0 }
    if sweep >= turn {
      // The last full turn: angles in [end − 2π, end).
      let a = angle - (end - turn)
      let within = a - (a / turn).rounded(.down) * turn
      return 1 - (turn - within) / sweep
    }
    let a = angle - start
    let within = a - (a / turn).rounded(.down) * turn  // 0 ..< 2π from the start
    if sweep > 0, within <= sweep { return within / sweep }
    // The missing sector: the colour at 1 for its first half, at 0 for the second.
    let gap = turn - max(sweep, 0)
    return within - max(sweep, 0) < gap / 2 ? 1 : 0
  }
}
