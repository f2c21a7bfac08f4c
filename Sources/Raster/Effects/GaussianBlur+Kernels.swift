import CPixelKernels

// The blur's hot loops, over unsafe buffers: the recursive Gaussian run down columns, eight
// columns at a time in SIMD lanes, and a blocked transpose so rows can be run as columns.
// Scalar twin: `GaussianBlur.columnPassScalar`, checked by BlurTests.

/// A plane of Float samples, row-major with a stride that is a multiple of 8.
struct FloatPlane: Sendable {
  let width: Int
  let height: Int
  let stride: Int
  var values: [Float]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    self.stride = (width + 7) & ~7
    self.values = [Float](repeating: 0, count: stride * height)
  }

  /// Changes the size, keeping the storage when it is large enough. Samples are not cleared:
  /// every pass writes all of `width`; the padding columns up to `stride` are kept at zero.
  mutating func reshape(width: Int, height: Int) {
    let stride = (width + 7) & ~7
    if stride * height > values.count || stride != self.stride {
      self = FloatPlane(width: width, height: height)
    } else {
      self = FloatPlane(reusing: values, width: width, height: height, stride: stride)
    }
  }

  private init(reusing values: [Float], width: Int, height: Int, stride: Int) {
    self.width = width
    self.height = height
    self.stride = stride
    self.values = values
  }
}

extension GaussianBlur {
  typealias Lane = SIMD8<Float>

  /// Runs the recursive Gaussian down every column of `source` into `destination` (same size):
  /// causal pass forward, anticausal pass backward, summed. Samples beyond the plane are zero.
  /// The recursion runs in Float, or in Double for large σ (`DericheCoefficients.isPrecise`).
  static func columnPass(
    _ source: FloatPlane, into destination: inout FloatPlane, _ c: DericheCoefficients
  ) {
    if c.isPrecise {
      columnPass(source, into: &destination, n: c.preciseN, m: c.preciseM, d: c.preciseD)
    } else {
      columnPass(source, into: &destination, n: c.n, m: c.m, d: c.d)
    }
  }

  /// `columnPass` with its state in `Scalar`: eight columns at a time, loaded from and stored to
  /// the Float planes.
  @inline(__always)
  static func columnPass<Scalar: SIMDScalar & BinaryFloatingPoint>(
    _ source: FloatPlane, into destination: inout FloatPlane,
    n: (Scalar, Scalar, Scalar, Scalar), m: (Scalar, Scalar, Scalar, Scalar),
    d: (Scalar, Scalar, Scalar, Scalar)
  ) {
    typealias Wide = SIMD8<Scalar>
    let height = source.height
    let stride = source.stride
    let (n0, n1, n2, n3) = (
      Wide(repeating: n.0), Wide(repeating: n.1), Wide(repeating: n.2), Wide(repeating: n.3)
    )
    let (m1, m2, m3, m4) = (
      Wide(repeating: m.0), Wide(repeating: m.1), Wide(repeating: m.2), Wide(repeating: m.3)
    )
    let (d1, d2, d3, d4) = (
      Wide(repeating: d.0), Wide(repeating: d.1), Wide(repeating: d.2), Wide(repeating: d.3)
    )
    @inline(__always) func widen(_ v: Lane) -> Wide {
      Scalar.self == Float.self ? unsafeBitCast(v, to: Wide.self) : Wide(v)
    }
    @inline(__always) func narrow(_ v: Wide) -> Lane {
      Scalar.self == Float.self ? unsafeBitCast(v, to: Lane.self) : Lane(v)
    }
    source.values.withUnsafeBufferPointer { input in
      destination.values.withUnsafeMutableBufferPointer { output in
        guard let inBase = input.baseAddress, let outBase = output.baseAddress else { return }
        let src = UnsafeRawPointer(inBase)
        let dst = UnsafeMutableRawPointer(outBase)
        for column in Swift.stride(from: 0, to: stride, by: 8) {
          var (x1, x2, x3) = (Wide(), Wide(), Wide())
          var (y1, y2, y3, y4) = (Wide(), Wide(), Wide(), Wide())
          for row in 0..<height {
            let offset = (row * stride + column) * 4
            let x0 = widen(src.loadUnaligned(fromByteOffset: offset, as: Lane.self))
            // The term in the previous output comes last: it alone is on the loop-carried path.
            let partial = n0 * x0 + n1 * x1 + n2 * x2 + n3 * x3 - (d2 * y2 + d3 * y3 + d4 * y4)
            let y = partial - d1 * y1
            dst.storeBytes(of: narrow(y), toByteOffset: offset, as: Lane.self)
            (x3, x2, x1) = (x2, x1, x0)
            (y4, y3, y2, y1) = (y3, y2, y1, y)
          }
          (x1, x2, x3) = (Wide(), Wide(), Wide())
          var x4 = Wide()
          (y1, y2, y3, y4) = (Wide(), Wide(), Wide(), Wide())
          var row = height
          while row > 0 {
            row -= 1
            let offset = (row * stride + column) * 4
            let partial = m1 * x1 + m2 * x2 + m3 * x3 + m4 * x4 - (d2 * y2 + d3 * y3 + d4 * y4)
            let y = partial - d1 * y1
            let causal = widen(dst.loadUnaligned(fromByteOffset: offset, as: Lane.self))
            dst.storeBytes(of: narrow(causal + y), toByteOffset: offset, as: Lane.self)
            (x4, x3, x2, x1) = (
              x3, x2, x1, widen(src.loadUnaligned(fromByteOffset: offset, as: Lane.self))
            )
            (y4, y3, y2, y1) = (y3, y2, y1, y)
          }
        }
      }
    }
  }

