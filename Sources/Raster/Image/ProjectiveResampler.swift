/// Draws a pixmap through a projective map: for each target pixel the source is sampled at the
/// pixel's preimage, bilinearly at 2×2 points inside the pixel (so a map that shrinks the source
/// up to about twice still averages what it covers), times a coverage mask, and blended
/// source-over. Pixels are premultiplied on both sides; source pixels outside the source count
/// as transparent.
///
/// `draw` is the kernel (unsafe buffers); `drawReference` is its plain twin, pixel by pixel
/// through subscripts, which tests hold it to.
enum ProjectiveResampler {
  /// The 2×2 sample points inside a pixel, as offsets from its top left.
  static let taps: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]

  /// Blends `source`, seen through `toSource` (target pixel coordinates → source pixel
  /// coordinates, homogeneous: preimages with `W ≤ 0` lie behind the eye and are skipped), over
  /// the pixels of `box` (within `target`), each times `coverage[x − box.minX, y − box.minY]`.
  static func draw(
    _ source: Pixmap, through toSource: Projection, box: IntRect, coverage: Mask,
    onto target: inout Pixmap
  ) {
    let box = box.intersection(target.bounds)
    guard !box.isEmpty, coverage.width >= box.width, coverage.height >= box.height else { return }
    let (sw, sh, tw) = (source.width, source.height, target.width)
    let m = toSource
    source.pixels.withUnsafeBufferPointer { src in
      coverage.values.withUnsafeBufferPointer { cover in
        target.pixels.withUnsafeMutableBufferPointer { dst in
          for y in box.minY..<box.maxY {
            let coverRow = (y - box.minY) * coverage.width - box.minX
            for x in box.minX..<box.maxX {
              let k = UInt32(cover[coverRow + x])
              guard k > 0 else { continue }
              var sum = SIMD4<Float>(repeating: 0)
              for (dx, dy) in taps {
                let (u, v) = (Double(x) + dx, Double(y) + dy)
                let w = m.m13 * u + m.m23 * v + m.m33
                guard w > 0 else { continue }
                let sx = (m.m11 * u + m.m21 * v + m.m31) / w - 0.5
                let sy = (m.m12 * u + m.m22 * v + m.m32) / w - 0.5
                sum += bilinear(src, sw, sh, sx, sy)
              }
              let pixel = pack(sum * 0.25)
              guard pixel != 0 else { continue }
              let scaled = k < 255 ? Kernels.scale(pixel, by: k) : pixel
              let i = y * tw + x
              let alpha = scaled >> 24
              dst[i] = alpha == 255 ? scaled : scaled &+ Kernels.scale(dst[i], by: 255 - alpha)
            }
          }
        }
      }
    }
  }

  /// `draw`'s plain twin.
  static func drawReference(
    _ source: Pixmap, through toSource: Projection, box: IntRect, coverage: Mask,
    onto target: inout Pixmap
  ) {
    let box = box.intersection(target.bounds)
    guard !box.isEmpty else { return }
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
      guard x >= 0, y >= 0, x < source.width, y < source.height else { return .zero }
      let p = source[x, y]
      return SIMD4(Float(p.r), Float(p.g), Float(p.b), Float(p.a))
    }
    for y in box.minY..<box.maxY {
      for x in box.minX..<box.maxX {
        let k = UInt32(coverage[x - box.minX, y - box.minY])
        guard k > 0 else { continue }
        var sum = SIMD4<Float>(repeating: 0)
        for (dx, dy) in taps {
          let (u, v) = (Double(x) + dx, Double(y) + dy)
          let m = toSource
          let w = m.m13 * u + m.m23 * v + m.m33
          guard w > 0 else { continue }
          let sx = (m.m11 * u + m.m21 * v + m.m31) / w - 0.5
          let sy = (m.m12 * u + m.m22 * v + m.m32) / w - 0.5
          let (fx, fy) = (sx.rounded(.down), sy.rounded(.down))
          let (ix, iy) = (Int(fx), Int(fy))
          let (ax, ay) = (Float(sx - fx), Float(sy - fy))
          let top = texel(ix, iy) * (1 - ax) + texel(ix + 1, iy) * ax
          let bottom = texel(ix, iy + 1) * (1 - ax) + texel(ix + 1, iy + 1) * ax
          sum += top * (1 - ay) + bottom * ay
        }
        let pixel = pack(sum * 0.25)
        guard pixel != 0 else { continue }
        let scaled = k < 255 ? Kernels.scale(pixel, by: k) : pixel
        let alpha = scaled >> 24
        let below = target.pixels[y * target.width + x]
        target.pixels[y * target.width + x] =
          alpha == 255 ? scaled : scaled &+ Kernels.scale(below, by: 255 - alpha)
      }
    }
  }

  /// The bilinear sample at source pixel coordinates (x, y) measured from the first pixel's
  /// centre; texels outside are transparent.
  @inline(__always)
  private static func bilinear(
    _ src: UnsafeBufferPointer<UInt32>, _ width: Int, _ height: Int, _ x: Double, _ y: Double
  ) -> SIMD4<Float> {
    // Far preimages (near the eye's plane) are clamped before they become Ints.
    guard x > -2, y > -2, x < Double(width) + 1, y < Double(height) + 1 else { return .zero }
    let (fx, fy) = (x.rounded(.down), y.rounded(.down))
    let (ix, iy) = (Int(fx), Int(fy))
    let (ax, ay) = (Float(x - fx), Float(y - fy))
    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
      guard x >= 0, y >= 0, x < width, y < height else { return .zero }
      let p = src[y * width + x]
      return SIMD4(
        Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
    }
    let top = texel(ix, iy) * (1 - ax) + texel(ix + 1, iy) * ax
    let bottom = texel(ix, iy + 1) * (1 - ax) + texel(ix + 1, iy + 1) * ax
    return top * (1 - ay) + bottom * ay
  }

  /// Premultiplied channels (0…255) packed, colour kept within alpha.
  @inline(__always)
  private static func pack(_ value: SIMD4<Float>) -> UInt32 {
    let a = min(max(value.w, 0), 255)
    return UInt32(min(max(value.x, 0), a) + 0.5) | UInt32(min(max(value.y, 0), a) + 0.5) << 8
      | UInt32(min(max(value.z, 0), a) + 0.5) << 16 | UInt32(a + 0.5) << 24
  }
}
