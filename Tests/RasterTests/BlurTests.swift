import TestSupport
import Testing

@testable import Raster

#if canImport(Glibc)
import Glibc
#endif

/// The exact reference: a sampled Gaussian, normalised, convolved to ±4σ in Double, rows then
/// columns, zero outside the image.
private func exactGaussian(_ values: [Double], width: Int, height: Int, sigma: Double) -> [Double] {
  let radius = Int((4 * sigma).rounded(.up))
  var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
  let total = kernel.reduce(0, +)
  kernel = kernel.map { $0 / total }
  var rows = [Double](repeating: 0, count: values.count)
  for y in 0..<height {
    for x in 0..<width {
      var sum = 0.0
      for k in -radius...radius where x + k >= 0 && x + k < width {
        sum += kernel[k + radius] * values[y * width + x + k]
      }
      rows[y * width + x] = sum
    }
  }
  var result = [Double](repeating: 0, count: values.count)
  for y in 0..<height {
    for x in 0..<width {
      var sum = 0.0
      for k in -radius...radius where y + k >= 0 && y + k < height {
        sum += kernel[k + radius] * rows[(y + k) * width + x]
      }
      result[y * width + x] = sum
    }
  }
  return result
}

private func testMask(size: Int, margin: Int) throws -> Mask {
  let path = try PathDataParser.parse(
    "M50 5A45 45 0 1 1 50 95A45 45 0 1 1 50 5ZM20 20H45V80H20Z M60 60L95 62L62 95Z M10 90h80v1.5h-80z"
  )
  var rasterizer = Rasterizer()
  let inner = Double(size - 2 * margin)
  let transform = Transform.scale(inner / 100, inner / 100).concatenating(
    .translation(Double(margin), Double(margin)))
  return try requireMask(
    rasterizer.mask(of: path, transform: transform, rule: .evenodd, width: size, height: size))
}

@Suite struct BlurTests {
  /// The bar: no pixel more than 2/255 from the exact Gaussian of the same input.
  @Test(arguments: [0.5, 1.0, 2.0, 3.6, 6.0, 12.0])
  func blurMatchesExactGaussian(sigma: Double) throws {
    let margin = Int((4 * sigma).rounded(.up)) + 2
    let size = 100 + 2 * margin
    let input = try testMask(size: size, margin: margin)
    var blurred = input
    GaussianBlur.blur(&blurred, sigma: sigma)
    let exact = exactGaussian(
      input.values.map(Double.init), width: size, height: size, sigma: sigma)
    var worst = 0.0
    for (a, e) in zip(blurred.values, exact) { worst = max(worst, abs(Double(a) - e)) }
    print("blur σ \(sigma): max error \(worst) / 255")
    #expect(worst <= 2.0)
    #expect(worst <= 1.0, "rounding alone explains up to 0.5; the filter adds a few hundredths")
  }

  @Test func sigmaZeroIsTheIdentity() throws {
    let input = try testMask(size: 64, margin: 4)
    var copy = input
    GaussianBlur.blur(&copy, sigma: 0)
    #expect(copy == input)
  }

  @Test func blurKeepsTheTotalCoverage() throws {
    let input = try testMask(size: 160, margin: 30)
    var blurred = input
    GaussianBlur.blur(&blurred, sigma: 6)
    let before = input.values.reduce(0) { $0 + Int($1) }
    let after = blurred.values.reduce(0) { $0 + Int($1) }
    // Rounding each pixel moves the total by at most half a unit a pixel, and in practice far less.
    #expect(abs(before - after) < before / 500)
  }

  @Test func blurIsSymmetric() throws {
    var mask = try #require(Mask(width: 41, height: 41))
    mask[20, 20] = 255
    mask[19, 20] = 255
    mask[21, 20] = 255
    GaussianBlur.blur(&mask, sigma: 3)
    for y in 0..<41 {
      for x in 0..<41 {
        #expect(mask[x, y] == mask[40 - x, y])
        #expect(mask[x, y] == mask[x, 40 - y])
      }
    }
  }

