import Testing

@testable import Codecs

/// The LZW kernel against its plain twin, and its bytes against giflib's.
@Suite struct GIFLZWTests {
  /// A deterministic pseudo-random generator (xorshift), so every run tests the same inputs.
  struct Xorshift {
    var state: UInt64
    mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  /// Indices in runs and repeats over `colors` entries: noise, flat runs and copied stretches.
  static func image(_ count: Int, colors: Int, seed: UInt64) -> [UInt8] {
    var random = Xorshift(state: seed)
    var out: [UInt8] = []
    while out.count < count {
      switch random.below(3) {
      case 0: out.append(UInt8(random.below(colors)))
      case 1: out += [UInt8](repeating: UInt8(random.below(colors)), count: 1 + random.below(40))
      default:
        if out.count > 50 {
          let from = random.below(out.count - 20)
          out += out[from..<(from + 1 + random.below(19))]
        }
      }
    }
    return Array(out.prefix(count))
  }

  @Test func kernelMatchesItsTwinLosslessly() {
    let lzw = GIFLZW()
    for seed in 1...40 {
      for colors in [2, 3, 5, 16, 200, 256] {
        let count = [1, 2, 7, 300, 5_000, 40_000][Int(seed) % 6]
        let original = Self.image(count, colors: colors, seed: UInt64(seed * 7919 + colors))
        var a = original
        var b = original
        let size = max(2, GIFEncoder.tableBits(colors))
        let fast = lzw.encode(&a, minimumCodeSize: size)
        let plain = GIFLZWReference.encode(&b, minimumCodeSize: size)
        #expect(fast == plain, "seed \(seed), \(colors) colours, \(count) pixels")
        #expect(a == original)
      }
    }
  }

  /// With an alternate index per pixel (what an unchanged pixel shows), both take the same.
  @Test func kernelMatchesItsTwinWithAlternates() {
    let lzw = GIFLZW()
    for seed in 1...30 {
      let colors = [4, 33, 256][seed % 3]
      let count = [50, 3_000, 50_000][seed % 3]
      let original = Self.image(count, colors: colors, seed: UInt64(seed))
      var random = Xorshift(state: UInt64(seed) * 31 + 7)
      let alternates = original.map { v in
        random.below(3) == 0 ? UInt8(random.below(colors)) : v
      }
      var a = original
      var b = original
      let size = max(2, GIFEncoder.tableBits(colors))
      let fast = lzw.encode(&a, minimumCodeSize: size, alternates: alternates)
      let plain = GIFLZWReference.encode(&b, minimumCodeSize: size, alternates: alternates)
      #expect(fast == plain, "seed \(seed)")
      #expect(a == b)
      #expect(zip(a, zip(original, alternates)).allSatisfy { $0 == $1.0 || $0 == $1.1 })
      var plainOriginal = original
      let without = lzw.encode(&plainOriginal, minimumCodeSize: size)
      #expect(fast.count <= without.count + 64, "alternates should rarely cost bytes")
    }
  }

