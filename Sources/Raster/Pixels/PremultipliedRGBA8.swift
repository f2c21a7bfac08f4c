/// One pixel, 8 bits a channel, colour channels premultiplied by alpha (each ≤ `a` when valid).
///
/// In memory a pixel is the bytes r, g, b, a in that order; `packed` is that as a little-endian
/// UInt32 (r in the low byte), the form `Pixmap` stores.
public struct PremultipliedRGBA8: Hashable, Sendable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  @inlinable public init(packed: UInt32) {
    r = UInt8(truncatingIfNeeded: packed)
    g = UInt8(truncatingIfNeeded: packed >> 8)
    b = UInt8(truncatingIfNeeded: packed >> 16)
    a = UInt8(truncatingIfNeeded: packed >> 24)
  }

  @inlinable public var packed: UInt32 {
    UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
  }

  public static let transparent = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0)

  /// True when no colour channel exceeds alpha.
  public var isValid: Bool { r <= a && g <= a && b <= a }

  /// Premultiplies straight 8-bit channels: c·a/255, rounded to nearest.
  @inlinable public init(straightR r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    self.init(
      r: Self.premultiply(r, a), g: Self.premultiply(g, a), b: Self.premultiply(b, a), a: a)
  }

  /// The straight (un-premultiplied) channels: c·255/a rounded to nearest and capped at 255;
  /// all zero when a = 0.
  @inlinable public var straight: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    (Self.unpremultiply(r, a), Self.unpremultiply(g, a), Self.unpremultiply(b, a), a)
  }

  /// c·a/255 rounded to nearest, exactly, for any c and a.
  @inlinable public static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    UInt8(truncatingIfNeeded: div255(UInt32(c) * UInt32(a)))
  }

  /// c·255/a rounded to nearest, capped at 255; 0 when a = 0. For every a and every c ≤ a,
  /// `premultiply(unpremultiply(c, a), a) == c` (tested over all pairs).
  @inlinable public static func unpremultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    guard a != 0 else { return 0 }
    let v = (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a)
    return UInt8(truncatingIfNeeded: min(v, 255))
  }

  /// x/255 rounded to nearest, exact for 0 ≤ x ≤ 255·255 (the div-by-255 trick).
  @inlinable public static func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
  }

  /// This colour scaled by `coverage`/255 (every channel, alpha too), rounded to nearest.
  @inlinable public func scaled(by coverage: UInt8) -> PremultipliedRGBA8 {
    let k = UInt32(coverage)
    return PremultipliedRGBA8(
      r: UInt8(truncatingIfNeeded: Self.div255(UInt32(r) * k)),
      g: UInt8(truncatingIfNeeded: Self.div255(UInt32(g) * k)),
      b: UInt8(truncatingIfNeeded: Self.div255(UInt32(b) * k)),
      a: UInt8(truncatingIfNeeded: Self.div255(UInt32(a) * k)))
  }
}
