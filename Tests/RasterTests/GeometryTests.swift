import TestSupport
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
    // Fuzz finding: at 4.4e-299 the squares underflowed and the scale came out 0.
    for scale in [4.4e-299, 1e-200, 3e250, 1e300] {
      let t = Transform.rotation(0.3).concatenating(.scale(scale, scale / 2))
      #expect(abs(t.maxScale / scale - 1) < 1e-12, "\(scale): \(t.maxScale)")
    }
    #expect(Transform.scale(0, 0).maxScale == 0)
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

/// SVG arcs with extreme radii (issue #11): the centre parameterisation used to square the radii,
/// so 1e200 overflowed (the near-straight arc filled 4040 of 10,000 pixels) and 1e-160 underflowed
/// to nothing (instead of the half ellipse SVG's radius scaling asks for).
@Suite struct ExtremeArcTests {
  private func coveredArea(_ data: String) throws -> Double {
    var rasterizer = Rasterizer()
    let path = try PathDataParser.parse(data)
    let made = rasterizer.mask(of: path, width: 100, height: 100)
    let mask = try #require(made)
    return mask.values.reduce(0.0) { $0 + Double($1) } / 255
  }

  @Test func aHugeRadiusDrawsNearlyTheChord() throws {
    #expect(try coveredArea("M 10 10 A 1e200 1e200 0 0 1 90 90 Z") < 0.5)
    #expect(try coveredArea("M 10 10 A 1e300 1e280 33 0 0 90 90 Z") < 0.5)
  }

  @Test func aTinyRadiusIsScaledUpToAHalfEllipse() throws {
    let half = Double.pi * 40 * 40 / 2
    for radius in ["1e-160", "1e-300", "4.9e-324", "0.001"] {
      let area = try coveredArea("M 10 50 A \(radius) \(radius) 0 0 1 90 50 Z")
      #expect(abs(area - half) < 2, "radius \(radius): \(area)")
    }
    // Unequal tiny radii keep their ratio: a half ellipse of semi-axes 40 and 20.
    let ellipse = try coveredArea("M 10 50 A 2e-170 1e-170 0 0 1 90 50 Z")
    #expect(abs(ellipse - Double.pi * 40 * 20 / 2) < 2, "\(ellipse)")
  }

  /// Ordinary arcs: every cubic's midpoint lies on the ellipse, and the arc ends where asked.
  @Test func arcsStayOnTheirEllipse() throws {
    var random = SeededGenerator(seed: 11)
    for _ in 0..<300 {
      let r = Point(
        Double.random(in: 1...200, using: &random), Double.random(in: 1...200, using: &random))
      let phi = Double.random(in: -360...360, using: &random)
      let from = Point(
        Double.random(in: -100...100, using: &random), Double.random(in: -100...100, using: &random)
      )
      let to = Point(
        Double.random(in: -100...100, using: &random), Double.random(in: -100...100, using: &random)
      )
      let large = Bool.random(using: &random)
      let sweep = Bool.random(using: &random)
      var builder = PathBuilder()
      builder.move(to: from)
      EllipticalArc(
        from: from, to: to, radii: r, rotationDegrees: phi, largeArc: large, sweep: sweep
      ).append(to: &builder)
      let path = try #require(builder.build())
      // The ellipse as scaled by SVG's rule, for the check.
      let (s, c) = (sin(phi * .pi / 180), cos(phi * .pi / 180))
      let mid = Point((from.x - to.x) / 2, (from.y - to.y) / 2)
      let x1 = c * mid.x + s * mid.y
      let y1 = -s * mid.x + c * mid.y
      let lambda = max(1, (x1 * x1) / (r.x * r.x) + (y1 * y1) / (r.y * r.y)).squareRoot()
      let (rx, ry) = (r.x * lambda, r.y * lambda)
      var current = from
      var last = from
      var centerEstimate: Point?
      for element in path.elements {
        guard case .cubic(let c1, let c2, let end) = element else { continue }
        let m = (current + end) * 0.125 + (c1 + c2) * 0.375
        // Points on the ellipse satisfy ((p−c)·R)ᵀ diag(1/rx², 1/ry²) ((p−c)·R) = 1; find the
        // centre from the first piece's start and check the rest against it.
        if centerEstimate == nil {
          centerEstimate = Self.center(
            from: from, to: to, rx: rx, ry: ry, s: s, c: c, large: large, sweep: sweep)
        }
        if let center = centerEstimate {
          let d = m - center
          let ex = (c * d.x + s * d.y) / rx
          let ey = (-s * d.x + c * d.y) / ry
          #expect(abs((ex * ex + ey * ey).squareRoot() - 1) < 1e-5)
        }
        current = end
        last = end
      }
      #expect(last == to)
    }
  }

  /// The SVG 2 implementation notes' centre, written out plainly as the reference.
  static func center(
    from: Point, to: Point, rx: Double, ry: Double, s: Double, c: Double, large: Bool, sweep: Bool
  ) -> Point {
    let dx = (from.x - to.x) / 2
    let dy = (from.y - to.y) / 2
    let x1 = c * dx + s * dy
    let y1 = -s * dx + c * dy
    let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    var k = (max(0, num) / den).squareRoot()
    if large == sweep { k = -k }
    let cxp = k * rx * y1 / ry
    let cyp = -k * ry * x1 / rx
    return Point(c * cxp - s * cyp + (from.x + to.x) / 2, s * cxp + c * cyp + (from.y + to.y) / 2)
  }
}
