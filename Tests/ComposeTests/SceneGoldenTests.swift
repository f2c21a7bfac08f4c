import Raster
import SceneFormat
import SceneGraph
import Testing

/// Frames of both demo scenes at scale 1, compared with recorded goldens.
@Suite struct SceneGoldenTests {
  static let suite = "Scenes"
  static func scene(_ name: String, swiftUI: SwiftUIVersion, taps: [Tap]?) throws -> Scene {
    try SceneFile.load(
      text: #require(SceneFile.builtIn(name)),
      settings: SceneSettings(scale: 1, swiftUI: swiftUI, frameRate: 50, hold: 0.5, taps: taps)
    ).scene
  }

  @Test(arguments: [0, 12, 80])
  func catsFrames(_ frame: Int) throws {
    let scene = try Self.scene("cats", swiftUI: .ios17, taps: [Tap(x: 300, y: 500)])
    var compositor = Compositor()
    let pixmap = try #require(
      scene.render(frame: min(frame, scene.frameCount - 1), compositor: &compositor))
    try assertGolden(pixmap, named: "cats-\(frame)", suite: Self.suite, .blur)
  }

  @Test(arguments: [0, 10, 75])
  func cardsFrames(_ frame: Int) throws {
    let scene = try Self.scene("cards", swiftUI: .legacy, taps: nil)
    var compositor = Compositor()
    let pixmap = try #require(
      scene.render(frame: min(frame, scene.frameCount - 1), compositor: &compositor))
    try assertGolden(pixmap, named: "cards-legacy-\(frame)", suite: Self.suite, .blur)
  }
}
