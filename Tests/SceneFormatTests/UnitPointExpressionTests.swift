import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Unit points (`startPoint`, `center`, an anchor) written as expressions may use the nine
/// names, which stand for their points there.
@Suite struct UnitPointExpressionTests {
  static func render(_ layer: String, state: String = "{}") throws -> Pixmap {
    let text =
      #"{"canvas": {"width": 60, "height": 60}, "state": \#(state), "layers": [\#(layer)]}"#
    let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0)).scene
    var compositor = Compositor()
    return try #require(scene.render(frame: 0, compositor: &compositor))
  }

  static func gradient(_ start: String, _ end: String = "\"bottom\"") -> String {
    #"{"shape": "rectangle", "fill": {"linearGradient": {"colors": ["red", "blue"], "startPoint": \#(start), "endPoint": \#(end)}}}"#
  }

  @Test func namesInAnExpressionAreTheirPoints() throws {
    for on in [false, true] {
      let chosen = try Self.render(
        Self.gradient(#""=on ? top : leading""#), state: #"{"on": \#(on)}"#)
      let literal = try Self.render(Self.gradient(on ? #""top""# : #""leading""#))
      #expect(chosen == literal, "on: \(on)")
    }
    // Arithmetic on points: halfway between topLeading and bottomTrailing is the centre.
    let mixed = try Self.render(
      #"{"shape": "circle", "fill": {"radialGradient": {"colors": ["red", "blue"], "center": "=mix(topLeading, bottomTrailing, 0.5)", "endRadius": 30}}}"#
    )
    let centred = try Self.render(
      #"{"shape": "circle", "fill": {"radialGradient": {"colors": ["red", "blue"], "center": "center", "endRadius": 30}}}"#
    )
    #expect(mixed == centred)
    // An anchor takes an expression of the names too.
    let anchored = try Self.render(
      #"{"shape": "rectangle", "fill": "red", "frame": {"width": 20, "height": 20}, "scaleEffect": {"x": 2, "y": 1, "anchor": "=mix(topLeading, bottomTrailing, 0.5)"}}"#
    )
    let centre = try Self.render(
      #"{"shape": "rectangle", "fill": "red", "frame": {"width": 20, "height": 20}, "scaleEffect": {"x": 2, "y": 1, "anchor": "center"}}"#
    )
    #expect(anchored == centre)
    // Elsewhere the names mean nothing.
    #expect(throws: SceneFileError.self) {
      try Self.render(#"{"shape": "rectangle", "fill": "red", "opacity": "=top"}"#)
    }
  }
}
