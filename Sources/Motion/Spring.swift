#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped harmonic oscillator in SwiftUI's parametrisations (mass m, stiffness k, damping c;
/// times in seconds). As an interpolating spring it is evaluated in closed form (`unitProgress`,
/// scaled to each change); as a fluid spring (`.spring()`, `response:dampingFraction:`,
/// `duration:bounce:`) it is stepped by `FluidSpringIntegrator`, 1/300 s at a time, as SwiftUI
/// steps it — the two differ by up to about 1 % of the travel near peak velocity
/// (docs/SEMANTICS.md, Springs). Either way a frame is a pure function of its time.
public struct Spring: Hashable, Sendable {
  public var mass: Double
  public var stiffness: Double
  public var damping: Double

  /// SwiftUI caps a fluid spring's stiffness here; a response of 0 or less means "jump".
  public static let maximumStiffness = 45_000.0

  public init(mass: Double = 1, stiffness: Double, damping: Double) {
    self.mass = mass
    self.stiffness = min(stiffness, Self.maximumStiffness)
    self.damping = damping
  }

  /// `spring(response:dampingFraction:)`: k = m·(2π/response)², c = 4π·ζ·m/response.
  public init(response: Double, dampingFraction: Double) {
    let r = max(response, 1e-6)
    self.init(stiffness: pow(2 * .pi / r, 2), damping: 4 * .pi * dampingFraction / r)
  }

  /// `spring(duration:bounce:)`: response = duration; ζ = 1 − bounce (bounce ≥ 0) or
  /// 1/(1 + bounce) (bounce < 0).
  public init(duration: Double, bounce: Double) {
    let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    self.init(response: duration, dampingFraction: zeta)
  }

  /// iOS 17+ SDK `.spring()`: `spring(duration: 0.5, bounce: 0)`, critically damped.
  public static let swiftUI17Default = Spring(duration: 0.5, bounce: 0)
  /// Xcode 11–14 SDK `.spring()`: response 0.55, damping fraction 0.825.
  public static let swiftUILegacyDefault = Spring(response: 0.55, dampingFraction: 0.825)
  /// The wallet's `.spring(mass: 1, stiffness: 100, damping: 20)` (an interpolating spring).
  public static let wallet = Spring(mass: 1, stiffness: 100, damping: 20)

  /// The spring on a clock running `factor` times as fast: stiffness × factor², damping ×
  /// factor, so every curve it draws is the same curve in 1/factor of the time.
  public func spedUp(by factor: Double) -> Spring {
    Spring(mass: mass, stiffness: stiffness * factor * factor, damping: damping * factor)
  }

  /// Natural angular frequency ω₀ = √(k/m), rad/s.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
  /// Damping ratio ζ = c / (2√(k·m)).
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }
  /// 2π/ω₀: SwiftUI's "response" (and the interpolating spring's logically-complete time).
  public var response: Double { 2 * .pi / naturalFrequency }

  /// Displacement from the target and velocity after `t` seconds, starting from displacement
  /// `u0` and velocity `v0` (units of the value, and per second).
  public func evolve(
    displacement u0: Double, velocity v0: Double, time t: Double
  )
    -> (displacement: Double, velocity: Double)
  {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    if abs(zeta - 1) < 1e-9 {
      let e = exp(-w0 * t)
      let b = v0 + w0 * u0
      return (e * (u0 + b * t), e * (v0 - w0 * b * t))
    }
    if zeta < 1 {
      let lambda = zeta * w0
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let e = exp(-lambda * t)
      let (s, c) = (sin(wd * t), cos(wd * t))
      let u = e * (u0 * c + (v0 + lambda * u0) / wd * s)
      let v = e * (v0 * c - (lambda * v0 + w0 * w0 * u0) / wd * s)
      return (u, v)
    }
    let root = (zeta * zeta - 1).squareRoot()
    let r1 = -w0 * (zeta - root)
    let r2 = -w0 * (zeta + root)
    let c1 = (v0 - r2 * u0) / (r1 - r2)
    let c2 = u0 - c1
    return (c1 * exp(r1 * t) + c2 * exp(r2 * t), c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t))
  }

  /// The interpolating spring's unit curve: progress from 0 to 1 after `t` seconds, starting at
  /// rest. Every ζ ≥ 1 uses the critical form at ω₀, as SwiftUI's SpringAnimation does.
  public func unitProgress(at t: Double) -> Double {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    if zeta >= 1 { return 1 - (1 + w0 * t) * exp(-w0 * t) }
    let lambda = zeta * w0
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    return 1 - exp(-lambda * t) * (cos(wd * t) + lambda / wd * sin(wd * t))
  }

  /// When an interpolating spring is removed (docs/SEMANTICS.md, Springs): for ζ ≥ 1 the first 0.1 s sample at which
  /// |1 − s| < 0.001 and stays so for 1 s; for ζ < 1 the decay envelope's ln((λ+1)/ε)/λ.
  public var settlingDuration: Double {
    let epsilon = 0.001
    if dampingRatio < 1 {
      let lambda = dampingRatio * naturalFrequency
      return log((lambda + 1) / epsilon) / lambda
    }
    var t = 0.0
    while t < 60 {
      let stays = stride(from: t, through: t + 1, by: 0.1).allSatisfy {
        abs(1 - unitProgress(at: $0)) < epsilon
      }
      if stays { return (t * 10).rounded() / 10 }
      t += 0.1
    }
    return 60
  }
}
