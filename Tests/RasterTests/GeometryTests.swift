import Testing

@testable import Raster

#if canImport(Glibc)
import Glibc
#endif

@Suite struct GeometryTests {
  /// transform ∘ inverse is the identity, within a relative tolerance, for random maps.
  @Test func inverseUndoesTheTransform() throws {
    var random = SeededGenerator(seed: 5)
    for _ in 0..<500 {
      let t = Transform.rotation(Double.random(in: -4...4, using: &random))
        .concatenating(
          .scale(
            Double.random(in: 0.1...10, using: &random), Double.random(in: 0.1...10, using: &random)
          )
        )
        .concatenating(
          .translation(
            Double.random(in: -1e4...1e4, using: &random),
            Double.random(in: -1e4...1e4, using: &random)))
      let inverse = try #require(t.inverted)
      let p = Point(
        Double.random(in: -1e3...1e3, using: &random), Double.random(in: -1e3...1e3, using: &random)
      )
      let back = inverse.apply(t.apply(p))
      #expect((back - p).length <= 1e-9 * max(1, p.length) * 1e3)
    }
    #expect(Transform.scale(0, 1).inverted == nil)
  }

  @Test func maxScaleIsTheLargerSingularValue() {
    #expect(abs(Transform.scale(3, 2).maxScale - 3) < 1e-12)
    #expect(abs(Transform.rotation(0.7).concatenating(.scale(2, 5)).maxScale - 5) < 1e-9)
  }

  @Test func viewBoxMappings() {
    let box = Rect(x: -10, y: 20, width: 100, height: 50)
    let stretched = Transform.mapping(box, stretchedTo: Rect(x: 0, y: 0, width: 200, height: 200))
    #expect(stretched.apply(Point(-10, 20)) == Point(0, 0))
    #expect(stretched.apply(Point(90, 70)) == Point(200, 200))
    let fitted = Transform.mapping(box, fittedInto: Rect(x: 0, y: 0, width: 200, height: 200))
    // Uniform scale 2, centred vertically: 100 pt tall content in 200.
    #expect(fitted.apply(Point(-10, 20)) == Point(0, 50))
    #expect(fitted.apply(Point(90, 70)) == Point(200, 150))
  }

  @Test func paddedMaskKeepsItsPixels() throws {
    var mask = try #require(Mask(width: 3, height: 2))
    mask[2, 1] = 200
    let padded = try #require(mask.padded(by: 4))
    #expect(padded.width == 11 && padded.height == 10)
    #expect(padded[6, 5] == 200)
    #expect(padded.values.reduce(0) { $0 + Int($1) } == 200)
  }

  @Test func pixelBoundsGrowToHoldEveryPixel() {
    var bounds = PixelBounds()
    #expect(bounds.rect == nil)
    bounds.add(x: 3, y: 4)
    bounds.add(x: 1, through: 2, y: 7)
    #expect(bounds.rect == IntRect(minX: 1, minY: 4, maxX: 4, maxY: 8))
  }
}
