/// Reversing PNG's row filters (PNG spec §9) for the fast decoder (`PNGFastDecoder`).
///
/// `unfilter` is the kernel, over unsafe buffers, and works in place: row y's filtered bytes may
/// lie at or after where its decoded bytes go (the decoder inflates into the very buffer it
/// returns and moves each row left by its filter byte as it decodes it). `referenceUnfilter` is its
/// plain scalar twin, which a test holds it equal to.
extension PNGRowFilter {
  /// Decodes `height` filtered rows into `height` rows of `rowBytes` bytes.
  ///
  /// Row y's filter type is at `source + y * (rowBytes + 1)`, its bytes follow it; its decoded
  /// bytes go to `destination + y * stride` (`stride` is `rowBytes`, packed rows, unless given),
  /// which must not come after the row's own bytes (so every byte is read before anything is
  /// written over it): packed rows at or before the source, or, with `destination` one byte
  /// after `source` and a stride of `rowBytes + 1`, each row decoded where it lies. Returns
  /// false, at the first row whose filter type is not 0…4, leaving the rows decoded so far.
  static func unfilter(
    source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>, rowBytes: Int,
    height: Int, bytesPerPixel bpp: Int, stride: Int? = nil
  ) -> Bool {
    let stride = stride ?? rowBytes
    precondition(
      rowBytes > 0 && bpp > 0 && (rowBytes...(rowBytes + 1)).contains(stride)
        && UnsafePointer(destination) <= source + (stride - rowBytes))
    for y in 0..<height {
      let type = source[y * (rowBytes + 1)]
      let row = source + y * (rowBytes + 1) + 1
      let out = destination + y * stride
      guard type <= paeth else { return false }
      if y == 0 {
        // The row above the first is zeros: Up is None, Paeth is Sub, Average halves the left.
        switch type {
        case none, up:
          if UnsafePointer(out) != row {
            UnsafeMutableRawPointer(out).copyMemory(from: row, byteCount: rowBytes)
          }
        case sub, paeth: unfilterSub(row, into: out, count: rowBytes, bpp: bpp)
        default: unfilterAverageFirstRow(row, into: out, count: rowBytes, bpp: bpp)
        }
        continue
      }
      let above = UnsafePointer(out - stride)
      switch type {
      case none:
        if UnsafePointer(out) != row {
          UnsafeMutableRawPointer(out).copyMemory(from: row, byteCount: rowBytes)
        }
      case sub: unfilterSub(row, into: out, count: rowBytes, bpp: bpp)
      case up: unfilterUp(row, above: above, into: out, count: rowBytes)
      case average: unfilterAverage(row, above: above, into: out, count: rowBytes, bpp: bpp)
      default: unfilterPaeth(row, above: above, into: out, count: rowBytes, bpp: bpp)
      }
    }
    return true
  }

  /// Up: 16 bytes at a time (each load comes before the store that may cover it), then bytes.
  @inline(__always)
  private static func unfilterUp(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>,
    into out: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    let source = UnsafeRawPointer(row)
    let prior = UnsafeRawPointer(above)
    let target = UnsafeMutableRawPointer(out)
    var i = 0
    while i + 16 <= count {
      let sum =
        source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
        &+ prior.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
      target.storeBytes(of: sum, toByteOffset: i, as: SIMD16<UInt8>.self)
      i += 16
    }
    while i < count {
      out[i] = row[i] &+ above[i]
      i += 1
    }
  }

  @inline(__always)
  private static func unfilterSub(
    _ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int
  ) {
    let lead = min(bpp, count)
    if bpp == 4 && count % 4 == 0 {
      let source = UnsafeRawPointer(row)
      let target = UnsafeMutableRawPointer(out)
      var left = SIMD4<UInt8>()
      var i = 0
      while i < count {
        left &+= source.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
        target.storeBytes(of: left, toByteOffset: i, as: SIMD4<UInt8>.self)
        i += 4
      }
      return
    }
    for i in 0..<lead { out[i] = row[i] }
    for i in lead..<count { out[i] = row[i] &+ out[i - bpp] }
  }

