import Foundation
import Testing

@testable import Raster

/// Images resampled onto the device grid: no aliasing when shrinking, flat stays flat, exact
/// coverage at the rectangle's edges, rotated drawing.
@Suite struct ImageDrawingTests {
  /// A 256² zone plate: rings whose frequency grows with the radius up to 0.5 cycles a pixel at
  /// the edge.
  static func zonePlate() throws -> RasterImage {
    let w = 256
    var pixels = [UInt32](repeating: 0, count: w * w)
    for y in 0..<w {
      for x in 0..<w {
        let r2 = Double((x - w / 2) * (x - w / 2) + (y - w / 2) * (y - w / 2))
        let v = UInt32((127.5 + 127.5 * cos(Double.pi * r2 / Double(w))).rounded())
        pixels[y * w + x] = v | v << 8 | v << 16 | 255 << 24
      }
    }
    return RasterImage(try #require(Pixmap(width: w, height: w, pixels: pixels)), identity: 1)
  }

  /// A `width` × `height` image of one colour.
  static func solid(
    _ width: Int, _ height: Int, _ color: PremultipliedRGBA8, identity: UInt64
  )
    throws -> RasterImage
  {
    RasterImage(
      try #require(Pixmap(width: width, height: height, filledWith: color)), identity: identity)
  }

  static func draw(
    _ image: RasterImage, in rect: Rect, _ interpolation: ImageInterpolation,
    transform: Transform = .identity, size: Int
  ) throws -> Pixmap {
    var pixmap = try #require(Pixmap(width: size, height: size))
    var rasterizer = Rasterizer()
    ImageDrawing(image: image, rect: rect, interpolation: interpolation).draw(
      under: transform, into: &pixmap, rasterizer: &rasterizer)
    return pixmap
  }

  /// Shrunk 4× (to 64²), rings finer than the new pixels must average to gray: the standard
  /// deviation of the outer ring region stays small for the filters, and is large (aliasing)
  /// for `.none`.
  @Test(arguments: [ImageInterpolation.low, .medium, .high])
  func aZonePlateShrunkFourTimesDoesNotAlias(_ interpolation: ImageInterpolation) throws {
    let small = try Self.draw(
      try Self.zonePlate(), in: Rect(x: 0, y: 0, width: 64, height: 64), interpolation, size: 64)
    func outerDeviation(_ p: Pixmap) -> Double {
      var values: [Double] = []
      for y in 0..<64 {
        for x in 0..<64 {
          let r =
            ((Double(x) - 31.5) * (Double(x) - 31.5) + (Double(y) - 31.5) * (Double(y) - 31.5))
            .squareRoot()
          // Past radius 16 (64 source pixels) the source rings are finer than 1/8 cycle per
          // source pixel, so above the 4×-shrunk Nyquist limit.
          if r > 18 && r < 31 { values.append(Double(p[x, y].r)) }
        }
      }
      let mean = values.reduce(0, +) / Double(values.count)
      return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count))
        .squareRoot()
    }
    let filtered = outerDeviation(small)
    let nearest = outerDeviation(
      try Self.draw(
        try Self.zonePlate(), in: Rect(x: 0, y: 0, width: 64, height: 64), .none, size: 64))
    #expect(filtered < 12, "\(interpolation): σ \(filtered)")
    #expect(nearest > 50, "none: σ \(nearest)")
    // The outermost rows and columns, where the rings are finest, average to gray too: only
    // pixels inside the image count (a repeated edge weighed the edge pixels again: up to 23.5
    // levels off, a hostile walkthrough found).
    var worst = 0.0
    for k in 0..<64 {
      for (x, y) in [(k, 0), (k, 63), (0, k), (63, k)] {
        let r = ((Double(x) - 31.5) * (Double(x) - 31.5) + (Double(y) - 31.5) * (Double(y) - 31.5))
          .squareRoot()
        if r > 24 { worst = max(worst, abs(Double(small[x, y].r) - 127.5)) }
      }
    }
    #expect(worst < 12, "\(interpolation): an edge pixel \(worst) from gray")
  }

  @Test(arguments: ImageInterpolation.allCases)
  func aFlatImageStaysFlatAtAnyScale(_ interpolation: ImageInterpolation) throws {
    let flat = try Self.solid(7, 5, PremultipliedRGBA8(r: 40, g: 90, b: 140, a: 200), identity: 2)
    for scale in [0.3, 1, 2.7, 11] {
      let p = try Self.draw(
        flat, in: Rect(x: 0, y: 0, width: 7 * scale, height: 5 * scale), interpolation,
        size: 80)
      // An inner pixel (fully covered) is exactly the colour.
      #expect(p[0, 0] == PremultipliedRGBA8(r: 40, g: 90, b: 140, a: 200), "\(scale)")
    }
  }

