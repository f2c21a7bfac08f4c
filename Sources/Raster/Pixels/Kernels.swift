// The pixel hot loops, over unsafe buffers. Each has a scalar twin in `Blend.swift` (the row
// writers' `pixel` also its own `span`) and a test that they agree on every input class:
// sourceOver, fill, scale and the row writers in PixelTests; composite, extractAlpha and
// MaskOverRow in KernelTwinTests; placeShadow in PixelTests; the shadowed composite in
// KernelTwinTests (against placeShadow then composite).
//
// Pixels are premultiplied RGBA8 packed little-endian in a UInt32 (r in the low byte). The blend
// handles two channels per 32-bit lane pair (r and b, then g and a), each 16 bits wide, so one
// multiply serves two channels; the div-by-255 rounding is the same as `div255`.

import CPixelKernels

/// Kernels over rows of packed premultiplied pixels.
enum Kernels {
  /// `dst[i] = src over dst[i]` for `count` pixels; `src` is packed premultiplied.
  @inline(__always)
  static func sourceOver(_ src: UInt32, onto dst: UnsafeMutablePointer<UInt32>, count: Int) {
    let alpha = src >> 24
    if alpha == 255 {
      fill(dst, with: src, count: count)
      return
    }
    if src == 0 { return }
    let inverse = 255 - alpha
    for i in 0..<count {
      dst[i] = src &+ scale(dst[i], by: inverse)
    }
  }

  /// `count` copies of `value` from `dst`: 16-byte stores, the last one ending at the last pixel
  /// (overlapping the one before it) instead of a loop of single pixels.
  @inline(__always)
  static func fill(_ dst: UnsafeMutablePointer<UInt32>, with value: UInt32, count: Int) {
    guard count >= 4 else {
      // 1 to 3 pixels (a thin stroke's inside, in no predictable order): three stores that
      // cover them, without a loop; pixels 0, count / 2 and count − 1.
      guard count > 0 else { return }
      dst[0] = value
      dst[count &>> 1] = value
      dst[count &- 1] = value
      return
    }
    let quad = SIMD4<UInt32>(repeating: value)
    var block = UnsafeMutableRawPointer(dst)
    for _ in 0..<(count &>> 3) {
      block.storeBytes(of: quad, as: SIMD4<UInt32>.self)
      block.storeBytes(of: quad, toByteOffset: 16, as: SIMD4<UInt32>.self)
      block += 32
    }
    let end = UnsafeMutableRawPointer(dst + count)
    if count & 4 != 0 { block.storeBytes(of: quad, as: SIMD4<UInt32>.self) }
    (end - 16).storeBytes(of: quad, as: SIMD4<UInt32>.self)
  }

  /// Every channel of the packed pixel times `k`/255, rounded to nearest (0 ≤ k ≤ 255): the four
  /// channels spread into 16-bit lanes of one 64-bit word (channels 0 and 2 low, 1 and 3 high),
  /// one multiply, and v·k/255 rounded as (t + (t >> 8)) >> 8 with t = v·k + 128 in each lane
  /// (below 2^16, so no lane carries into the next). `scalePlainly` is its twin (tested for
  /// every channel value and `k`).
  @inline(__always)
  static func scale(_ pixel: UInt32, by k: UInt32) -> UInt32 {
    let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
    let wide = UInt64(pixel)
    var t = ((wide | wide &<< 24) & lanes) &* UInt64(k) &+ 0x0080_0080_0080_0080
    t = ((t &+ ((t &>> 8) & lanes)) &>> 8) & lanes
    return UInt32(truncatingIfNeeded: t | t &>> 24)
  }

  /// `scale` channel by channel: (v·k + 127) / 255 is v·k/255 rounded to nearest (never a tie,
  /// 255 being odd).
  static func scalePlainly(_ pixel: UInt32, by k: UInt32) -> UInt32 {
    var result: UInt32 = 0
    for shift: UInt32 in [0, 8, 16, 24] {
      let v = (pixel >> shift) & 0xFF
      result |= ((v * k + 127) / 255) << shift
    }
    return result
  }
}

/// A writer for one row of a row-major plane (`width` elements a row) that can give the writer for
/// the row `rows` below it.
protocol PlaneRow: CoverageRow {
  func movedDown(_ rows: Int) -> Self
  /// Where this row's pixels lie, for the deposit to prefetch (nil: not worth it).
  var pixelLayout: PixelLayout? { get }
  /// The plane and colour this row blends a solid colour into (nil: it does not).
  var solidColor: SolidColorPlane? { get }
}

extension PlaneRow {
  var pixelLayout: PixelLayout? { nil }
  var solidColor: SolidColorPlane? { nil }
}