  /// With choices (unchanged pixels that may be transparent or their shown colour; a loss
  /// bound), both pick the same indices and codes.
  @Test func kernelMatchesItsTwinWithChoices() {
    let lzw = GIFLZW()
    for seed in 1...30 {
      var random = Xorshift(state: UInt64(seed) * 0x9E37_79B9)
      let colorCount = [3, 15, 100, 255][seed % 4]
      let colors = (0..<colorCount).map { _ in UInt32(random.below(0x100_0000)) } + [0xFFFF_FFFF]
      let transparent = colorCount
      let count = [10, 1_000, 30_000][seed % 3]
      var indices = Self.image(count, colors: colorCount + 1, seed: UInt64(seed))
      // What each pixel shows when transparent: often an entry's colour (then that entry shows
      // the same), sometimes clear.
      let shown = (0..<count).map { i -> UInt32 in
        random.below(10) == 0 ? GIFEncoder.clearShown : colors[Int(indices[i]) % colorCount]
      }
      let truth = (0..<count).map { i -> UInt32 in
        let v = Int(indices[i])
        return v == transparent ? shown[i] : colors[v] ^ UInt32(random.below(8))
      }
      for bound in [0, 50, 2_000] {
        var a = indices
        var b = indices
        let size = GIFEncoder.codeSize(colorCount + 1)
        let fast = truth.withUnsafeBufferPointer { t in
          shown.withUnsafeBufferPointer { s in
            colors.withUnsafeBufferPointer { c in
              lzw.encode(
                &a, minimumCodeSize: size,
                choices: GIFLZWChoices(
                  truth: t, shown: s, colors: c, transparent: transparent, bound: bound))
            }
          }
        }
        let plain = GIFLZWReference.encode(
          &b, minimumCodeSize: size, truth: truth, shown: shown, colors: colors,
          transparent: transparent, bound: bound)
        #expect(fast == plain, "seed \(seed), bound \(bound)")
        #expect(a == b, "seed \(seed), bound \(bound)")
        // Each pixel shows what was asked, or (lossy) within the bound of its truth.
        for i in 0..<count {
          let got = a[i] == transparent ? shown[i] : colors[Int(a[i])]
          let want = indices[i] == transparent ? shown[i] : colors[Int(indices[i])]
          if bound == 0 || got > 0xFF_FFFF || want > 0xFF_FFFF || truth[i] > 0xFF_FFFF {
            #expect(got == want)
          } else {
            #expect(
              Quantizer.distance(got, truth[i]) <= max(Quantizer.distance(want, truth[i]), bound))
          }
        }
        if bound == 2_000 { indices = a }
      }
    }
  }

  /// Losslessly, our codes never take more bytes than giflib's for the same image.
  /// Long runs of one index (what the kernel takes a stretch at a time), broken by noise and
  /// by runs of another index, through several clears of the dictionary; with and without
  /// alternates that often equal the run's index.
  @Test func kernelMatchesItsTwinOnLongRuns() {
    let lzw = GIFLZW()
    for seed in 1...12 {
      var random = Xorshift(state: UInt64(seed) * 0x2545_F491)
      let colors = [2, 5, 256][seed % 3]
      var original: [UInt8] = []
      while original.count < 120_000 {
        let v = UInt8(random.below(colors))
        let length = [1, 2, 7, 8, 9, 64, 500, 3_000][random.below(8)] + random.below(3)
        original += [UInt8](repeating: v, count: length)
        if random.below(4) == 0 { original.append(UInt8(random.below(colors))) }
      }
      let alternates = original.map { v in
        random.below(5) == 0 ? UInt8(random.below(colors)) : v
      }
      let size = max(2, GIFEncoder.tableBits(colors))
      for withAlternates in [false, true] {
        var a = original
        var b = original
        let fast = lzw.encode(
          &a, minimumCodeSize: size, alternates: withAlternates ? alternates : nil)
        let plain = GIFLZWReference.encode(
          &b, minimumCodeSize: size, alternates: withAlternates ? alternates : nil)
        #expect(fast == plain, "seed \(seed), alternates \(withAlternates)")
        #expect(a == b, "seed \(seed), alternates \(withAlternates)")
      }
    }
  }

  @Test func noLargerThanGiflib() throws {
    let lzw = GIFLZW()
    for seed in 1...12 {
      let colors = [2, 7, 64, 255][seed % 4]
      let (width, height) = (317, 1 + 40 * seed)
      var indices = Self.image(width * height, colors: colors, seed: UInt64(seed))
      let palette = (0..<colors).map { UInt32($0 * 0x010101) }
      let giflib = try GIFLibImage.encode(indices, width: width, height: height, colors: palette)
      let ours = lzw.encode(&indices, minimumCodeSize: GIFEncoder.codeSize(colors))
      // giflib's file: header 13, table, descriptor 10, code size 1, sub-blocks, 0, trailer.
      let table = 3 << GIFEncoder.tableBits(colors)
      let giflibCodes = giflib.count - 13 - table - 10 - 1 - 1 - 1
      let ourBlocks = ours.count + (ours.count + 254) / 255
      #expect(ourBlocks <= giflibCodes, "seed \(seed): \(ourBlocks) > \(giflibCodes)")
    }
  }
}
