import Raster
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
    // A scene that follows time never settles (`--times settled` is refused, as for a scene
    // that repeats for ever), whatever its duration.
    #expect(scene.settleTime == .infinity)
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
      (#"{"text": "=\"\\(time)\""}"#, nil, "layers[0].text", "--duration"),
      // 10 frames a second for 20 s: 200 different texts.
      (#"{"text": "=\"\\(time)\""}"#, 20, "layers[0].text", "more than 100"),
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

  /// A running clock label (`Text("\(time, specifier: "%.1f") s")`): at every frame the text
  /// shown is the one written with that frame's time and the state in effect then — frame f of
  /// the scene is, pixel for pixel, the still of a scene whose text is that string written out
  /// (by Swift's %.1f rule here, not by the template), in the same leading-aligned frame.
  @Test func textsFollowTimeFrameByFrame() throws {
    var settings = SceneSettings(scale: 2, frameRate: 10, hold: 0)
    settings.duration = 2
    func scene(_ text: String, events: String = "") throws -> Scene {
      try SceneFile.load(
        text: """
          {"canvas": {"width": 160, "height": 60}, "state": {"lap": 0},
           "layers": [{"id": "clock", "text": \(text), "font": "title", "monospacedDigit": true,
                       "frame": {"width": 150, "alignment": "leading"}}],
           "events": [\(events)]}
          """, settings: settings
      ).scene
    }
    let running = try scene(
      #""=\"\\(lap) · \\(time, specifier: \"%.1f\") s\"""#,
      events: #"{"at": 1.05, "set": {"lap": 1}, "animation": "smooth"}"#)
    #expect(running.frameCount == 20)
    var compositor = Compositor()
    var largest = 0  // frames that differ
    for frame in [0, 1, 7, 10, 11, 12, 19] {
      let t = Double(frame) / 10
      let tenths = Int((t * 10).rounded())
      let written = "\(t < 1.05 ? 0 : 1) · \(tenths / 10).\(tenths % 10) s"
      let still = try scene("\"\(written)\"")
      let expected = still.render(frame: 0, compositor: &compositor)
      let actual = running.render(frame: frame, compositor: &compositor)
      let same = actual != nil && actual == expected
      #expect(same, "frame \(frame): \(written)")
      // The layout dump shows the text of the frame.
      #expect(
        SceneLayoutTests.entry("clock", in: running.layout(at: t))?.lines.map(\.text) == [written])
      if !same { largest += 1 }
      // One version is fully shown, every other one hidden.
      let shown = running.values(at: t).filter {
        $0.key.hasPrefix("clock.text[") && $0.key.hasSuffix(".opacity")
      }.map(\.value[0])
      #expect(shown.filter { $0 == 1 }.count == 1 && shown.filter { $0 == 0 }.count == 19)
    }
    #expect(largest == 0)
  }
}