  /// The SIMD column pass against its scalar twin: the same operations in the same order, so the
  /// same bits.
  @Test(arguments: [0.7, 6.0, 25.0, 40.0, 120.0])
  func columnPassMatchesScalarTwin(sigma: Double) throws {
    var plane = FloatPlane(width: 37, height: 53)
    var random = SeededGenerator(seed: 11)
    for y in 0..<plane.height {
      for x in 0..<plane.width {
        plane.values[y * plane.stride + x] = Float.random(in: 0...255, using: &random)
      }
    }
    let coefficients = DericheCoefficients(sigma: sigma)
    var fast = FloatPlane(width: 37, height: 53)
    var scalar = FloatPlane(width: 37, height: 53)
    GaussianBlur.columnPass(plane, into: &fast, coefficients)
    GaussianBlur.columnPassScalar(plane, into: &scalar, coefficients)
    #expect(fast.values == scalar.values)
  }

  /// A wide blurred edge is smooth: along the blur of a long step, no sample differs from the
  /// exact Gaussian (the error function) by half a level or more, for σ on both sides of
  /// `DericheCoefficients.preciseSigma` (Float's rounding in the recursion once made streaks of
  /// ±4 levels at σ = 72).
  @Test(arguments: [4.0, 8.0, 12.0, 16.0, 19.9, 20.0, 23.0, 48.0, 72.0, 150.0])
  func wideBlursOfAnEdgeAreSmooth(sigma: Double) throws {
    let length = Int(12 * sigma) + 40
    var plane = FloatPlane(width: 8, height: length)
    let step = length / 2
    for row in step..<length { for x in 0..<8 { plane.values[row * plane.stride + x] = 255 } }
    var out = FloatPlane(width: 8, height: length)
    GaussianBlur.columnPass(plane, into: &out, DericheCoefficients(sigma: sigma))
    var worst = 0.0
    // Away from the plane's ends (where the zero padding pulls the step down).
    for row in (step - Int(3 * sigma))..<(step + Int(3 * sigma)) {
      let exact = 255 * 0.5 * erfc(-(Double(row) - Double(step) + 0.5) / (sigma * 2.0.squareRoot()))
      worst = max(worst, abs(Double(out.values[row * out.stride]) - exact))
    }
    #expect(worst < 0.5, "σ \(sigma): \(worst)")
  }

  @Test func transposeTwiceIsTheIdentity() {
    for (w, h) in [(1, 1), (3, 7), (8, 8), (13, 29), (64, 5)] {
      var plane = FloatPlane(width: w, height: h)
      for y in 0..<h { for x in 0..<w { plane.values[y * plane.stride + x] = Float(y * 1000 + x) } }
      var t = FloatPlane(width: h, height: w)
      GaussianBlur.transpose(plane, into: &t)
      for y in 0..<h {
        for x in 0..<w { #expect(t.values[x * t.stride + y] == Float(y * 1000 + x)) }
      }
      var back = FloatPlane(width: w, height: h)
      GaussianBlur.transpose(t, into: &back)
      for y in 0..<h {
        for x in 0..<w {
          #expect(back.values[y * back.stride + x] == plane.values[y * plane.stride + x])
        }
      }
    }
  }

  @Test func pixmapBlurKeepsPixelsPremultiplied() throws {
    var pixmap = try #require(Pixmap(width: 40, height: 40))
    for y in 15..<25 {
      for x in 10..<30 { pixmap[x, y] = PremultipliedRGBA8(r: 200, g: 100, b: 10, a: 220) }
    }
    GaussianBlur.blur(&pixmap, sigma: 3)
    #expect(pixmap.pixels.allSatisfy { PremultipliedRGBA8(packed: $0).isValid })
    #expect(pixmap[20, 20].a > 150)
    #expect(pixmap[20, 5].a < 10)
  }

  @Test func reusedBlurrerGivesTheSameResultAsAFreshOne() throws {
    var blurrer = GaussianBlurrer()
    let big = try testMask(size: 120, margin: 10)
    let small = try testMask(size: 50, margin: 6)
    var a = big
    blurrer.blur(&a, sigma: 2)
    var b = small
    blurrer.blur(&b, sigma: 4)
    var c = small
    GaussianBlur.blur(&c, sigma: 4)
    #expect(b == c)
  }
}
