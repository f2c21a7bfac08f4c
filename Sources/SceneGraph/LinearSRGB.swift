#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sRGB's transfer function, both ways, for colours as animation channels: SwiftUI animates a
/// colour through its `Color.Resolved`, whose components are linear sRGB (extended range) and
/// whose `animatableData` is those components and the opacity, so a colour channel moves in
/// linear light and is encoded again for drawing. Straight (not premultiplied) red, green, blue,
/// alpha; alpha is linear already. Extended as Apple's extended sRGB is: odd about 0, and the
/// curve goes on past 1 (a spring's overshoot).
public enum LinearSRGB {
  /// Gamma-encoded components (red, green, blue, alpha) to linear ones.
  public static func linear(_ rgba: [Double]) -> [Double] {
    guard rgba.count == 4 else { return rgba }
    return [decode(rgba[0]), decode(rgba[1]), decode(rgba[2]), rgba[3]]
  }

  /// Linear components (red, green, blue, alpha) to gamma-encoded ones.
  public static func encoded(_ rgba: [Double]) -> [Double] {
    guard rgba.count == 4 else { return rgba }
    return [encode(rgba[0]), encode(rgba[1]), encode(rgba[2]), rgba[3]]
  }

  /// One gamma-encoded component to linear.
  public static func decode(_ v: Double) -> Double {
    let a = abs(v)
    let l = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
    return v < 0 ? -l : l
  }

  /// One linear component to gamma-encoded.
  public static func encode(_ v: Double) -> Double {
    let a = abs(v)
    let e = a <= 0.003_130_8 ? a * 12.92 : 1.055 * pow(a, 1 / 2.4) - 0.055
    return v < 0 ? -e : e
  }
}
