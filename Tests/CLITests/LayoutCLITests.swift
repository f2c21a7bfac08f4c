import Foundation
import SceneFormat
import Testing

/// `render-anim layout`: the laid-out tree as JSON, read back and held to the sizes SwiftUI gives
/// (each rule with its source in docs/SEMANTICS.md, "Geometry and layout").
@Suite struct LayoutCLITests {
  let scratch = Scratch("layout")

  /// A toast: an HStack of a 20-point circle and a 60 × 20 rectangle 8 apart, padded 10 and 6,
  /// on a capsule background; below it, a layer whose `.position` moves with state.
  static let scene = """
    {"canvas": {"width": 300, "height": 200},
     "state": {"x": 50},
     "layers": [
       {"id": "toast", "hstack": [
          {"shape": "circle", "frame": {"width": 20, "height": 20}},
          {"id": "label", "text": "Hi", "font": {"size": 17}}
        ], "spacing": 8, "padding": {"horizontal": 10, "vertical": 6},
        "background": {"content": {"shape": "capsule"}}},
       {"id": "dot", "shape": "circle", "frame": {"width": 10, "height": 10},
        "position": {"x": "=x", "y": 180}}
     ],
     "events": [{"at": 0, "set": {"x": 250}, "animation": {"type": "linear", "duration": 1}}]}
    """

  static func object(_ value: JSONValue?) -> [String: JSONValue] {
    guard let value, case .object(let members) = value.kind else { return [:] }
    return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
  }

  static func array(_ value: JSONValue?) -> [JSONValue] {
    guard let value, case .array(let items) = value.kind else { return [] }
    return items
  }

  static func number(_ value: JSONValue?) -> Double? {
    guard let value, case .number(let n) = value.kind else { return nil }
    return n
  }

  static func string(_ value: JSONValue?) -> String? {
    guard let value, case .string(let s) = value.kind else { return nil }
    return s
  }

  static func frame(_ layer: JSONValue) -> [Double?] {
    let f = object(object(layer)["frame"])
    return ["x", "y", "width", "height"].map { number(f[$0]) }
  }

  @Test func theDumpGivesSwiftUIsFrames() throws {
    let file = try scratch.write(Self.scene, "toast.json")
    let run = InProcessRun(["layout", file, "--at", "0.5"])
    #expect(run.status == 0, "\(run.standardError)")
    let layers = Self.array(Self.object(try JSONParser.parse(run.standardOutput))["layers"])
    #expect(layers.count == 2)
    let toast = try #require(layers.first)
    #expect(Self.string(Self.object(toast)["id"]) == "toast")
    #expect(Self.string(Self.object(toast)["path"]) == "layers[0]")
    // The HStack is 20 + 8 + the text's width wide, padded 10 each side, as high as its taller
    // child padded 6 above and below (stacks and padding); centred in the screen.
    let children = Self.array(Self.object(toast)["children"])
    #expect(children.count == 3)  // the background's content, the circle, the label
    let frame = Self.frame(toast)
    let width = try #require(frame[2])
    let height = try #require(frame[3])
    let label = try #require(children.first { Self.string(Self.object($0)["id"]) == "label" })
    let labelFrame = Self.frame(label)
    let labelWidth = try #require(labelFrame[2])
    let labelHeight = try #require(labelFrame[3])
    #expect(width == 10 + 20 + 8 + labelWidth + 10)
    #expect(height == 6 + max(20, labelHeight) + 6)
    // On the pixel grid of the canvas's default 2 pixels a point.
    #expect(frame[0] == ((300 - width) / 2 * 2).rounded() / 2)
    // The background is offered the padded size and takes it (a capsule takes what it is offered).
    let background = try #require(children.first)
    #expect(Self.string(Self.object(background)["path"]) == "layers[0].background.content")
    #expect(Self.frame(background) == frame)
    // The label's one line: its text, its width, a baseline inside its frame.
    let lines = Self.array(Self.object(label)["lines"])
    #expect(lines.count == 1)
    let line = Self.object(lines.first)
    #expect(Self.string(line["text"]) == "Hi")
    let baseline = try #require(Self.number(line["baseline"]))
    let top = try #require(labelFrame[1])
    #expect(baseline > top && baseline < top + labelHeight)
    #expect(try #require(Self.number(line["width"])) <= labelWidth)
    // Halfway through its linear move the positioned dot is at x = 150.
    let dot = layers[1]
    #expect(Self.frame(dot) == [145, 175, 10, 10])
  }

  @Test func theDumpGoesToAFileAndBadTimesAreUsageErrors() throws {
    let file = try scratch.write(Self.scene, "toast.json")
    let out = scratch.path + "/layout.json"
    let run = InProcessRun(["layout", file, "--at", "1", "-o", out])
    #expect(run.status == 0, "\(run.standardError)")
    let written = try JSONParser.parse(try String(contentsOfFile: out, encoding: .utf8))
    #expect(Self.frame(Self.array(Self.object(written)["layers"])[1]) == [245, 175, 10, 10])
    let late = InProcessRun(["layout", file, "--at", "-2"])
    #expect(late.status == 64)
    #expect(late.standardError.contains("--at"), "\(late.standardError)")
    let missing = InProcessRun(["layout", scratch.path + "/none.json"])
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("none.json"), "\(missing.standardError)")
  }

  /// A scene whose text reads time needs a duration; `layout` takes `--duration` as the
  /// rendering commands do, and shows the text of that moment.
  @Test func aSceneThatReadsTimeTakesADuration() throws {
    let file = try scratch.write(
      #"{"canvas": {"width": 100, "height": 50, "scale": 1}, "layers": [{"text": "=\"\\(time, specifier: \"%.1f\") s\""}]}"#,
      "clock.json")
    let without = InProcessRun(["layout", file])
    #expect(without.status != 0 && without.standardError.contains("--duration"))
    let with = InProcessRun(["layout", file, "--duration", "2", "--at", "0.5"])
    #expect(with.status == 0, "\(with.standardError)")
    #expect(with.standardOutput.contains("0.5 s"), "\(with.standardOutput)")
  }
}
