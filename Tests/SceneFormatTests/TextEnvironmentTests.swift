import FileIO
import Raster
import SceneGraph
import Testing
import Typeset

@testable import SceneFormat

/// Text styles on a container reach every text inside, as SwiftUI's environment passes
/// `.font`, `.bold`, `.italic`, `.lineLimit`, … down: the nearest setting wins, a text's own
/// modifier over all (docs/SEMANTICS.md, "Text styles in the environment").
@Suite struct TextEnvironmentTests {
  static func layers(_ layers: String) throws -> [LayerDescription] {
    var decoder = SceneDecoder(
      files: FileConfinement(folder: "", allowsOutside: false), colorScheme: .light)
    return try decoder.decode(JSONParser.parse(#"{"layers": ["# + layers + "]}")).layers
  }

  static func children(_ layer: LayerDescription) -> [LayerDescription] {
    if case .stack(_, let children, _, _) = layer.content { return children }
    return []
  }

  static func font(_ layer: LayerDescription) -> FontRequest? {
    switch layer.content {
    case .text(_, let font): font
    case .symbol(_, let font, _, _): font
    default: nil
    }
  }

  /// The statement, case by case: a container's `font` is the font of texts that set none; its
  /// weight (`bold`/`weight`) applies to the font a text ends up with unless the text gives a
  /// weight itself (in `weight`, `bold` or its font); `bold: false` takes a container's bold
  /// away and keeps the font's own weight.
  @Test func fontAndWeightPassDown() throws {
    let stack = try #require(
      try Self.layers(
        #"""
        {"vstack": [
          {"text": "a"},
          {"text": "b", "font": "caption"},
          {"text": "c", "weight": "light"},
          {"text": "d", "font": {"style": "caption", "weight": "heavy"}},
          {"text": "e", "bold": false},
          {"symbol": "heart"},
          {"hstack": [{"text": "f"}], "font": "footnote", "weight": "medium"}
        ], "font": "title", "bold": true}
        """#
      ).first)
    let fonts = Self.children(stack).map(Self.font)
    let expected: [(TextStyle, FontWeight?)] = [
      (.title, .bold), (.caption, .bold), (.title, .light), (.caption, .heavy), (.title, nil),
      (.title, .bold),
    ]
    for (i, (style, weight)) in expected.enumerated() {
      #expect(fonts[i]?.style == style, "child \(i)")
      #expect(fonts[i]?.weight == weight, "child \(i)")
    }
    let inner = Self.children(Self.children(stack)[6]).first
    #expect(inner.flatMap(Self.font)?.style == .footnote)
    #expect(inner.flatMap(Self.font)?.weight == .medium)
  }

  /// Styling and line options: the innermost setting of each wins, independently of the others;
  /// a text's own over every container's; runs' over their text's.
  @Test func stylingAndLineOptionsPassDown() throws {
    let outer = try #require(
      try Self.layers(
        #"""
        {"vstack": [
          {"hstack": [
            {"text": "a"},
            {"text": "b", "italic": false, "lineLimit": 1, "multilineTextAlignment": "trailing"},
            {"text": ["x", {"text": "y", "underline": false}]}
          ], "italic": true, "kerning": 2, "truncationMode": "middle"}
        ], "italic": false, "underline": true, "lineLimit": 3, "multilineTextAlignment": "center",
           "lineSpacing": 4, "minimumScaleFactor": 0.5, "monospacedDigit": true,
           "tracking": 1, "strikethrough": "red", "contentTransition": "identity"}
        """#
      ).first)
    let texts = Self.children(Self.children(outer)[0])
    let a = texts[0].textOptions
    #expect(a.styling.italic == true)
    #expect(a.styling.underline == true)
    #expect(a.styling.kerning == 2)
    #expect(a.styling.tracking == 1)
    #expect(a.styling.monospacedDigit == true)
    #expect(a.styling.strikethrough == true)
    #expect(a.styling.strikethroughColor != nil)
    #expect(a.lineLimit == 3)
    #expect(a.alignment == .center)
    #expect(a.lineSpacing == 4)
    #expect(a.minimumScaleFactor == 0.5)
    #expect(a.truncation == .middle)
    #expect(a.transition == .identity)
    #expect(!a.ownTransition)
    let b = texts[1].textOptions
    #expect(b.styling.italic == false)
    #expect(b.lineLimit == 1)
    #expect(b.alignment == .trailing)
    #expect(b.truncation == .middle)
    guard case .text(let runs, _) = texts[2].content else {
      Issue.record("runs")
      return
    }
    #expect(runs[0].styling.over(texts[2].textOptions.styling).underline == true)
    #expect(runs[1].styling.over(texts[2].textOptions.styling).underline == false)
  }

  /// A container's foreground colour and styles reach its content, not its background or
  /// overlay (they take the environment around it, as a modifier written before them would),
  /// and a text that sets nothing keeps SwiftUI's defaults.
  @Test func decorationsTakeTheEnvironmentAroundTheLayer() throws {
    let layers = try Self.layers(
      #"""
      {"vstack": [{"text": "in"}], "font": "largeTitle", "italic": true,
       "overlay": {"content": {"text": "over"}}},
      {"text": "plain"}
      """#)
    #expect(Self.font(Self.children(layers[0])[0])?.style == .largeTitle)
    let overlay = try #require(layers[0].overlays.first?.layer)
    #expect(Self.font(overlay)?.style == .body)
    #expect(overlay.textOptions.styling.italic == nil)
    let plain = layers[1]
    #expect(Self.font(plain)?.style == .body)
    #expect(Self.font(plain)?.weight == nil)
    #expect(plain.textOptions.lineLimit == nil)
    #expect(plain.textOptions.alignment == .leading)
  }

  /// Pixels: a stack that sets the styles draws exactly what the same texts setting them each
  /// draw (the layout dump is the same too).
  @Test func aStacksStylesDrawAsTheTextsOwn() throws {
    func render(_ layer: String) throws -> (Pixmap?, [LayoutEntry]) {
      let loaded = try SceneFile.load(
        text: #"{"canvas": {"width": 240, "height": 160}, "layers": ["# + layer + "]}",
        settings: SceneSettings(scale: 2, hold: 0))
      var compositor = Compositor()
      return (
        loaded.scene.render(frame: 0, compositor: &compositor),
        loaded.scene.layout(at: 0)
      )
    }
    let styles =
      #""font": "title2", "bold": true, "italic": true, "foregroundColor": "systemRed", "#
      + #""multilineTextAlignment": "center", "lineLimit": 2, "underline": true"#
    let words = "Settings are passed down to every text inside the stack"
    let inherited = try render(
      #"{"vstack": [{"text": "Hello"}, {"text": "\#(words)", "frame": {"width": 200}}], "#
        + styles + "}")
    let own = try render(
      #"{"vstack": [{"text": "Hello", \#(styles)}, "#
        + #"{"text": "\#(words)", "frame": {"width": 200}, \#(styles)}]}"#)
    #expect(inherited.0 != nil)
    #expect(inherited.0 == own.0)
    #expect(inherited.1 == own.1)
  }

  /// Text styles on a layer that holds no text are errors naming the key; bad values name
  /// theirs; a container's `contentTransition` is not warned about on its static texts.
  @Test func errorsNameTheKey() throws {
    let cases: [(String, String)] = [
      (#"{"shape": "circle", "font": "title"}"#, "layers[0]"),
      (#"{"image": "x.png", "bold": true}"#, "layers[0]"),
      (#"{"vstack": [], "lineLimit": 0}"#, "layers[0].lineLimit"),
      (#"{"hstack": [], "font": "huge"}"#, "layers[0].font"),
      (#"{"zstack": [], "multilineTextAlignment": "left"}"#, "layers[0].multilineTextAlignment"),
      (#"{"vstack": [{"vstack": [], "weight": "fat"}]}"#, "layers[0].vstack[0].weight"),
    ]
    for (layer, path) in cases {
      #expect("\(layer)") {
        _ = try Self.layers(layer)
      } throws: { error in
        (error as? SceneFileError)?.path.hasPrefix(path) == true
      }
    }
    let loaded = try SceneFile.load(
      text: #"""
        {"canvas": {"width": 100, "height": 100},
         "layers": [{"vstack": [{"text": "static"}], "contentTransition": "numericText"}]}
        """#, settings: SceneSettings(scale: 1, hold: 0))
    #expect(loaded.notes.filter { $0.contains("contentTransition") }.isEmpty)
  }
}
