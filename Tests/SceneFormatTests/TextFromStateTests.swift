import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Text from state: the interpolation syntax, its number formats, and the versions a scene
/// draws as its state changes.
@Suite struct TextFromStateTests {
  static func text(_ template: String, _ values: [String: [Double]] = [:]) throws -> String {
    try TextTemplate.parse(template).evaluate(ExpressionScope(values))
  }

  /// Each format against what Swift and Foundation write for en_US.
  @Test func numbersAreWrittenAsSwiftAndFoundationWriteThem() throws {
    #expect(try Self.text(#""\(n) likes""#, ["n": [42]]) == "42 likes")
    #expect(try Self.text(#""\(n)""#, ["n": [2.5]]) == "2.5")
    #expect(try Self.text(#""\(n)""#, ["n": [-3]]) == "-3")
    #expect(try Self.text(#""\(n, format: .number)""#, ["n": [1234567.891]]) == "1,234,567.891")
    #expect(try Self.text(#""\(n, format: .number)""#, ["n": [1000]]) == "1,000")
    #expect(
      try Self.text(#""\(n, format: .number.precision(.fractionLength(2)))""#, ["n": [-1234.5]])
        == "-1,234.50")
    #expect(try Self.text(#""\(n, format: .percent)""#, ["n": [0.256]]) == "25.6%")
    #expect(
      try Self.text(#""\(n, format: .percent.precision(.fractionLength(0)))""#, ["n": [0.5]])
        == "50%")
    #expect(try Self.text(#""\(n, specifier: "%.1f") km""#, ["n": [3.25]]) == "3.2 km")
    #expect(try Self.text(#""\(n, specifier: "%d")""#, ["n": [7.9]]) == "7")
    #expect(try Self.text(#""\(n, specifier: "%.0f%%")""#, ["n": [99.5]]) == "100%")
    // Values no Int holds do not trap an integer conversion.
    #expect(try Self.text(#""\(n, specifier: "%d")""#, ["n": [1e24]]) == "9200000000000000000")
    #expect(try Self.text(#""\(sqrt(0 - 1), specifier: "%d%%")""#) == "nan%")
    #expect(try Self.text(#""\(sqrt(0 - 1), format: .number)""#) == "NaN")
    // Escapes, arithmetic and more than one interpolation.
    #expect(try Self.text(#""a\"b\\c \(x + 1)/\(y)""#, ["x": [1], "y": [3]]) == #"a"b\c 2/3"#)
    #expect(try Self.text(#""\u{2764} \(min(x, 2))""#, ["x": [5]]) == "❤ 2")
  }

