import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Scene files' repeats (`repeatForever`, `repeatCount`, `autoreverses`, `speed`, `delay`,
/// `--duration`) and effect anchors (`scaleEffect: {"x", "y", "anchor"}`, `rotationEffect:
/// {"degrees", "anchor"}`), fixed and animated.
@Suite struct RepeatAndAnchorSceneTests {
  static func load(
    _ layers: String, state: String = "{\"on\": false}", events: String = "",
    duration: Double? = nil
  ) throws -> LoadedScene {
    var settings = SceneSettings(scale: 1, frameRate: 10, hold: 0)
    settings.duration = duration
    return try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 200}, "state": \(state), "layers": [\(layers)],
         "events": [\(events)]}
        """, settings: settings)
  }

  /// A spinner: a linear turn repeated for ever without reversing, started after its delay
  /// (once), rendered for exactly --duration seconds.
  @Test func aSpinnerTurnsForTheDuration() throws {
    let events =
      #"{"at": 0.2, "set": {"on": true}, "animation": {"type": "linear", "duration": 1, "#
      + #""repeatForever": true, "autoreverses": false, "delay": 0.3}}"#
    let scene = try Self.load(
      #"{"id": "s", "shape": "rectangle", "rotationEffect": "=on ? 360 : 0"}"#, events: events,
      duration: 3
    ).scene
    #expect(scene.frameCount == 30)
    for t in [0.0, 0.4, 0.5, 0.75, 1.5, 2.25, 2.9] {
      let turned = t < 0.5 ? 0 : 360 * (t - 0.5).truncatingRemainder(dividingBy: 1)
      #expect(abs((scene.values(at: t)["s.rotationEffect"]?[0] ?? -1) - turned) < 1e-9, "\(t)")
    }
  }

  /// `speed` scales each iteration: a pulse of 0.5 s at speed 2 goes up in 0.25 s and back.
  @Test func speedScalesEachIteration() throws {
    let events =
      #"{"at": 0, "set": {"on": true}, "animation": {"type": "linear", "duration": 0.5, "#
      + #""repeatCount": 4, "speed": 2}}"#
    let scene = try Self.load(
      #"{"id": "d", "shape": "circle", "opacity": "=on ? 0 : 1"}"#, events: events
    ).scene
    for (t, want) in [(0.125, 0.5), (0.25, 0.0), (0.375, 0.5), (0.5, 1.0), (0.625, 0.5), (1.1, 0)] {
      #expect(abs((scene.values(at: t)["d.opacity"]?[0] ?? -1) - want) < 1e-9, "\(t)")
    }
    #expect(scene.settleTime == 1)
  }

  /// Without a duration a scene that repeats for ever is refused, naming the animation; the
  /// file's own `duration` serves, and --duration replaces it.
  @Test func anEndlessSceneNeedsADuration() throws {
    let events =
      #"{"at": 0, "set": {"on": true}, "animation": {"type": "easeInOut", "repeatForever": true}}"#
    let layer = #"{"shape": "circle", "opacity": "=on ? 0.3 : 1"}"#
    #expect {
      _ = try Self.load(layer, events: events)
    } throws: { error in
      guard let e = error as? SceneFileError else { return false }
      return e.path == "events[0].animation" && e.message.contains("--duration")
    }
    let text = """
      {"duration": 1.5, "state": {"on": false}, "layers": [\(layer)], "events": [\(events)]}
      """
    let settings = SceneSettings(scale: 1, frameRate: 10, hold: 0)
    #expect(try SceneFile.load(text: text, settings: settings).scene.frameCount == 15)
    var replaced = settings
    replaced.duration = 0.5
    #expect(try SceneFile.load(text: text, settings: replaced).scene.frameCount == 5)
  }

  @Test func badRepeatsNameTheirPath() {
    let cases: [(String, String, String)] = [
      (
        #"{"type": "linear", "repeatForever": true, "repeatCount": 2}"#, "repeatForever", "not both"
      ),
      (#"{"type": "linear", "autoreverses": false}"#, "autoreverses", "needs"),
      (#"{"type": "linear", "repeatCount": 0}"#, "repeatCount", "1"),
      (#"{"type": "linear", "speed": 0}"#, "speed", "0.01"),
      (#"{"type": "linear", "repeatForever": "yes"}"#, "repeatForever", "true or false"),
    ]
    for (animation, key, message) in cases {
      #expect {
        _ = try Self.load(
          #"{"shape": "circle", "opacity": "=on ? 0 : 1"}"#,
          events: #"{"at": 0, "set": {"on": true}, "animation": \#(animation)}"#)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path == "events[0].animation.\(key)" && e.message.contains(message)
      }
    }
  }

  /// The rectangle's ink, in pixels: (minX, minY, maxX, maxY), inclusive.
  static func ink(_ scene: Scene, frame: Int) throws -> (Int, Int, Int, Int) {
    var compositor = Compositor()
    let p = try #require(scene.render(frame: frame, compositor: &compositor))
    var box = (Int.max, Int.max, Int.min, Int.min)
    for y in 0..<p.height {
      for x in 0..<p.width where p[x, y].r < 128 {
        box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
      }
    }
    return box
  }

  /// `.scaleEffect(x:y:anchor:)` keeps the anchor where it is: a 40 × 120 bar at (80…120,
  /// 40…160) squashed to 0.25 of its height about its bottom keeps its bottom edge; scaled 2 × 1
  /// about its leading edge it grows to the right. `.rotationEffect(_:anchor:)` about the top
  /// leading corner keeps that corner.
  @Test func anchorsStayPut() throws {
    func bar(_ modifier: String) throws -> (Int, Int, Int, Int) {
      let scene = try Self.load(
        ##"{"shape": "rectangle", "fill": "#000000", "frame": {"width": 40, "height": 120}, "##
          + modifier + "}", state: "{\"on\": false}"
      ).scene
      return try Self.ink(scene, frame: 0)
    }
    #expect(try bar(#""scaleEffect": {"y": 0.25, "anchor": "bottom"}"#) == (80, 130, 119, 159))
    #expect(try bar(#""scaleEffect": {"x": 2, "anchor": "leading"}"#) == (80, 40, 159, 159))
    #expect(
      try bar(#""scaleEffect": {"x": 0.5, "y": 0.5, "anchor": [1, 0]}"#) == (100, 40, 119, 99))
    // A negative factor mirrors about the anchor, as `.scaleEffect(x: -1, anchor: .leading)`.
    #expect(try bar(#""scaleEffect": {"x": -1, "anchor": "leading"}"#) == (40, 40, 79, 159))
    let turned = try bar(#""rotationEffect": {"degrees": 90, "anchor": "topLeading"}"#)
    // A quarter turn clockwise about (80, 40): the bar lies leftwards, x −40…80 (the canvas cuts
    // it at 0), y 40…80.
    #expect(turned == (0, 40, 79, 79))
  }

  /// An anchor that reads state animates with the change, as SwiftUI's do (the effects'
  /// animatable data pair the factor or angle with the anchor's): the same bar halved about an
  /// anchor moving linearly from its top leading corner to its bottom trailing one over a second
  /// is drawn about its centre half way, and a quarter turn whose anchor moves the other way is
  /// drawn as the fixed turns are at each end and half way. `rotation3DEffect`'s anchor stays
  /// fixed, and says so.
  @Test func anchorsAnimate() throws {
    let change = #"{"at": 0, "set": {"on": true}, "animation": {"type": "linear", "duration": 1}}"#
    typealias Box = (Int, Int, Int, Int)
    func bar(_ modifier: String, frame: Int = 0, events: String = "") throws -> Box {
      let scene = try Self.load(
        ##"{"shape": "rectangle", "fill": "#000000", "frame": {"width": 40, "height": 120}, "##
          + modifier + "}", events: events
      ).scene
      return try Self.ink(scene, frame: frame)
    }
    let halved =
      #""scaleEffect": {"x": 0.5, "y": 0.5, "anchor": "=on ? bottomTrailing : topLeading"}"#
    #expect(try bar(halved, frame: 0, events: change) == (80, 40, 99, 99))
    #expect(try bar(halved, frame: 5, events: change) == (90, 70, 109, 129))
    #expect(try bar(halved, frame: 10, events: change) == (100, 100, 119, 159))
    let turn = #""rotationEffect": {"degrees": 90, "anchor": "=on ? [0, 0] : [1, 1]"}"#
    for (frame, fixed) in [(0, "bottomTrailing"), (5, "center"), (10, "topLeading")] {
      let still = try bar(#""rotationEffect": {"degrees": 90, "anchor": "\#(fixed)"}"#)
      #expect(try bar(turn, frame: frame, events: change) == still, "frame \(frame)")
    }
    #expect {
      _ = try bar(
        #""rotation3DEffect": {"degrees": 30, "axis": [0, 1, 0], "anchor": "=on ? top : bottom"}"#)
    } throws: { error in
      (error as? SceneFileError)?.path == "layers[0].rotation3DEffect.anchor"
    }
  }

  /// An anchor is a unit point of the frame the view has at the moment, as SwiftUI resolves it
  /// (`GeometryEffect.effectValue(size:)` gets the current size): a 40 × 40 bar centred at
  /// (100, 100) whose width grows linearly to 120 over a second keeps, halved about its leading
  /// edge, that edge where the frame's is — x 80, 60 and 40 at the start, half way and the end —
  /// and, turned half a turn about its trailing edge, or mirrored in 3D about its leading one,
  /// lies beyond that edge of the grown frame.
  @Test func anchorsFollowTheFrameAsItGrows() throws {
    let change = #"{"at": 0, "set": {"on": true}, "animation": {"type": "linear", "duration": 1}}"#
    func bar(_ modifier: String, frame: Int) throws -> (Int, Int, Int, Int) {
      let scene = try Self.load(
        ##"{"shape": "rectangle", "fill": "#000000", "##
          + ##""frame": {"width": "=on ? 120 : 40", "height": 40}, "## + modifier + "}",
        events: change
      ).scene
      return try Self.ink(scene, frame: frame)
    }
    let halved = #""scaleEffect": {"x": 0.5, "y": 1, "anchor": "leading"}"#
    #expect(try bar(halved, frame: 0) == (80, 80, 99, 119))
    #expect(try bar(halved, frame: 5) == (60, 80, 99, 119))
    #expect(try bar(halved, frame: 10) == (40, 80, 99, 119))
    let turned = #""rotationEffect": {"degrees": 180, "anchor": "trailing"}"#
    #expect(try bar(turned, frame: 0) == (120, 80, 159, 119))
    #expect(try bar(turned, frame: 10) == (160, 80, 199, 119))
    let mirrored =
      #""rotation3DEffect": {"degrees": 180, "axis": [0, 1, 0], "anchor": "leading", "perspective": 0}"#
    #expect(try bar(mirrored, frame: 0) == (40, 80, 79, 119))
    #expect(try bar(mirrored, frame: 10) == (0, 80, 39, 119))
    // The same turn from a keyframe track (held at 180° from its start): its anchor follows the
    // frame too — the leading edge at x 60 half way (80 wide), 40 at the end (120 wide).
    let tracked =
      #""keyframes": {"repeating": false, "rotation3DEffect": {"axis": [0, 1, 0], "anchor": "leading", "perspective": 0}, "#
      + #""tracks": {"rotation3DEffect": [{"move": 180}, {"linear": 180, "duration": 5}]}}"#
    #expect(try bar(tracked, frame: 5) == (0, 80, 59, 119))
    #expect(try bar(tracked, frame: 10) == (0, 80, 39, 119))
  }

  /// A layer absent from the initial state (an `if` that was false) takes the values of its
  /// state-reading modifiers in the state it appears in (it had no channel to animate): the
  /// halved bar shown at 0.2 s is drawn about its centre, moved by its offset (scaled with it).
  @Test func aLayerThatAppearsTakesItsStatesValues() throws {
    let scene = try Self.load(
      ##"{"id": "bar", "if": "=on", "transition": "identity", "shape": "rectangle", "##
        + ##""fill": "#000000", "frame": {"width": 40, "height": 120}, "##
        + ##""scaleEffect": {"x": 0.5, "y": 0.5, "anchor": "=on ? center : topLeading"}, "##
        + ##""offset": {"x": "=on ? 20 : 0", "y": 0}}"##,
      events: #"{"at": 0.2, "set": {"on": true}, "animation": "none"}"#
    ).scene
    // Centre (100, 100); halved about it: 90…110 × 70…130; the offset, scaled too, 10.
    #expect(try Self.ink(scene, frame: 5) == (100, 70, 119, 129))
  }

  /// An event or a tap after the end of a scene with a duration is reported, not dropped
  /// silently.
  @Test func eventsAndTapsAfterTheEndAreReported() throws {
    let loaded = try SceneFile.load(
      text: """
        {"duration": 1, "state": {"on": false},
         "layers": [{"shape": "circle", "frame": {"width": 20, "height": 20}, "opacity": "=on ? 1 : 0.5"}],
         "onTap": [{"set": {"on": "=!on"}}],
         "events": [{"at": 0.5, "set": {"on": true}}, {"at": 2, "set": {"on": false}},
                    {"at": 1, "set": {"on": false}}],
         "taps": [{"x": 10, "y": 10, "at": 3}]}
        """, settings: SceneSettings(scale: 1, frameRate: 10))
    #expect(loaded.notes.contains { $0.contains("the event at 2 s comes after the end") })
    #expect(loaded.notes.contains { $0.contains("the tap at 10,10@3 comes after the end") })
    #expect(loaded.notes.contains { $0.contains("the event at 1 s comes after the end") })
    #expect(!loaded.notes.contains { $0.contains("the event at 0.5 s") })
  }
}
