/// Gaussian blur of coverage masks and premultiplied pixmaps, σ in device pixels.
///
/// The blur is Deriche's fourth-order recursive approximation (`DericheCoefficients`), run down
/// the columns, then — after a transpose — down the rows, in Float. Its cost per pixel does not
/// depend on σ, and it stays within a few hundredths of a unit of the exact sampled Gaussian
/// before rounding to 8 bits (BlurTests measure it against a float convolution to ±4σ).
///
/// The image is treated as zero outside its bounds. To keep the whole blur, give the content a
/// transparent margin of `margin(for: σ)` pixels first (`Mask.padded(by:)`); beyond 3σ a fully
/// covered edge blurs to less than half a unit.
public enum GaussianBlur {
  /// Below this σ (pixels) blurring is the identity.
  public static let minimumSigma = 0.05

  /// The largest margin reported: far past any offscreen the work bounds admit, and small
  /// enough that rectangles grown by it cannot overflow.
  public static let maximumMargin = 1 << 26

  /// The margin, in pixels, by which a blur of `sigma` grows a shape's bounds: ⌈3σ⌉, at most
  /// `maximumMargin` (a σ of +∞ — a shadow under a scale of 1e308 — gives that; NaN gives 0).
  public static func margin(for sigma: Double) -> Int {
    guard sigma >= minimumSigma else { return 0 }
    let margin = (3 * sigma).rounded(.up)
    return margin < Double(maximumMargin) ? Int(margin) : maximumMargin
  }

  /// Blurs a coverage mask in place (with scratch planes made for this call; keep a
  /// `GaussianBlurrer` to reuse them).
  public static func blur(_ mask: inout Mask, sigma: Double) {
    var blurrer = GaussianBlurrer()
    blurrer.blur(&mask, sigma: sigma)
  }

  /// Blurs premultiplied pixels in place (see `GaussianBlurrer.blur(_:sigma:)`).
  public static func blur(_ pixmap: inout Pixmap, sigma: Double) {
    var blurrer = GaussianBlurrer()
    blurrer.blur(&pixmap, sigma: sigma)
  }

  /// The plain scalar twin of `columnPass`, one column at a time, same operation order and
  /// precision.
  static func columnPassScalar(
    _ source: FloatPlane, into destination: inout FloatPlane, _ c: DericheCoefficients
  ) {
    if c.isPrecise {
      columnPassScalar(source, into: &destination, n: c.preciseN, m: c.preciseM, d: c.preciseD)
    } else {
      columnPassScalar(source, into: &destination, n: c.n, m: c.m, d: c.d)
    }
  }

  private static func columnPassScalar<Scalar: BinaryFloatingPoint>(
    _ source: FloatPlane, into destination: inout FloatPlane,
    n: (Scalar, Scalar, Scalar, Scalar), m: (Scalar, Scalar, Scalar, Scalar),
    d: (Scalar, Scalar, Scalar, Scalar)
  ) {
    let (height, stride) = (source.height, source.stride)
    for column in 0..<stride {
      var (x1, x2, x3): (Scalar, Scalar, Scalar) = (0, 0, 0)
      var (y1, y2, y3, y4): (Scalar, Scalar, Scalar, Scalar) = (0, 0, 0, 0)
      for row in 0..<height {
        let x0 = Scalar(source.values[row * stride + column])
        let partial = n.0 * x0 + n.1 * x1 + n.2 * x2 + n.3 * x3 - (d.1 * y2 + d.2 * y3 + d.3 * y4)
        let y = partial - d.0 * y1
        destination.values[row * stride + column] = Float(y)
        (x3, x2, x1) = (x2, x1, x0)
        (y4, y3, y2, y1) = (y3, y2, y1, y)
      }
      var x4: Scalar = 0
      (x1, x2, x3) = (0, 0, 0)
      (y1, y2, y3, y4) = (0, 0, 0, 0)
      for row in Swift.stride(from: height - 1, through: 0, by: -1) {
        let partial = m.0 * x1 + m.1 * x2 + m.2 * x3 + m.3 * x4 - (d.1 * y2 + d.2 * y3 + d.3 * y4)
        let y = partial - d.0 * y1
        let causal = Scalar(destination.values[row * stride + column])
        destination.values[row * stride + column] = Float(causal + y)
        (x4, x3, x2, x1) = (x3, x2, x1, Scalar(source.values[row * stride + column]))
        (y4, y3, y2, y1) = (y3, y2, y1, y)
      }
    }
  }
}

