import TestSupport
import Testing

@testable import Raster

@Suite struct PixelTests {
  /// The rounding rule over all 65,536 (value, alpha) pairs.
  @Test func premultiplyAndUnpremultiplyOverEveryPair() {
    for a in 0...255 {
      for v in 0...255 {
        let p = PremultipliedRGBA8.premultiply(UInt8(v), UInt8(a))
        // Exact rounding of v·a/255.
        #expect(Int(p) == Int((Double(v * a) / 255).rounded()), "premultiply(\(v), \(a))")
        #expect(p <= UInt8(a))
        if a == 0 {
          #expect(PremultipliedRGBA8.unpremultiply(UInt8(v), 0) == 0)
          continue
        }
        // Un-premultiplying a straight value's premultiplied form lands within half a step of
        // the straight value's quantum at this alpha.
        let back = Int(PremultipliedRGBA8.unpremultiply(p, UInt8(a)))
        #expect(abs(back - v) <= (255 + a) / (2 * a) + 1, "round trip \(v) at \(a)")
        if v <= a {
          // Every valid premultiplied value survives the round trip exactly.
          let straight = PremultipliedRGBA8.unpremultiply(UInt8(v), UInt8(a))
          #expect(PremultipliedRGBA8.premultiply(straight, UInt8(a)) == UInt8(v), "\(v) at \(a)")
        }
      }
    }
  }

  @Test func div255IsExactRounding() {
    for x in 0...(255 * 255) {
      #expect(Int(PremultipliedRGBA8.div255(UInt32(x))) == Int((Double(x) / 255).rounded()))
    }
  }

  /// The packed two-channels-per-lane kernel against the scalar definition, over every pair of
  /// source alpha and destination value (colour channels at and below alpha), all coverages.
  @Test func sourceOverKernelMatchesScalarTwin() {
    var dst = [UInt32](repeating: 0, count: 1)
    for srcAlpha in stride(from: 0, through: 255, by: 1) {
      for d in stride(from: 0, through: 255, by: 3) {
        let src = PremultipliedRGBA8(
          r: UInt8(srcAlpha / 2), g: UInt8(srcAlpha), b: 0, a: UInt8(srcAlpha))
        let destination = PremultipliedRGBA8(
          r: UInt8(d), g: UInt8(d / 2), b: UInt8(d / 3), a: UInt8(d))
        let expected = Blend.sourceOver(src, destination)
        dst[0] = destination.packed
        dst.withUnsafeMutableBufferPointer { buffer in
          Kernels.sourceOver(src.packed, onto: buffer.baseAddress!, count: 1)
        }
        #expect(PremultipliedRGBA8(packed: dst[0]) == expected)
      }
    }
  }

  @Test func scaleKernelMatchesScalarScaledBy() {
    var random = SeededGenerator(seed: 3)
    for _ in 0..<20_000 {
      let a = UInt8.random(in: 0...255, using: &random)
      let color = PremultipliedRGBA8(
        r: UInt8.random(in: 0...a, using: &random), g: UInt8.random(in: 0...a, using: &random),
        b: UInt8.random(in: 0...a, using: &random), a: a)
      let k = UInt8.random(in: 0...255, using: &random)
      #expect(Kernels.scale(color.packed, by: UInt32(k)) == color.scaled(by: k).packed)
    }
  }

  /// The vector fill writes exactly its span, for every count up to 70 at every offset within a
  /// block of eight.
  @Test func fillWritesExactlyTheSpan() {
    for offset in 0..<8 {
      for count in 0...70 {
        var pixels = [UInt32](repeating: 7, count: 96)
        pixels.withUnsafeMutableBufferPointer {
          Kernels.fill($0.baseAddress! + offset, with: 0xFF00_00FF, count: count)
        }
        let expected = (0..<96).map { offset..<(offset + count) ~= $0 ? UInt32(0xFF00_00FF) : 7 }
        #expect(pixels == expected, "offset \(offset), count \(count)")
      }
    }
  }