/// Coverage into a row-major plane whose row 0 is `first`.
struct PlaneSink<Row: PlaneRow>: CoverageSink {
  let first: Row

  @inline(__always)
  func row(_ y: Int) -> Row { first.movedDown(y) }

  var pixelLayout: PixelLayout? { first.pixelLayout }

  var solidColor: SolidColorPlane? { first.solidColor }
}

/// A premultiplied colour scaled by every coverage: `entries[c]` = `Kernels.scale(packed, by: c)`,
/// so entry 255 is the colour itself. Made once per colour, it turns the scaling of the source in
/// each edge pixel's blend into one load.
struct CoverageScaledColor: Sendable {
  let packed: UInt32
  let entries: [UInt32]

  init(_ color: PremultipliedRGBA8) {
    let packed = color.packed
    self.packed = packed
    entries = (0...255).map { Kernels.scale(packed, by: UInt32($0)) }
  }
}

/// Blends a solid premultiplied colour through coverage into one pixmap row.
struct SolidColorRow: PlaneRow {
  let pixels: UnsafeMutablePointer<UInt32>
  let width: Int
  /// The colour's `CoverageScaledColor.entries`: 256 packed premultiplied pixels.
  let scaled: UnsafePointer<UInt32>

  init(pixels: UnsafeMutablePointer<UInt32>, width: Int, scaled: UnsafePointer<UInt32>) {
    self.pixels = pixels
    self.width = width
    self.scaled = scaled
  }

  @inline(__always)
  func movedDown(_ rows: Int) -> Self {
    Self(pixels: pixels + rows &* width, width: width, scaled: scaled)
  }

  /// Edge pixels are read and written at scattered places of a canvas that is often larger
  /// than the second-level cache: worth fetching while the deposit runs.
  var pixelLayout: PixelLayout? {
    PixelLayout(first: UnsafeRawPointer(pixels), rowBytes: width &* 4, pixelShift: 2)
  }

  var solidColor: SolidColorPlane? {
    SolidColorPlane(pixels: pixels, rowPixels: width, scaled: scaled)
  }

  @inline(__always)
  mutating func span(x: Int, count: Int, coverage: UInt8) {
    Kernels.sourceOver(scaled[Int(coverage)], onto: pixels + x, count: count)
  }

  /// Without branches (edge pixels' coverages change unpredictably): at coverage 0 the source
  /// is 0 and the destination is scaled by 255, which leaves it as it is; an opaque source
  /// scales it by 0.
  @inline(__always)
  mutating func pixel(x: Int, coverage: UInt8) {
    let src = scaled[Int(coverage)]
    pixels[x] = src &+ Kernels.scale(pixels[x], by: 255 - src >> 24)
  }
}

/// Writes coverage into one row of an A8 plane (which starts all zero).
struct MaskRow: PlaneRow {
  let values: UnsafeMutablePointer<UInt8>
  let width: Int

  @inline(__always)
  func movedDown(_ rows: Int) -> Self { Self(values: values + rows &* width, width: width) }

  @inline(__always)
  mutating func span(x: Int, count: Int, coverage: UInt8) {
    (values + x).update(repeating: coverage, count: count)
  }

  @inline(__always)
  mutating func pixel(x: Int, coverage: UInt8) { values[x] = coverage }
}

/// Composites coverage over one row of an A8 plane: m = c + m·(255 − c)/255, c scaled by
/// `alpha`.
struct MaskOverRow: PlaneRow {
  let values: UnsafeMutablePointer<UInt8>
  let width: Int
  let alpha: UInt32

  @inline(__always)
  func movedDown(_ rows: Int) -> Self {
    Self(values: values + rows &* width, width: width, alpha: alpha)
  }

  @inline(__always)
  mutating func span(x: Int, count: Int, coverage: UInt8) {
    let c = scaled(coverage)
    let row = values + x
    if c == 255 {
      row.update(repeating: 255, count: count)
      return
    }
    for i in 0..<count { row[i] = Self.over(c, row[i]) }
  }

  @inline(__always)
  mutating func pixel(x: Int, coverage: UInt8) {
    values[x] = Self.over(scaled(coverage), values[x])
  }

  @inline(__always)
  private func scaled(_ coverage: UInt8) -> UInt32 {
    alpha == 255 ? UInt32(coverage) : PremultipliedRGBA8.div255(UInt32(coverage) * alpha)
  }

  @inline(__always)
  private static func over(_ c: UInt32, _ m: UInt8) -> UInt8 {
    UInt8(truncatingIfNeeded: c + PremultipliedRGBA8.div255(UInt32(m) * (255 - c)))
  }
}

