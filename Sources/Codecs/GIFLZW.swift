/// The GIF's LZW coder: a frame's palette indices to the variable-length codes of the image data
/// (before they are cut into sub-blocks). Greedy: a string grows while the dictionary holds its
/// extension by the next pixel; a full dictionary (4096 codes) is cleared.
///
/// It can also let a pixel take another index than the one asked for (`GIFLZWChoices`): when the
/// string's extension by the asked index is not in the dictionary, the children of the string
/// are tried, and one whose last index the pixel accepts extends it. Losslessly that is an index
/// that shows the same colour (an unchanged pixel coded transparent or with the colour it shows);
/// lossily (as gifsicle's `--lossy`) one whose colour is within a squared-error bound of the
/// pixel's true colour beyond the error of the index asked for.
///
/// This is the kernel: tables over unsafe buffers, reused frame after frame. The dictionary is a
/// hash of 8192 slots of 32 bits (prefix code, index and code packed; 32 KiB, so it stays in the
/// first-level cache, where a direct 4096×256 table missed it on most lookups). `GIFLZWReference`
/// is its plain twin (dictionaries), and a test holds them to the same codes and indices.
///
/// Runs of one index, the rule in UI frames (flat colours, unchanged pixels coded transparent),
/// skip the dictionary: while the string is a run of index v, its extensions by v are the runs
/// v², v³, … the dictionary holds (a run's prefixes are in it whenever it is), listed per index
/// in `runCodes`, so a stretch of v is taken in one step as far as the longest run known, found
/// by comparing eight pixels at a time. The codes are the ones one lookup a pixel would give.
public final class GIFLZW {
  /// Codes the dictionary holds at most (12 bits).
  static let maximumCodes = 4096
  /// Slots of the dictionary: `(code << 8 | index) << 12 | next code`, `empty` when free.
  private let slots: UnsafeMutablePointer<UInt32>
  static let slotCount = 8192
  static let empty: UInt32 = 0xFFFF_FFFF
  /// For each code made since the last clear: its first child, its next sibling, its prefix
  /// code and its last index (the children of a string, listed without scanning 256 slots).
  private let firstChild: UnsafeMutablePointer<UInt16>
  private let nextSibling: UnsafeMutablePointer<UInt16>
  private let prefix: UnsafeMutablePointer<UInt16>
  private let suffix: UnsafeMutablePointer<UInt8>
  /// `runCodes[v << 12 | k]`: the code of the run of `k` pixels of index `v` (1 ≤ k ≤
  /// `runLength[v]`; the run of one is `v` itself). Only the entries up to each `runLength` are
  /// read, so the table (2 MiB of address space) is never cleared and stays mostly untouched.
  private let runCodes: UnsafeMutablePointer<UInt16>
  /// The longest run of each index the dictionary holds (1 after a clear).
  private let runLength: UnsafeMutablePointer<Int32>

  public init() {
    slots = .allocate(capacity: Self.slotCount)
    slots.initialize(repeating: Self.empty, count: Self.slotCount)
    firstChild = .allocate(capacity: Self.maximumCodes)
    firstChild.initialize(repeating: 0, count: Self.maximumCodes)
    nextSibling = .allocate(capacity: Self.maximumCodes)
    nextSibling.initialize(repeating: 0, count: Self.maximumCodes)
    prefix = .allocate(capacity: Self.maximumCodes)
    prefix.initialize(repeating: 0, count: Self.maximumCodes)
    suffix = .allocate(capacity: Self.maximumCodes)
    suffix.initialize(repeating: 0, count: Self.maximumCodes)
    runCodes = .allocate(capacity: 256 << 12)
    runLength = .allocate(capacity: 256)
    for v in 0..<256 {
      runCodes[v << 12 | 1] = UInt16(v)
      runLength[v] = 1
    }
  }

  deinit {
    slots.deallocate()
    firstChild.deallocate()
    nextSibling.deallocate()
    prefix.deallocate()
    suffix.deallocate()
    runCodes.deallocate()
    runLength.deallocate()
  }