  /// `destination[x][y] = source[y][x]`, in 4×4 blocks; `destination` is height×width. Strides
  /// are multiples of 8, so a block may read a source row's padding, which is never written out.
  static func transpose(_ source: FloatPlane, into destination: inout FloatPlane) {
    let (width, height) = (source.width, source.height)
    let (sourceStride, destinationStride) = (source.stride, destination.stride)
    let fullRows = height & ~3
    source.values.withUnsafeBufferPointer { input in
      destination.values.withUnsafeMutableBufferPointer { output in
        guard let srcBase = input.baseAddress, let dstBase = output.baseAddress else { return }
        let src = UnsafeRawPointer(srcBase)
        let dst = UnsafeMutableRawPointer(dstBase)
        typealias Quad = SIMD4<Float>
        for blockY in Swift.stride(from: 0, to: fullRows, by: 4) {
          for blockX in Swift.stride(from: 0, to: width, by: 4) {
            let base = (blockY * sourceStride + blockX) * 4
            let r0 = src.loadUnaligned(fromByteOffset: base, as: Quad.self)
            let r1 = src.loadUnaligned(fromByteOffset: base + sourceStride * 4, as: Quad.self)
            let r2 = src.loadUnaligned(fromByteOffset: base + sourceStride * 8, as: Quad.self)
            let r3 = src.loadUnaligned(fromByteOffset: base + sourceStride * 12, as: Quad.self)
            let columns = (
              Quad(r0[0], r1[0], r2[0], r3[0]), Quad(r0[1], r1[1], r2[1], r3[1]),
              Quad(r0[2], r1[2], r2[2], r3[2]), Quad(r0[3], r1[3], r2[3], r3[3])
            )
            let out = (blockX * destinationStride + blockY) * 4
            let count = min(4, width - blockX)
            dst.storeBytes(of: columns.0, toByteOffset: out, as: Quad.self)
            if count > 1 {
              dst.storeBytes(
                of: columns.1, toByteOffset: out + destinationStride * 4, as: Quad.self)
            }
            if count > 2 {
              dst.storeBytes(
                of: columns.2, toByteOffset: out + destinationStride * 8, as: Quad.self)
            }
            if count > 3 {
              dst.storeBytes(
                of: columns.3, toByteOffset: out + destinationStride * 12, as: Quad.self)
            }
          }
        }
        // The last rows that do not fill a block.
        for y in fullRows..<height {
          for x in 0..<width {
            dstBase[x * destinationStride + y] = srcBase[y * sourceStride + x]
          }
        }
      }
    }
  }

