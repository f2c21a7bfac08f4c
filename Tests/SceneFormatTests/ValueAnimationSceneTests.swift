import SceneGraph
import Testing

@testable import SceneFormat

/// `"animation": {"animation", "value"}` on a layer, SwiftUI's `.animation(_:value:)`: when a
/// change moves the value, the layer's and its children's changes take the layer's animation
/// instead of the change's own; the innermost fired one wins, `"none"` takes animation away, and
/// a change that leaves the value alone keeps its own animation.
@Suite struct ValueAnimationSceneTests {
  static func load(_ text: String) throws -> Scene { try DelayedEventSceneTests.load(text) }

  static func value(_ scene: Scene, _ name: String, at t: Double) -> Double {
    DelayedEventSceneTests.value(scene, name, at: t)
  }

  static func scene(events: String, outer: String = "", inner: String = "") -> String {
    """
    {"canvas": {"width": 300, "height": 200}, "state": {"x": 0, "y": 0, "other": 0},
     "duration": 3,
     "layers": [{"id": "box", "zstack": [
         {"id": "dot", "shape": "circle", "frame": {"width": 10, "height": 10},
          "offset": {"x": "=x", "y": 0}\(inner)},
         {"id": "side", "shape": "circle", "frame": {"width": 10, "height": 10},
          "offset": {"x": 0, "y": "=y"}}
       ]\(outer)},
       {"id": "free", "shape": "rectangle", "frame": {"width": 10, "height": 10},
        "opacity": "=x > 0 ? 0.5 : 1"}],
     "events": [\(events)]}
    """
  }