extension Pixmap {
  /// Calls `body` with the pixel storage as a raw pointer (packed premultiplied, row-major).
  mutating func withUnsafeMutablePixels<R>(_ body: (UnsafeMutablePointer<UInt32>) -> R) -> R {
    pixels.withUnsafeMutableBufferPointer { buffer in
      // A valid pixmap always holds at least one pixel.
      body(buffer.baseAddress.unsafelyUnwrapped)
    }
  }
}

extension Mask {
  mutating func withUnsafeMutableValues<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
    values.withUnsafeMutableBufferPointer { buffer in
      body(buffer.baseAddress.unsafelyUnwrapped)
    }
  }
}

extension Kernels {
  /// `target = pixmap's alpha`, same size.
  static func extractAlpha(_ pixmap: Pixmap, into mask: inout Mask) {
    pixmap.pixels.withUnsafeBufferPointer { pixels in
      mask.values.withUnsafeMutableBufferPointer { values in
        for i in 0..<min(pixels.count, values.count) {
          values[i] = UInt8(truncatingIfNeeded: pixels[i] >> 24)
        }
      }
    }
  }

  /// The alpha of `pixmap` moved by (`dx`, `dy`) whole pixels into `mask` (of the same size):
  /// mask(x, y) = alpha(x − dx, y − dy), 0 where that lies outside.
  static func extractAlpha(
    _ pixmap: Pixmap, shiftedBy shift: (dx: Int, dy: Int), into mask: inout Mask
  ) {
    let (width, height) = (min(pixmap.width, mask.width), min(pixmap.height, mask.height))
    mask.values.withUnsafeMutableBufferPointer { values in
      for i in values.indices { values[i] = 0 }
      guard abs(shift.dx) < width, abs(shift.dy) < height else { return }
      pixmap.pixels.withUnsafeBufferPointer { pixels in
        let columns = max(0, shift.dx)..<min(width, width + shift.dx)
        for y in max(0, shift.dy)..<min(height, height + shift.dy) {
          let from = (y - shift.dy) * pixmap.width - shift.dx
          let to = y * mask.width
          for x in columns {
            values[to + x] = UInt8(truncatingIfNeeded: pixels[from + x] >> 24)
          }
        }
      }
    }
  }

  /// The alpha of `pixmap` moved by (`dx` + `fx`, `dy` + `fy`) pixels into `mask` (of the same
  /// size), 0 ≤ f < 1, by bilinear interpolation: mask(x, y) is alpha at (x − dx − fx,
  /// y − dy − fy) from its four neighbours, with weights in 1/256 (so that the result is the
  /// same on every machine) rounded to nearest; 0 outside. Its plain twin is
  /// `extractAlphaPlainly(_:shiftedBy:fraction:)`.
  static func extractAlpha(
    _ pixmap: Pixmap, shiftedBy shift: (dx: Int, dy: Int), fraction: (fx: Double, fy: Double),
    into mask: inout Mask
  ) {
    let (width, height) = (min(pixmap.width, mask.width), min(pixmap.height, mask.height))
    let wx = Int((fraction.fx * 256).rounded()), wy = Int((fraction.fy * 256).rounded())
    mask.values.withUnsafeMutableBufferPointer { values in
      for i in values.indices { values[i] = 0 }
      guard abs(shift.dx) <= width, abs(shift.dy) <= height else { return }
      pixmap.pixels.withUnsafeBufferPointer { pixels in
        // alpha(sx, sy), 0 outside the pixmap.
        func alpha(_ sx: Int, _ sy: Int) -> Int {
          guard sx >= 0, sx < width, sy >= 0, sy < height else { return 0 }
          return Int(pixels[sy * pixmap.width + sx] >> 24)
        }
        // Rows and columns that can read a pixel of the pixmap.
        let rows = max(0, shift.dy)..<min(mask.height, height + shift.dy + 1)
        let columns = max(0, shift.dx)..<min(mask.width, width + shift.dx + 1)
        for y in rows {
          let sy = y - shift.dy
          for x in columns {
            let sx = x - shift.dx
            let top = alpha(sx, sy) * (256 - wx) + alpha(sx - 1, sy) * wx
            let bottom = alpha(sx, sy - 1) * (256 - wx) + alpha(sx - 1, sy - 1) * wx
            values[y * mask.width + x] = UInt8(
              truncatingIfNeeded: (top * (256 - wy) + bottom * wy + 32_768) >> 16)
          }
        }
      }
    }
  }

