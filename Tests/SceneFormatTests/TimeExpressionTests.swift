import SceneGraph
import Testing

@testable import SceneFormat

#if canImport(Glibc)
import Glibc
#endif

/// `time` in expressions (`TimelineView(.animation)`): a value that follows time is sampled at
/// every frame with the state in effect then.
@Suite struct TimeExpressionTests {
  static func load(_ layer: String, events: String = "", duration: Double? = 2) throws -> Scene {
    var settings = SceneSettings(scale: 1, frameRate: 10, hold: 0)
    settings.duration = duration
    return try SceneFile.load(
      text: """
        {"canvas": {"width": 100, "height": 100}, "state": {"speed": 1}, "layers": [\(layer)],
         "events": [\(events)]}
        """, settings: settings
    ).scene
  }

  /// A second hand (6° a second) and a shimmer (a sine of time), at every frame; between frames
  /// (the layout dump's --at) mixed linearly.
  @Test func valuesFollowTime() throws {
    let scene = try Self.load(
      #"{"id": "hand", "shape": "rectangle", "rotationEffect": "=time * 6", "#
        + #""offset": {"x": "=sin(time * 3) * 40", "y": 0}}"#)
    #expect(scene.frameCount == 20)
    for frame in 0..<20 {
      let t = Double(frame) / 10
      let values = scene.values(at: t)
      #expect(abs((values["hand.rotationEffect"]?[0] ?? -1) - t * 6) < 1e-9)
      #expect(abs((values["hand.offset"]?[0] ?? -1) - sin(t * 3) * 40) < 1e-9)
    }
    #expect(abs((scene.values(at: 0.25)["hand.rotationEffect"]?[0] ?? -1) - 1.5) < 1e-9)
    #expect(scene.traceColumns.map(\.header).contains("hand.rotationEffect"))
  }

  /// The state a value of time reads changes at the change, without animation.
  @Test func stateTakesEffectAtOnce() throws {
    let scene = try Self.load(
      #"{"id": "s", "shape": "rectangle", "rotationEffect": "=time * speed * 90"}"#,
      events: #"{"at": 1, "set": {"speed": 2}, "animation": "smooth"}"#)
    #expect(abs((scene.values(at: 0.9)["s.rotationEffect"]?[0] ?? -1) - 81) < 1e-9)
    #expect(abs((scene.values(at: 1.0)["s.rotationEffect"]?[0] ?? -1) - 180) < 1e-9)
  }

  @Test func timeNeedsADurationAndStaysOutOfLayout() {
    let cases: [(String, Double?, String, String)] = [
      (#"{"shape": "circle", "opacity": "=time / 2"}"#, nil, "layers[0].opacity", "--duration"),
      (
        #"{"shape": "circle", "frame": {"width": "=time * 10"}}"#, 2, "layers[0].frame.width",
        "layout"
      ),
      (#"{"shape": "circle", "if": "=time < 1"}"#, 2, "layers[0].if", "time"),
      (#"{"text": "=\"\\(time)\""}"#, 2, "layers[0].text", "time"),
    ]
    for (layer, duration, path, message) in cases {
      #expect {
        _ = try Self.load(layer, duration: duration)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path == path && e.message.contains(message)
      }
    }
    #expect {
      _ = try Self.load(
        #"{"shape": "circle", "opacity": "=speed / 2"}"#,
        events: #"{"at": 0.5, "set": {"speed": "=time + 1"}}"#)
    } throws: { error in
      guard let e = error as? SceneFileError else { return false }
      return e.path == "events[0].set.speed" && e.message.contains("time")
    }
    #expect {
      _ = try SceneFile.load(
        text: #"{"state": {"time": 1}, "layers": [{"shape": "circle"}]}"#,
        settings: SceneSettings())
    } throws: { error in
      (error as? SceneFileError)?.path == "state.time"
    }
  }
}