  /// An image wholly outside the target, near or astronomically far, draws nothing (it once
  /// trapped on a reversed range).
  @Test(arguments: ImageInterpolation.allCases)
  func anImageOutsideTheTargetDrawsNothing(_ interpolation: ImageInterpolation) throws {
    let white = try Self.solid(
      4, 4, PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), identity: 4)
    for (x, y) in [(30.0, 0.0), (-30, 0), (0, 30), (0, -30), (1e300, 0), (-1e300, -1e300)] {
      let p = try Self.draw(
        white, in: Rect(x: x, y: y, width: 10, height: 10), interpolation, size: 20)
      #expect(p.pixels.allSatisfy { $0 == 0 }, "\(x), \(y)")
    }
  }

  /// An image drawn one source pixel per device pixel at a whole-pixel offset (an `@2x` icon
  /// on a 2× canvas), straight or mirrored, comes out pixel for pixel whatever the
  /// interpolation: the default Mitchell filter, which does not interpolate, blurred 1-pixel
  /// stripes to 227/28 (found by a walkthrough).
  @Test(arguments: ImageInterpolation.allCases)
  func oneToOneIsPixelExact(_ interpolation: ImageInterpolation) throws {
    let w = 16
    var state: UInt32 = 12_345
    let pixels = (0..<(w * w)).map { _ -> UInt32 in
      state = state &* 1_103_515_245 &+ 12_345
      return state >> 8 & 0x00FF_FFFF | 255 << 24
    }
    let image = RasterImage(try #require(Pixmap(width: w, height: w, pixels: pixels)), identity: 7)
    let drawn = try Self.draw(
      image, in: Rect(minX: 3, minY: 5, maxX: 19, maxY: 21), interpolation, size: 24)
    let mirrored = try Self.draw(
      image, in: Rect(minX: 0, minY: 0, maxX: 16, maxY: 16), interpolation,
      transform: Transform(a: -1, b: 0, c: 0, d: 1, tx: 20, ty: 2), size: 24)
    for y in 0..<w {
      for x in 0..<w {
        #expect(drawn[x + 3, y + 5].packed == pixels[y * w + x])
        #expect(mirrored[19 - x, y + 2].packed == pixels[y * w + x])
      }
    }
  }

  @Test func fractionalEdgesGetTheirArea() throws {
    let white = try Self.solid(
      4, 4, PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), identity: 3)
    let p = try Self.draw(white, in: Rect(x: 2.25, y: 3.5, width: 10, height: 6), .high, size: 20)
    #expect(p[2, 5].a == 191)  // three quarters of the column
    #expect(p[5, 3].a == 128)  // half the row
    #expect(p[2, 3].a == 96)  // both: 0.375
    #expect(p[5, 5].a == 255)
    #expect(p[1, 5].a == 0)
  }

  @Test func aRotatedImageCoversItsRectangle() throws {
    let white = try Self.solid(
      8, 8, PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), identity: 4)
    let t = Transform.rotation(0.5).concatenating(.translation(40, 10))
    let p = try Self.draw(
      white, in: Rect(x: 0, y: 0, width: 30, height: 20), .medium, transform: t, size: 80)
    let area = p.pixels.reduce(0.0) { $0 + Double($1 >> 24) / 255 }
    #expect(abs(area - 600) < 1.5, "\(area)")
    // The colour is the image's wherever it is covered.
    #expect(p.pixels.allSatisfy { ($0 & 0xFF) == ($0 >> 24) })
  }

  /// An image enlarged 8× under a rotation is as sharp as without one: the interpolation's own
  /// filter (Mitchell's bicubic, Lanczos), not a bilinear one. Under a turn of a thousandth of a
  /// degree the pixels stay within a level of the unrotated drawing (bilinear differed by 12.6
  /// levels on average, a hostile walkthrough found); colours never exceed alpha or go negative
  /// (Lanczos's and Mitchell's negative lobes).
  @Test(arguments: [ImageInterpolation.medium, .high])
  func aRotatedEnlargementKeepsItsFilter(_ interpolation: ImageInterpolation) throws {
    var seed: UInt64 = 0x5EED
    let pixels = (0..<256).map { _ -> UInt32 in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let v = UInt32(truncatingIfNeeded: seed >> 33)
      let (r, g, b) = (v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF)
      return r | g << 8 | b << 16 | 255 << 24
    }
    let image = RasterImage(
      try #require(Pixmap(width: 16, height: 16, pixels: pixels)), identity: 9)
    let rect = Rect(x: 0, y: 0, width: 128, height: 128)
    let still = try Self.draw(image, in: rect, interpolation, size: 128)
    let turn = Transform.translation(-64, -64).concatenating(.rotation(0.001 * .pi / 180))
      .concatenating(.translation(64, 64))
    let turned = try Self.draw(image, in: rect, interpolation, transform: turn, size: 128)
    var (total, largest, count) = (0, 0, 0)
    for y in 4..<124 {
      for x in 4..<124 {
        let (a, b) = (still.pixels[y * 128 + x], turned.pixels[y * 128 + x])
        for shift in stride(from: 0, through: 24, by: 8) {
          let d = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
          (total, largest, count) = (total + d, max(largest, d), count + 1)
        }
      }
    }
    #expect(largest <= 2 && Double(total) / Double(count) < 0.05, "\(largest) \(total)")
  }
}
