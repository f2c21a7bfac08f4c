/// A colour with straight (not premultiplied) alpha, gamma-encoded sRGB components in 0...1.
public struct Color: Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The colour from 8-bit straight channels.
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.init(
      red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
  }

  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// This colour with its alpha multiplied by `opacity` (clamped to 0...1).
  public func opacity(_ opacity: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha * min(max(opacity, 0), 1))
  }

  /// Each straight channel as a byte, rounded to nearest (components clamped to 0...1).
  public var straightBytes: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
    return (byte(red), byte(green), byte(blue), byte(alpha))
  }

  /// The 8-bit premultiplied pixel of this colour: straight bytes first, then premultiplied with
  /// the one rounding rule of `PremultipliedRGBA8`.
  public var premultiplied: PremultipliedRGBA8 {
    let s = straightBytes
    return PremultipliedRGBA8(straightR: s.r, g: s.g, b: s.b, a: s.a)
  }
}
