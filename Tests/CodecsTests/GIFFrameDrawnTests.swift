import Raster
import Testing

@testable import Codecs

/// `GIFFrame.drawn` (the kernel the encoder uses when nothing is cleared) against its plain twin
/// `drawnPlainly`: the same index per pixel and the same bounds, on random frames where pixels
/// are unchanged, shown already, not shown yet, transparent, or nearer or farther. And
/// `GIFFrame.coded` (the lossless encoder's one pass: drawn, alternates, shown colours updated)
/// against `codedPlainly` on the same frames.
@Suite struct GIFFrameDrawnTests {
  @Test(arguments: 0..<12)
  func kernelAgreesWithTwin(seed: Int) {
    let (frame, colors, shown) = Self.random(seed: seed)
    let twin = frame.drawnPlainly(colors: colors, shown: shown)
    var chosen = [Int16](repeating: 7, count: frame.indices.count)
    let bounds = frame.drawn(colors: colors, shown: shown, into: &chosen)
    #expect(chosen == twin.chosen)
    #expect(bounds == twin.bounds)
    #expect(chosen.contains { $0 >= 0 } && chosen.contains(-1))
  }

  @Test(arguments: 0..<12)
  func codedAgreesWithTwin(seed: Int) throws {
    let (frame, colors, shown) = Self.random(seed: seed)
    var (fastShown, plainShown, swiftShown) = (shown, shown, shown)
    let fast = try #require(
      frame.coded(colors: colors, shown: &fastShown, lookup: PaletteLookup(colors)))
    let plain = try #require(frame.codedPlainly(colors: colors, shown: &plainShown))
    #expect(fast.indices == plain.indices)
    #expect(fast.alternates == plain.alternates)
    #expect(fast.bounds == plain.bounds)
    #expect(fastShown == plainShown)
    // The C kernel and the Swift loop it was written from: the same in every output.
    let swift = try #require(
      frame.coded(colors: colors, shown: &swiftShown, lookup: PaletteLookup(colors), inC: false))
    #expect(fast.indices == swift.indices && fast.alternates == swift.alternates)
    #expect(fast.bounds == swift.bounds && fastShown == swiftShown)
    // Every kind occurs: drawn, kept with an alternate, kept without one; and, with runs, eight
    // unchanged pixels in a row showing one colour.
    if seed >= 6, let r = frame.rect {
      let block = (r.minY..<r.maxY).contains { y in
        (0...(r.width - 8)).contains { i in
          let k = (y - r.minY) * r.width + i
          let p = y * frame.width + r.minX + i
          return (0..<8).allSatisfy {
            frame.indices[k + $0] == GIFFrame.unchangedIndex && shown[p + $0] == shown[p]
          }
        }
      }
      #expect(block)
    }
    let blank = UInt8(colors.count)
    #expect(fast.indices.contains { $0 != blank })
    if seed < 6 {
      #expect(zip(fast.indices, fast.alternates).contains { $0 == blank && $1 != blank })
      #expect(fast.alternates.contains(blank))
    }
  }

  /// Frames whose changed pixels are mostly drawn, as a UI frame's are (the C kernel's vector
  /// path writes eight drawn pixels at once): most changed pixels' indices are colours, and
  /// most shown colours are none. The C kernel and the Swift loop agree.
  @Test(arguments: 0..<6)
  func codedMostlyDrawnAgreesWithTwin(seed: Int) throws {
    let (random, colors, randomShown) = Self.random(seed: 6 + seed)
    let rect = try #require(random.rect)
    var indices = random.indices
    for k in indices.indices where (k / 8 + seed) % 5 != 0 {
      indices[k] = UInt8((k * 7 + seed) % colors.count)
    }
    let frame = GIFFrame(
      width: random.width, height: random.height, rect: rect, indices: indices,
      pixels: random.pixels)
    // Most shown colours none; then one colour everywhere, so that blocks of eight mix pixels
    // drawn with pixels kept that show the colour last looked up.
    let shownSets = [
      randomShown.enumerated().map { $0.offset % 11 == 0 ? $0.element : 0xFFFF_FFFF },
      randomShown.map { _ in colors[0] },
    ]
    var fast: GIFFrame.Coded?
    for shown in shownSets {
      var (fastShown, swiftShown) = (shown, shown)
      let c = try #require(
        frame.coded(colors: colors, shown: &fastShown, lookup: PaletteLookup(colors)))
      let swift = try #require(
        frame.coded(colors: colors, shown: &swiftShown, lookup: PaletteLookup(colors), inC: false))
      #expect(c.indices == swift.indices && c.alternates == swift.alternates)
      #expect(c.bounds == swift.bounds && fastShown == swiftShown)
      if fast == nil { fast = c }
    }
    let first = try #require(fast)
    // Runs of eight drawn pixels occur.
    let blank = UInt8(colors.count)
    #expect(
      (0...(first.indices.count - 8)).contains { i in
        (i..<(i + 8)).allSatisfy { first.indices[$0] != blank }
      })
  }

  /// A random frame, palette (with a repeated entry: alternates take the first) and shown
  /// colours.
  static func random(seed: Int) -> (GIFFrame, [UInt32], [UInt32]) {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    func next(_ n: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(n))
    }
    let (width, height) = (23 + next(20), 17 + next(20))
    var colors = (0..<(2 + next(60))).map { _ in UInt32(next(0x100_0000)) }
    colors.append(colors[0])
    // From seed 6 on, shown colours and unchanged pixels come in runs (up to 24) in rows at
    // least 16 wide, so the kernels' blocks of eight are taken too.
    let runs = seed >= 6
    let rect =
      runs
      ? IntRect(
        x: next(4), y: next(height / 2), width: 16 + next(width - 20),
        height: 2 + next(height / 2))
      : IntRect(
        x: next(width / 2), y: next(height / 2), width: 1 + next(width / 2),
        height: 1 + next(height / 2))
    // Few distinct values, so that shown colours often equal palette entries.
    let pixels = (0..<(width * height)).map { _ in
      0xFF00_0000 | UInt32(next(4) == 0 ? colors[next(colors.count)] : UInt32(next(0x100_0000)))
    }
    var shown: [UInt32] = []
    while shown.count < width * height {
      let value: UInt32 =
        switch next(5) {
        case 0: 0xFFFF_FFFF
        case 1: GIFEncoder.clearShown
        case 2: colors[next(colors.count)]
        default: UInt32(next(0x100_0000))
        }
      shown += repeatElement(value, count: runs ? 1 + next(24) : 1)
    }
    shown.removeLast(shown.count - width * height)
    var indices: [UInt8] = []
    while indices.count < rect.width * rect.height {
      if next(runs ? 2 : 4) == 0 {
        indices += repeatElement(GIFFrame.unchangedIndex, count: runs ? 1 + next(24) : 1)
      } else {
        indices.append(UInt8(next(colors.count)))
      }
    }
    indices.removeLast(indices.count - rect.width * rect.height)
    let frame = GIFFrame(
      width: width, height: height, rect: rect, indices: indices, pixels: pixels)
    return (frame, colors, shown)
  }
}
