import Testing
import Typeset

@testable import SceneFormat

/// `"font": {"design": …}`: `Font.Design`'s serif, rounded and monospaced system fonts, drawn by
/// their open stand-ins (docs/SEMANTICS.md, Type), passed down by a stack like the rest of the
/// font, refused by name when unknown.
@Suite struct FontDesignTests {
  /// The width of one line of `text` in `font` (a JSON font object), laid out on its own.
  static func width(_ text: String, _ font: String) throws -> Double {
    let scene = try SceneFile.load(
      text: #"{"canvas": {"width": 600, "height": 100}, "layers": [{"id": "t", "text": ""#
        + text + #"", "font": "# + font + "}]}",
      settings: SceneSettings(scale: 1, frameRate: 10, hold: 0)
    ).scene
    let lines = try #require(SceneLayoutTests.entry("t", in: scene.layout(at: 0))?.lines)
    return try #require(lines.first?.width)
  }

  /// Each design takes its stand-in at the style's size: a monospaced "iiii" is as wide as
  /// "MMMM", and each design sets a text at the width its stand-in gives it, without SF Pro's
  /// tracking.
  @Test func eachDesignTakesItsStandIn() throws {
    let mono = #"{"style": "body", "design": "monospaced"}"#
    #expect(abs(try Self.width("iiii", mono) - Self.width("MMMM", mono)) < 1e-9)
    for (design, family) in [
      ("serif", "Noto Serif"), ("rounded", "Quicksand"), ("monospaced", "JetBrains Mono"),
    ] {
      #expect(FontDesign(rawValue: design)?.family == family, "\(design)")
      let face = try FontFace(try #require(FontLocator.locate(family: family, weight: .regular)))
      let expected = TextLayout("Whiskers", font: face, size: 17).width
      let width = try Self.width("Whiskers", #"{"style": "body", "design": "\#(design)"}"#)
      #expect(abs(width - expected) < 1e-9, "\(design): \(width) against \(expected)")
    }
    #expect(FontDesign.default.family == nil)
    // The default design is SF Pro's stand-in, with its tracking: the same as no design.
    #expect(
      try Self.width("Whiskers", #"{"style": "body", "design": "default"}"#)
        == Self.width("Whiskers", #""body""#))
  }

  /// A family given wins over the design, as a custom font does; a stack's font with a design
  /// reaches the texts inside.
  @Test func aFamilyWinsAndStacksPassTheDesignDown() throws {
    let inter = try FontFace(try #require(FontLocator.locate(family: "Inter", weight: .regular)))
    #expect(
      abs(
        try Self.width("Whiskers", #"{"size": 17, "family": "Inter", "design": "serif"}"#)
          - TextLayout("Whiskers", font: inter, size: 17).width) < 1e-9)
    let layers = try TextEnvironmentTests.layers(
      #"{"vstack": [{"text": "a"}], "font": {"style": "title", "design": "rounded"}}"#)
    let inner = try #require(TextEnvironmentTests.children(layers[0]).first)
    #expect(TextEnvironmentTests.font(inner)?.design == .rounded)
  }

  /// An unknown design names its path and the designs there are.
  @Test func anUnknownDesignIsRefusedByPath() throws {
    let error = #expect(throws: SceneFileError.self) {
      try Self.width("a", #"{"style": "body", "design": "italic"}"#)
    }
    #expect(error?.path == "layers[0].font.design", "\(String(describing: error))")
    #expect(error?.description.contains("monospaced") == true, "\(String(describing: error))")
  }
}
