import Motion
import Raster
import Testing

@testable import SceneGraph

@Suite struct AnimatedPropertyTests {
  /// Colour and shadow are channels like any other: a square turns from red to blue while its
  /// shadow grows.
  @Test func colourAndShadowFollowTheirChannels() throws {
    let spring = Animation.fluidSpring(.swiftUI17Default)
    let colour = ChannelTimeline(
      initial: [1, 0, 0, 1], changes: [.init(time: 0, target: [0, 0, 1, 1], animation: spring)],
      frameRate: 10)
    let radius = ChannelTimeline(
      initial: [0], changes: [.init(time: 0, target: [6], animation: spring)], frameRate: 10)
    var square = SceneNode(
      "square", .fill(.rect(Rect(x: -10, y: -10, width: 20, height: 20)), .black, .nonzero),
      centerX: .constant(30), centerY: .constant(30), shadow: Shadow(color: .black, radius: 0))
    square.fillColor = "colour"
    square.shadowRadius = .channel("radius", component: 0)
    let scene = Scene(
      width: 60, height: 60, scale: 1, background: .white,
      root: SceneNode("root", .group([square])),
      channels: ["colour": colour, "radius": radius], traceColumns: [], frameRate: 10, hold: 0)
    var compositor = Compositor()
    let first = try #require(scene.render(frame: 0, compositor: &compositor))
    let last = try #require(scene.render(frame: scene.frameCount - 1, compositor: &compositor))
    #expect(first[30, 30] == PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    #expect(last[30, 30] == PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
    // No shadow at first; a soft one around the square at the end.
    #expect(first[30, 45] == PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
    #expect(last[30, 45].r < 240)
    #expect(!square.isStatic)
  }
}
