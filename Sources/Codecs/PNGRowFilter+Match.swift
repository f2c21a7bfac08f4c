/// Whether filtered PNG rows decode to a known image, decided without decoding them.
///
/// A row's filtered bytes are fixed by its decoded bytes, the decoded row above and its filter
/// type: filtered = decoded − prediction (mod 256), the prediction made from decoded neighbours
/// only. So rows decode to an image exactly when each row's filtered bytes equal the image's own
/// row filtered by that row's type. Filtering forwards reads only the known image, so — unlike
/// unfiltering, where each pixel waits for the one to its left — every byte can be computed at
/// once, and bands of rows checked on different cores (`diff` and `check` of a re-encoded image).
///
/// `rowsMatch` is the kernel, over unsafe buffers, 16 bytes at a time; `referenceRowsMatch` its
/// plain scalar twin, which a test holds it equal to.
extension PNGRowFilter {
  /// What checking rows against an image found, for the first row that is not equal.
  enum RowMatch: Equatable, Sendable {
    /// Every row decodes to the image's row.
    case equal
    /// This row decodes to other bytes.
    case different(row: Int)
    /// This row's filter type is not 0…4: the image data is corrupt.
    case unknownFilter(row: Int)
  }

  /// Checks `rows` of `filtered` (RGBA8: each row its filter type, then `rowBytes` bytes) against
  /// `image` (straight RGBA8, row y at `image + y * imageStride` — `rowBytes` unless given —,
  /// top row first, holding every row of `rows` and the one above the first), in order,
  /// stopping at the first row that is not equal.
  static func rowsMatch(
    filtered: UnsafePointer<UInt8>, image: UnsafePointer<UInt8>, rowBytes: Int,
    rows: Range<Int>, imageStride: Int? = nil
  ) -> RowMatch {
    let stride = imageStride ?? rowBytes
    precondition(rowBytes > 0 && rowBytes % 4 == 0 && stride >= rowBytes && rows.lowerBound >= 0)
    for y in rows {
      let type = filtered[y * (rowBytes + 1)]
      guard type <= paeth else { return .unknownFilter(row: y) }
      let bytes = UnsafeRawPointer(filtered + y * (rowBytes + 1) + 1)
      let row = UnsafeRawPointer(image + y * stride)
      // The row above the first is zeros: Up is None, Average halves the left, Paeth is Sub.
      let kind = y > 0 ? type : (type == up ? none : type == paeth ? sub : type)
      let above = y > 0 ? UnsafeRawPointer(image + (y - 1) * stride) : row
      let equal: Bool
      switch kind {
      case none: equal = noneMatches(bytes, row: row, count: rowBytes)
      case sub: equal = subMatches(bytes, row: row, count: rowBytes)
      case up: equal = upMatches(bytes, row: row, above: above, count: rowBytes)
      case average:
        equal = averageMatches(bytes, row: row, above: above, firstRow: y == 0, count: rowBytes)
      default: equal = paethMatches(bytes, row: row, above: above, count: rowBytes)
      }
      if !equal { return .different(row: y) }
    }
    return .equal
  }

  private typealias Bytes16 = SIMD16<UInt8>

  @inline(__always)
  private static func load(_ p: UnsafeRawPointer, _ offset: Int) -> Bytes16 {
    p.loadUnaligned(fromByteOffset: offset, as: Bytes16.self)
  }

  /// The left neighbours (four bytes back) of the 16 bytes at `i`, zeros left of the row.
  @inline(__always)
  private static func left(_ row: UnsafeRawPointer, _ i: Int) -> Bytes16 {
    if i >= 4 { return load(row, i - 4) }
    // i == 0: the first pixel has no left neighbour; shift the first 12 bytes up by 4.
    let first = load(row, 0)
    return Bytes16(
      0, 0, 0, 0, first[0], first[1], first[2], first[3], first[4], first[5], first[6], first[7],
      first[8], first[9], first[10], first[11])
  }

  /// Whether any byte is not 0 (as two words: SIMD's `!=` compares lane by lane in memory).
  @inline(__always)
  private static func nonzero(_ v: Bytes16) -> Bool {
    let words = unsafeBitCast(v, to: SIMD2<UInt64>.self)
    return words[0] | words[1] != 0
  }

  @inline(__always)
  private static func byte(_ p: UnsafeRawPointer, _ i: Int) -> UInt8 {
    p.load(fromByteOffset: i, as: UInt8.self)
  }

  /// Whether a row's `count` filtered `bytes` are the residues a filter leaves: `residues(i)`
  /// gives the 16 at byte i, `residue(i)` one (for the tail — rows are whole pixels, so at most
  /// 12 bytes). Differences are gathered over the row and tested once, with no branch a block.
  @inline(__always)
  private static func residuesMatch(
    _ bytes: UnsafeRawPointer, count: Int, residues: (Int) -> Bytes16, residue: (Int) -> UInt8
  ) -> Bool {
    var i = 0
    var differences = Bytes16()
    while i + 16 <= count {
      differences |= load(bytes, i) ^ residues(i)
      i += 16
    }
    if nonzero(differences) { return false }
    while i < count {
      if byte(bytes, i) != residue(i) { return false }
      i += 1
    }
    return true
  }