extension GaussianBlur {
  /// The plain twin of `shift`: each pixel's four taps read one by one, zero outside the plane,
  /// the same Float arithmetic in the same order.
  static func shiftScalar(
    _ plane: FloatPlane, by shift: (x: Double, y: Double), into mask: inout Mask
  ) {
    let whole = (x: shift.x.rounded(.down), y: shift.y.rounded(.down))
    guard whole.x.magnitude < 1e9, whole.y.magnitude < 1e9 else {
      for i in mask.values.indices { mask.values[i] = 0 }
      return
    }
    let (dx, dy) = (Int(whole.x), Int(whole.y))
    let wx = Float(shift.x - whole.x)
    let wy = Float(shift.y - whole.y)
    func sample(_ x: Int, _ y: Int) -> Float {
      guard (0..<plane.width).contains(x), (0..<plane.height).contains(y) else { return 0 }
      return plane.values[y * plane.stride + x]
    }
    for y in 0..<mask.height {
      for x in 0..<mask.width {
        let (sx, sy) = (x + dx, y + dy)
        let upper = sy >= 0 && sy < plane.height
        let lower = sy + 1 >= 0 && sy + 1 < plane.height
        guard upper || lower, sx + 1 >= 0, sx < plane.width else {
          mask[x, y] = 0
          continue
        }
        let (ka, kb): (Float, Float) = (upper ? 1 - wy : 0, lower ? wy : 0)
        let left = ka * sample(sx, sy) + kb * sample(sx, sy + 1)
        let right = ka * sample(sx + 1, sy) + kb * sample(sx + 1, sy + 1)
        let v = min(max((1 - wx) * left + wx * right, 0), 255)
        mask[x, y] = UInt8(truncatingIfNeeded: (v + 8_388_608).bitPattern)
      }
    }
  }
}

extension GaussianBlur {
  /// The plain twin of `resample`: every pixel's sample position and four taps computed on
  /// their own, the same Float arithmetic in the same order; a shift goes to `shiftScalar`.
  static func resampleScalar(_ plane: FloatPlane, through map: PlaneMap, into mask: inout Mask) {
    if map.isShift { return shiftScalar(plane, by: (map.ox, map.oy), into: &mask) }
    func sample(_ x: Int, _ y: Int) -> Float {
      guard (0..<plane.width).contains(x), (0..<plane.height).contains(y) else { return 0 }
      return plane.values[y * plane.stride + x]
    }
    func tap(_ u: Double, below limit: Int) -> (Int, Float)? {
      let whole = u.rounded(.down)
      guard whole >= -1, whole < Double(limit) else { return nil }
      return (Int(whole), Float(u - whole))
    }
    for y in 0..<mask.height {
      for x in 0..<mask.width {
        let u = map.m00 * Double(x) + map.m01 * Double(y) + map.ox
        let v = map.m10 * Double(x) + map.m11 * Double(y) + map.oy
        guard let (sx, wx) = tap(u, below: plane.width), let (sy, wy) = tap(v, below: plane.height)
        else {
          mask[x, y] = 0
          continue
        }
        let left = (1 - wy) * sample(sx, sy) + wy * sample(sx, sy + 1)
        let right = (1 - wy) * sample(sx + 1, sy) + wy * sample(sx + 1, sy + 1)
        let value = (1 - wx) * left + wx * right + 8_388_608
        mask[x, y] = UInt8(truncatingIfNeeded: value.bitPattern)
      }
    }
  }
}

/// Blurs masks and pixmaps, keeping its Float scratch planes from one call to the next so
/// blurring every frame does not allocate. A value: copies do not share scratch.
public struct GaussianBlurrer: Sendable {
  private var plane = FloatPlane(width: 0, height: 0)
  private var columns = FloatPlane(width: 0, height: 0)
  private var transposed = FloatPlane(width: 0, height: 0)
  private var rows = FloatPlane(width: 0, height: 0)

  public init() {}

  /// Blurs a coverage mask in place with standard deviation `sigma` pixels.
  public mutating func blur(_ mask: inout Mask, sigma: Double) {
    guard sigma >= GaussianBlur.minimumSigma else { return }
    let coefficients = DericheCoefficients(sigma: sigma)
    prepare(width: mask.width, height: mask.height)
    mask.values.withUnsafeBytes { GaussianBlur.load($0, step: 1, offset: 0, into: &plane) }
    blurPlane(coefficients)
    let blurred = plane
    mask.values.withUnsafeMutableBytes {
      GaussianBlur.store(blurred, into: $0, step: 1, offset: 0, ceilingOffset: nil)
    }
  }

  /// The blur of a coverage mask with standard deviation `sigma` pixels, as Float samples
  /// (0...255, not yet rounded): what `blur(_: Mask, sigma:)` rounds into bytes.
  mutating func blurredPlane(of mask: Mask, sigma: Double) -> FloatPlane {
    let coefficients = DericheCoefficients(sigma: max(sigma, GaussianBlur.minimumSigma))
    prepare(width: mask.width, height: mask.height)
    mask.values.withUnsafeBytes { GaussianBlur.load($0, step: 1, offset: 0, into: &plane) }
    blurPlane(coefficients)
    var blurred = plane
    // The recursion overshoots by a fraction of a level: clamped once here, so what samples it
    // (`GaussianBlur.shift`) need not.
    blurred.values.withUnsafeMutableBufferPointer { values in
      for i in values.indices { values[i] = min(max(values[i], 0), 255) }
    }
    return blurred
  }

