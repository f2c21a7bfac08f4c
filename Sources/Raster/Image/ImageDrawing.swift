/// Draws an image into a rectangle of user space under a transform, source-over.
///
/// Under a transform without rotation or skew (the usual case) the image is resampled
/// separably straight onto the device pixels it covers, and the rectangle's fractional edges get
/// their exact area as coverage. Otherwise it is first shrunk with the same filter to at most
/// one source pixel per device pixel, then sampled at each pixel centre with the
/// interpolation's filter (nearest for `.none`, bilinear for `.low`, Mitchell's bicubic for
/// `.medium`, Lanczos for `.high`) under the rectangle's exact-area coverage.
struct ImageDrawing {
  let image: RasterImage
  let rect: Rect
  let interpolation: ImageInterpolation

  func draw(under t: Transform, into target: inout Pixmap, rasterizer: inout Rasterizer) {
    guard rect.width > 0, rect.height > 0, t.determinant != 0, t.determinant.isFinite else {
      return
    }
    if t.b == 0, t.c == 0 {
      drawAligned(under: t, into: &target)
    } else {
      drawTransformed(under: t, into: &target, rasterizer: &rasterizer)
    }
  }

  /// Device pixels `range` of an edge pair `a`…`b` (either order), within 0..<limit.
  private static func pixels(_ a: Double, _ b: Double, limit: Int) -> Range<Int> {
    let (low, high) = (min(a, b), max(a, b))
    // Both ends clamped to just around the target first: far edges must not overflow an Int.
    let bound = Double(limit) + 1
    let start = Int(min(max(low, -1), bound).rounded(.down))
    let end = Int(max(min(high, bound), -1).rounded(.up))
    // An image wholly outside the target has no pixels (and must not form a reversed range).
    let (first, last) = (max(start, 0), min(end, limit))
    return first < last ? first..<last : 0..<0
  }

  /// How much of pixel `i` (of width 1) lies between `a` and `b`.
  private static func overlap(_ i: Int, _ a: Double, _ b: Double) -> Double {
    let (low, high) = (min(a, b), max(a, b))
    return max(0, min(Double(i + 1), high) - max(Double(i), low))
  }

  private func drawAligned(under t: Transform, into target: inout Pixmap) {
    let (x0, x1) = (t.a * rect.minX + t.tx, t.a * rect.maxX + t.tx)
    let (y0, y1) = (t.d * rect.minY + t.ty, t.d * rect.maxY + t.ty)
    let columns = Self.pixels(x0, x1, limit: target.width)
    let rows = Self.pixels(y0, y1, limit: target.height)
    guard !columns.isEmpty, !rows.isEmpty else { return }
    let xs = ImageResampler.Axis(
      outputs: columns, sourceCount: image.width, origin: x0,
      scale: (x1 - x0) / Double(image.width), interpolation: interpolation)
    let ys = ImageResampler.Axis(
      outputs: rows, sourceCount: image.height, origin: y0,
      scale: (y1 - y0) / Double(image.height), interpolation: interpolation)
    let samples = ImageResampler.resample(
      image.pixels, xs: xs, ys: ys, columns: columns.count, rows: rows.count)
    let columnCoverage = columns.map { Self.overlap($0, x0, x1) }
    let width = target.width
    target.pixels.withUnsafeMutableBufferPointer { pixels in
      for (r, y) in rows.enumerated() {
        let rowCoverage = Self.overlap(y, y0, y1)
        for (c, x) in columns.enumerated() {
          let coverage = UInt32((rowCoverage * columnCoverage[c] * 255).rounded())
          guard coverage > 0 else { continue }
          var src = samples[r * columns.count + c]
          if coverage < 255 { src = Kernels.scale(src, by: coverage) }
          let alpha = src >> 24
          let i = y * width + x
          pixels[i] = alpha == 255 ? src : src &+ Kernels.scale(pixels[i], by: 255 - alpha)
        }
      }
    }
  }