  /// Filling a pixmap in place gives the pixmap made with that colour, for sizes around the
  /// fill's blocks of eight.
  @Test func pixmapFillMatchesAFreshPixmap() throws {
    let color = PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 40)
    for width in [1, 3, 4, 7, 8, 9, 17] {
      var pixmap = try #require(Pixmap(width: width, height: 3))
      pixmap.fill(with: color)
      #expect(pixmap == Pixmap(width: width, height: 3, filledWith: color), "width \(width)")
    }
  }

  /// The table of a colour scaled by every coverage starts at transparent and ends at the colour,
  /// for every alpha (the blend relies on entry 255 being the colour).
  @Test func scaledColorRunsFromZeroToTheColour() {
    var random = SeededGenerator(seed: 5)
    for a in 0...255 {
      let alpha = UInt8(a)
      let color = PremultipliedRGBA8(
        r: UInt8.random(in: 0...alpha, using: &random),
        g: UInt8.random(in: 0...alpha, using: &random),
        b: UInt8.random(in: 0...alpha, using: &random), a: alpha)
      let entries = CoverageScaledColor(color).entries
      #expect(entries.count == 256 && entries[0] == 0 && entries[255] == color.packed, "\(color)")
    }
  }

  @Test func solidSinkSpansMatchPerPixelBlend() throws {
    var pixmap = try #require(
      Pixmap(width: 64, height: 1, filledWith: PremultipliedRGBA8(r: 10, g: 200, b: 30, a: 255)))
    let color = Color(r: 255, g: 149, b: 0).opacity(0.5).premultiplied
    var expected = pixmap
    let scaled = CoverageScaledColor(color).entries
    pixmap.withUnsafeMutablePixels { pixels in
      scaled.withUnsafeBufferPointer { scaled in
        var row = SolidColorRow(pixels: pixels, width: 64, scaled: scaled.baseAddress!)
        row.span(x: 3, count: 40, coverage: 200)
        row.span(x: 50, count: 1, coverage: 255)
      }
    }
    for x in 3..<43 { expected[x, 0] = Blend.sourceOver(color.scaled(by: 200), expected[x, 0]) }
    expected[50, 0] = Blend.sourceOver(color, expected[50, 0])
    #expect(pixmap == expected)
  }

  /// Each sink's single-pixel kernel against its span kernel applied to one pixel (and, for the
  /// colour sink, against the scalar blend): every coverage, over random destinations, for an
  /// opaque and a translucent colour.
  @Test func sinkPixelsMatchSinglePixelSpans() throws {
    var random = SeededGenerator(seed: 11)
    let coverage = (0...255).map { UInt8($0) }.shuffled(using: &random)
    let destination = coverage.map { _ in
      let a = UInt8.random(in: 0...255, using: &random)
      return PremultipliedRGBA8(
        r: UInt8.random(in: 0...a, using: &random), g: UInt8.random(in: 0...a, using: &random),
        b: UInt8.random(in: 0...a, using: &random), a: a
      ).packed
    }
    let width = coverage.count
    for color in [
      Color(r: 255, g: 149, b: 0).premultiplied, Color(r: 0, g: 0, b: 0, a: 90).premultiplied,
    ] {
      let scaled = CoverageScaledColor(color).entries
      let (pixels, spans) = scaled.withUnsafeBufferPointer { scaled in
        Self.pixelsAndSpans(destination, coverage: coverage) {
          SolidColorRow(pixels: $0, width: width, scaled: scaled.baseAddress!)
        }
      }
      #expect(pixels == spans)
      let blended = zip(destination, coverage).map { d, c in
        Blend.sourceOver(color.scaled(by: c), PremultipliedRGBA8(packed: d)).packed
      }
      #expect(pixels == blended)
    }
    let values = destination.map { UInt8(truncatingIfNeeded: $0 >> 24) }
    for alpha in [UInt32(255), 77] {
      let (pixels, spans) = Self.pixelsAndSpans(values, coverage: coverage) {
        MaskOverRow(values: $0, width: width, alpha: alpha)
      }
      #expect(pixels == spans)
    }
    let (written, _) = Self.pixelsAndSpans([UInt8](repeating: 0, count: width), coverage: coverage)
    {
      MaskRow(values: $0, width: width)
    }
    #expect(written == coverage)
  }

  /// `coverage` sent through a fresh row writer over a copy of `initial`: once pixel by pixel,
  /// once as single-pixel spans (coverage 0 is never sent as a span).
  private static func pixelsAndSpans<Element, Row: CoverageRow>(
    _ initial: [Element], coverage: [UInt8], sink make: (UnsafeMutablePointer<Element>) -> Row
  ) -> (pixels: [Element], spans: [Element]) {
    var pixels = initial
    var spans = initial
    pixels.withUnsafeMutableBufferPointer { elements in
      guard let base = elements.baseAddress else { return }
      var row = make(base)
      for x in coverage.indices { row.pixel(x: x, coverage: coverage[x]) }
    }
    spans.withUnsafeMutableBufferPointer { elements in
      guard let base = elements.baseAddress else { return }
      var row = make(base)
      for x in coverage.indices where coverage[x] != 0 {
        row.span(x: x, count: 1, coverage: coverage[x])
      }
    }
    return (pixels, spans)
  }

  @Test func hexColours() throws {
    #expect(try Color(hex: "#FF9500").straightBytes == (255, 149, 0, 255))
    #expect(try Color(hex: "#f90").straightBytes == (255, 153, 0, 255))
    #expect(try Color(hex: "#e4f6ff80").straightBytes == (228, 246, 255, 128))
    #expect(try Color(hex: "0xE4F6FF").straightBytes == (228, 246, 255, 255))
    for bad in ["", "#", "FF9500", "#12345", "#GG0000", "0x123", "#1234567890", "#ff 000"] {
      #expect(throws: ColorParseError.self, "\(bad)") { try Color(hex: bad) }
    }
  }

  @Test func pixmapSizesAreBounded() {
    #expect(Pixmap(width: 0, height: 10) == nil)
    #expect(Pixmap(width: 10, height: -1) == nil)
    #expect(Pixmap(width: Pixmap.maximumSide + 1, height: 1) == nil)
    #expect(Pixmap(width: 1 << 15, height: 1 << 15) == nil)
    #expect(Pixmap(width: 3, height: 2, pixels: [0, 0]) == nil)
  }
}

