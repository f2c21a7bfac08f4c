import Motion
import SceneGraph
import Testing

@testable import SceneFormat

/// `"phases"` (`phaseAnimator`): the holder's values go from phase to phase, each change with
/// the animation into that phase, the next starting when it is logically complete (a curve's
/// duration, a spring's response); without a trigger they cycle, with one each change of its
/// value runs every phase once and returns to the first.
@Suite struct PhaseSceneTests {
  static func load(_ phases: String, events: String = "", duration: Double? = nil) throws -> Scene {
    var settings = SceneSettings(scale: 1, frameRate: 10, hold: 0)
    settings.duration = duration
    return try SceneFile.load(
      text: """
        {"canvas": {"width": 100, "height": 100}, "state": {"n": 0},
         "layers": [{"id": "dot", "shape": "circle", "frame": {"width": 20, "height": 20},
                     "phases": \(phases)}],
         "events": [\(events)]}
        """, settings: settings
    ).scene
  }

  static func value(_ s: Scene, _ key: String, _ t: Double) -> Double {
    s.values(at: t)["dot.phases." + key]?[0] ?? -99
  }

  @Test func withoutATriggerThePhasesCycle() throws {
    let scene = try Self.load(
      #"{"values": [{"scaleEffect": 1}, {"scaleEffect": 2, "opacity": 0.5}, {"scaleEffect": 3}], "#
        + #""animations": [{"type": "linear", "duration": 0.4}, {"type": "linear", "duration": 1}, "#
        + #"{"type": "linear", "duration": 0.5}]}"#, duration: 4)
    // 0 → 1 over 1 s, 1 → 2 over 0.5 s, 2 → 0 over 0.4 s, then again.
    for (t, scale) in [
      (0.5, 1.5), (1.0, 2.0), (1.25, 2.5), (1.5, 3.0), (1.7, 2.0), (1.9, 1.0), (2.4, 1.5),
    ] {
      #expect(abs(Self.value(scene, "scaleEffect", t) - scale) < 1e-9, "\(t)")
    }
    // A key a phase leaves out is its identity (opacity 1).
    #expect(abs(Self.value(scene, "opacity", 1.0) - 0.5) < 1e-9)
    #expect(abs(Self.value(scene, "opacity", 1.5) - 1) < 1e-9)
    #expect(scene.traceColumns.map(\.header).contains("dot.phases.scaleEffect"))
  }

  /// A spring phase lasts its response; each trigger change runs the phases once, back to the
  /// first; without animations each phase takes SwiftUI's `.default`.
  @Test func aTriggerRunsThePhasesOnce() throws {
    let scene = try Self.load(
      #"{"trigger": "=n", "values": [{"offset.y": 0}, {"offset.y": -30}], "#
        + #""animations": [{"type": "linear", "duration": 0.2}, {"type": "spring", "response": 0.3, "dampingFraction": 1}]}"#,
      events: #"{"at": 1, "set": {"n": 1}}"#)
    #expect(Self.value(scene, "offset.y", 0.9) == 0)
    // Up on the spring from 1 s, down (linear 0.2 s) from 1.3 s.
    #expect(Self.value(scene, "offset.y", 1.2) < -10)
    let down = Self.value(scene, "offset.y", 1.4)
    let springAt = 1.3
    #expect(down > Self.value(scene, "offset.y", springAt) && down < 0)
    #expect(Self.value(scene, "offset.y", 2) == 0)
  }

  @Test func badPhasesNameTheirPath() {
    let cases: [(String, String, String)] = [
      (#"{"values": [{"scaleEffect": 1}]}"#, "layers[0].phases.values", "at least two"),
      (#"{"values": [{"scale": 1}, {}]}"#, "layers[0].phases.values[0].scale", "unknown key"),
      (#"{"values": [{}, {}]}"#, "layers[0].phases", "--duration"),
      (
        #"{"trigger": "=n", "values": [{}, {}], "animations": [{"type": "linear", "repeatForever": true}]}"#,
        "layers[0].phases.animations[0]", "repeat"
      ),
      (
        #"{"values": [{}, {}], "animations": [{}, {}, {}]}"#, "layers[0].phases.animations",
        "3 animations"
      ),
    ]
    for (phases, path, message) in cases {
      #expect {
        _ = try Self.load(phases)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path == path && e.message.contains(message)
      }
    }
  }

  /// A cycle of phases too short for its duration is blamed on the phases, at their path.
  @Test func tooManyPhaseChangesNameThePhases() {
    #expect {
      _ = try Self.load(
        #"{"values": [{}, {"opacity": 0.5}], "animations": [{"type": "linear", "duration": 0.002}, {"type": "linear", "duration": 0.002}]}"#,
        duration: 60)
    } throws: { error in
      guard let e = error as? SceneFileError else { return false }
      return e.path == "layers[0].phases" && e.message.contains("the phases (a cycle of 0.004 s")
    }
  }
}
