/// SwiftUI's `Color(hue:saturation:brightness:)`: the hexcone model of HSB (each component
/// 0…1, the hue a fraction of a turn from red) to gamma-encoded sRGB components, for a colour
/// object's `hue`, `saturation` and `brightness` and the expressions' `hsb()`.
enum HueSaturationBrightness {
  static func rgb(
    hue: Double, saturation s: Double, brightness v: Double
  ) -> (Double, Double, Double) {
    let h = (hue - hue.rounded(.down)) * 6
    let sector = Int(h) % 6
    let f = h - Double(Int(h))
    let (p, q, t) = (v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f)))
    switch sector {
    case 0: return (v, t, p)
    case 1: return (q, v, p)
    case 2: return (p, v, t)
    case 3: return (p, q, v)
    case 4: return (t, p, v)
    default: return (v, p, q)
    }
  }
}
