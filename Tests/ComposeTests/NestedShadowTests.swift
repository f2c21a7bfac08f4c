import Testing

@testable import Raster

/// A shadowed layer's silhouette is taken from its content as drawn offscreen, moved by the
/// offset (`Compositor.isolation`'s shift), where drawing it again gives the same pixels (whole
/// pixels) or nearly (a fraction, moved bilinearly under a blur of σ ≥ 1): nested shadows then
/// cost the depth, not 2^depth.
@Suite struct NestedShadowTests {
  /// `depth` groups, each holding the last with a disc beside it, each casting a shadow.
  static func nested(depth: Int, offset: Point) -> Layer {
    var layer = Layer.fill(
      .ellipse(in: Rect(x: 100, y: 100, width: 30, height: 30)), Color(r: 255, g: 149, b: 0))
    for level in 0..<depth {
      let disc = Layer.fill(
        .ellipse(in: Rect(x: 60 + Double(level) * 9, y: 65, width: 14, height: 14)),
        Color(r: 52, g: 199, b: 89), opacity: 0.8)
      layer = .group(
        [layer, disc], shadow: Shadow(color: .black, radius: 2 + Double(level % 3), offset: offset))
    }
    return layer
  }

  static func render(_ layer: Layer, reusing: Bool) throws -> Pixmap {
    var pixmap = try #require(
      Pixmap(width: 240, height: 220, filledWith: Color.white.premultiplied))
    var compositor = Compositor()
    compositor.reusesDrawnContentForShadows = reusing
    compositor.render(layer, into: &pixmap)
    return pixmap
  }

  /// The largest difference of a colour channel between two pixmaps of one size, and the mean
  /// over every channel, in levels.
  static func differences(_ p: Pixmap, _ q: Pixmap) -> (largest: Int, mean: Double) {
    var (largest, sum) = (0, 0)
    for y in 0..<p.height {
      for x in 0..<p.width {
        let (a, b) = (p[x, y], q[x, y])
        for d in [Int(a.r) - Int(b.r), Int(a.g) - Int(b.g), Int(a.b) - Int(b.b)] {
          largest = max(largest, abs(d))
          sum += abs(d)
        }
      }
    }
    return (largest, Double(sum) / Double(3 * p.width * p.height))
  }

  @Test(arguments: [Point(0, 0), Point(3, 4), Point(-2, 5)])
  func theMovedContentCastsTheShadowDrawingItAgainWould(offset: Point) throws {
    let layer = Self.nested(depth: 5, offset: offset)
    let reused = try Self.render(layer, reusing: true)
    let drawn = try Self.render(layer, reusing: false)
    let worst = Self.differences(reused, drawn).largest
    // Shapes moved by whole pixels cover the same area to within float rounding: a level, which
    // five nested shadows may compound to two.
    #expect(worst <= 2, "\(offset): \(worst)")
  }

  /// Offsets of a fraction of a pixel: the drawn content moved bilinearly (σ ≥ 1, shadows
  /// nested inside) against drawing it again at the offset. A bilinear move softens an edge by
  /// up to a pixel's tent before the blur; measured at 1 and 5 levels of nesting.
  @Test(arguments: [Point(1.5, 2.25), Point(-0.3, 0.7), Point(0.5, 0)])
  func aFractionalMoveIsCloseToDrawingAgain(offset: Point) throws {
    for depth in [1, 5] {
      let layer = Self.nested(depth: depth, offset: offset)
      let reused = try Self.render(layer, reusing: true)
      let drawn = try Self.render(layer, reusing: false)
      let (worst, mean) = Self.differences(reused, drawn)
      // Measured: identical at one level (the innermost is drawn again: it holds no shadow);
      // at five, 4–6 levels at worst and a mean of 0.07–0.10 level.
      #expect(worst <= depth + 2, "\(offset) depth \(depth): \(worst)")
      #expect(mean <= 0.15, "\(offset) depth \(depth): \(mean)")
    }
  }

  /// Eight levels in the 240 × 220 pixmap: the outer levels' shadows reach past it, so their
  /// offscreens grow by what moves into them; still what drawing again gives.
  @Test func shadowsCutOffByTheTargetStillMatch() throws {
    let layer = Self.nested(depth: 8, offset: Point(0, 4))
    let reused = try Self.render(layer, reusing: true)
    let drawn = try Self.render(layer, reusing: false)
    let worst = Self.differences(reused, drawn).largest
    #expect(worst <= 2)
  }

  @Test func nestedShadowsCostTheirDepth() {
    func cost(_ depth: Int, _ offset: Point) -> RenderCost {
      Self.nested(depth: depth, offset: offset).estimatedCost(
        under: .identity, target: IntRect(x: -500, y: -500, width: 1200, height: 1200))
    }
    // Each level's group and translucent disc are drawn offscreen once (the groups were drawn
    // 2^depth − 1 times, the discs as often): in a target that holds every level's shadow, and
    // in one that cuts the outer levels' shadows off (their offscreens then grow by what moves
    // into them).
    #expect(cost(12, Point(0, 2)).isolatedLayers == 24)
    let small = Self.nested(depth: 12, offset: Point(0, 2)).estimatedCost(
      under: .identity, target: IntRect(x: 0, y: 0, width: 240, height: 220))
    #expect(small.isolatedLayers == 24)
    // Where the offset is not whole pixels the content is moved bilinearly where shadows nest
    // inside it; only the innermost level, which holds none, is drawn again (its disc twice).
    #expect(cost(8, Point(0, 1.5)).isolatedLayers == 17)
    #expect(cost(24, Point(0.25, 1.5)).isolatedLayers == 49)
    // A hard shadow (σ < 1) is drawn again: its nesting still costs 2^depth.
    func hard(_ depth: Int) -> RenderCost {
      var layer = Self.nested(depth: depth, offset: Point(0, 1.5))
      func soften(_ l: inout Layer) {
        l.shadow?.radius = 0.5
        if case .group(var children) = l.content {
          for i in children.indices { soften(&children[i]) }
          l.content = .group(children)
        }
      }
      soften(&layer)
      return layer.estimatedCost(
        under: .identity, target: IntRect(x: -500, y: -500, width: 1200, height: 1200))
    }
    #expect(hard(8).isolatedLayers == 765)
  }
}
