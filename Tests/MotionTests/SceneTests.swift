import Raster
import Testing

@testable import Motion

@Suite struct SceneTests {
  let fonts = try? DemoFonts()

  /// An independent scalar re-statement of §1.4 (velocity Verlet, 1/300 s, clock catching up to
  /// the first sub-step at or past the time), for one axis from rest.
  private func integrate(
    from start: Double, to target: Double, time: Double, spring: Spring
  ) -> Double {
    var (x, v, f) = (start, 0.0, 0.0)
    let dt = 1.0 / 300
    var clock = 0.0
    while clock < time - 1e-12 {
      let half = v + f * dt / 2
      x += half * dt
      f = -spring.damping * half + spring.stiffness * (target - x)
      v = half + f * dt / 2
      clock += dt
    }
    return x
  }

  @Test func catsStartAtTheScreenCentreAndSpringToTheTap() throws {
    let fonts = try #require(fonts)
    let scene = CatsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .ios17, taps: [Tap(x: 300, y: 500)], fonts: fonts,
      frameRate: 50,
      hold: 0.5)
    #expect(scene.traceRow(frame: 0) == [0, 0, 195, 422])
    // The tap's y in the safe area: 500 − 47.
    let last = scene.traceRow(frame: scene.frameCount - 1)
    #expect(last[2] == 300 && last[3] == 453)
    // Every frame within 0.5 pt of the spring model (here: exactly the integrator's steps).
    for frame in 0..<scene.frameCount {
      let row = scene.traceRow(frame: frame)
      let t = row[1]
      guard t < scene.settleTime else { continue }
      #expect(abs(row[2] - integrate(from: 195, to: 300, time: t, spring: .swiftUI17Default)) < 0.5)
      #expect(abs(row[3] - integrate(from: 422, to: 453, time: t, spring: .swiftUI17Default)) < 0.5)
    }
    // It ends by SwiftUI's rule, then holds 0.5 s.
    #expect(abs(Double(scene.frameCount - 1) / 50 - (scene.settleTime + 0.5)) <= 0.02)
  }

  @Test func tapsAreClampedAboveTheHomeIndicator() throws {
    let fonts = try #require(fonts)
    let scene = CatsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .legacy, taps: [Tap(x: 10, y: 840)], fonts: fonts,
      frameRate: 50,
      hold: 0)
    // min(840 − 47, 763 − 34) = 729.
    #expect(scene.channels["position"]?.changes.first?.target == [10, 729])
  }

  @Test func cardsOpenAtStartWithoutTaps() throws {
    let fonts = try #require(fonts)
    let (scene, notes) = CardsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .ios17, taps: nil, fonts: fonts, frameRate: 50,
      hold: 0.5)
    #expect(notes.isEmpty)
    #expect(scene.traceRow(frame: 0) == [0, 0, -40, 0.9, -20, 0.95, 0])
    let end = scene.traceRow(frame: scene.frameCount - 1)
    #expect(Array(end[2...]) == [-400, 1, -200, 1, 150])
    // The wallet's interpolating spring ends at exactly 1.0 s; the GIF holds 0.5 s after.
    #expect(scene.settleTime == 1.0)
    #expect(scene.frameCount == 76)
    // Every frame is the interpolating spring's closed form.
    for frame in 0..<50 {
      let t = Double(frame) / 50
      let s = Spring.wallet.unitProgress(at: t)
      #expect(abs(scene.traceRow(frame: frame)[6] - 150 * s) < 1e-9)
    }
  }

  @Test func onlyATapOnTheBlackCardWhereItIsDrawnToggles() throws {
    let fonts = try #require(fonts)
    let center = 47 + 763.0 / 2
    let taps = [
      Tap(x: 195, y: center, time: 0),  // on the card: opens
      Tap(x: 195, y: center, time: 1.2),  // the card moved down 150 pt: misses
      Tap(x: 195, y: center + 150, time: 1.4),  // where it is now: closes
      Tap(x: 20, y: 100, time: 2),  // nowhere near: misses
    ]
    let (scene, notes) = CardsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .ios17, taps: taps, fonts: fonts, frameRate: 50,
      hold: 0.5)
    #expect(notes.count == 2)
    #expect(scene.channels["stack.offsetY"]?.changes.map(\.time) == [0, 1.4])
    #expect(scene.traceRow(frame: scene.frameCount - 1)[6] == 0)
  }

  @Test func retappingTheWalletCombinesSprings() throws {
    let fonts = try #require(fonts)
    let center = 47 + 763.0 / 2
    let (scene, _) = CardsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .ios17,
      taps: [Tap(x: 195, y: center, time: 0), Tap(x: 195, y: center + 20, time: 0.2)], fonts: fonts,
      frameRate: 50, hold: 0)
    // At 0.2 s the stack is ≈ 89 pt down, so the card spans the second tap: it closes again.
    let t = 0.5
    let old = 150 * Spring.wallet.unitProgress(at: t)
    let expected = old + (0 - old) * Spring.wallet.unitProgress(at: t - 0.2)
    #expect(abs(scene.values(at: t)["stack.offsetY"]![0] - expected) < 1e-9)
  }

  @Test func framesAreTheSameWhicheverThreadRendersThem() throws {
    let fonts = try #require(fonts)
    let scene = CatsScene.make(
      device: try #require(Device.named("se")), scale: 1, swiftUI: .ios17,
      taps: [Tap(x: 100, y: 300)], fonts: fonts, frameRate: 25, hold: 0)
    var serial: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: 1).render(0..<6) { _, frame in serial.append(frame) }
    var parallel: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: 3).render(0..<6) { _, frame in parallel.append(frame) }
    #expect(serial == parallel)
    var compositor = Compositor()
    #expect(scene.render(frame: 4, compositor: &compositor) == serial[4])
  }
}

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