  /// Added to every sample so the recursive filter's tails settle at this tiny value instead of
  /// decaying into subnormal floats, whose arithmetic is tens of times slower on x86 (a σ = 1
  /// blur of a mostly empty canvas ran 2.5× slower than σ = 6 before it). It is far below
  /// anything that survives rounding to 8 bits.
  static let denormalGuard: Float = 1e-18

  /// Bytes (one channel every `step` bytes, from `offset`) into a plane, as 0...255 floats.
  static func load(
    _ bytes: UnsafeRawBufferPointer, step: Int, offset: Int, into plane: inout FloatPlane
  ) {
    let (width, height, stride) = (plane.width, plane.height, plane.stride)
    guard let base = bytes.baseAddress else { return }
    let source = base.assumingMemoryBound(to: UInt8.self) + offset
    plane.values.withUnsafeMutableBufferPointer { values in
      guard let destination = values.baseAddress else { return }
      for y in 0..<height {
        let row = source + y * width * step
        let out = destination + y * stride
        for x in 0..<width { out[x] = Float(row[x &* step]) + denormalGuard }
      }
    }
  }

  /// A plane back into bytes, rounded to nearest and clamped to 0...255, and for premultiplied
  /// colour channels to the pixel's alpha (at `ceilingOffset`), so a channel never exceeds it.
  static func store(
    _ plane: FloatPlane, into bytes: UnsafeMutableRawBufferPointer, step: Int, offset: Int,
    ceilingOffset: Int?
  ) {
    let (width, height, stride) = (plane.width, plane.height, plane.stride)
    guard let base = bytes.baseAddress else { return }
    let pixels = base.assumingMemoryBound(to: UInt8.self)
    plane.values.withUnsafeBufferPointer { values in
      guard let source = values.baseAddress else { return }
      for y in 0..<height {
        let row = source + y * stride
        let out = pixels + y * width * step
        for x in 0..<width {
          let v = min(max(row[x], 0), 255)
          var byte = UInt8(truncatingIfNeeded: (v + 8_388_608).bitPattern)
          if let ceilingOffset { byte = min(byte, out[x &* step + ceilingOffset]) }
          out[x &* step + offset] = byte
        }
      }
    }
  }
}

extension GaussianBlur {
  /// Samples `plane` (blurred coverage, floats within 0...255) moved by a constant `shift` in pixels into
  /// `mask`: `mask[x, y]` is the plane bilinearly interpolated at index `(x + shift.x, y +
  /// shift.y)`, zero outside the plane, rounded to nearest and clamped to 0...255 as `store`
  /// rounds. The weights are the same for every pixel, so this is two fixed two-tap filters.
  /// Scalar twin: `shiftScalar`, checked by BlurTests.
  static func shift(_ plane: FloatPlane, by shift: (x: Double, y: Double), into mask: inout Mask) {
    let (outWidth, outHeight) = (mask.width, mask.height)
    let (width, height, stride) = (plane.width, plane.height, plane.stride)
    let whole = (x: shift.x.rounded(.down), y: shift.y.rounded(.down))
    guard whole.x.magnitude < 1e9, whole.y.magnitude < 1e9 else {
      mask.values.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
      return
    }
    let (dx, dy) = (Int(whole.x), Int(whole.y))
    let wx = Float(shift.x - whole.x)
    let wy = Float(shift.y - whole.y)
    // Output columns whose two taps can reach the plane: x + dx + 1 >= 0 and x + dx < width.
    let firstX = min(max(-dx - 1, 0), outWidth)
    let endX = min(max(width - dx, firstX), outWidth)
    // One row of the vertical blend, with a zero before and after it; then a row of sums plus
    // the rounding constant.
    var row = [Float](repeating: 0, count: width + 2)
    var sums = [Float](repeating: 0, count: max(endX - firstX, 0))
    plane.values.withUnsafeBufferPointer { values in
      mask.values.withUnsafeMutableBufferPointer { out in
        row.withUnsafeMutableBufferPointer { blended in
          sums.withUnsafeMutableBufferPointer { added in
            guard let source = values.baseAddress, let target = out.baseAddress,
              let line = blended.baseAddress, let rounded = added.baseAddress ?? blended.baseAddress
            else { return }
            for y in 0..<outHeight {
              let output = target + y * outWidth
              let top = y + dy
              guard top + 1 >= 0, top < height else {
                output.update(repeating: 0, count: outWidth)
                continue
              }
              let (upper, lower) = (top >= 0, top + 1 < height)
              let a = source + (upper ? top : 0) * stride
              let b = source + (lower ? top + 1 : 0) * stride
              let (ka, kb) = (upper ? 1 - wy : 0, lower ? wy : 0)
              blendRows(a, ka, b, kb, into: line + 1, columns: 0..<width)
              output.update(repeating: 0, count: firstX)
              // Samples and weights lie in 0...255 and 0...1, so the sums need no clamping; the
              // rounding constant is added in the SIMD pass and the bytes taken in a plain loop
              // (min/max on SIMD types are not inlined; this loop vectorizes).
              let taps = line + (firstX + dx + 1)  // taps[i]: the left tap of output firstX + i
              let count = endX - firstX
              let (left, right) = (Lane(repeating: 1 - wx), Lane(repeating: wx))
              let magic = Lane(repeating: 8_388_608)
              var i = 0
              while i + 8 <= count {
                let pair = UnsafeRawPointer(taps + i)
                let v =
                  left * pair.loadUnaligned(as: Lane.self)
                  + right * pair.loadUnaligned(fromByteOffset: 4, as: Lane.self)
                UnsafeMutableRawPointer(rounded + i).storeBytes(of: v + magic, as: Lane.self)
                i += 8
              }
              while i < count {
                rounded[i] = (1 - wx) * taps[i] + wx * taps[i + 1] + 8_388_608
                i += 1
              }
              let bytes = output + firstX
              for i in 0..<count { bytes[i] = UInt8(truncatingIfNeeded: rounded[i].bitPattern) }
              (output + endX).update(repeating: 0, count: outWidth - endX)
            }
          }
        }
      }
    }
  }
}