  /// A Bool state interpolated alone writes true or false, as Swift's "\(flag)" does; in
  /// arithmetic it is a number.
  @Test func booleanStatesWriteTrueOrFalse() throws {
    let loaded = try SceneFile.load(
      text: #"""
        {"canvas": {"width": 200, "height": 100}, "state": {"on": true},
         "layers": [{"id": "t", "text": "=\"\\(on) \\(on + 1)\""}]}
        """#, settings: SceneSettings(scale: 1, hold: 0))
    let entry = try #require(SceneLayoutTests.entry("t", in: loaded.scene.layout(at: 0)))
    #expect(entry.lines.map(\.text) == ["true 2"])
  }

  /// A choice of two texts, as `Text(following ? "Following" : "Follow")`: nested, in
  /// parentheses, with interpolations in either, a condition with its own parentheses and
  /// quotes inside the texts that hold `?` and `:`.
  @Test func aChoiceOfTwoTexts() throws {
    let choice = #"on ? "Following" : "Follow""#
    #expect(try Self.text(choice, ["on": [1]]) == "Following")
    #expect(try Self.text(choice, ["on": [0]]) == "Follow")
    let nested = #"n > 9 ? "Many" : (n == 1 ? "\(n) item" : "\(n) items")"#
    #expect(try Self.text(nested, ["n": [12]]) == "Many")
    #expect(try Self.text(nested, ["n": [1]]) == "1 item")
    #expect(try Self.text(nested, ["n": [3]]) == "3 items")
    let chained = #"n < 1 ? "none" : n < 2 ? "one" : "some""#
    #expect(try Self.text(chained, ["n": [0]]) == "none")
    #expect(try Self.text(chained, ["n": [1]]) == "one")
    #expect(try Self.text(chained, ["n": [5]]) == "some")
    let quoted = #"(a + 1) * 2 > 3 ? "Why? Because: \"yes\"" : "No""#
    #expect(try Self.text(quoted, ["a": [1]]) == #"Why? Because: "yes""#)
    #expect(try Self.text(quoted, ["a": [0]]) == "No")
    // Inside an interpolation, as Swift allows: "\(on ? "yes" : "no")".
    let inner = #""Wi-Fi \(on ? "on" : "off"), \(n) networks""#
    #expect(try Self.text(inner, ["on": [1], "n": [3]]) == "Wi-Fi on, 3 networks")
    #expect(try Self.text(inner, ["on": [0], "n": [3]]) == "Wi-Fi off, 3 networks")
    // In a scene: the text follows the state.
    let loaded = try SceneFile.load(
      text: #"""
        {"canvas": {"width": 300, "height": 100}, "state": {"on": false},
         "layers": [{"id": "t", "text": "=on ? \"Following\" : \"Follow\""}],
         "events": [{"at": 0.5, "set": {"on": true}}]}
        """#, settings: SceneSettings(scale: 1, hold: 0))
    let texts = [0, 1].map { t in
      SceneLayoutTests.entry("t", in: loaded.scene.layout(at: Double(t)))?.lines.map(\.text)
    }
    #expect(texts == [["Follow"], ["Following"]])
  }

  /// Malformed templates are errors that say what is wrong.
  @Test func badTemplatesAreRefused() {
    let cases: [(String, String)] = [
      (#"no quotes"#, "string literal"),
      (#""\(x""#, "not closed"),
      (#""\(x, format: .currency)""#, ".number or .percent"),
      (#""\(x, specifier: "%s")""#, "is not one of"),
      (#""\(x, specifier: "%d %d")""#, "is not one of"),
      (#""\(x, style: 1)""#, "format: or specifier:"),
      (#""\q""#, "unknown escape"),
      (#""\(x +)""#, "expected"),
      (#"on ? "A""#, "needs its \":\""),
      (#"on ? "A" : B"#, "string literal"),
    ]
    for (template, message) in cases {
      #expect {
        _ = try TextTemplate.parse(template)
      } throws: { error in
        "\(error)".contains(message)
      }
    }
  }

  static func scene(_ layer: String, events: String) throws -> LoadedScene {
    let text = """
      {"canvas": {"width": 200, "height": 100, "background": "white"}, "state": {"n": 9},
       "layers": [\(layer)], "events": [\(events)]}
      """
    return try SceneFile.load(text: text, settings: SceneSettings(scale: 1, frameRate: 20, hold: 0))
  }

  /// The node of each version and its opacity over time: the first shown at the start, a
  /// crossfade with the change's animation, `identity` at once.
  @Test func versionsFadeWithTheChangeOrSwitchAtOnce() throws {
    let events = #"{"at": 0.5, "set": {"n": 10}, "animation": {"type": "linear", "duration": 1}}"#
    for (transition, halfway) in [("opacity", 0.5), ("identity", 1.0)] {
      let loaded = try Self.scene(
        #"{"id": "t", "text": "=\"\\(n) likes\"", "contentTransition": "\#(transition)"}"#,
        events: events)
      let scene = loaded.scene
      // Frame 0: only "9 likes"; at 1 s (halfway through the linear change) both or the new.
      let start = scene.values(at: 0)
      let middle = scene.values(at: 1.0)
      let end = scene.values(at: 2)
      #expect(start["t.text[0].opacity"] == [1] && start["t.text[1].opacity"] == [0])
      #expect(abs((middle["t.text[1].opacity"]?[0] ?? -1) - halfway) < 1e-6)
      #expect(end["t.text[0].opacity"] == [0] && end["t.text[1].opacity"] == [1])
    }
  }

  /// The layout dump shows the lines of the value that holds; the pixels change with the state.
  @Test func theDrawingFollowsTheState() throws {
    let loaded = try Self.scene(
      #"{"id": "t", "text": "=\"\\(n)\"", "font": {"size": 40}, "contentTransition": "identity"}"#,
      events: #"{"at": 0.2, "set": {"n": 10}}"#)
    let scene = loaded.scene
    let entry = try #require(SceneLayoutTests.entry("t", in: scene.layout(at: 0)))
    #expect(entry.lines.map(\.text) == ["9"])
    // Once the state has changed the dump shows the new value's lines.
    let later = try #require(SceneLayoutTests.entry("t", in: scene.layout(at: 1)))
    #expect(later.lines.map(\.text) == ["10"])
    var compositor = Compositor()
    let before = try #require(scene.render(frame: 0, compositor: &compositor))
    let after = try #require(scene.render(frame: scene.frameCount - 1, compositor: &compositor))
    func inkWidth(_ p: Pixmap) -> Int {
      var xs: [Int] = []
      for y in 0..<p.height { for x in 0..<p.width where p[x, y].r < 128 { xs.append(x) } }
      return (xs.max() ?? 0) - (xs.min() ?? 0)
    }
    #expect(inkWidth(after) > inkWidth(before) + 10)  // "10" is wider than "9"
  }

  /// A text from state whose versions differ in width, in a leading-aligned frame whose layout
  /// animates: both versions are drawn at the text's frame of the moment, so the leading edge
  /// of the ink stays where the frame's is. (Each was drawn centred in its own box, the new,
  /// wider text out past the frame's leading edge; found making the animations example.)
  @Test func versionsStandAtTheFramesLeadingEdge() throws {
    let scene = try SceneFile.load(
      text: #"""
        {"canvas": {"width": 400, "height": 120, "background": "white"},
         "state": {"open": false},
         "layers": [{"vstack": [
           {"id": "t", "text": "=open ? \"Flights, a hotel and a museum\" : \"3 bookings\"",
            "font": {"size": 20}}],
           "alignment": "leading", "padding": 20,
           "frame": {"maxWidth": "infinity", "height": "=open ? 100 : 60", "alignment": "topLeading"}}],
         "events": [{"at": 0.2, "set": {"open": true}, "animation": {"type": "linear", "duration": 1}}]}
        """#, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0)
    ).scene
    var compositor = Compositor()
    func leftmostInk(_ frame: Int) throws -> Int {
      let p = try #require(scene.render(frame: frame, compositor: &compositor))
      var left = p.width
      for y in 0..<p.height { for x in 0..<p.width where p[x, y].r < 200 { left = min(left, x) } }
      return left
    }
    let start = try leftmostInk(0)
    #expect(start >= 20 && start <= 23, "\(start)")
    for frame in [3, 5, 7, scene.frameCount - 1] {
      #expect(abs(try leftmostInk(frame) - start) <= 1, "frame \(frame)")
    }
  }

  /// Errors name the JSON path: a bad template, a bad transition, a value that is not a number.
  @Test func errorsNameTheirPath() {
    let cases: [(String, String, String)] = [
      (#"{"text": "=\"\\(n\""}"#, "layers[0].text", "not closed"),
      (#"{"text": "=\"\\(m)\""}"#, "layers[0].text", "unknown name 'm'"),
      (
        #"{"text": "=\"\\(n)\"", "contentTransition": "fade"}"#, "layers[0].contentTransition",
        "unknown content transition"
      ),
      (#"{"text": ["a", {"text": "=\"\\([n, n])\""}]}"#, "layers[0].text[1].text", "one number"),
      (#"{"text": ["a", "=\"\\(m)\""]}"#, "layers[0].text[1]", "unknown name 'm'"),
    ]
    for (layer, path, message) in cases {
      #expect {
        _ = try Self.scene(layer, events: "")
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path.hasPrefix(path) && e.message.contains(message)
      }
    }
  }
}