  private func drawTransformed(
    under t: Transform, into target: inout Pixmap, rasterizer: inout Rasterizer
  ) {
    guard let inverse = t.inverted else { return }
    // Shrink first when the transform does: at most one source pixel per device pixel.
    let alongX = (t.a * t.a + t.b * t.b).squareRoot() * rect.width / Double(image.width)
    let alongY = (t.c * t.c + t.d * t.d).squareRoot() * rect.height / Double(image.height)
    var source = image.pixels
    if alongX < 1 || alongY < 1, interpolation != .none {
      let w = max(1, Int((Double(image.width) * min(alongX, 1)).rounded(.up)))
      let h = max(1, Int((Double(image.height) * min(alongY, 1)).rounded(.up)))
      let xs = ImageResampler.Axis(
        outputs: 0..<w, sourceCount: image.width, origin: 0,
        scale: Double(w) / Double(image.width), interpolation: interpolation)
      let ys = ImageResampler.Axis(
        outputs: 0..<h, sourceCount: image.height, origin: 0,
        scale: Double(h) / Double(image.height), interpolation: interpolation)
      if let shrunk = Pixmap(
        width: w, height: h,
        pixels: ImageResampler.resample(image.pixels, xs: xs, ys: ys, columns: w, rows: h))
      {
        source = shrunk
      }
    }
    // The rectangle's device box, on the target.
    let corners = [
      Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.minX, rect.maxY),
      Point(rect.maxX, rect.maxY),
    ].map(t.apply)
    let columns = Self.pixels(
      corners.map(\.x).min() ?? 0, corners.map(\.x).max() ?? 0, limit: target.width)
    let rows = Self.pixels(
      corners.map(\.y).min() ?? 0, corners.map(\.y).max() ?? 0, limit: target.height)
    guard !columns.isEmpty, !rows.isEmpty else { return }
    let toBox = t.concatenating(
      .translation(Double(-columns.lowerBound), Double(-rows.lowerBound)))
    guard
      let coverage = rasterizer.mask(
        of: .rect(rect), transform: toBox, width: columns.count, height: rows.count)
    else { return }
    let (sw, sh) = (source.width, source.height)
    let (unitX, unitY) = (Double(sw) / rect.width, Double(sh) / rect.height)
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
      let p = source.pixels[min(max(y, 0), sh - 1) * sw + min(max(x, 0), sw - 1)]
      return SIMD4(
        Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
    }
    let width = target.width
    // The filter's taps on each axis: from `reach` − 1 before the sample's pixel to `reach`
    // after it.
    let reach = Int(interpolation.support.rounded(.up))
    let taps = 2 * reach
    assert(taps <= 8, "a filter of at most 8 taps an axis (SIMD8)")
    // The filter sampled every 1/1024 of a source pixel out to its reach, read with linear
    // interpolation (Lanczos's sines at every tap of every pixel cost five times the drawing).
    let steps = 1024.0
    let table = (0...(reach * 1024 + 1)).map { interpolation.weight(Double($0) / steps) }
    func weight(_ x: Double) -> Double {
      let position = min(abs(x) * steps, Double(table.count - 2))
      let i = Int(position)
      return table[i] + (table[i + 1] - table[i]) * (position - Double(i))
    }
    for (r, y) in rows.enumerated() {
      for (c, x) in columns.enumerated() {
        let cover = UInt32(coverage.values[r * columns.count + c])
        guard cover > 0 else { continue }
        let user = inverse.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
        let u = (user.x - rect.minX) * unitX - 0.5
        let v = (user.y - rect.minY) * unitY - 0.5
        let value: SIMD4<Float>
        if interpolation == .none {
          value = texel(Int((u + 0.5).rounded(.down)), Int((v + 0.5).rounded(.down)))
        } else if interpolation == .low {
          let (iu, iv) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
          let (fu, fv) = (Float(u - Double(iu)), Float(v - Double(iv)))
          let top = texel(iu, iv) * (1 - fu) + texel(iu + 1, iv) * fu
          let bottom = texel(iu, iv + 1) * (1 - fu) + texel(iu + 1, iv + 1) * fu
          value = top * (1 - fv) + bottom * fv
        } else {
          // The interpolation's own filter (Mitchell's bicubic, or Lanczos), separable, its
          // taps about the sample normalised: an enlarged image is as sharp under a rotation
          // as without one.
          let (iu, iv) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
          // In registers: no array per pixel.
          var (wu, wv) = (SIMD8<Double>(), SIMD8<Double>())
          var (su, sv) = (0.0, 0.0)
          for k in 0..<taps {
            wu[k] = weight(u - Double(iu + k - reach + 1))
            wv[k] = weight(v - Double(iv + k - reach + 1))
            (su, sv) = (su + wu[k], sv + wv[k])
          }
          var sum = SIMD4<Float>(repeating: 0)
          for j in 0..<taps where wv[j] != 0 {
            var row = SIMD4<Float>(repeating: 0)
            for k in 0..<taps where wu[k] != 0 {
              row += texel(iu + k - reach + 1, iv + j - reach + 1) * Float(wu[k] / su)
            }
            sum += row * Float(wv[j] / sv)
          }
          value = sum
        }
        let a = min(max(value.w, 0), 255)
        var src =
          UInt32(min(max(value.x, 0), a) + 0.5) | UInt32(min(max(value.y, 0), a) + 0.5) << 8
          | UInt32(min(max(value.z, 0), a) + 0.5) << 16 | UInt32(a + 0.5) << 24
        if cover < 255 { src = Kernels.scale(src, by: cover) }
        let alpha = src >> 24
        let i = y * width + x
        target.pixels[i] =
          alpha == 255 ? src : src &+ Kernels.scale(target.pixels[i], by: 255 - alpha)
      }
    }
  }
}
