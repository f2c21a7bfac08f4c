import Motion
import Raster
import Testing
import Typeset

/// Small opaque renders of the demos' elements, compared with recorded goldens.
@Suite struct EffectsGoldenTests {
  static let suite = "Effects"
  let fonts = try? DemoFonts()

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
    let cat = CatGlyph.view(scale: 1, opacity: 1).layer
    try assertGolden(
      render(cat, width: 240, height: 240, scale: 1, background: DemoPalette.sky),
      named: "cat-shadow", suite: Self.suite, .blur)
  }

  /// Group opacity: each translucent cat is blended once with its shadow, so no shadow shows
  /// through its own glyph.
  @Test func translucentGroupsOverShadows() throws {
    let cats = [(0.9, 0.3), (0.95, 0.5), (1.0, 1.0)].map {
      CatGlyph.view(scale: $0.0, opacity: $0.1).layer
    }
    let pixmap = try render(
      .group(cats), width: 240, height: 240, scale: 1, background: DemoPalette.sky)
    try assertGolden(pixmap, named: "cats-layered", suite: Self.suite, .blur)
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
    let fonts = try #require(fonts)
    let card = CardView(
      title: fonts.largeTitleLayout("Walmart"), color: DemoPalette.blue, cornerStyle: .continuous)
    try assertGolden(
      render(card.layer, width: 360, height: 250, scale: 1), named: "card-walmart",
      suite: Self.suite, .blur)
  }

  @Test func textAtFractionalPositionsAndScales() throws {
    let fonts = try #require(fonts)
    let text = fonts.headlineLayout("Tap anywhere")
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
