import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Named and system colours in light and dark, SwiftUI's `Color` initialisers, and the colour
/// modifiers, checked on the pixels they draw.
@Suite struct ColorSceneTests {
  static func render(
    _ layers: String, canvas: String = "", scheme: ColorScheme? = nil
  ) throws -> Pixmap {
    let text = """
      {"canvas": {"width": 100, "height": 100\(canvas)}, "layers": [\(layers)]}
      """
    var settings = SceneSettings(scale: 1, hold: 0)
    settings.colorScheme = scheme
    let scene = try SceneFile.load(text: text, settings: settings).scene
    var compositor = Compositor()
    return try #require(scene.render(frame: 0, compositor: &compositor))
  }

  static func rgb(_ p: PremultipliedRGBA8) -> [Int] { [Int(p.r), Int(p.g), Int(p.b)] }

  static let square = #""shape": "rectangle", "frame": {"width": 40, "height": 40}"#

  /// A stop's location may be any number, as `Gradient.Stop`'s may; it is drawn clamped to 0…1
  /// (as Core Graphics takes locations): stops at −0.5 and 1.5 draw as stops at 0 and 1.
  @Test func stopLocationsPastTheEndsAreClamped() throws {
    func drawn(_ from: Double, _ to: Double) throws -> Pixmap {
      try Self.render(
        #"{"shape": "rectangle", "frame": {"width": 100, "height": 100}, "fill": {"linearGradient": "#
          + #"{"stops": [{"color": "red", "location": \#(from)}, {"color": "blue", "location": \#(to)}], "#
          + #""startPoint": "leading", "endPoint": "trailing"}}}"#)
    }
    let (wide, plain) = (try drawn(-0.5, 1.5), try drawn(0, 1))
    #expect(wide.pixels == plain.pixels)
  }

  @Test func systemColoursTakeTheScheme() throws {
    let layers = "{\(Self.square), \"fill\": \"systemBlue\"}"
    #expect(Self.rgb(try Self.render(layers)[50, 50]) == [0, 122, 255])
    #expect(Self.rgb(try Self.render(layers, scheme: .dark)[50, 50]) == [10, 132, 255])
    // The file's scheme, and the command line's over it.
    #expect(
      Self.rgb(try Self.render(layers, canvas: #", "colorScheme": "dark""#)[50, 50])
        == [10, 132, 255])
    #expect(
      Self.rgb(try Self.render(layers, canvas: #", "colorScheme": "dark""#, scheme: .light)[50, 50])
        == [0, 122, 255])
  }

  @Test func darkSchemeDefaultsAreSystemBackgroundAndLabel() throws {
    let dark = try Self.render("{\(Self.square)}", scheme: .dark)
    #expect(Self.rgb(dark[5, 5]) == [0, 0, 0])  // systemBackground
    #expect(Self.rgb(dark[50, 50]) == [255, 255, 255])  // the default foreground: label
    let light = try Self.render("{\(Self.square)}")
    #expect(Self.rgb(light[5, 5]) == [255, 255, 255])
    #expect(Self.rgb(light[50, 50]) == [0, 0, 0])
    // secondaryLabel: (60, 60, 67) at 60 % over white.
    let secondary = try Self.render("{\(Self.square), \"fill\": \"secondaryLabel\"}")
    #expect(Self.rgb(secondary[50, 50]) == [138, 138, 142])
  }

  @Test func colourNamesWorkInExpressions() throws {
    let p = try Self.render("{\(Self.square), \"fill\": \"=mix(red, systemBlue, 0)\"}")
    #expect(Self.rgb(p[50, 50]) == [255, 59, 48])
  }

  @Test(arguments: [
    (#"{"white": 0.5}"#, [128, 128, 128]),
    (#"{"hue": 0, "saturation": 1, "brightness": 1}"#, [255, 0, 0]),
    (#"{"hue": 0.3333333333, "saturation": 1, "brightness": 1}"#, [0, 255, 0]),
    (#"{"hue": 0.5, "saturation": 0.5, "brightness": 1}"#, [128, 255, 255]),
    (#"{"red": 1, "green": 0.5, "blue": 0}"#, [255, 128, 0]),
    (#"{"white": 0, "opacity": 0.5}"#, [127, 127, 127]),
  ])
  func colourInitialisers(json: String, expected: [Int]) throws {
    let p = try Self.render("{\(Self.square), \"fill\": \(json)}")
    #expect(Self.rgb(p[50, 50]) == expected)
  }

  /// The same initialisers with `=expression` components, and `hsb()`, give the same colours.
  @Test(arguments: [
    (#"{"white": "=0.25 * 2"}"#, [128, 128, 128]),
    (#"{"hue": "=1 / 3", "saturation": 1, "brightness": "=2 / 2"}"#, [0, 255, 0]),
    (#"{"hue": 0.5, "saturation": "=0.5", "brightness": 1}"#, [128, 255, 255]),
    (#"{"red": "=1", "green": 0.5, "blue": "=0"}"#, [255, 128, 0]),
    (#"{"white": 0, "opacity": "=0.5"}"#, [127, 127, 127]),
    (#""=hsb(0.5, 0.5, 1)""#, [128, 255, 255]),
    (#""=hsb(0, 1, 1, 0.5)""#, [255, 127, 127]),
  ])
  func colourInitialisersTakeExpressions(json: String, expected: [Int]) throws {
    let p = try Self.render("{\(Self.square), \"fill\": \(json)}")
    #expect(Self.rgb(p[50, 50]) == expected)
  }

  /// A hue from state animates as SwiftUI animates a colour: the new colour is computed, and
  /// its components move there in linear sRGB (`Color.Resolved`), not through the hues between.
  @Test func aHueFromStateAnimatesComponentByComponent() throws {
    let text = """
      {"canvas": {"width": 20, "height": 20}, "duration": 1, "state": {"p": 0},
       "events": [{"at": 0, "set": {"p": 0.5}, "animation": {"type": "linear", "duration": 1}}],
       "layers": [{"shape": "rectangle", "fill": {"hue": "=p", "saturation": 1, "brightness": 1}}]}
      """
    let scene = try SceneFile.load(
      text: text, settings: SceneSettings(scale: 1, frameRate: 4, hold: 0)
    )
    .scene
    var compositor = Compositor()
    var got: [[Int]] = []
    for frame in 0..<4 {
      got.append(
        Self.rgb(try #require(scene.render(frame: frame, compositor: &compositor))[10, 10]))
    }
    // Red (hue 0) to cyan (hue 0.5) in straight lines of linear light: (255, 0, 0) → (0, 255,
    // 255), halfway the gray of linear 0.5 (188), a quarter of the way 225 and 137.
    #expect(got == [[255, 0, 0], [225, 137, 137], [188, 188, 188], [137, 225, 225]])
  }

  @Test(arguments: [
    (
      #"{"hue": "=2", "saturation": 1, "brightness": 1}"#,
      "layers[0].fill: the hue 2 is not in 0…1"
    ),
    (
      #"{"red": "=1.5", "green": 0, "blue": 0}"#,
      "layers[0].fill.red: the expression gives 1.5 here"
    ),
    (#"{"white": 0, "opacity": "=1.5"}"#, "layers[0].fill.opacity: the expression gives 1.5 here"),
    (#"{"hue": "=nope", "saturation": 1, "brightness": 1}"#, "layers[0].fill: unknown name 'nope'"),
    (
      #"{"hue": "=0.5", "saturation": 2, "brightness": 1}"#,
      "layers[0].fill.saturation: expected a number from 0 to 1"
    ),
    (
      #"{"hue": "=0.5", "saturation": "=(", "brightness": 1}"#,
      "layers[0].fill.saturation: in \"=(\""
    ),
    (#"{"hue": "=0.5", "red": 1}"#, "layers[0].fill: expected one of"),
    (#""=hsb(0.5, [1, 1], 1)""#, "hsb()'s saturation must be a single number"),
    (#"{"white": "=flag"}"#, "layers[0].fill: expected a colour, not true or false"),
    (#""=hsb(0.5, flag, 1)""#, "layers[0].fill: expected a colour, not true or false"),
  ])
  func badExpressionColoursNameTheirPlace(json: String, message: String) throws {
    let text = """
      {"canvas": {"width": 20, "height": 20}, "state": {"flag": true},
       "layers": [{"shape": "rectangle", "fill": \(json)}]}
      """
    do {
      let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0)).scene
      var compositor = Compositor()
      _ = scene.render(frame: 0, compositor: &compositor)
      Issue.record("no error for \(json)")
    } catch {
      #expect("\(error)".contains(message), "\(error)")
    }
  }

  /// Colour objects where a shorthand takes a colour: `background`, `overlay`, a stroke, a
  /// state's value and a `set`.
  @Test func colourObjectsWorkInShorthands() throws {
    let background = try Self.render(
      #"{"shape": "circle", "fill": "clear", "frame": {"width": 40, "height": 40}, "background": {"white": 0.5}}"#
    )
    #expect(Self.rgb(background[50, 50]) == [128, 128, 128])
    let overlay = try Self.render(
      #"{\#(Self.square), "fill": "red", "overlay": {"red": 0, "green": 0, "blue": 1}}"#)
    #expect(Self.rgb(overlay[50, 50]) == [0, 0, 255])
    let stroke = try Self.render(
      #"{"shape": "rectangle", "frame": {"width": 40, "height": 40}, "fill": "white", "stroke": {"hue": 0.3333333333, "saturation": 1, "brightness": 1}}"#
    )
    #expect(Self.rgb(stroke[30, 50]) == [127, 255, 127])  // half the line's pixel over white
    let text = """
      {"canvas": {"width": 20, "height": 20}, "state": {"c": {"white": 0}},
       "events": [{"at": 0, "set": {"c": {"hue": 0, "saturation": 1, "brightness": 1}}}],
       "layers": [{"shape": "rectangle", "fill": "=c"}]}
      """
    let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0)).scene
    var compositor = Compositor()
    let last = try #require(scene.render(frame: scene.frameCount - 1, compositor: &compositor))
    #expect(Self.rgb(last[10, 10]) == [255, 0, 0])
  }

  /// `{"color", "opacity"}` is `Color.opacity(_:)`: the colour's own opacity times this one, as
  /// a fixed colour (over the white canvas) and with the opacity from state.
  @Test func aColourWithAnOpacity() throws {
    let half = try Self.render(#"{\#(Self.square), "fill": {"color": "black", "opacity": 0.5}}"#)
    #expect(abs(Int(half[50, 50].r) - 128) <= 1, "\(Self.rgb(half[50, 50]))")
    // #FF000080 at 0.5: a quarter opaque red over white.
    let quarter = try Self.render(
      ##"{\##(Self.square), "fill": {"color": "#FF000080", "opacity": 0.5}}"##)
    #expect(abs(Int(quarter[50, 50].g) - 191) <= 1, "\(Self.rgb(quarter[50, 50]))")
    let text = #"""
      {"canvas": {"width": 20, "height": 20, "background": "white"}, "state": {"o": 1},
       "events": [{"at": 0, "set": {"o": 0.25}}],
       "layers": [{"shape": "rectangle", "fill": {"color": "black", "opacity": "=o"}}]}
      """#
    let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0)).scene
    var compositor = Compositor()
    let last = try #require(scene.render(frame: scene.frameCount - 1, compositor: &compositor))
    #expect(abs(Int(last[10, 10].r) - 191) <= 1, "\(Self.rgb(last[10, 10]))")
    // A stroke's or an underline's `{"color": …}` names its colour, from state too: only
    // `{"color", "opacity"}` is a colour with an opacity (the one-key object was taken for one
    // and refused an expression; found by a review), and its colour may come from state.
    let stroked = """
      {"canvas": {"width": 40, "height": 40}, "state": {"on": false},
       "events": [{"at": 0, "set": {"on": true}}],
       "layers": [{"shape": "circle", "frame": {"width": 30, "height": 30},
                   "stroke": {"color": "=on ? red : blue"}},
                  {"text": "A", "underline": {"color": "=on ? red : blue"}},
                  {"shape": "rectangle", "frame": {"width": 4, "height": 4},
                   "fill": {"color": "=on ? red : blue", "opacity": 0.5}}]}
      """
    let loaded = try SceneFile.load(text: stroked, settings: SceneSettings(scale: 1, hold: 0))
    var other = Compositor()
    let frame = try #require(
      loaded.scene.render(frame: loaded.scene.frameCount - 1, compositor: &other))
    // The stroke's left edge, half over pixel 5: red, not blue.
    #expect(
      Int(frame[5, 20].r) > Int(frame[5, 20].b) + 60, "\(Self.rgb(frame[5, 20]))")
    // `{"color"}` alone is no colour: it says to add the opacity or write the colour itself.
    #expect {
      _ = try Self.render(#"{\#(Self.square), "fill": {"color": "red"}}"#)
    } throws: { error in
      "\(error)".contains("layers[0].fill") && "\(error)".contains("\"opacity\" beside \"color\"")
    }
    // Two forms at once are refused, saying how to write one.
    #expect {
      _ = try Self.render(#"{\#(Self.square), "fill": {"color": "red", "white": 0.5}}"#)
    } throws: { error in
      "\(error)".contains("layers[0].fill") && "\(error)".contains("Color.black.opacity(0.85)")
    }
  }

  /// A colour that does not animate (the canvas's background) says so of an expression, whole
  /// or in a component.
  @Test func fixedColoursRefuseExpressions() {
    let text = """
      {"canvas": {"width": 20, "height": 20, "background": "=hsb(0.5, 1, 1)"}, "layers": []}
      """
    #expect {
      try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0))
    } throws: { error in
      "\(error)".contains("canvas.background: expected a colour: this one does not animate")
    }
  }

  @Test func fixedColoursRefuseExpressionComponents() {
    let text = """
      {"canvas": {"width": 20, "height": 20, "background": {"white": "=0.5"}}, "layers": []}
      """
    #expect {
      try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0))
    } throws: { error in
      "\(error)".contains(
        "canvas.background.white: expected a number from 0 to 1: this colour "
          + "does not animate")
    }
  }

  @Test(arguments: [
    // Rec. 709 luma of red: 0.2126 · 255 = 54.
    (#""grayscale": 1"#, "#FF0000", [54, 54, 54]),
    (#""saturation": 0"#, "#FF0000", [54, 54, 54]),
    (#""colorInvert": true"#, "#FF0000", [0, 255, 255]),
    (#""brightness": 0.5"#, "#000000", [128, 128, 128]),
    (#""contrast": 0"#, "#FF0000", [128, 128, 128]),
    (#""contrast": 2"#, "#C08040", [255, 128, 0]),
    (##""colorMultiply": "#0000FF""##, "#FFFFFF", [0, 0, 255]),
    // A half turn of red: SVG's hueRotate matrix gives (−0.5748, 0.4252, 0.4252) → clamped.
    (#""hueRotation": 180"#, "#FF0000", [0, 108, 108]),
  ])
  func colourModifiers(modifier: String, fill: String, expected: [Int]) throws {
    let p = try Self.render("{\(Self.square), \"fill\": \"\(fill)\", \(modifier)}")
    let got = Self.rgb(p[50, 50])
    #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(got)")
    #expect(Self.rgb(p[5, 5]) == [255, 255, 255])  // the background is not the layer's
  }
}
