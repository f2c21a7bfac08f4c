import Raster
import Testing

@Suite struct CompositorTests {
  private let square = Path.rect(Rect(x: 20, y: 20, width: 40, height: 40))

  /// Group opacity: inside a translucent square that casts a shadow, the pixel is exactly the
  /// square's colour at that opacity over the background — its own shadow does not show through.
  @Test func translucentLayerHidesItsOwnShadow() throws {
    var pixmap = try #require(Pixmap(width: 80, height: 80, filledWith: Color.white.premultiplied))
    let layer = Layer.fill(
      square, Color(r: 255, g: 0, b: 0), opacity: 0.5,
      shadow: Shadow(color: .black, radius: 3, offset: Point(0, 4)))
    var compositor = Compositor()
    compositor.render(layer, into: &pixmap)
    // Red at alpha 128 over white: (255, 127, 127).
    #expect(pixmap[40, 40] == PremultipliedRGBA8(r: 255, g: 127, b: 127, a: 255))
    // Below the square the shadow darkens the white, at half strength.
    let below = pixmap[40, 62]
    #expect(below.r < 200 && below.r > 100)
  }

  /// A translucent group holds its children's shadows whole: the shadow a child casts beyond
  /// the child's own box is drawn as it is without the group, at the group's opacity (it was
  /// cut off at the children's boxes once, a hard edge around a toast's capsule).
  @Test func translucentGroupKeepsItsChildrensShadows() throws {
    let child = Layer.fill(
      square, .white, shadow: Shadow(color: .black, radius: 4, offset: Point(0, 6)))
    var alone = try #require(Pixmap(width: 80, height: 80, filledWith: Color.white.premultiplied))
    var grouped = alone
    var compositor = Compositor()
    compositor.render(child, into: &alone)
    compositor.render(.group([child], opacity: 0.5), into: &grouped)
    // Below and beside the square, outside its box: the shadow at half strength.
    for (x, y) in [(40, 66), (40, 72), (16, 40), (64, 44)] {
      let full = 255 - Int(alone[x, y].r)
      let half = 255 - Int(grouped[x, y].r)
      #expect(full > 4, "(\(x), \(y)) has no shadow to compare")
      #expect(abs(half - full / 2) <= 1, "(\(x), \(y)): \(half) against \(full) / 2")
    }
  }

  @Test func opaqueShadowSitsBeneathAndOffset() throws {
    var pixmap = try #require(Pixmap(width: 80, height: 80, filledWith: Color.white.premultiplied))
    let layer = Layer.fill(
      square, .black,
      shadow: Shadow(color: Color(r: 0, g: 0, b: 255), radius: 2, offset: Point(10, 0)))
    var compositor = Compositor()
    compositor.render(layer, into: &pixmap)
    #expect(pixmap[40, 40] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
    #expect(pixmap[65, 40].b == 255 && pixmap[65, 40].r < 120)  // blue shadow to the right
    // None on the left.
    #expect(pixmap[15, 40] == PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
  }

  /// Transforms applied after the shadow scale its radius and offset.
  @Test func transformScalesTheShadow() throws {
    func shadowReach(scale: Double) throws -> Int {
      var pixmap = try #require(
        Pixmap(width: 200, height: 100, filledWith: Color.white.premultiplied))
      let layer = Layer.fill(
        .rect(Rect(x: -10, y: -10, width: 20, height: 20)), .black,
        transform: .scale(scale, scale).concatenating(.translation(100, 50)),
        shadow: Shadow(color: .black, radius: 2, offset: .zero))
      var compositor = Compositor()
      compositor.render(layer, into: &pixmap)
      // Distance from the centre to the first pixel the shadow no longer darkens.
      return ((100..<200).first { pixmap[$0, 50].r > 250 } ?? 200) - 100
    }
    let small = try shadowReach(scale: 1)
    let large = try shadowReach(scale: 3)
    // The edge moves from 10 to 30 px out, and the shadow beyond it spreads three times as far.
    #expect(small > 12 && large > 36)
    #expect(large - 30 >= 2 * (small - 10))
  }

  @Test func roundedRectRadiiAreClamped() {
    let rect = Rect(x: 0, y: 0, width: 40, height: 20)
    // Circular: at most half the short side, so a huge radius makes a stadium.
    let stadium = Path.roundedRect(rect, cornerRadius: 1000, style: .circular)
    let capsule = Path.roundedRect(rect, cornerRadius: 10, style: .circular)
    #expect(stadium == capsule)
    // Continuous: Apple's curve up to half the short side / 1.52866, where it spans half of
    // each side; from there it blends towards the circular corner, reaching the stadium at half
    // the short side and staying there.
    let continuous = Path.roundedRect(rect, cornerRadius: 1000, style: .continuous)
    #expect(continuous == capsule)
    #expect(continuous.bounds == rect)
    let limit = 10 / 1.52866
    let atLimit = Path.roundedRect(rect, cornerRadius: limit, style: .continuous)
    #expect(atLimit.bounds == rect)
    // The area inside, on a 40 × 20 px canvas: it shrinks steadily from the limit to the
    // stadium, and a radius just past the limit is next to the limit's shape.
    func area(_ path: Path) -> Int {
      var canvas = Pixmap(
        width: 40, height: 20, filledWith: PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0))!
      var rasterizer = Rasterizer()
      rasterizer.fill(
        path, transform: .identity, rule: .nonzero,
        color: PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255), into: &canvas)
      return (0..<20).reduce(0) { sum, y in (0..<40).reduce(sum) { $0 + Int(canvas[$1, y].a) } }
    }
    let radii = [limit, limit + 0.01, 7.5, 8.5, 9.5, 10]
    let areas = radii.map { area(Path.roundedRect(rect, cornerRadius: $0, style: .continuous)) }
    #expect(zip(areas, areas.dropFirst()).allSatisfy { $0 > $1 }, "\(areas)")
    #expect(areas.last == area(capsule))
    #expect(abs(areas[0] - areas[1]) < 255, "\(areas)")
  }

  @Test func continuousCornersCutMoreThanCircularOnes() throws {
    var rasterizer = Rasterizer()
    func area(_ style: CornerStyle) throws -> Int {
      let path = Path.roundedRect(
        Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 20, style: style)
      let mask = rasterizer.mask(of: path, width: 100, height: 100)
      return try #require(mask).values.reduce(0) { $0 + Int($1) }
    }
    // The continuous corner starts 1.53 r from the corner, so it removes more area.
    #expect(try area(.continuous) < area(.circular))
  }
}
