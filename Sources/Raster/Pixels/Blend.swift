/// The scalar definitions of the blend operations, one channel at a time. They are the
/// specification the kernels in `Kernels.swift` must match bit for bit (KernelTests check it).
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
}
