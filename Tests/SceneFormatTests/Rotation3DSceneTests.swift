import Foundation
import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Scene files' `rotation3DEffect`: SwiftUI's projection placed in the layer's frame, its angle
/// animated and traced, its bad values named by JSON path.
@Suite struct Rotation3DSceneTests {
  /// A 100 × 60 black bar centred on a 200 × 200 canvas, turned as `modifier` says.
  static func bar(_ modifier: String, events: String = "", duration: Double? = nil) throws -> Scene
  {
    try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 200}, "state": {"on": false}, \(duration.map { "\"duration\": \($0), " } ?? "")"layers": [
          {"id": "bar", "shape": "rectangle", "fill": "#000000",
           "frame": {"width": 100, "height": 60}, \(modifier)}],
         "events": [\(events)]}
        """, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0)
    ).scene
  }

  /// The ink's box (pixels darker than mid-grey), inclusive.
  static func ink(_ scene: Scene, frame: Int = 0) throws -> (Int, Int, Int, Int) {
    try RepeatAndAnchorSceneTests.ink(scene, frame: frame)
  }

  /// SwiftUI's numbers for a 100 × 60 view: the eye max(100, 60) / perspective = 100 pt in
  /// front. Turned 60° about y through its centre, its trailing edge (x = +50) goes back by
  /// 50·sin 60° and lands at x = 50·cos 60° / (1 + 50·sin 60°/100) = 17.4 from the centre, its
  /// leading edge at −25 / (1 − 0.433) = −44.1; heights scale by the same 1/W (±30 → ±21.1 and
  /// ±52.9). The box is (100 − 44.1, 100 − 52.9) … (100 + 17.4, 100 + 52.9).
  @Test func aTurnAboutYMatchesSwiftUIsProjection() throws {
    let scene = try Self.bar(#""rotation3DEffect": {"degrees": 60, "axis": [0, 1, 0]}"#)
    let s = sin(Double.pi / 3) * 50 / 100
    let trailing = 25 / (1 + s)
    let leading = 25 / (1 - s)
    let tall = 30 / (1 - s)
    let box = try Self.ink(scene)
    let expected = (
      Int((100 - leading).rounded()), Int((100 - tall).rounded()),
      Int((100 + trailing).rounded()) - 1, Int((100 + tall).rounded()) - 1
    )
    #expect(abs(box.0 - expected.0) <= 1 && abs(box.1 - expected.1) <= 1)
    #expect(abs(box.2 - expected.2) <= 1 && abs(box.3 - expected.3) <= 1, "\(box) vs \(expected)")
  }

  /// The anchor stays put: a door on its leading hinge keeps its leading edge at x = 50; a
  /// perspective of 0 is orthographic (the width times cos θ, the height unchanged).
  @Test func anchorAndPerspective() throws {
    let door = try Self.ink(
      try Self.bar(
        #""rotation3DEffect": {"degrees": 70, "axis": [0, 1, 0], "anchor": "leading"}"#))
    #expect(door.0 == 50 && door.1 == 70 && door.3 == 129)
    #expect(door.2 < 90)
    let flat = try Self.ink(
      try Self.bar(
        #""rotation3DEffect": {"degrees": 60, "axis": [0, 1, 0], "perspective": 0}"#))
    #expect(flat == (75, 70, 124, 129))
    // Edge-on: nothing is drawn.
    let edgeOn = try Self.ink(
      try Self.bar(#""rotation3DEffect": {"degrees": 90, "axis": [0, 1, 0], "perspective": 0}"#))
    #expect(edgeOn.0 == Int.max)
  }

  /// The angle moves with the change's animation and is traced as `id.rotation3DEffect`.
  @Test func theAngleAnimatesAndIsTraced() throws {
    let scene = try Self.bar(
      #""rotation3DEffect": {"degrees": "=on ? 180 : 0", "axis": [1, 0, 0]}"#,
      events: #"{"at": 0, "set": {"on": true}, "animation": {"type": "linear", "duration": 1}}"#)
    for t in [0.0, 0.25, 0.5, 1.0] {
      let v = try #require(scene.values(at: t)["bar.rotation3DEffect"]?.first)
      #expect(abs(v - 180 * t) < 1e-9)
    }
    // Half way it is edge-on about x (nothing drawn); at the end upside down, the same box.
    #expect(try Self.ink(scene, frame: 5).0 == Int.max)
    #expect(try Self.ink(scene, frame: 10) == (50, 70, 149, 129))
  }

  @Test func badValuesNameTheirPath() {
    let cases: [(String, String, String)] = [
      (#"{"degrees": 30, "axis": [0, 0, 0]}"#, "rotation3DEffect.axis", "no direction"),
      (#"{"degrees": 30, "axis": [0, 1]}"#, "rotation3DEffect.axis", "three numbers"),
      (#"{"degrees": 30}"#, "rotation3DEffect", "axis"),
      (
        #"{"degrees": 30, "axis": [0, 1, 0], "perspective": 500}"#, "rotation3DEffect.perspective",
        "100"
      ),
      (#"{"degrees": 30, "axis": [0, 1, 0], "spin": 1}"#, "rotation3DEffect.spin", "spin"),
      (#"{"degrees": "=on ?", "axis": [0, 1, 0]}"#, "rotation3DEffect.degrees", "expected"),
    ]
    for (value, path, message) in cases {
      #expect {
        _ = try Self.bar(#""rotation3DEffect": \#(value)"#)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path == "layers[0].\(path)" && e.message.contains(message)
      }
    }
  }

  /// Whether a tap at (x, y) reaches the bar's handler (the load's notes say when it misses).
  static func tapHits(_ modifier: String, _ x: Double, _ y: Double) throws -> Bool {
    let loaded = try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 200}, "state": {"on": false}, "layers": [
          {"id": "bar", "shape": "rectangle", "fill": "#000000",
           "frame": {"width": 100, "height": 60}, \(modifier)}],
         "onTap": [{"layer": "bar", "set": {"on": "=!on"}}],
         "taps": [{"x": \(x), "y": \(y), "at": 0.1}]}
        """, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0))
    return !loaded.notes.contains { $0.contains("misses") }
  }

  /// Taps hit a turned view where it is drawn, as SwiftUI hit-tests through geometry effects: a
  /// door hinged on its leading edge (x = 50) and turned 70° about y, seen from 100 pt, ends at
  /// x = 50 + 100·cos 70° / (1 + 100·sin 70° / 100) = 67.6, so a tap at x = 70 or 120 — inside
  /// the unturned frame — misses and one at x = 60 or 66 hits; turned past 90° the door shows its back, still hit where drawn, and a
  /// rotationEffect's corner outside the turned bar misses though it is inside its bounding box.
  @Test func tapsHitTheTurnedFrame() throws {
    let door = #""rotation3DEffect": {"degrees": 70, "axis": [0, 1, 0], "anchor": "leading"}"#
    #expect(try Self.tapHits(door, 60, 100))
    #expect(try Self.tapHits(door, 66, 100))
    #expect(try !Self.tapHits(door, 70, 100))
    #expect(try !Self.tapHits(door, 120, 100))
    #expect(try !Self.tapHits(door, 60, 66))  // above the hinge's 60-point height
    // About x by 60°, perspective 1: the top edge recedes (y = −30 → −30·cos 60° / (1 +
    // 30·sin 60° / 100) = −11.9) and the bottom comes forward (+15 / (1 − 0.26) = +20.3).
    let tilt = #""rotation3DEffect": {"degrees": 60, "axis": [1, 0, 0]}"#
    #expect(try Self.tapHits(tilt, 100, 100 - 11))
    #expect(try !Self.tapHits(tilt, 100, 100 - 13))
    #expect(try Self.tapHits(tilt, 100, 100 + 20))
    #expect(try !Self.tapHits(tilt, 100, 100 + 21))
    let back = #""rotation3DEffect": {"degrees": 180, "axis": [0, 1, 0]}"#
    #expect(try Self.tapHits(back, 60, 100) && Self.tapHits(back, 140, 120))
    // A 100 × 60 bar turned 45° in the plane: (140, 60) is inside its bounding box but not on it.
    #expect(try !Self.tapHits(#""rotationEffect": 45"#, 140, 60))
    #expect(try Self.tapHits(#""rotationEffect": 45"#, 130, 130))
  }

  /// A keyframe track and phase values turn the layer in 3D about the axis given beside them:
  /// the trace follows the track, and the picture at each value is the layer's own
  /// rotation3DEffect at that angle (the holder turns about the layer's laid-out frame).
  @Test func keyframesAndPhasesTurnIn3D() throws {
    let keyframed = try Self.bar(
      #""keyframes": {"repeating": false, "rotation3DEffect": {"axis": [0, 1, 0], "anchor": "leading"}, "#
        + #""tracks": {"rotation3DEffect": [{"linear": 70, "duration": 1}]}}"#)
    for t in [0.0, 0.3, 0.7, 1.0] {
      let v = try #require(keyframed.values(at: t)["bar.keyframes.rotation3DEffect"]?.first)
      #expect(abs(v - 70 * t) < 1e-9, "\(t): \(v)")
    }
    let door = try Self.bar(
      #""rotation3DEffect": {"degrees": 70, "axis": [0, 1, 0], "anchor": "leading"}"#)
    var compositor = Compositor()
    let a = try #require(keyframed.render(frame: 10, compositor: &compositor))
    let b = try #require(door.render(frame: 0, compositor: &compositor))
    #expect(a == b)
    let phased = try Self.bar(
      #""phases": {"values": [{"rotation3DEffect": 0}, {"rotation3DEffect": 180}], "#
        + #""animations": [{"type": "linear", "duration": 1}, {"type": "linear", "duration": 1}], "#
        + #""rotation3DEffect": {"axis": [1, 0, 0]}}, "opacity": 1"#, duration: 4)
    for (t, expected) in [(0.5, 90.0), (1.0, 180), (1.5, 90), (2.25, 45)] {
      let v = try #require(phased.values(at: t)["bar.phases.rotation3DEffect"]?.first)
      #expect(abs(v - expected) < 1e-9, "\(t): \(v)")
    }
    #expect(try Self.ink(phased, frame: 10) == (50, 70, 149, 129))
  }

  @Test func aTrackOrPhaseTurnNeedsItsAxis() {
    let cases: [(String, String, String)] = [
      (
        #""keyframes": {"tracks": {"rotation3DEffect": [{"move": 30}]}}"#,
        "keyframes.tracks.rotation3DEffect", "needs the turn's axis"
      ),
      (
        #""keyframes": {"rotation3DEffect": {"axis": [0, 1, 0]}, "tracks": {"opacity": [{"move": 1}]}}"#,
        "keyframes.rotation3DEffect", "there is none"
      ),
      (
        #""keyframes": {"rotation3DEffect": {"axis": [0, 0, 0]}, "tracks": {"rotation3DEffect": [{"move": 1}]}}"#,
        "keyframes.rotation3DEffect.axis", "no direction"
      ),
      (
        #""phases": {"values": [{"opacity": 1}, {"rotation3DEffect": 90}], "trigger": "=on"}"#,
        "phases.values[1].rotation3DEffect", "needs the turn's axis"
      ),
      (
        #""phases": {"values": [{"opacity": 1}, {"opacity": 0}], "trigger": "=on", "rotation3DEffect": {"axis": [1, 0, 0]}}"#,
        "phases.rotation3DEffect", "there is none"
      ),
    ]
    for (modifier, path, message) in cases {
      #expect {
        _ = try Self.bar(modifier)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path == "layers[0].\(path)" && e.message.contains(message)
      }
    }
  }

  /// Only an axis's direction counts: a tiny one turns as a unit one does.
  @Test func aTinyAxisKeepsItsDirection() throws {
    let tiny = try Self.ink(
      try Self.bar(#""rotation3DEffect": {"degrees": 56, "axis": [1e-300, 1e-300, 0]}"#))
    let unit = try Self.ink(
      try Self.bar(#""rotation3DEffect": {"degrees": 56, "axis": [1, 1, 0]}"#))
    #expect(tiny == unit)
    #expect(unit != (50, 70, 149, 129))
  }
}
