/// The scalar definitions of the blend operations, one channel and one pixel at a time. They are
/// the specification the kernels in `Kernels.swift` must match bit for bit (PixelTests and
/// KernelTwinTests check it).
public enum Blend {
  /// Porter–Duff source-over on premultiplied pixels: `src + dst·(255 − src.a)/255`, each
  /// product rounded to nearest.
  @inlinable public static func sourceOver(
    _ src: PremultipliedRGBA8, _ dst: PremultipliedRGBA8
  )
    -> PremultipliedRGBA8
  {
    let inverse = 255 - UInt32(src.a)
    func channel(_ s: UInt8, _ d: UInt8) -> UInt8 {
      UInt8(truncatingIfNeeded: UInt32(s) + PremultipliedRGBA8.div255(UInt32(d) * inverse))
    }
    return PremultipliedRGBA8(
      r: channel(src.r, dst.r), g: channel(src.g, dst.g), b: channel(src.b, dst.b),
      a: channel(src.a, dst.a))
  }

  /// Coverage composited over a mask value, as alpha composites: `c + m·(255 − c)/255`, the
  /// coverage first scaled by `alpha`/255 (the twin of `MaskOverRow`).
  @inlinable public static func maskOver(coverage: UInt8, alpha: UInt8, onto mask: UInt8) -> UInt8 {
    let c = PremultipliedRGBA8.div255(UInt32(coverage) * UInt32(alpha))
    return UInt8(truncatingIfNeeded: c + PremultipliedRGBA8.div255(UInt32(mask) * (255 - c)))
  }

  /// Each channel times `k`/255, rounded to nearest: a pixel under a clip's coverage or a mask's
  /// alpha (the twin of `Kernels.multiply`).
  @inlinable public static func multiply(
    _ pixel: PremultipliedRGBA8, by k: UInt8
  )
    -> PremultipliedRGBA8
  {
    func channel(_ c: UInt8) -> UInt8 {
      UInt8(truncatingIfNeeded: PremultipliedRGBA8.div255(UInt32(c) * UInt32(k)))
    }
    return PremultipliedRGBA8(
      r: channel(pixel.r), g: channel(pixel.g), b: channel(pixel.b), a: channel(pixel.a))
  }

  /// A pixmap's alpha as a mask of the same size (the twin of `Kernels.extractAlpha`).
  public static func alpha(of pixmap: Pixmap) -> [UInt8] {
    pixmap.pixels.map { PremultipliedRGBA8(packed: $0).a }
  }

  /// `source` scaled by `opacity`/255, source-over onto `target` with its top-left corner at
  /// `origin`; pixels outside the target skipped (the twin of `Kernels.composite`).
  public static func composite(
    _ source: Pixmap, at origin: (x: Int, y: Int), onto target: inout Pixmap, opacity: UInt8
  ) {
    for sy in 0..<source.height {
      for sx in 0..<source.width {
        let (x, y) = (origin.x + sx, origin.y + sy)
        guard x >= 0, y >= 0, x < target.width, y < target.height else { continue }
        let s = source[sx, sy].scaled(by: opacity)
        target[x, y] = sourceOver(s, target[x, y])
      }
    }
  }

  /// A shadow of `color` × `coverage` put beneath premultiplied `content` (the twin of
  /// `Kernels.placeShadow`).
  @inlinable public static func shadow(
    _ color: PremultipliedRGBA8, coverage: UInt8, under content: PremultipliedRGBA8
  ) -> PremultipliedRGBA8 {
    sourceOver(content, color.scaled(by: coverage))
  }
}
