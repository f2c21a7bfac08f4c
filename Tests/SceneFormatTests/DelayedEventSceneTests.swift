import SceneGraph
import Testing

@testable import SceneFormat

/// Scene events whose animation has a `delay`: the state changes at the event's moment (SwiftUI
/// sets the model value at once; the delay holds only the animation), so later events come after
/// it whichever animation starts first (docs/SEMANTICS.md, "Delays").
@Suite struct DelayedEventSceneTests {
  static func load(_ text: String) throws -> Scene {
    try SceneFile.load(
      text: text, settings: SceneSettings(scale: 1, frameRate: 20, hold: 0)
    ).scene
  }

  static func value(_ scene: Scene, _ name: String, at t: Double) -> Double {
    scene.values(at: t)[name]?[0] ?? .nan
  }

  /// The README's former "Not yet as SwiftUI" case: x set to 100 with a 1 s delay, then to 50
  /// without animation half a second later, ends at 50; the delayed step of 100 plays on top of
  /// the jump of −50.
  @Test func aLaterChangeDuringTheDelayDecidesTheEnd() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100}, "state": {"x": 0}, "duration": 3,
       "layers": [{"id": "dot", "shape": "circle", "frame": {"width": 10, "height": 10},
                   "offset": {"x": "=x", "y": 0}}],
       "events": [
         {"at": 0, "set": {"x": 100}, "animation": {"type": "linear", "duration": 1, "delay": 1}},
         {"at": 0.5, "set": {"x": 50}}]}
      """)
    for (t, x) in [(0.25, 0.0), (0.75, -50), (1.5, 0), (2, 50), (2.9, 50)] {
      #expect(abs(Self.value(scene, "dot.offset", at: t) - x) < 1e-9, "at \(t)")
    }
  }

  /// A modifier that reads time sees the new state from the event's moment, not from the end
  /// of its animation's delay.
  @Test func timeExpressionsSeeTheStateAtOnce() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100}, "state": {"on": false}, "duration": 2,
       "layers": [{"id": "dot", "shape": "circle", "frame": {"width": 10, "height": 10},
                   "offset": {"x": "=on ? 40 + 0 * time : 0", "y": 0}}],
       "events": [
         {"at": 0.5, "set": {"on": true}, "animation": {"type": "linear", "duration": 1, "delay": 1}},
         {"at": 0.8, "set": {"on": false}}]}
      """)
    for (t, x) in [(0.45, 0.0), (0.5, 40), (0.75, 40), (0.8, 0), (1.9, 0)] {
      #expect(abs(Self.value(scene, "dot.offset", at: t) - x) < 1e-9, "at \(t)")
    }
  }

  /// A view inserted with a delayed animation is laid out at once, at its transition's
  /// insertion state (transparent, for `.opacity`), and fades in after the delay.
  @Test func aDelayedInsertionWaitsTransparent() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 300, "height": 300}, "state": {"show": false}, "duration": 3,
       "layers": [{"vstack": [
         {"id": "toast", "if": "=show", "shape": "capsule", "frame": {"width": 100, "height": 40}},
         {"id": "card", "shape": "rectangle", "frame": {"width": 200, "height": 60}}]}],
       "events": [
         {"at": 0.5, "set": {"show": true}, "animation": {"type": "linear", "duration": 1, "delay": 0.5}}]}
      """)
    #expect(SceneLayoutTests.entry("toast", in: scene.layout(at: 0.45)) == nil)
    #expect(SceneLayoutTests.entry("toast", in: scene.layout(at: 0.55)) != nil)
    #expect(Self.value(scene, "toast.transition.drawn", at: 0.55) == 1)
    for (t, opacity) in [(0.55, 0.0), (0.95, 0), (1.5, 0.5), (2, 1)] {
      #expect(abs(Self.value(scene, "toast.transition.opacity", at: t) - opacity) < 1e-9, "\(t)")
    }
  }

  /// A text from state without an animation of its own (`identity`) shows the new state at the
  /// event, as the model does; the delay holds only animations (it waited out the delay).
  @Test func anIdentityTextChangesAtTheEvent() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 200, "height": 100}, "state": {"n": 1}, "duration": 2,
       "layers": [{"vstack": [
         {"id": "label", "text": "=\"count \\(n)\"", "contentTransition": "identity"}]}],
       "events": [{"at": 0.5, "set": {"n": 7},
                   "animation": {"type": "linear", "duration": 0.5, "delay": 1}}]}
      """#)
    for (t, text) in [(0.45, "count 1"), (0.6, "count 7"), (1.2, "count 7")] {
      let lines = try #require(SceneLayoutTests.entry("label", in: scene.layout(at: t))?.lines)
      #expect(lines.map(\.text) == [text], "at \(t)")
    }
    #expect(abs(Self.value(scene, "label.text[1].opacity", at: 0.6) - 1) < 1e-9)
  }

  /// Events at the same moment: the later one wins, however long the first one's delay (a view
  /// shown with a delay and hidden at once is not drawn at all; it faded in as a ghost).
  @Test func theLaterOfTwoEventsAtOnceWins() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100}, "state": {"show": false}, "duration": 3,
       "layers": [{"zstack": [{"id": "a", "if": "=show", "shape": "rectangle",
                               "frame": {"width": 50, "height": 50}}]}],
       "events": [
         {"at": 0.5, "set": {"show": true}, "animation": {"type": "linear", "duration": 1, "delay": 1}},
         {"at": 0.5, "set": {"show": false}}]}
      """)
    for t in [0.4, 0.6, 1.6, 2.0, 2.9] {
      #expect(Self.value(scene, "a.transition.drawn", at: t) == 0, "at \(t)")
    }
  }
}
