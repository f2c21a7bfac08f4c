import Foundation
import Testing

@testable import Raster

/// `rotation3DEffect`'s projection and its drawing: the map against an independent statement of
/// SwiftUI's composition in Core Animation's 4×4 row-vector matrices, the exact fill of projected
/// geometry against a supersampled reference, and the resampling kernel against its twin.
@Suite struct ProjectionTests {
  /// Core Animation's `CATransform3D`, rows of a row-vector matrix (`p' = p · M`), with the
  /// functions as Apple documents them: `Concat(a, b)` applies `a` then `b`; `Translate(t, …)`
  /// and `Rotate(t, …)` put the new map before `t`.
  struct CATransform3D {
    var m: [[Double]]
    static let identity = CATransform3D(m: (0..<4).map { r in (0..<4).map { $0 == r ? 1 : 0 } })
    static func concat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
      CATransform3D(
        m: (0..<4).map { r in
          (0..<4).map { c in (0..<4).reduce(0) { $0 + a.m[r][$1] * b.m[$1][c] } }
        })
    }
    static func translation(_ x: Double, _ y: Double, _ z: Double) -> CATransform3D {
      var t = identity
      t.m[3] = [x, y, z, 1]
      return t
    }
    /// `CATransform3DMakeRotation`: the right-hand rotation, written for row vectors.
    static func rotation(_ a: Double, _ x: Double, _ y: Double, _ z: Double) -> CATransform3D {
      let n = (x * x + y * y + z * z).squareRoot()
      let (x, y, z) = (x / n, y / n, z / n)
      let (s, c) = (sin(a), cos(a))
      let k = 1 - c
      return CATransform3D(m: [
        [c + k * x * x, k * x * y + s * z, k * x * z - s * y, 0],
        [k * x * y - s * z, c + k * y * y, k * y * z + s * x, 0],
        [k * x * z + s * y, k * y * z - s * x, c + k * z * z, 0],
        [0, 0, 0, 1],
      ])
    }
    func apply(_ p: Point) -> Point {
      let v = [p.x, p.y, 0, 1]
      let out = (0..<4).map { c in (0..<4).reduce(0) { $0 + v[$1] * m[$1][c] } }
      return Point(out[0] / out[3], out[1] / out[3])
    }
  }

  /// SwiftUI's `_Rotation3DEffect` as Core Animation composes it: translate to the anchor,
  /// perspective `m34 = −1/d`, rotate, translate back (each before the previous, as
  /// `CATransform3DTranslate`/`Rotate` compose).
  static func swiftUI(
    degrees: Double, axis: (Double, Double, Double), anchor: Point, anchorZ: Double,
    distance: Double
  ) -> CATransform3D {
    let t1 = CATransform3D.concat(
      .translation(anchor.x, anchor.y, anchorZ), .identity)
    var p = CATransform3D.identity
    p.m[2][3] = -1 / distance
    let r = CATransform3D.concat(
      .rotation(degrees * .pi / 180, axis.0, axis.1, axis.2), .concat(p, t1))
    return .concat(.translation(-anchor.x, -anchor.y, -anchorZ), r)
  }

  @Test func matchesCoreAnimationsComposition() throws {
    var random = SystemRandomNumberGenerator()
    var worst = 0.0
    for _ in 0..<400 {
      let degrees = Double.random(in: -170...170, using: &random)
      let axis = (
        Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random),
        Double.random(in: -1...1, using: &random)
      )
      let anchor = Point(
        Double.random(in: -50...50, using: &random), Double.random(in: -50...50, using: &random))
      let anchorZ = Double.random(in: -20...20, using: &random)
      let distance = Double.random(in: 300...1000, using: &random)
      let ours = try #require(
        Projection.rotation(
          radians: degrees * .pi / 180, axis: axis, anchor: anchor, anchorZ: anchorZ,
          eyeDistance: distance))
      let reference = Self.swiftUI(
        degrees: degrees, axis: axis, anchor: anchor, anchorZ: anchorZ, distance: distance)
      for _ in 0..<8 {
        let p = Point(
          Double.random(in: -100...100, using: &random),
          Double.random(in: -100...100, using: &random))
        let expected = reference.apply(p)
        let actual = try #require(ours.apply(p))
        worst = max(worst, (actual - expected).length)
      }
    }
    print("rotation3D map: largest difference from the CATransform3D composition \(worst) pt")
    #expect(worst < 1e-9)
  }

  /// SwiftUI's documented picture: 45° about y makes the trailing side farther (smaller).
  @Test func positiveTurnAboutYSendsTheTrailingSideAway() throws {
    let map = try #require(
      Projection.rotation(
        radians: .pi / 4, axis: (0, 1, 0), anchor: .zero, eyeDistance: 200))
    let leading = try #require(map.apply(Point(-100, 50)))
    let trailing = try #require(map.apply(Point(100, 50)))
    #expect(abs(trailing.y) < abs(leading.y))
    #expect(abs(trailing.x) < abs(leading.x))
  }

  @Test func orthographicAndInverse() throws {
    let flat = try #require(
      Projection.rotation(
        radians: .pi / 3, axis: (0, 1, 0), anchor: Point(10, 0), eyeDistance: .infinity))
    #expect(flat.isAffine)
    let p = try #require(flat.apply(Point(30, 7)))
    #expect(abs(p.x - (10 + 20 * cos(Double.pi / 3))) < 1e-12 && abs(p.y - 7) < 1e-12)
    let map = try #require(
      Projection.rotation(
        radians: 1.1, axis: (0.3, 1, 0.2), anchor: Point(5, -3), anchorZ: 4, eyeDistance: 250))
    let inverse = try #require(map.inverted)
    for q in [Point(0, 0), Point(40, -70), Point(-90, 33)] {
      let there = try #require(map.apply(q))
      let back = try #require(inverse.apply(there))
      #expect((back - q).length < 1e-9)
    }
    #expect(Projection.rotation(radians: 1, axis: (0, 0, 0), anchor: .zero, eyeDistance: 1) == nil)
  }

  /// Coverage of a projected shape from 16×16 samples a pixel, each mapped back to the shape's
  /// own space and tested there.
  static func supersampled(
    inside: (Point) -> Bool, map: Projection, width: Int, height: Int
  ) throws -> [Double] {
    let inverse = try #require(map.inverted)
    var coverage = [Double](repeating: 0, count: width * height)
    let n = 16
    for y in 0..<height {
      for x in 0..<width {
        var hits = 0
        for j in 0..<n {
          for i in 0..<n {
            let d = Point(
              Double(x) + (Double(i) + 0.5) / Double(n), Double(y) + (Double(j) + 0.5) / Double(n))
            if let s = inverse.apply(d), map.w(s) > 0, inside(s) { hits += 1 }
          }
        }
        coverage[y * width + x] = Double(hits) / Double(n * n)
      }
    }
    return coverage
  }

  /// The bar fills meet (mean edge error ≤ 1.5/255), for a circle and a thin ring seen at steep
  /// angles: flatten, project, fill exactly.
  @Test(arguments: [40.0, 70.0, 85.0])
  func projectedFillsAreExact(_ degrees: Double) throws {
    let (w, h) = (96, 96)
    let map = try #require(
      Projection.rotation(
        radians: degrees * .pi / 180, axis: (0.4, 1, 0), anchor: .zero, eyeDistance: 60)
    ).concatenating(.translation(48, 48))
    let circle = Path.ellipse(in: Rect(minX: -30, minY: -30, maxX: 30, maxY: 30))
    var builder = PathBuilder()
    builder.addEllipse(in: Rect(minX: -25, minY: -25, maxX: 25, maxY: 25))
    builder.addEllipse(in: Rect(minX: -24, minY: -24, maxX: 24, maxY: 24))
    let ring = try #require(builder.build())
    for (name, path, inside) in [
      ("circle", circle, { (p: Point) in p.length <= 30 }),
      ("ring", ring, { (p: Point) in p.length <= 25 && p.length >= 24 }),
    ] as [(String, Path, (Point) -> Bool)] {
      var pixmap = try #require(Pixmap(width: w, height: h))
      var compositor = Compositor()
      compositor.render(
        Layer(.projected(.fill(path, .white, rule: .evenodd), map)), into: &pixmap)
      let actual = pixmap.pixels.map { Double($0 >> 24) / 255 }
      let reference = try Self.supersampled(inside: inside, map: map, width: w, height: h)
      let measure = ErrorMeasure(reference: reference, actual: actual)
      print("projected \(name) at \(degrees)°: \(measure)")
      #expect(measure.mean <= 1.5, "\(name) \(degrees)°: \(measure)")
      #expect(measure.partialPixels > 50)
    }
  }

  /// A shape reaching behind the eye: cut there, no crash, the front part drawn.
  @Test func geometryBehindTheEyeIsCut() throws {
    let map = try #require(
      Projection.rotation(
        radians: 1.2, axis: (0, 1, 0), anchor: .zero, eyeDistance: 40)
    ).concatenating(.translation(50, 50))
    var pixmap = try #require(Pixmap(width: 100, height: 100))
    var compositor = Compositor()
    let huge = Path.rect(Rect(minX: -500, minY: -20, maxX: 500, maxY: 20))
    compositor.render(Layer(.projected(.fill(huge, .white), map)), into: &pixmap)
    #expect(pixmap[50, 50].a == 255)
    #expect(pixmap[50, 5].a == 0)
    let bounds = try #require(Layer(.projected(.fill(huge, .white), map)).bounds(under: .identity))
    #expect([bounds.minX, bounds.maxX, bounds.minY, bounds.maxY].allSatisfy { $0.isFinite })
  }

  /// What cannot be projected exactly (here: group opacity) is drawn flat and resampled: close
  /// to the exact fill of the same shape (edges soften, by less than a pixel).
  @Test func flatThenProjectedIsCloseToExact() throws {
    let map = try #require(
      Projection.rotation(radians: 1.0, axis: (0, 1, 0.2), anchor: .zero, eyeDistance: 80)
    ).concatenating(.translation(50, 50))
    let square = Path.rect(Rect(minX: -25, minY: -25, maxX: 25, maxY: 25))
    var exact = try #require(Pixmap(width: 100, height: 100))
    var flat = exact
    var compositor = Compositor()
    compositor.render(Layer(.projected(.fill(square, .white), map)), into: &exact)
    var isolated = Layer.group([.fill(square, .white)])
    isolated.colorMatrix = .identity
    compositor.render(Layer(.projected(isolated, map)), into: &flat)
    var sum = 0.0
    var worst = 0
    for (a, b) in zip(exact.pixels, flat.pixels) {
      let d = abs(Int(a >> 24) - Int(b >> 24))
      sum += Double(d)
      worst = max(worst, d)
    }
    print("flat then projected vs exact: mean \(sum / 10000) max \(worst)")
    #expect(sum / 10000 < 1.5)
    #expect(worst < 140)
    #expect(flat[50, 50].a == 255)
  }

  @Test func resamplerMatchesItsTwin() throws {
    var random = SystemRandomNumberGenerator()
    var source = try #require(Pixmap(width: 37, height: 23))
    for i in source.pixels.indices {
      let a = UInt8.random(in: 0...255, using: &random)
      source.pixels[i] =
        PremultipliedRGBA8(
          r: UInt8.random(in: 0...a, using: &random), g: UInt8.random(in: 0...a, using: &random),
          b: UInt8.random(in: 0...a, using: &random), a: a
        ).packed
    }
    for _ in 0..<20 {
      let map = try #require(
        Projection.rotation(
          radians: Double.random(in: -1.4...1.4, using: &random),
          axis: (Double.random(in: -1...1, using: &random), 1, 0), anchor: Point(18, 11),
          eyeDistance: Double.random(in: 20...200, using: &random)))
      let inverse = try #require(map.inverted)
      var coverage = try #require(Mask(width: 50, height: 40))
      for i in coverage.values.indices {
        coverage.values[i] = UInt8.random(in: 0...255, using: &random)
      }
      var fast = try #require(
        Pixmap(width: 60, height: 50, filledWith: PremultipliedRGBA8(r: 9, g: 40, b: 80, a: 200)))
      var plain = fast
      let box = IntRect(x: 3, y: 4, width: 50, height: 40)
      ProjectiveResampler.draw(source, through: inverse, box: box, coverage: coverage, onto: &fast)
      ProjectiveResampler.drawReference(
        source, through: inverse, box: box, coverage: coverage, onto: &plain)
      #expect(fast == plain)
    }
  }
}
