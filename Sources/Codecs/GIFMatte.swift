import Raster

/// How a frame with transparency becomes a GIF's pixels, which are either opaque or fully
/// transparent: a pixel whose alpha is below one half (a < 128 of 255) becomes transparent, and
/// every other one is composited over the matte colour and made opaque — shadow edges and
/// anti-aliasing blend into the page colour the GIF is meant for (gifski's and ImageMagick's
/// `-background … -flatten` for GIF work the same way; GIF has one bit of alpha).
public struct GIFMatte: Hashable, Sendable {
  /// The colour partial alpha is composited over, 0xRRGGBB (straight, opaque).
  public var rgb: UInt32

  /// Alpha from which a pixel is opaque (one half of 255, rounded up).
  public static let opaqueFrom: UInt32 = 128
  /// White: the default matte (most pages are light).
  public static let white = GIFMatte(Color.white)

  /// A matte of `color`'s red, green and blue; its alpha is ignored (a matte is opaque).
  public init(_ color: Color) {
    let c = Color(red: color.red, green: color.green, blue: color.blue).premultiplied
    rgb = UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
  }

  /// `pixels` (packed premultiplied RGBA, as `Pixmap` stores them) as a GIF shows them: opaque
  /// pixels composited over the matte (alpha 255), the rest 0 (transparent).
  /// A channel becomes c + (255 − a)·m / 255, rounded to nearest, in integers.
  public func apply(_ pixels: [UInt32]) -> [UInt32] {
    let m = (rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF)
    return pixels.map { p in
      let a = p >> 24
      if a == 255 { return p }
      guard a >= Self.opaqueFrom else { return 0 }
      let k = 255 - a
      func over(_ c: UInt32, _ m: UInt32) -> UInt32 { min(255, c + (k * m + 127) / 255) }
      return over(p & 0xFF, m.0) | over(p >> 8 & 0xFF, m.1) << 8 | over(p >> 16 & 0xFF, m.2) << 16
        | 0xFF00_0000
    }
  }

  /// `pixmap`'s pixels matted, in a pixmap of the same size.
  public func apply(_ pixmap: Pixmap) -> Pixmap {
    Pixmap(width: pixmap.width, height: pixmap.height, pixels: apply(pixmap.pixels)) ?? pixmap
  }
}