  /// Blurs premultiplied pixels in place: each channel separately, colour channels capped at the
  /// blurred alpha so pixels stay valid.
  public mutating func blur(_ pixmap: inout Pixmap, sigma: Double) {
    guard sigma >= GaussianBlur.minimumSigma else { return }
    let coefficients = DericheCoefficients(sigma: sigma)
    prepare(width: pixmap.width, height: pixmap.height)
    for channel in [3, 0, 1, 2] {
      pixmap.pixels.withUnsafeBytes {
        GaussianBlur.load($0, step: 4, offset: channel, into: &plane)
      }
      blurPlane(coefficients)
      let blurred = plane
      pixmap.pixels.withUnsafeMutableBytes {
        GaussianBlur.store(
          blurred, into: $0, step: 4, offset: channel, ceilingOffset: channel == 3 ? nil : 3)
      }
    }
  }

  /// `.blur(radius:opaque: true)`: blurs the pixels inside `rect` as if its edge pixels went on
  /// outwards forever (so edges keep their colour), makes them opaque (premultiplied over black:
  /// "the blur renderer" does not "permit transparency", Apple), and clears everything outside
  /// `rect`.
  public mutating func blurOpaque(_ pixmap: inout Pixmap, within rect: IntRect, sigma: Double) {
    let area = rect.intersection(pixmap.bounds)
    guard !area.isEmpty else {
      pixmap.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
      return
    }
    let margin = GaussianBlur.margin(for: sigma)
    let (w, h) = (area.width + 2 * margin, area.height + 2 * margin)
    if sigma >= GaussianBlur.minimumSigma, var extended = Pixmap(width: w, height: h) {
      let (sourceWidth, extendedWidth) = (pixmap.width, w)
      pixmap.pixels.withUnsafeBufferPointer { source in
        extended.pixels.withUnsafeMutableBufferPointer { target in
          for y in 0..<h {
            let sy = min(max(y - margin, 0), area.height - 1) + area.minY
            for x in 0..<w {
              let sx = min(max(x - margin, 0), area.width - 1) + area.minX
              target[y * extendedWidth + x] = source[sy * sourceWidth + sx]
            }
          }
        }
      }
      blur(&extended, sigma: sigma)
      pixmap.pixels.withUnsafeMutableBufferPointer { target in
        extended.pixels.withUnsafeBufferPointer { source in
          for y in 0..<area.height {
            for x in 0..<area.width {
              target[(y + area.minY) * sourceWidth + x + area.minX] =
                source[(y + margin) * extendedWidth + x + margin]
            }
          }
        }
      }
    }
    // Opaque inside the frame, nothing outside it.
    let (width, height) = (pixmap.width, pixmap.height)
    pixmap.pixels.withUnsafeMutableBufferPointer { pixels in
      for y in 0..<height {
        let row = y * width
        guard (area.minY..<area.maxY).contains(y) else {
          for x in 0..<width { pixels[row + x] = 0 }
          continue
        }
        for x in 0..<area.minX { pixels[row + x] = 0 }
        for x in area.minX..<area.maxX { pixels[row + x] |= 0xFF00_0000 }
        for x in area.maxX..<width { pixels[row + x] = 0 }
      }
    }
  }

  private mutating func prepare(width: Int, height: Int) {
    plane.reshape(width: width, height: height)
    columns.reshape(width: width, height: height)
    transposed.reshape(width: height, height: width)
    rows.reshape(width: height, height: width)
  }

  /// Columns, transpose, columns (the former rows), transpose back.
  private mutating func blurPlane(_ coefficients: DericheCoefficients) {
    GaussianBlur.columnPass(plane, into: &columns, coefficients)
    GaussianBlur.transpose(columns, into: &transposed)
    GaussianBlur.columnPass(transposed, into: &rows, coefficients)
    GaussianBlur.transpose(rows, into: &plane)
  }
}

extension Mask {
  /// This mask inside a transparent border `margin` pixels wide; nil if that is too large.
  public func padded(by margin: Int) -> Mask? {
    guard margin >= 0, var result = Mask(width: width + 2 * margin, height: height + 2 * margin)
    else { return nil }
    for y in 0..<height {
      let from = y * width
      let to = (y + margin) * result.width + margin
      result.values.replaceSubrange(to..<(to + width), with: values[from..<(from + width)])
    }
    return result
  }
}
