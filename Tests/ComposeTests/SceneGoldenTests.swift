import Motion
import Raster
import Testing

/// Frames of both demo scenes at scale 1, compared with recorded goldens.
@Suite struct SceneGoldenTests {
  static let suite = "Scenes"
  let fonts = try? DemoFonts()

  @Test(arguments: [0, 12, 80])
  func catsFrames(_ frame: Int) throws {
    let fonts = try #require(fonts)
    let scene = CatsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .ios17, taps: [Tap(x: 300, y: 500)], fonts: fonts,
      frameRate: 50,
      hold: 0.5)
    var compositor = Compositor()
    let pixmap = try #require(
      scene.render(frame: min(frame, scene.frameCount - 1), compositor: &compositor))
    try assertGolden(pixmap, named: "cats-\(frame)", suite: Self.suite, .blur)
  }

  @Test(arguments: [0, 10, 75])
  func cardsFrames(_ frame: Int) throws {
    let fonts = try #require(fonts)
    let (scene, _) = CardsScene.make(
      device: .iPhone14, scale: 1, swiftUI: .legacy, taps: nil, fonts: fonts, frameRate: 50,
      hold: 0.5)
    var compositor = Compositor()
    let pixmap = try #require(
      scene.render(frame: min(frame, scene.frameCount - 1), compositor: &compositor))
    try assertGolden(pixmap, named: "cards-legacy-\(frame)", suite: Self.suite, .blur)
  }
}