  /// `extractAlpha(_:shiftedBy:fraction:into:)` pixel by pixel over the whole mask, in floating
  /// point on the rounded weights.
  static func extractAlphaPlainly(
    _ pixmap: Pixmap, shiftedBy shift: (dx: Int, dy: Int), fraction: (fx: Double, fy: Double),
    width: Int, height: Int
  ) -> [UInt8] {
    let wx = (fraction.fx * 256).rounded() / 256, wy = (fraction.fy * 256).rounded() / 256
    func alpha(_ x: Int, _ y: Int) -> Double {
      guard x >= 0, x < pixmap.width, y >= 0, y < pixmap.height else { return 0 }
      return Double(pixmap.pixels[y * pixmap.width + x] >> 24)
    }
    var out = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let (sx, sy) = (x - shift.dx, y - shift.dy)
        let v =
          alpha(sx, sy) * (1 - wx) * (1 - wy) + alpha(sx - 1, sy) * wx * (1 - wy)
          + alpha(sx, sy - 1) * (1 - wx) * wy + alpha(sx - 1, sy - 1) * wx * wy
        out[y * width + x] = UInt8((v + 0.5).rounded(.down))
      }
    }
    return out
  }

  /// Every pixel times the mask value at its place, in place (a clip): each channel ×
  /// mask/255, rounded to nearest. Sizes must match.
  static func multiply(_ pixmap: inout Pixmap, by mask: Mask) {
    mask.values.withUnsafeBufferPointer { coverage in
      pixmap.pixels.withUnsafeMutableBufferPointer { pixels in
        for i in 0..<min(coverage.count, pixels.count) {
          let c = coverage[i]
          if c == 255 { continue }
          pixels[i] = c == 0 ? 0 : scale(pixels[i], by: UInt32(c))
        }
      }
    }
  }

  /// Every pixel times the alpha of `other`'s pixel at its place, in place (a mask). Sizes must
  /// match.
  static func multiply(_ pixmap: inout Pixmap, byAlphaOf other: Pixmap) {
    other.pixels.withUnsafeBufferPointer { alphas in
      pixmap.pixels.withUnsafeMutableBufferPointer { pixels in
        for i in 0..<min(alphas.count, pixels.count) {
          let a = alphas[i] >> 24
          if a == 255 { continue }
          pixels[i] = a == 0 ? 0 : scale(pixels[i], by: a)
        }
      }
    }
  }

  /// Puts a shadow beneath premultiplied content, in place: `content + (color × mask)·(1 − content.a)`.
  static func placeShadow(_ mask: Mask, color: PremultipliedRGBA8, under content: inout Pixmap) {
    let packed = color.packed
    mask.values.withUnsafeBufferPointer { coverage in
      content.pixels.withUnsafeMutableBufferPointer { pixels in
        for i in 0..<min(coverage.count, pixels.count) {
          pixels[i] = shadowed(pixels[i], coverage: coverage[i], color: packed)
        }
      }
    }
  }

  /// Blends `source` (premultiplied), scaled by `opacity`/255, source-over into `target` with its
  /// top-left corner at `origin` (target pixels); parts outside the target are skipped.
  static func composite(
    _ source: Pixmap, at origin: (x: Int, y: Int), onto target: inout Pixmap, opacity: UInt32
  ) {
    compositeRows(source, shadow: nil, color: 0, at: origin, onto: &target, opacity: opacity)
  }

  /// `placeShadow(shadow, color:, under: source)` then `composite(source, at:, onto:,
  /// opacity:)` in one pass, without writing the shadowed source back: the same bytes (its
  /// twin is those two kernels in turn, KernelTwinTests). `shadow` has `source`'s size.
  static func composite(
    _ source: Pixmap, shadow: Mask, color: PremultipliedRGBA8, at origin: (x: Int, y: Int),
    onto target: inout Pixmap, opacity: UInt32
  ) {
    guard shadow.width == source.width, shadow.height == source.height else { return }
    compositeRows(
      source, shadow: shadow, color: color.packed, at: origin, onto: &target, opacity: opacity)
  }

  /// Both composites: the visible rows of `source` (with `shadow` beneath it, when given) row
  /// by row through `compositeRow`.
  @inline(__always)
  private static func compositeRows(
    _ source: Pixmap, shadow: Mask?, color packed: UInt32, at origin: (x: Int, y: Int),
    onto target: inout Pixmap, opacity: UInt32
  ) {
    let placed = IntRect(x: origin.x, y: origin.y, width: source.width, height: source.height)
    let visible = placed.intersection(target.bounds)
    guard !visible.isEmpty, opacity > 0 else { return }
    let (sourceWidth, targetWidth, count) = (source.width, target.width, visible.width)
    // Without a shadow the coverage row is a row of zeros (cast nowhere).
    let coverage = shadow?.values ?? [UInt8](repeating: 0, count: count)
    let coverageWidth = shadow == nil ? 0 : sourceWidth
    let coverageStart = shadow == nil ? 0 : visible.minX - origin.x
    source.pixels.withUnsafeBufferPointer { src in
      coverage.withUnsafeBufferPointer { cast in
        target.pixels.withUnsafeMutableBufferPointer { dst in
          guard let s = src.baseAddress, let c = cast.baseAddress, let d = dst.baseAddress else {
            return
          }
          for y in visible.minY..<visible.maxY {
            let row = y - origin.y
            compositeRow(
              s + (row * sourceWidth + visible.minX - origin.x),
              shadow: c + (row * coverageWidth + coverageStart), color: packed,
              onto: d + (y * targetWidth + visible.minX), count: count, opacity: opacity)
          }
        }
      }
    }
  }

  /// One row of the shadowed composite, `compositeRowPlainly`'s pixels: `cpk_composite_row`
  /// (CPixelKernels), which blends four pixels at a time in SSE2 lanes wherever a block of eight
  /// cannot be skipped or copied. Its twin test is `KernelTwinTests.compositeRowMatchesItsTwin`.
  @inline(__always)
  static func compositeRow(
    _ src: UnsafePointer<UInt32>, shadow: UnsafePointer<UInt8>, color packed: UInt32,
    onto dst: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32
  ) {
    cpk_composite_row(src, shadow, packed, dst, count, opacity)
  }

  /// One row of the shadowed composite: `dst[i] = blend(shadowed(src[i], coverage: shadow[i]),
  /// over: dst[i])`, eight pixels at a time where it can be skipped: a block whose source and
  /// shadow are all clear leaves `dst` as it is; a block of opaque source at full opacity is
  /// copied (no shadow shows through it); a block without shadow blends the source alone. The
  /// plain twin of `compositeRow`.
  static func compositeRowPlainly(
    _ src: UnsafePointer<UInt32>, shadow: UnsafePointer<UInt8>, color packed: UInt32,
    onto dst: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32
  ) {
    let opaque: UInt64 = 0xFF00_0000_FF00_0000
    var i = 0
    while i &+ 8 <= count {
      let pixels = UnsafeRawPointer(src + i)
      let p0 = pixels.loadUnaligned(as: UInt64.self)
      let p1 = pixels.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      let p2 = pixels.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
      let p3 = pixels.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
      let cast = UnsafeRawPointer(shadow + i).loadUnaligned(as: UInt64.self)
      if p0 | p1 | p2 | p3 == 0 {
        if cast != 0 {
          for j in i..<(i &+ 8) {
            dst[j] = blend(
              shadowed(0, coverage: shadow[j], color: packed), over: dst[j], opacity: opacity)
          }
        }
      } else if opacity == 255, p0 & p1 & p2 & p3 & opaque == opaque {
        (dst + i).update(from: src + i, count: 8)
      } else if cast == 0 {
        for j in i..<(i &+ 8) { dst[j] = blend(src[j], over: dst[j], opacity: opacity) }
      } else {
        for j in i..<(i &+ 8) {
          let s = shadowed(src[j], coverage: shadow[j], color: packed)
          dst[j] = blend(s, over: dst[j], opacity: opacity)
        }
      }
      i &+= 8
    }
    while i < count {
      let s = shadowed(src[i], coverage: shadow[i], color: packed)
      dst[i] = blend(s, over: dst[i], opacity: opacity)
      i &+= 1
    }
  }

  /// `d` (packed premultiplied) with a shadow of `color` at coverage `c` beneath it:
  /// `d + (color × c)·(1 − d.a)`; `d` itself where nothing shows through or nothing is cast.
  @inline(__always)
  static func shadowed(_ d: UInt32, coverage c: UInt8, color packed: UInt32) -> UInt32 {
    let alpha = d >> 24
    guard c != 0, alpha != 255 else { return d }
    let tint = c == 255 ? packed : scale(packed, by: UInt32(c))
    return d &+ scale(tint, by: 255 - alpha)
  }

  /// `s` scaled by `opacity`/255, source-over `d` (both packed premultiplied); `d` when `s` is
  /// clear.
  @inline(__always)
  static func blend(_ s: UInt32, over d: UInt32, opacity: UInt32) -> UInt32 {
    guard s != 0 else { return d }
    let scaled = opacity < 255 ? scale(s, by: opacity) : s
    let alpha = scaled >> 24
    return alpha == 255 ? scaled : scaled &+ scale(d, by: 255 - alpha)
  }
}