/// An affine map from a mask's pixel indices to a plane's sample indices: sample index
/// `(m00·x + m01·y + ox, m10·x + m11·y + oy)` for mask pixel `(x, y)`.
struct PlaneMap: Hashable, Sendable {
  var m00: Double
  var m01: Double
  var m10: Double
  var m11: Double
  var ox: Double
  var oy: Double

  var isShift: Bool { m00 == 1 && m01 == 0 && m10 == 0 && m11 == 1 }
  var isAxisAligned: Bool { m01 == 0 && m10 == 0 }
}

extension GaussianBlur {
  /// The horizontal pass of `resample`, the twin of `cpk_resample_row` (CPixelKernels): output
  /// `i` is the low byte of (1 − weights[i])·line[taps[i]] + weights[i]·line[taps[i] + 1] + 2^23
  /// in Float, the sample rounded to a whole level (samples 0…255, weights 0…1).
  static func resampleRowPlainly(
    _ line: UnsafePointer<Float>, taps: UnsafePointer<Int32>, weights: UnsafePointer<Float>,
    into output: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    for x in 0..<count {
      let (index, wx) = (Int(taps[x]), weights[x])
      let value = (1 - wx) * line[index] + wx * line[index + 1] + 8_388_608
      output[x] = UInt8(truncatingIfNeeded: value.bitPattern)
    }
  }

  /// `line[x] = ka·a[x] + kb·b[x]` for `x` in `columns`, eight at a time (the vertical half of a
  /// bilinear sample; `shift` and `resample` both blend two plane rows so).
  @inline(__always)
  static func blendRows(
    _ a: UnsafePointer<Float>, _ ka: Float, _ b: UnsafePointer<Float>, _ kb: Float,
    into line: UnsafeMutablePointer<Float>, columns: Range<Int>
  ) {
    var x = columns.lowerBound
    let (wa, wb) = (Lane(repeating: ka), Lane(repeating: kb))
    while x + 8 <= columns.upperBound {
      let top = UnsafeRawPointer(a + x).loadUnaligned(as: Lane.self)
      let bottom = UnsafeRawPointer(b + x).loadUnaligned(as: Lane.self)
      UnsafeMutableRawPointer(line + x).storeBytes(of: wa * top + wb * bottom, as: Lane.self)
      x += 8
    }
    while x < columns.upperBound {
      line[x] = ka * a[x] + kb * b[x]
      x += 1
    }
  }
}

