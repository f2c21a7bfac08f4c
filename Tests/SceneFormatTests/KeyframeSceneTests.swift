import Motion
import SceneGraph
import Testing

@testable import SceneFormat

/// `"keyframes"` in scene files: tracks driving a holder's scale, rotation, opacity and offset,
/// played by a trigger's changes or from the start, traced as `id.keyframes.<track>`.
@Suite struct KeyframeSceneTests {
  static func load(
    _ keyframes: String, events: String = "", duration: Double? = nil
  ) throws -> Scene {
    var settings = SceneSettings(scale: 1, frameRate: 10, hold: 0)
    settings.duration = duration
    return try SceneFile.load(
      text: """
        {"canvas": {"width": 100, "height": 100}, "state": {"likes": 0, "other": 0},
         "layers": [{"id": "heart", "shape": "circle", "frame": {"width": 20, "height": 20},
                     "keyframes": \(keyframes)}],
         "events": [\(events)]}
        """, settings: settings
    ).scene
  }

  static let pop = """
    {"trigger": "=likes", "tracks": {
      "scaleEffect": [{"linear": 1.5, "duration": 0.2}, {"linear": 1, "duration": 0.2}],
      "offset.y": [{"linear": -10, "duration": 0.5}, {"move": 0}]}}
    """

  /// The tracks play in parallel from the trigger's change — not from another state's — each
  /// from the value it has, and hold their ends.
  @Test func aTriggerPlaysTheTracks() throws {
    let scene = try Self.load(
      Self.pop,
      events: #"{"at": 0.5, "set": {"other": 1}}, {"at": 1, "set": {"likes": 1}}, "#
        + #"{"at": 3, "set": {"likes": 2}}"#)
    func v(_ track: String, _ t: Double) -> Double {
      scene.values(at: t)["heart.keyframes." + track]?[0] ?? -99
    }
    #expect(v("scaleEffect", 0.9) == 1 && v("offset.y", 0.9) == 0)
    #expect(abs(v("scaleEffect", 1.1) - 1.25) < 1e-9)
    #expect(abs(v("scaleEffect", 1.3) - 1.25) < 1e-9)
    #expect(abs(v("offset.y", 1.25) - -5) < 1e-9)
    #expect(v("offset.y", 1.6) == 0 && v("scaleEffect", 1.6) == 1)
    #expect(abs(v("scaleEffect", 3.1) - 1.25) < 1e-9)
    #expect(scene.traceColumns.map(\.header).contains("heart.keyframes.offset.y"))
    // The holder carries them: at 1.2 s the heart is 1.5 × as large.
    let chain = try #require(SceneAssembler.chain(to: "heart", in: scene.root))
    let holder = try #require(chain.first { $0.name == "heart.keyframes" })
    #expect(holder.transform(scene.values(at: 1.2)).a == 1.5)
  }

  /// Without a trigger they loop from the start (SwiftUI's default `repeating: true`) for the
  /// duration, every loop as long as the longest track; `"repeating": false` plays them once.
  @Test func withoutATriggerTheyLoop() throws {
    let looping = try Self.load(
      #"{"tracks": {"opacity": [{"linear": 0, "duration": 0.5}], "rotationEffect": [{"linear": 90, "duration": 1}]}}"#,
      duration: 3)
    func v(_ s: Scene, _ track: String, _ t: Double) -> Double {
      s.values(at: t)["heart.keyframes." + track]?[0] ?? -99
    }
    #expect(abs(v(looping, "opacity", 0.25) - 0.5) < 1e-9)
    #expect(v(looping, "opacity", 0.75) == 0)
    #expect(abs(v(looping, "opacity", 1.25) - 0.5) < 1e-9)
    #expect(abs(v(looping, "rotationEffect", 2.5) - 45) < 1e-9)
    let once = try Self.load(
      #"{"repeating": false, "tracks": {"opacity": [{"linear": 0, "duration": 0.5}]}}"#)
    #expect(once.frameCount == 6 && v(once, "opacity", 2) == 0)
  }

  /// A track of moves alone (0 s long) jumps at the trigger; keyframes and phases on a layer
  /// that appears later (`if`) play once it is there.
  @Test func movesAndLaterLayersPlay() throws {
    let moves = try Self.load(
      #"{"trigger": "=likes", "tracks": {"offset.x": [{"move": 50}]}}"#,
      events: #"{"at": 0.2, "set": {"likes": 1}}"#)
    #expect(moves.values(at: 0.1)["heart.keyframes.offset.x"] == [0])
    #expect(moves.values(at: 0.3)["heart.keyframes.offset.x"] == [50])
    let later = try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 200}, "state": {"on": false, "n": 0},
         "events": [{"at": 0.1, "set": {"on": true}}, {"at": 0.5, "set": {"n": 1}}],
         "layers": [{"id": "a", "if": "=on", "shape": "rectangle", "frame": {"width": 50, "height": 50},
           "keyframes": {"trigger": "=n", "tracks": {"offset.x": [{"linear": 50, "duration": 0.4}]}},
           "phases": {"trigger": "=n", "values": [{}, {"offset.y": 30}],
                      "animations": ["none", {"type": "linear", "duration": 0.4}]}}]}
        """, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0)
    ).scene
    #expect(abs((later.values(at: 0.7)["a.keyframes.offset.x"]?[0] ?? -1) - 25) < 1e-9)
    #expect(abs((later.values(at: 0.7)["a.phases.offset.y"]?[0] ?? -1) - 15) < 1e-9)
  }

  @Test func badKeyframesNameTheirPath() {
    let cases: [(String, String, String)] = [
      (#"{"tracks": {"scale": []}}"#, "layers[0].keyframes.tracks.scale", "unknown key"),
      (#"{"tracks": {}}"#, "layers[0].keyframes.tracks", "at least one"),
      (
        #"{"repeating": false, "tracks": {"opacity": [{"linear": 1}]}}"#,
        "layers[0].keyframes.tracks.opacity[0]", "duration"
      ),
      (
        #"{"repeating": false, "tracks": {"opacity": [{"linear": 1, "move": 2}]}}"#,
        "layers[0].keyframes.tracks.opacity[0]", "exactly one"
      ),
      (
        #"{"repeating": false, "tracks": {"opacity": [{"move": 1, "duration": 2}]}}"#,
        "layers[0].keyframes.tracks.opacity[0].duration", "does not apply"
      ),
      (
        #"{"tracks": {"opacity": [{"linear": 0, "duration": 1}]}}"#, "layers[0].keyframes",
        "--duration"
      ),
      (
        #"{"trigger": 3, "tracks": {"opacity": [{"move": 0}]}}"#, "layers[0].keyframes.trigger",
        "expression"
      ),
      (
        #"{"trigger": "=time", "tracks": {"opacity": [{"move": 0}]}}"#,
        "layers[0].keyframes.trigger", "time"
      ),
    ]
    for (keyframes, path, message) in cases {
      #expect {
        _ = try Self.load(keyframes)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path == path && e.message.contains(message)
      }
    }
  }
}
