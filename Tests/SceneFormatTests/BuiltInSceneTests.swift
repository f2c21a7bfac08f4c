import Motion
import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// The demos' behaviour, as their scene files define it.
@Suite struct BuiltInSceneTests {
  static func load(
    _ name: String, scale: Double = 1, swiftUI: SwiftUIVersion = .ios17, taps: [Tap]?,
    device: Device? = nil, frameRate: Double = 50, hold: Double = 0.5
  ) throws -> LoadedScene {
    try SceneFile.load(
      text: #require(SceneFile.builtIn(name)),
      settings: SceneSettings(
        device: device, scale: scale, swiftUI: swiftUI, frameRate: frameRate, hold: hold,
        taps: taps))
  }

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
    let scene = try Self.load("cats", taps: [Tap(x: 300, y: 500)]).scene
    #expect(scene.traceColumns.map(\.header) == ["cats.position.x", "cats.position.y"])
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

  @Test func catsSitBelowTheHeaderInTheSafeArea() throws {
    let scene = try Self.load("cats", taps: nil).scene
    // The ZStack's .position is measured in the space below the header: safe top 47, the
    // header's padded text (Inter 17 pt line rounded up to the pixel grid, + 32) above it.
    let chain = try #require(SceneAssembler.chain(to: "cats.container", in: scene.root))
    let container = try #require(chain.last)
    let top = container.transform([:]).ty + (chain.first?.transform([:]).ty ?? 0)
    #expect(top > 47 + 32 + 20 && top < 47 + 32 + 22)
    #expect(top.truncatingRemainder(dividingBy: 1) == 0)
    #expect(scene.frameCount == 26)  // no tap: a still scene of 0.5 s
  }

  @Test func tapsAreClampedAboveTheHomeIndicator() throws {
    let scene = try Self.load("cats", swiftUI: .legacy, taps: [Tap(x: 10, y: 840)], hold: 0).scene
    // min(840 − 47, 763 − 34) = 729.
    #expect(scene.channels["cats.position"]?.changes.first?.target == [10, 729])
  }

  @Test func cardsOpenAtStartWithoutTaps() throws {
    let loaded = try Self.load("cards", taps: nil)
    let scene = loaded.scene
    #expect(loaded.notes.isEmpty)
    #expect(
      scene.traceColumns.map(\.header) == [
        "walmart.offset.y", "walmart.scaleEffect", "target.offset.y", "target.scaleEffect",
        "stack.offset.y",
      ])
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
    let center = 47 + 763.0 / 2
    let taps = [
      Tap(x: 195, y: center, time: 0),  // on the card: opens
      Tap(x: 195, y: center, time: 1.2),  // the card moved down 150 pt: misses
      Tap(x: 195, y: center + 150, time: 1.4),  // where it is now: closes
      Tap(x: 20, y: 100, time: 2),  // nowhere near: misses
    ]
    let loaded = try Self.load("cards", taps: taps)
    #expect(loaded.notes.count == 2)
    #expect(loaded.notes.first?.contains("misses the tappable layers ('card')") == true)
    #expect(loaded.scene.channels["stack.offset"]?.changes.map(\.time) == [0, 1.4])
    #expect(loaded.scene.traceRow(frame: loaded.scene.frameCount - 1)[6] == 0)
  }

  @Test func retappingTheWalletCombinesSprings() throws {
    let center = 47 + 763.0 / 2
    let scene = try Self.load(
      "cards", taps: [Tap(x: 195, y: center, time: 0), Tap(x: 195, y: center + 20, time: 0.2)],
      hold: 0
    ).scene
    // At 0.2 s the stack is ≈ 89 pt down, so the card spans the second tap: it closes again.
    let t = 0.5
    let old = 150 * Spring.wallet.unitProgress(at: t)
    let expected = old + (0 - old) * Spring.wallet.unitProgress(at: t - 0.2)
    #expect(abs(try #require(scene.values(at: t)["stack.offset"])[1] - expected) < 1e-9)
  }

  @Test func framesAreTheSameWhicheverThreadRendersThem() throws {
    let scene = try Self.load(
      "cats", taps: [Tap(x: 100, y: 300)], device: try #require(Device.named("se")),
      frameRate: 25, hold: 0
    ).scene
    var serial: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: 1).render(0..<6) { _, frame in serial.append(frame) }
    var parallel: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: 3).render(0..<6) { _, frame in parallel.append(frame) }
    #expect(serial == parallel)
    // Drawing the static header once into the base image changes nothing.
    var compositor = Compositor()
    #expect(scene.render(frame: 4, compositor: &compositor) == serial[4])
  }
}