  private static func noneMatches(
    _ bytes: UnsafeRawPointer, row: UnsafeRawPointer, count: Int
  )
    -> Bool
  {
    residuesMatch(bytes, count: count, residues: { load(row, $0) }, residue: { byte(row, $0) })
  }

  private static func subMatches(
    _ bytes: UnsafeRawPointer, row: UnsafeRawPointer, count: Int
  )
    -> Bool
  {
    residuesMatch(bytes, count: count) { i in
      load(row, i) &- left(row, i)
    } residue: { i in
      byte(row, i) &- (i >= 4 ? byte(row, i - 4) : 0)
    }
  }

  private static func upMatches(
    _ bytes: UnsafeRawPointer, row: UnsafeRawPointer, above: UnsafeRawPointer, count: Int
  ) -> Bool {
    residuesMatch(bytes, count: count) { i in
      load(row, i) &- load(above, i)
    } residue: { i in
      byte(row, i) &- byte(above, i)
    }
  }

  private static func averageMatches(
    _ bytes: UnsafeRawPointer, row: UnsafeRawPointer, above: UnsafeRawPointer, firstRow: Bool,
    count: Int
  ) -> Bool {
    let keep: Bytes16 = firstRow ? Bytes16(repeating: 0) : Bytes16(repeating: 0xFF)
    return residuesMatch(bytes, count: count) { i in
      let a = left(row, i)
      let b = load(above, i) & keep
      // ⌊(a + b) / 2⌋ without widening: the shared bits plus half the differing ones.
      return load(row, i) &- ((a & b) &+ ((a ^ b) &>> 1))
    } residue: { i in
      let a = i >= 4 ? Int(byte(row, i - 4)) : 0
      let b = firstRow ? 0 : Int(byte(above, i))
      return byte(row, i) &- UInt8((a + b) >> 1)
    }
  }

  private static func paethMatches(
    _ bytes: UnsafeRawPointer, row: UnsafeRawPointer, above: UnsafeRawPointer, count: Int
  ) -> Bool {
    residuesMatch(bytes, count: count) { i in
      let a = SIMD16<Int16>(truncatingIfNeeded: left(row, i))
      let b = SIMD16<Int16>(truncatingIfNeeded: load(above, i))
      let c = SIMD16<Int16>(truncatingIfNeeded: left(above, i))
      // p − a = b − c, p − b = a − c, p − c = a + b − 2c (p = a + b − c).
      let pa = absolute(b &- c)
      let pb = absolute(a &- c)
      let pc = absolute(a &+ b &- c &- c)
      // All ones where x ≤ y (x − y − 1 < 0; the distances are 0…510, so nothing wraps), built
      // from arithmetic: SIMD's masked `replacing` on 16 lanes goes lane by lane through memory.
      let bWins = (pb &- pc &- 1) &>> 15
      let aWins = ((pa &- pb &- 1) & (pa &- pc &- 1)) &>> 15
      let prediction = (a & aWins) | (((b & bWins) | (c & ~bWins)) & ~aWins)
      return load(row, i) &- Bytes16(truncatingIfNeeded: prediction)
    } residue: { i in
      let a = i >= 4 ? byte(row, i - 4) : 0
      let c = i >= 4 ? byte(above, i - 4) : 0
      return byte(row, i) &- predictPaeth(a, byte(above, i), c)
    }
  }

  @inline(__always)
  private static func absolute(_ v: SIMD16<Int16>) -> SIMD16<Int16> {
    let sign = v &>> 15
    return (v ^ sign) &- sign
  }

  // MARK: - Scalar twin

  /// `rowsMatch`, written plainly: each row of `rows` decoded by `referenceUnfilter` below the
  /// image's row above it (given as an unfiltered row), then compared with the image's row.
  static func referenceRowsMatch(
    filtered: [UInt8], image: [UInt8], rowBytes: Int, rows: Range<Int>
  ) -> RowMatch {
    for y in rows {
      let row = Array(filtered[(y * (rowBytes + 1))..<((y + 1) * (rowBytes + 1))])
      let above = y > 0 ? [none] + image[((y - 1) * rowBytes)..<(y * rowBytes)] : []
      guard
        let decoded = referenceUnfilter(
          above + row, rowBytes: rowBytes, height: y > 0 ? 2 : 1, bytesPerPixel: 4)
      else { return .unknownFilter(row: y) }
      if decoded.suffix(rowBytes) != image[(y * rowBytes)..<((y + 1) * rowBytes)] {
        return .different(row: y)
      }
    }
    return .equal
  }
}