  /// The LZW codes of `indices` (each below 2^`minimumCodeSize`), packed least significant bit
  /// first, starting with a clear code and ending with the end code. With `alternates` (an
  /// index per pixel that shows the same as the one asked; itself when none) or `choices`
  /// (lossy), `indices` is rewritten to what the decoder will see.
  public func encode(
    _ indices: inout [UInt8], minimumCodeSize: Int, alternates: [UInt8]? = nil,
    choices: GIFLZWChoices? = nil
  ) -> [UInt8] {
    var out = GIFBitWriter(capacity: indices.count / 2 + 16)
    guard !indices.isEmpty else { return out.finish() }
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    let firstCode = clear + 2
    var next = firstCode
    var width = minimumCodeSize + 1
    out.put(clear, width: width)
    let count = indices.count
    let other = alternates ?? []
    let hasAlternates = alternates != nil && other.count == count
    other.withUnsafeBufferPointer { other in
      indices.withUnsafeMutableBufferPointer { pixels in
        let base = pixels.baseAddress.unsafelyUnwrapped
        var current = Int(base[0])
        // When `current` is the run of `run` pixels of index `runIndex`; `run` is 0 otherwise.
        var runIndex = current
        var run = 1
        var i = 1
        while i < count {
          let index = Int(base[i])
          if run > 0, index == runIndex {
            let known = Int(runLength[index])
            if run < known {
              // As many more pixels of the run as the dictionary's longest run takes.
              let more = Self.repeats(of: base[i], in: base + i, upTo: min(count - i, known - run))
              run += more
              current = Int(runCodes[index << 12 | run])
              i += more
              continue
            }
          }
          let found = lookup(current << 8 | index)
          if found != 0 {
            if index != runIndex { run = 0 }
            current = Int(found)
            i += 1
            continue
          }
          if hasAlternates, Int(other[i]) != index {
            let alternate = other[i]
            let found = lookup(current << 8 | Int(alternate))
            if found != 0 {
              base[i] = alternate
              if run > 0, Int(alternate) == runIndex {
                run += 1
              } else {
                run = 0
              }
              current = Int(found)
              i += 1
              continue
            }
          }
          if let choices, next > firstCode {
            var best = -1
            var bestError = Int.max
            var c = Int(firstChild[current])
            while c != 0 {
              let e = choices.cost(of: Int(suffix[c]), at: i, asked: index)
              if e < bestError {
                (best, bestError) = (c, e)
                if e == 0 && choices.bound == 0 { break }
              }
              c = Int(nextSibling[c])
            }
            if best >= 0 {
              base[i] = suffix[best]
              if run > 0, Int(suffix[best]) == runIndex {
                run += 1
              } else {
                run = 0
              }
              current = best
              i += 1
              continue
            }
          }
          out.put(current, width: width)
          if next < Self.maximumCodes {
            insert(current << 8 | index, code: next)
            if run > 0, index == runIndex {
              // The run one longer than any before (else it would have been found).
              runCodes[index << 12 | (run + 1)] = UInt16(next)
              runLength[index] = Int32(run + 1)
            }
            prefix[next] = UInt16(current)
            suffix[next] = UInt8(index)
            nextSibling[next] = firstChild[current]
            firstChild[current] = UInt16(next)
            next += 1
            if next > 1 << width && width < 12 { width += 1 }
          }
          if next == Self.maximumCodes {
            out.put(clear, width: width)
            clearTables(upTo: next, roots: clear)
            next = firstCode
            width = minimumCodeSize + 1
          }
          current = index
          (runIndex, run) = (index, 1)
          i += 1
        }
        out.put(current, width: width)
        if next < Self.maximumCodes {
          next += 1
          if next > 1 << width && width < 12 { width += 1 }
        }
        out.put(end, width: width)
      }
    }
    clearTables(upTo: next, roots: clear)
    return out.finish()
  }

