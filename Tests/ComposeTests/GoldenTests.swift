import Raster
import SceneFormat
import SceneGraph
import Testing
import Typeset

/// Small opaque renders of the demos' elements, compared with recorded goldens.
@Suite struct EffectsGoldenTests {
  static let suite = "Effects"

  /// A layer of a built-in scene, drawn alone (see `SceneFile.element`).
  private func element(
    _ id: String, of scene: String, width: Double, height: Double, swiftUI: SwiftUIVersion = .ios17
  ) throws -> Pixmap {
    let loaded = try SceneFile.element(
      id, of: #require(SceneFile.builtIn(scene)), width: width, height: height,
      settings: SceneSettings(scale: 1, swiftUI: swiftUI))
    var compositor = Compositor()
    return try #require(loaded.scene.render(frame: 0, compositor: &compositor))
  }

  private func render(
    _ layer: Layer, width: Int, height: Int, scale: Double, background: Color = .white
  ) throws -> Pixmap {
    var pixmap = try #require(
      Pixmap(width: width, height: height, filledWith: background.premultiplied))
    var compositor = Compositor()
    let toPixels = Transform.translation(Double(width) / scale / 2, Double(height) / scale / 2)
      .concatenating(.scale(scale, scale))
    compositor.render(layer, into: &pixmap, transform: toPixels)
    return pixmap
  }

  @Test func glyphWithShadow() throws {
    try assertGolden(
      element("cat", of: "cats", width: 240, height: 240), named: "cat-shadow", suite: Self.suite,
      .blur)
  }

  /// Group opacity: each translucent cat is blended once with its shadow, so no shadow shows
  /// through its own glyph.
  @Test func translucentGroupsOverShadows() throws {
    try assertGolden(
      element("cats", of: "cats", width: 240, height: 240), named: "cats-layered",
      suite: Self.suite, .blur)
  }

  @Test(arguments: CornerStyle.allCases)
  func cornerStyles(_ style: CornerStyle) throws {
    let shape = Layer.fill(
      .roundedRect(Rect(x: -30, y: -20, width: 60, height: 40), cornerRadius: 10, style: style),
      .black)
    try assertGolden(
      render(shape, width: 200, height: 140, scale: 3), named: "corner-\(style.rawValue)",
      suite: Self.suite, .exact)
  }

  @Test func cardWithCentredTitle() throws {
    try assertGolden(
      element("walmart", of: "cards", width: 360, height: 250), named: "card-walmart",
      suite: Self.suite, .blur)
  }

  @Test func textAtFractionalPositionsAndScales() throws {
    // `.headline`: Inter SemiBold 17 pt with SF's −0.43 pt tracking.
    let inter = try #require(FontLocator.locate(family: "Inter", weight: .semibold))
    let text = TextLayout("Tap anywhere", font: try FontFace(inter), size: 17, tracking: -0.43)
    var lines: [Layer] = []
    for (i, (dx, s)) in [(0.0, 1.0), (0.25, 1.0), (0.5, 1.0), (0.75, 1.37), (0.33, 0.71)]
      .enumerated()
    {
      let t = Transform.scale(s, s).concatenating(
        .translation(-80 + dx, -42 + Double(i) * 24 + 0.4 * Double(i)))
      lines.append(.fill(text.path, .black, transform: t))
    }
    try assertGolden(
      render(.group(lines), width: 180, height: 130, scale: 1), named: "text-fractional",
      suite: Self.suite, .antialiasing)
  }
}