extension GaussianBlur {
  /// Samples `plane` (floats within 0...255) through `map` into `mask`, bilinearly, zero outside
  /// the plane, each pixel blended down then across and rounded once. A shift goes to `shift`;
  /// an axis-aligned map reads the same two rows for a whole output row, with each column's
  /// taps and weight computed once. Scalar twin: `resampleScalar`, checked by
  /// ResampledShadowTests.
  static func resample(_ plane: FloatPlane, through map: PlaneMap, into mask: inout Mask) {
    if map.isShift { return shift(plane, by: (map.ox, map.oy), into: &mask) }
    let (outWidth, outHeight) = (mask.width, mask.height)
    let (width, height, stride) = (plane.width, plane.height, plane.stride)
    func tap(_ u: Double) -> (index: Int, weight: Float)? {
      let whole = u.rounded(.down)
      guard whole >= -1, whole < Double(max(width, height)) else { return nil }
      return (Int(whole), Float(u - whole))
    }
    plane.values.withUnsafeBufferPointer { values in
      mask.values.withUnsafeMutableBufferPointer { out in
        guard let source = values.baseAddress, let target = out.baseAddress else { return }
        @inline(__always) func sample(_ x: Int, _ y: Int) -> Float {
          x >= 0 && x < width && y >= 0 && y < height ? source[y * stride + x] : 0
        }
        guard map.isAxisAligned else {
          for y in 0..<outHeight {
            for x in 0..<outWidth {
              let u = map.m00 * Double(x) + map.m01 * Double(y) + map.ox
              let v = map.m10 * Double(x) + map.m11 * Double(y) + map.oy
              guard let (sx, wx) = tap(u), let (sy, wy) = tap(v), sx < width, sy < height else {
                target[y * outWidth + x] = 0
                continue
              }
              let left = (1 - wy) * sample(sx, sy) + wy * sample(sx, sy + 1)
              let right = (1 - wy) * sample(sx + 1, sy) + wy * sample(sx + 1, sy + 1)
              let value = (1 - wx) * left + wx * right + 8_388_608
              target[y * outWidth + x] = UInt8(truncatingIfNeeded: value.bitPattern)
            }
          }
          return
        }
        // Each column's left tap (in `line`, which has a zero before and after the plane's row)
        // and weight; columns that reach no sample read the zero before it. Only the plane
        // columns some tap reads (`used`) are blended: the others keep finite values of rows
        // before (or the first zeros), which only a weight of zero multiplies.
        var columns = [Int32](repeating: 0, count: outWidth)
        var weights = [Float](repeating: 0, count: outWidth)
        var (first, end) = (width, 0)
        for x in 0..<outWidth {
          let u = map.m00 * Double(x) + map.ox  // m01·y adds a zero
          if let (sx, wx) = tap(u), sx < width {
            (columns[x], weights[x]) = (Int32(sx + 1), wx)
            (first, end) = (min(first, max(sx, 0)), max(end, min(sx + 2, width)))
          }
        }
        let used = first..<max(end, first)
        var line = [Float](repeating: 0, count: width + 2)
        columns.withUnsafeBufferPointer { taps in
          weights.withUnsafeBufferPointer { weights in
            line.withUnsafeMutableBufferPointer { blended in
              guard let row = blended.baseAddress, let taps = taps.baseAddress,
                let weights = weights.baseAddress
              else { return }
              for y in 0..<outHeight {
                let output = target + y * outWidth
                guard let (sy, wy) = tap(map.m11 * Double(y) + map.oy), sy < height else {
                  output.update(repeating: 0, count: outWidth)
                  continue
                }
                let (upper, lower) = (sy >= 0, sy + 1 < height)
                blendRows(
                  source + (upper ? sy : 0) * stride, upper ? 1 - wy : 0,
                  source + (lower ? sy + 1 : 0) * stride, lower ? wy : 0, into: row + 1,
                  columns: used)
                cpk_resample_row(row, taps, weights, output, outWidth)
              }
            }
          }
        }
      }
    }
  }
}
