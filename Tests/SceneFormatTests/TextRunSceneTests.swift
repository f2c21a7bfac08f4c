import Raster
import SceneGraph
import Testing
import Typeset

@testable import SceneFormat

/// Text runs and styling in scene files, checked on the pixels and the layout they give.
@Suite struct TextRunSceneTests {
  static func scene(_ layers: String, width: Int = 200, state: String = "") throws -> LoadedScene {
    let text = """
      {"canvas": {"width": \(width), "height": 100, "background": "white"}\(state),
       "layers": [\(layers)]}
      """
    return try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0))
  }

  /// The colours of pixels inside the text's left and right halves that are fully covered.
  static func solidColours(_ pixmap: Pixmap, left: Bool) -> Set<[Int]> {
    var found: Set<[Int]> = []
    for y in 0..<pixmap.height {
      for x in 0..<pixmap.width where (x < pixmap.width / 2) == left {
        let p = pixmap[x, y]
        if p.r != p.g || p.g != p.b, p.a == 255, max(p.r, p.g, p.b) == 255 || p.r == 0 {
          found.insert([Int(p.r), Int(p.g), Int(p.b)])
        }
      }
    }
    return found
  }

  /// Each run in its own colour (`Text("a").foregroundColor(.red) + Text("b")…`), the others in
  /// the layer's; a run's colour may be animated like the layer's.
  @Test func runsDrawInTheirOwnColours() throws {
    let file = try Self.scene(
      ##"{"text": [{"text": "MMM", "foregroundColor": "#FF0000"}, {"text": "MMM", "foregroundColor": "=on > 0.5 ? #00FF00 : #000000"}], "font": {"size": 40}, "bold": true, "foregroundColor": "#0000FF"}"##,
      state: #", "state": {"on": 1}"#)
    var compositor = Compositor()
    let pixmap = try #require(file.scene.render(frame: 0, compositor: &compositor))
    #expect(Self.solidColours(pixmap, left: true).contains([255, 0, 0]))
    #expect(Self.solidColours(pixmap, left: false).contains([0, 255, 0]))
    #expect(!Self.solidColours(pixmap, left: true).contains([0, 0, 255]))
  }

  /// Runs set one after another: the dump shows one line with all their characters, as wide as
  /// the runs' widths together; a bold run is wider than the same characters regular.
  @Test func runsShareOneLine() throws {
    let plain = try Self.scene(#"{"id": "t", "text": "Cats and dogs"}"#).scene.layout(at: 0)
    let runs = try Self.scene(#"{"id": "t", "text": ["Cats ", {"text": "and"}, " dogs"]}"#)
      .scene.layout(at: 0)
    let bold = try Self.scene(
      #"{"id": "t", "text": ["Cats ", {"text": "and", "bold": true}, " dogs"]}"#
    )
    .scene.layout(at: 0)
    let a = try #require(SceneLayoutTests.entry("t", in: plain)).lines
    let b = try #require(SceneLayoutTests.entry("t", in: runs)).lines
    let c = try #require(SceneLayoutTests.entry("t", in: bold)).lines
    #expect(a.map(\.text) == ["Cats and dogs"] && b.map(\.text) == a.map(\.text))
    #expect(abs(a[0].width - b[0].width) < 1e-9)
    #expect(c[0].width > a[0].width + 0.5)
  }

  /// A layer's styling reaches its runs unless a run gives its own; underline and strikethrough
  /// draw in their colours.
  @Test func layerStylingReachesRunsAndLinesTakeTheirColours() throws {
    let file = try Self.scene(
      ##"{"text": [{"text": "____"}, {"text": "____", "underline": false}], "font": {"size": 30}, "underline": "#FF0000", "foregroundColor": "white"}"##
    )
    var compositor = Compositor()
    let pixmap = try #require(file.scene.render(frame: 0, compositor: &compositor))
    #expect(Self.solidColours(pixmap, left: true).contains([255, 0, 0]))
    #expect(!Self.solidColours(pixmap, left: false).contains([255, 0, 0]))
  }

  /// Keys that do nothing where they are given are warned about: `ignoresSafeArea` below the top
  /// level, `contentTransition` on a text that is not from state.
  @Test func keysThatDoNothingAreWarnedAbout() throws {
    let file = try Self.scene(
      #"{"vstack": [{"text": "a", "ignoresSafeArea": "top", "contentTransition": "identity"}]}"#)
    #expect(file.notes.contains { $0.contains("layers[0].vstack[0].ignoresSafeArea does nothing") })
    #expect(
      file.notes.contains { $0.contains("layers[0].vstack[0].contentTransition does nothing") })
    let quiet = try Self.scene(#"{"text": "a", "ignoresSafeArea": "top"}"#)
    #expect(!quiet.notes.contains { $0.contains("does nothing") })
  }

  /// With `--font` no other font is searched, but a character the file lacks is still named.
  @Test func aFontFileNamesTheCharactersItLacks() throws {
    let dejavu = try #require(FontLocator.locate(family: "DejaVu Sans", weight: .regular))
    let loaded = try SceneFile.load(
      text: #"{"canvas": {"width": 100, "height": 50}, "layers": [{"text": "a中b"}]}"#,
      settings: SceneSettings(scale: 1, hold: 0, fontFile: dejavu.path))
    #expect(loaded.notes.contains { $0.contains("the --font file has no '中' (U+4E2D)") })
  }

  /// A character no installed font has is named in a warning with its code point.
  @Test func missingCharactersAreWarnedAbout() throws {
    let file = try Self.scene(#"{"text": "a\u0378b"}"#)
    #expect(file.notes.contains { $0.contains("U+0378") })
  }
}