@Suite struct CompositeKernelTests {
  /// `placeShadow` against the scalar definition: shadow over nothing, content over shadow.
  @Test func placeShadowMatchesScalarTwin() throws {
    var random = SeededGenerator(seed: 21)
    let count = 4096
    var mask = try #require(Mask(width: count, height: 1))
    var content = try #require(Pixmap(width: count, height: 1))
    for i in 0..<count {
      mask.values[i] = UInt8.random(in: 0...255, using: &random)
      let a = UInt8.random(in: 0...255, using: &random)
      content.pixels[i] =
        PremultipliedRGBA8(
          r: UInt8.random(in: 0...a, using: &random), g: UInt8.random(in: 0...a, using: &random),
          b: 0, a: a
        ).packed
    }
    let color = Color(red: 0, green: 0, blue: 0, alpha: 0.33).premultiplied
    var fast = content
    Kernels.placeShadow(mask, color: color, under: &fast)
    for i in 0..<count {
      let shadow = color.scaled(by: mask.values[i])
      let expected = Blend.sourceOver(PremultipliedRGBA8(packed: content.pixels[i]), shadow)
      #expect(PremultipliedRGBA8(packed: fast.pixels[i]) == expected)
    }
  }

  /// Coverage accumulated into a mask equals the alpha of the same fills composited as pixels.
  @Test func coverageAccumulationMatchesCompositedAlpha() throws {
    let a = Path.ellipse(in: Rect(x: 3, y: 3, width: 30, height: 20))
    let b = Path.rect(Rect(x: 10.5, y: 8.25, width: 25, height: 20))
    var rasterizer = Rasterizer()
    var mask = try #require(Mask(width: 40, height: 32))
    rasterizer.accumulateCoverage(of: a, into: &mask)
    rasterizer.accumulateCoverage(of: b, alpha: 200, into: &mask)
    var pixels = try #require(Pixmap(width: 40, height: 32))
    rasterizer.fill(a, color: Color.black.premultiplied, into: &pixels)
    rasterizer.fill(b, color: Color(r: 0, g: 0, b: 0, a: 200).premultiplied, into: &pixels)
    #expect(mask.values == pixels.pixels.map { UInt8(truncatingIfNeeded: $0 >> 24) })
  }
}