  @inline(__always)
  private static func unfilterAverageFirstRow(
    _ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int
  ) {
    let lead = min(bpp, count)
    for i in 0..<lead { out[i] = row[i] }
    for i in lead..<count { out[i] = row[i] &+ out[i - bpp] >> 1 }
  }

  @inline(__always)
  private static func unfilterAverage(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>,
    into out: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int
  ) {
    if bpp == 4 && count % 4 == 0 {
      unfilterPixels(row, above: above, into: out, count: count) { a, b, _ in (a &+ b) &>> 1 }
      return
    }
    let lead = min(bpp, count)
    for i in 0..<lead { out[i] = row[i] &+ above[i] >> 1 }
    for i in lead..<count {
      out[i] = row[i] &+ UInt8(truncatingIfNeeded: (Int(out[i - bpp]) + Int(above[i])) >> 1)
    }
  }

  @inline(__always)
  private static func unfilterPaeth(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>,
    into out: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int
  ) {
    if bpp == 4 && count % 4 == 0 {
      // Four channels at once: p − a = b − c, p − b = a − c, p − c = a + b − 2c.
      unfilterPixels(row, above: above, into: out, count: count) { a, b, c in
        let pa = absolute(b &- c)
        let pb = absolute(a &- c)
        let pc = absolute(a &+ b &- c &- c)
        var prediction = c
        prediction.replace(with: b, where: pb .<= pc)
        prediction.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
        return prediction
      }
      return
    }
    let lead = min(bpp, count)
    for i in 0..<lead { out[i] = row[i] &+ above[i] }
    for i in lead..<count {
      out[i] = row[i] &+ predictPaeth(out[i - bpp], above[i], above[i - bpp])
    }
  }

  /// The RGBA8 rows of Average and Paeth, one pixel (four channels) at a time: each byte is its
  /// filtered byte plus `predict(left, above, upperLeft)` of the decoded neighbours, modulo 256.
  /// The neighbours are widened to Int16 so the predictors' sums and differences cannot wrap.
  @inline(__always)
  private static func unfilterPixels(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>,
    into out: UnsafeMutablePointer<UInt8>, count: Int,
    predict: (SIMD4<Int16>, SIMD4<Int16>, SIMD4<Int16>) -> SIMD4<Int16>
  ) {
    let source = UnsafeRawPointer(row)
    let prior = UnsafeRawPointer(above)
    let target = UnsafeMutableRawPointer(out)
    var a = SIMD4<Int16>()
    var c = SIMD4<Int16>()
    var i = 0
    while i < count {
      let b = SIMD4<Int16>(
        truncatingIfNeeded: prior.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
      let x = SIMD4<Int16>(
        truncatingIfNeeded: source.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
      a = (x &+ predict(a, b, c)) & 0xFF
      c = b
      target.storeBytes(
        of: SIMD4<UInt8>(truncatingIfNeeded: a), toByteOffset: i, as: SIMD4<UInt8>.self)
      i += 4
    }
  }

  @inline(__always)
  private static func absolute(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
    v.replacing(with: 0 &- v, where: v .< 0)
  }

  // MARK: - Scalar twin

  /// `unfilter`, written plainly over arrays from the spec's definitions: the filtered rows
  /// (each preceded by its type) to the decoded rows, or nil for a filter type over 4.
  static func referenceUnfilter(
    _ filtered: [UInt8], rowBytes: Int, height: Int, bytesPerPixel bpp: Int
  ) -> [UInt8]? {
    var result: [UInt8] = []
    var above = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<height {
      let start = y * (rowBytes + 1)
      let type = filtered[start]
      var row = [UInt8](repeating: 0, count: rowBytes)
      for i in 0..<rowBytes {
        let x = Int(filtered[start + 1 + i])
        let a = i >= bpp ? Int(row[i - bpp]) : 0
        let b = Int(above[i])
        let c = i >= bpp ? Int(above[i - bpp]) : 0
        let prediction: Int
        switch type {
        case 0: prediction = 0
        case 1: prediction = a
        case 2: prediction = b
        case 3: prediction = (a + b) / 2
        case 4:
          let p = a + b - c
          let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
          prediction = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        default: return nil
        }
        row[i] = UInt8((x + prediction) % 256)
      }
      result += row
      above = row
    }
    return result
  }
}
