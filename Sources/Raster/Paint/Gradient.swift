#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a gradient blends between its stops: SwiftUI's `Gradient.ColorSpace`.
public enum GradientColorSpace: String, CaseIterable, Hashable, Sendable {
  /// "Interpolates gradient colors in the output color space" (Apple): gamma-encoded sRGB
  /// components, straight lines between the stops. SwiftUI's default.
  case device
  /// "Interpolates gradient colors in a perceptual color space" (Apple, which does not name the
  /// space): Oklab here, so equal steps look equal and blue to white does not pass through
  /// purple.
  case perceptual
}

/// One colour stop: a straight-alpha colour at a location along the gradient (0...1).
public struct GradientStop: Hashable, Sendable {
  public var color: Color
  public var location: Double

  public init(_ color: Color, at location: Double) {
    self.color = color
    self.location = location
  }
}

/// SwiftUI's `Gradient`: colour stops in order of location (a stable sort of what was given, so
/// two stops at one location make a hard edge, the first on the near side), interpolated in a
/// colour space with premultiplied alpha (a fade to `clear` keeps its hue instead of darkening
/// through the transparent black of `clear`). Before the first stop and after the last the end
/// colours continue (Core Graphics' and SwiftUI's "extend" drawing).
public struct Gradient: Hashable, Sendable {
  public let stops: [GradientStop]
  public let colorSpace: GradientColorSpace

  /// A gradient of `stops` (at least one; locations clamped to 0...1).
  public init(stops: [GradientStop], colorSpace: GradientColorSpace = .device) {
    let clamped = stops.map { GradientStop($0.color, at: min(max($0.location, 0), 1)) }
    self.stops = clamped.enumerated().sorted {
      ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
    }.map(\.element)
    self.colorSpace = colorSpace
  }

  /// `Gradient(colors:)`: the colours evenly spaced from 0 to 1.
  public init(colors: [Color], colorSpace: GradientColorSpace = .device) {
    let last = Double(max(colors.count - 1, 1))
    self.init(
      stops: colors.enumerated().map {
        GradientStop($1, at: colors.count == 1 ? 0 : Double($0) / last)
      },
      colorSpace: colorSpace)
  }

  /// The colour at `t` (clamped to 0...1) as premultiplied components in 0...1: r, g, b, a. The
  /// analytic value, in doubles; `GradientRamp` samples it for drawing.
  public func premultipliedColor(at t: Double) -> SIMD4<Double> {
    guard let first = stops.first, let last = stops.last else { return .zero }
    let t = min(max(t.isNaN ? 0 : t, 0), 1)
    if t < first.location { return Self.premultiplied(first.color) }
    // The last stop at or before t, and the one after it.
    var index = 0
    while index + 1 < stops.count, stops[index + 1].location <= t { index += 1 }
    guard index + 1 < stops.count else { return Self.premultiplied(last.color) }
    let (a, b) = (stops[index], stops[index + 1])
    let u = (t - a.location) / (b.location - a.location)
    return interpolate(a.color, b.color, u)
  }

  /// Between two stop colours, a fraction `u` of the way, premultiplied.
  func interpolate(_ a: Color, _ b: Color, _ u: Double) -> SIMD4<Double> {
    let (pa, pb) = (Self.premultiplied(a), Self.premultiplied(b))
    switch colorSpace {
    case .device: return pa + (pb - pa) * u
    case .perceptual:
      // Oklab with premultiplied alpha: lightness and the two opponent axes weighted by alpha.
      let (la, lb) = (Oklab.from(a) * a.alpha, Oklab.from(b) * b.alpha)
      let alpha = a.alpha + (b.alpha - a.alpha) * u
      guard alpha > 0 else { return .zero }
      let lab = (la + (lb - la) * u) / alpha
      let rgb = Oklab.toSRGB(lab)
      return SIMD4(rgb.x * alpha, rgb.y * alpha, rgb.z * alpha, alpha)
    }
  }

  /// A straight colour's premultiplied components, each clamped to 0...1.
  static func premultiplied(_ c: Color) -> SIMD4<Double> {
    let alpha = min(max(c.alpha, 0), 1)
    func channel(_ v: Double) -> Double { min(max(v, 0), 1) * alpha }
    return SIMD4(channel(c.red), channel(c.green), channel(c.blue), alpha)
  }
}

/// Björn Ottosson's Oklab (2020), from and to gamma-encoded sRGB.
enum Oklab {
  static func linear(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
  }

  static func encoded(_ v: Double) -> Double {
    let v = min(max(v, 0), 1)
    return v <= 0.003_130_8 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
  }

  /// L, a, b of a straight colour's components (clamped to 0...1).
  static func from(_ c: Color) -> SIMD3<Double> {
    let (r, g, b) = (
      linear(min(max(c.red, 0), 1)), linear(min(max(c.green, 0), 1)),
      linear(min(max(c.blue, 0), 1))
    )
    let l = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
    let m = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
    let s = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
    return SIMD3(
      0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s,
      1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s,
      0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s)
  }

  /// Gamma-encoded sRGB components, clamped to 0...1.
  static func toSRGB(_ lab: SIMD3<Double>) -> SIMD3<Double> {
    let l = lab.x + 0.396_337_777_4 * lab.y + 0.215_803_757_3 * lab.z
    let m = lab.x - 0.105_561_345_8 * lab.y - 0.063_854_172_8 * lab.z
    let s = lab.x - 0.089_484_177_5 * lab.y - 1.291_485_548_0 * lab.z
    let (l3, m3, s3) = (l * l * l, m * m * m, s * s * s)
    return SIMD3(
      encoded(4.076_741_662_1 * l3 - 3.307_711_591_3 * m3 + 0.230_969_929_2 * s3),
      encoded(-1.268_438_004_6 * l3 + 2.609_757_401_1 * m3 - 0.341_319_396_5 * s3),
      encoded(-0.004_196_086_3 * l3 - 0.703_418_614_7 * m3 + 1.707_614_701_0 * s3))
  }
}
