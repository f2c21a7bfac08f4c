/// PNG's row filters (PNG spec §9: None, Sub, Up, Average, Paeth), chosen per row as libpng's
/// heuristic does: the filter whose output has the smallest sum of absolute values, bytes read
/// as signed (small residues near 0 and 256 both count as small), the first of equal sums.
///
/// `filter` is the kernel, over unsafe buffers; `referenceFilter` is its plain scalar twin,
/// which a test holds it equal to.
enum PNGRowFilter {
  /// The filter type bytes, in the order ties are broken.
  static let none: UInt8 = 0
  static let sub: UInt8 = 1
  static let up: UInt8 = 2
  static let average: UInt8 = 3
  static let paeth: UInt8 = 4

  /// How rows are filtered.
  enum Choice: Sendable, CaseIterable {
    /// No filter on any row: mostly transparent rectangles (OVER frames) deflate smallest so.
    case none
    /// Per row, the filter with the smallest sum of absolute differences.
    case adaptive
    /// Paeth on every row.
    case paeth
    /// Up on every row (repeated rows become zeros).
    case up
  }

  /// The filtered image data of `height` rows of `rowBytes` bytes (`bytesPerPixel` bytes a
  /// pixel), each row preceded by its filter type: what deflate compresses into IDAT/fdAT.
  static func filter(
    _ image: [UInt8], rowBytes: Int, height: Int, bytesPerPixel: Int, choice: Choice = .adaptive
  ) -> [UInt8] {
    precondition(image.count == rowBytes * height && bytesPerPixel > 0)
    let stride = rowBytes + 1
    return [UInt8](unsafeUninitializedCapacity: stride * height) { out, count in
      image.withUnsafeBufferPointer { pixels in
        // Five candidate rows, the zero row above the first.
        var scratch = [UInt8](repeating: 0, count: 6 * rowBytes)
        scratch.withUnsafeMutableBufferPointer { scratch in
          let base = scratch.baseAddress.unsafelyUnwrapped
          let zero = UnsafePointer(base + 5 * rowBytes)
          let src = pixels.baseAddress.unsafelyUnwrapped
          let dst = out.baseAddress.unsafelyUnwrapped
          for y in 0..<height {
            let row = src + y * rowBytes
            let above = y == 0 ? zero : src + (y - 1) * rowBytes
            let type: UInt8
            switch choice {
            case .adaptive:
              type = filterRowAdaptive(
                row, above: above, count: rowBytes, bpp: bytesPerPixel, scratch: base)
            case .none:
              filterRow(none, row, above: above, count: rowBytes, bpp: bytesPerPixel, into: base)
              type = none
            case .paeth:
              filterRow(paeth, row, above: above, count: rowBytes, bpp: bytesPerPixel, into: base)
              type = paeth
            case .up:
              filterRow(up, row, above: above, count: rowBytes, bpp: bytesPerPixel, into: base)
              type = up
            }
            dst[y * stride] = type
            let chosen = choice == .adaptive ? base + Int(type) * rowBytes : base
            (dst + y * stride + 1).update(from: chosen, count: rowBytes)
          }
        }
      }
      count = stride * height
    }
  }

  /// Filters one row every way into `scratch` (five rows of `count` bytes, by type) and
  /// returns the type whose residues have the smallest sum of absolute values.
  @inline(__always)
  private static func filterRowAdaptive(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bpp: Int,
    scratch: UnsafeMutablePointer<UInt8>
  ) -> UInt8 {
    var best = none
    var bestSum = Int.max
    for type in none...paeth {
      let out = scratch + Int(type) * count
      filterRow(type, row, above: above, count: count, bpp: bpp, into: out)
      var sum = 0
      for i in 0..<count { sum &+= magnitude(out[i]) }
      if sum < bestSum {
        bestSum = sum
        best = type
      }
    }
    return best
  }

  /// One row through filter `type`.
  @inline(__always)
  private static func filterRow(
    _ type: UInt8, _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bpp: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) {
    let lead = min(bpp, count)
    switch type {
    case none:
      out.update(from: row, count: count)
    case sub:
      for i in 0..<lead { out[i] = row[i] }
      for i in lead..<count { out[i] = row[i] &- row[i - bpp] }
    case up:
      for i in 0..<count { out[i] = row[i] &- above[i] }
    case average:
      for i in 0..<lead { out[i] = row[i] &- above[i] >> 1 }
      for i in lead..<count {
        out[i] = row[i] &- UInt8(truncatingIfNeeded: (Int(row[i - bpp]) + Int(above[i])) >> 1)
      }
    default:
      for i in 0..<lead { out[i] = row[i] &- above[i] }
      for i in lead..<count {
        out[i] = row[i] &- predictPaeth(row[i - bpp], above[i], above[i - bpp])
      }
    }
  }

  /// |residue| with the byte read as signed: 0…128.
  @inline(__always)
  static func magnitude(_ byte: UInt8) -> Int {
    let value = Int(byte)
    return value < 128 ? value : 256 - value
  }

  /// Paeth's predictor (PNG spec §9.4): whichever of left, above and upper left is nearest to
  /// left + above − upper left, ties in that order.
  @inline(__always)
  static func predictPaeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
    let p = Int(a) + Int(b) - Int(c)
    let pa = abs(p - Int(a))
    let pb = abs(p - Int(b))
    let pc = abs(p - Int(c))
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
  }

  // MARK: - Scalar twin

  /// `filter`, written plainly over arrays: the reference the kernel is tested against.
  static func referenceFilter(
    _ image: [UInt8], rowBytes: Int, height: Int, bytesPerPixel bpp: Int,
    choice: Choice = .adaptive
  ) -> [UInt8] {
    var result: [UInt8] = []
    var above = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<height {
      let row = Array(image[(y * rowBytes)..<((y + 1) * rowBytes)])
      func left(_ i: Int) -> Int { i >= bpp ? Int(row[i - bpp]) : 0 }
      func upperLeft(_ i: Int) -> Int { i >= bpp ? Int(above[i - bpp]) : 0 }
      var candidates: [[UInt8]] = []
      for type in 0...4 {
        candidates.append(
          row.indices.map { i in
            let prediction: Int
            switch type {
            case 0: prediction = 0
            case 1: prediction = left(i)
            case 2: prediction = Int(above[i])
            case 3: prediction = (left(i) + Int(above[i])) / 2
            default:
              let p = left(i) + Int(above[i]) - upperLeft(i)
              let (pa, pb, pc) = (abs(p - left(i)), abs(p - Int(above[i])), abs(p - upperLeft(i)))
              prediction =
                pa <= pb && pa <= pc ? left(i) : pb <= pc ? Int(above[i]) : upperLeft(i)
            }
            return UInt8((Int(row[i]) - prediction + 256) % 256)
          })
      }
      let type: Int
      switch choice {
      case .none: type = 0
      case .paeth: type = 4
      case .up: type = 2
      case .adaptive:
        let sums = candidates.map { $0.reduce(0) { $0 + min(Int($1), 256 - Int($1)) } }
        type = sums.indices.min { sums[$0] < sums[$1] } ?? 0
      }
      result.append(UInt8(type))
      result += candidates[type]
      above = row
    }
    return result
  }
}