  /// An event without animation: the layer with `.animation(.linear(duration: 1), value: x)`
  /// moves over a second, a layer outside it jumps.
  @Test func theLayersAnimationAppliesWhenItsValueChanges() throws {
    let scene = try Self.load(
      Self.scene(
        events: #"{"at": 0, "set": {"x": 100}}"#,
        inner: #", "animation": {"animation": {"type": "linear", "duration": 1}, "value": "=x"}"#))
    for (t, x) in [(0.0, 0.0), (0.5, 50), (1.0, 100), (2, 100)] {
      #expect(abs(Self.value(scene, "dot.offset", at: t) - x) < 1e-9, "at \(t)")
    }
    #expect(Self.value(scene, "free.opacity", at: 0) == 0.5)
  }

  /// An animated event: what the value governs takes the layer's animation, the rest the
  /// event's; a change that leaves the value alone keeps the event's animation, on the layer too.
  @Test func otherChangesKeepTheEventsAnimation() throws {
    let scene = try Self.load(
      Self.scene(
        events: #"""
          {"at": 0, "set": {"x": 100, "y": 40}, "animation": {"type": "linear", "duration": 2}},
          {"at": 2, "set": {"other": 1, "y": 0}, "animation": {"type": "linear", "duration": 0.5}}
          """#,
        outer: #", "animation": {"animation": {"type": "linear", "duration": 1}, "value": "=x"}"#))
    // x and y both change at 0, so the whole box (dot and side) animates over 1 s.
    #expect(abs(Self.value(scene, "dot.offset", at: 0.5) - 50) < 1e-9)
    #expect(abs(scene.values(at: 0.5)["side.offset"]![1] - 20) < 1e-9)
    // The opacity outside the box takes the event's 2 s.
    #expect(abs(Self.value(scene, "free.opacity", at: 1) - 0.75) < 1e-9)
    // At 2 s x stays, so y's return takes the event's 0.5 s.
    #expect(abs(scene.values(at: 2.25)["side.offset"]![1] - 20) < 1e-9)
  }

  /// The innermost layer whose value changed wins; `"none"` (SwiftUI's nil) takes the
  /// animation away, also from an animated event.
  @Test func theInnermostWinsAndNoneJumps() throws {
    let inner = try Self.load(
      Self.scene(
        events: #"{"at": 0, "set": {"x": 100, "y": 40}}"#,
        outer: #", "animation": {"animation": {"type": "linear", "duration": 2}, "value": "=x"}"#,
        inner: #", "animation": {"animation": {"type": "linear", "duration": 1}, "value": "=x"}"#))
    #expect(abs(Self.value(inner, "dot.offset", at: 0.5) - 50) < 1e-9)
    #expect(abs(inner.values(at: 0.5)["side.offset"]![1] - 10) < 1e-9)
    let none = try Self.load(
      Self.scene(
        events: #"{"at": 0, "set": {"x": 100}, "animation": {"type": "linear", "duration": 1}}"#,
        inner: #", "animation": {"animation": "none", "value": "=x"}"#))
    #expect(Self.value(none, "dot.offset", at: 0) == 100)
    #expect(abs(Self.value(none, "free.opacity", at: 0.5) - 0.75) < 1e-9)
    // Of a layer's chain, the first whose value changed: y's did not, x's did.
    let chain = try Self.load(
      Self.scene(
        events: #"{"at": 0, "set": {"x": 100}}"#,
        inner: #"""
          , "animation": [{"animation": "none", "value": "=y"},
                          {"animation": {"type": "linear", "duration": 1, "delay": 0.5},
                           "value": "=x"}]
          """#))
    for (t, x) in [(0.25, 0.0), (0.5, 0), (1, 50), (1.5, 100)] {
      #expect(abs(Self.value(chain, "dot.offset", at: t) - x) < 1e-9, "at \(t)")
    }
  }

  /// Layout changes animate with the layer's animation too: a frame height from state.
  @Test func layoutChangesTakeTheLayersAnimation() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 300, "height": 300}, "state": {"open": false}, "duration": 2,
       "layers": [{"id": "card", "shape": "rectangle", "fill": "blue",
                   "frame": {"width": 100, "height": "=open ? 200 : 100"},
                   "animation": {"animation": {"type": "linear", "duration": 1}, "value": "=open"}}],
       "events": [{"at": 0, "set": {"open": true}}]}
      """)
    let size = try #require(scene.values(at: 0.5)["card.layout.size"])
    #expect(abs(size[1] - 150) < 1e-9, "\(size)")
  }

  /// A knob in a row in a frame whose alignment follows `on` (so the row jumps or glides on the
  /// screen), with `animation` on the knob, a bar beside it when `bar` (so the knob's place in
  /// the row changes too), and `event` after the event's `set`.
  static func knobRow(_ knob: String, _ event: String, bar: Bool) throws -> Scene {
    let beside =
      bar ? #", {"shape": "rectangle", "frame": {"width": "=on ? 60 : 20", "height": 10}}"# : ""
    return try load(
      #"""
      {"canvas": {"width": 200, "height": 60}, "state": {"on": false}, "duration": 2,
       "layers": [{"zstack": [{"hstack": [
           {"id": "knob", "shape": "circle", "frame": {"width": 20, "height": 20},
            "animation": \#(knob)}\#(beside)]}],
         "frame": {"width": 200, "height": 60, "alignment": "=on ? trailing : leading"}}],
       "events": [{"at": 0.2, "set": {"on": true}\#(event)}]}
      """#)
  }

  static func knobX(_ s: Scene, _ t: Double) throws -> Double {
    try #require(SceneLayoutTests.entry("knob", in: s.layout(at: t))).frame.minX
  }

  static let linear = #"{"animation": {"type": "linear", "duration": 1}, "value": "=on"}"#
  static let none = #"{"animation": "none", "value": "=on"}"#
  static let animated = #", "animation": {"type": "linear", "duration": 1}"#

  /// A view animates its place on the screen with its own animation, not only its place in its
  /// parent: a knob with `.animation(.linear(duration: 1), value: on)` in a row that jumps
  /// (an event without animation) goes straight from 0 to 112 (it jumped past and crept back);
  /// with `"none"` under an animated event it jumps once to its end (found by a review).
  @Test func aViewMovesOnTheScreenByItsOwnAnimation() throws {
    let own = try Self.knobRow(Self.linear, "", bar: true)
    for (t, x) in [(0.1, 0.0), (0.2, 0), (0.45, 28), (0.7, 56), (1.2, 112), (1.5, 112)] {
      #expect(abs(try Self.knobX(own, t) - x) < 1e-6, "at \(t)")
    }
    let none = try Self.knobRow(Self.none, Self.animated, bar: true)
    for (t, x) in [(0.1, 0.0), (0.2, 112), (0.7, 112)] {
      #expect(abs(try Self.knobX(none, t) - x) < 1e-6, "at \(t)")
    }
  }

  /// The same where the view's place in its row does not change, only the row's on the screen
  /// (the row was merged whole and carried the knob; found by a review).
  @Test func aViewAloneInAMovingRowMovesByItsOwnAnimation() throws {
    let none = try Self.knobRow(Self.none, Self.animated, bar: false)
    for (t, x) in [(0.1, 0.0), (0.2, 180), (0.7, 180)] {
      #expect(abs(try Self.knobX(none, t) - x) < 1e-6, "at \(t)")
    }
    let own = try Self.knobRow(Self.linear, "", bar: false)
    for (t, x) in [(0.1, 0.0), (0.7, 90), (1.2, 180)] {
      #expect(abs(try Self.knobX(own, t) - x) < 1e-6, "at \(t)")
    }
  }

  /// Bad forms are refused with their path and what to write.
  @Test(arguments: [
    (#""animation": "spring""#, "layers[0].animation", ".animation(_:value:)"),
    (#""animation": {"animation": "spring"}"#, "layers[0].animation", "value"),
    (
      #""animation": {"animation": "spring", "value": "on"}"#, "layers[0].animation.value", "=liked"
    ),
    (
      #""animation": {"animation": "spring", "value": "=1"}"#, "layers[0].animation.value",
      "no state"
    ),
    (
      #""animation": {"animation": "wobbly", "value": "=on"}"#, "layers[0].animation.animation",
      "spring"
    ),
    (#""animation": []"#, "layers[0].animation", "array"),
    // A misspelt state is named as one, not as a value that reads no state; SwiftUI's nil is
    // "none"; time is not state (found by a review).
    (
      #""animation": {"animation": "smooth", "value": "=onn"}"#, "layers[0].animation.value",
      "unknown name 'onn'"
    ),
    (
      #""animation": {"animation": null, "value": "=on"}"#, "layers[0].animation.animation",
      "\"none\""
    ),
    (
      #""animation": {"animation": "smooth", "value": "=on ? time : 0"}"#,
      "layers[0].animation.value", "follows time"
    ),
  ])
  func badFormsAreRefused(_ key: String, _ path: String, _ words: String) throws {
    let text = """
      {"canvas": {"width": 100, "height": 100}, "state": {"on": false},
       "layers": [{"shape": "circle", \(key)}]}
      """
    do {
      _ = try Self.load(text)
      Issue.record("accepted \(key)")
    } catch let error as SceneFileError {
      #expect(error.path == path, "\(error)")
      #expect(error.description.contains(words), "\(error)")
    } catch {
      Issue.record("\(error)")
    }
  }
}