  @inline(__always)
  private static func slot(_ key: Int) -> Int {
    Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: key) &* 0x9E37_79B1) >> 19)
  }

  /// The code for `key` (prefix code << 8 | index); 0 when none.
  @inline(__always)
  private func lookup(_ key: Int) -> Int {
    var s = Self.slot(key)
    let want = UInt32(truncatingIfNeeded: key)
    while true {
      let v = slots[s]
      if v == Self.empty { return 0 }
      if v >> 12 == want { return Int(v & 0xFFF) }
      s = (s + 1) & (Self.slotCount - 1)
    }
  }

  @inline(__always)
  private func insert(_ key: Int, code: Int) {
    var s = Self.slot(key)
    while slots[s] != Self.empty { s = (s + 1) & (Self.slotCount - 1) }
    slots[s] = UInt32(truncatingIfNeeded: key) << 12 | UInt32(truncatingIfNeeded: code)
  }

  /// Empties what the codes below `next` made in the tables (`roots` = the clear code).
  private func clearTables(upTo next: Int, roots: Int) {
    guard next > roots + 2 else { return }
    slots.update(repeating: Self.empty, count: Self.slotCount)
    for code in (roots + 2)..<next {
      nextSibling[code] = 0
      firstChild[code] = 0
    }
    for code in 0..<roots {
      firstChild[code] = 0
      runLength[code] = 1
    }
  }

  /// How many of the first `limit` pixels at `pixels` equal `value` before one differs: eight
  /// compared at a time.
  @inline(__always)
  private static func repeats(
    of value: UInt8, in pixels: UnsafeMutablePointer<UInt8>, upTo limit: Int
  )
    -> Int
  {
    let raw = UnsafeRawPointer(pixels)
    let pattern = UInt64(value) &* 0x0101_0101_0101_0101
    var n = 0
    while n + 8 <= limit {
      let differ =
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: n, as: UInt64.self)) ^ pattern
      if differ != 0 { return n + differ.trailingZeroBitCount >> 3 }
      n += 8
    }
    while n < limit, pixels[n] == value { n += 1 }
    return n
  }
}

/// Which other indices a pixel may take (see `GIFLZW`): per pixel its true colour and what it
/// shows when coded transparent, the palette, and the error allowed.
public struct GIFLZWChoices {
  /// 0xRRGGBB per pixel, or `GIFEncoder.clearShown` for a transparent one.
  let truth: UnsafeBufferPointer<UInt32>
  /// What each pixel shows when coded with `transparent`.
  let shown: UnsafeBufferPointer<UInt32>
  /// 0xRRGGBB per index (the transparent index's entry unused).
  let colors: UnsafeBufferPointer<UInt32>
  let transparent: Int
  /// Squared error (summed over R, G, B) a pixel may gain beyond the asked index's; 0 accepts
  /// only what shows the asked colour exactly.
  let bound: Int

  /// What index `v` shows at pixel `i`.
  @inline(__always)
  func result(_ v: Int, at i: Int) -> UInt32 { v == transparent ? shown[i] : colors[v] }

  /// The error of `v` at pixel `i` (`Int.max` when not accepted), `asked` being the index asked.
  @inline(__always)
  func cost(of v: Int, at i: Int, asked: Int) -> Int {
    let got = result(v, at: i)
    let want = result(asked, at: i)
    if got == want { return 0 }
    guard bound > 0 else { return Int.max }
    let truth = truth[i]
    guard got <= 0xFF_FFFF, truth <= 0xFF_FFFF, want <= 0xFF_FFFF else { return Int.max }
    let e = Quantizer.distance(got, truth)
    return e <= max(Quantizer.distance(want, truth), bound) ? e + 1 : Int.max
  }
}

/// Codes of varying width packed least significant bit first.
struct GIFBitWriter {
  private(set) var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var filled = 0

  init(capacity: Int) { bytes.reserveCapacity(capacity) }

  @inline(__always)
  mutating func put(_ code: Int, width: Int) {
    buffer |= UInt64(code) << UInt64(filled)
    filled += width
    while filled >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      filled -= 8
    }
  }

  mutating func finish() -> [UInt8] {
    if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    filled = 0
    return bytes
  }
}
