import Raster
import SceneGraph
import TestSupport
import Testing

@testable import SceneFormat

/// Frames drawn over a reused buffer, where only the damage of the frame it held is put back
/// (`Scene.render(frame:compositor:base:onto:over:)`, what `FrameRenderer` does), equal frames
/// drawn whole, byte for byte: on random scenes of moving, scaling, turning, fading, shadowed,
/// blurred and clipped shapes and text, some partly off the canvas, with static layers between
/// the animated ones; and on every example scene.
@Suite struct DamageRenderTests {
  /// A scene file of `count` random layers in a ZStack, animated by `t` going 0 → 1.
  static func randomScene(seed: UInt64, count: Int = 6) -> String {
    var g = SeededGenerator(seed: seed)
    func number(_ range: ClosedRange<Double>) -> String {
      String(format: "%.2f", Double.random(in: range, using: &g))
    }
    func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &g) < p }
    /// A constant, or an expression of `t` (when the layer is animated) from one value in
    /// `range` to another.
    func value(_ range: ClosedRange<Double>, animated: Bool) -> String {
      guard animated && chance(0.6) else { return number(range) }
      let (from, to) = (number(range), number(range))
      return "\"=\(from) + t * (\(to) - \(from))\""
    }
    var items: [String] = []
    for _ in 0..<count {
      let animated = chance(0.7)
      var fields: [String] = []
      let color = String(format: "#%06X", Int.random(in: 0...0xFF_FFFF, using: &g))
      let alpha = chance(0.3) ? String(format: "%02X", Int.random(in: 40...255, using: &g)) : ""
      if chance(0.2) {
        fields.append("\"text\": \"Hello\", \"font\": { \"size\": \(number(12...40)) }")
        fields.append("\"foregroundColor\": \"\(color)\(alpha)\"")
      } else {
        let shape = ["rectangle", "circle", "capsule", "ellipse"].randomElement(using: &g) ?? ""
        fields.append("\"shape\": \"\(shape)\", \"fill\": \"\(color)\(alpha)\"")
        fields.append(
          "\"frame\": { \"width\": \(number(8...120)), \"height\": \(number(8...120)) }")
      }
      fields.append(
        "\"offset\": { \"x\": \(value(-110...110, animated: animated)), "
          + "\"y\": \(value(-90...90, animated: animated)) }")
      if chance(0.4) { fields.append("\"opacity\": \(value(0.1...1, animated: animated))") }
      if chance(0.4) { fields.append("\"scaleEffect\": \(value(0.3...1.6, animated: animated))") }
      if chance(0.3) {
        fields.append("\"rotationEffect\": \(value(-180...180, animated: animated))")
      }
      if chance(0.4) {
        fields.append(
          "\"shadow\": { \"radius\": \(number(0...12)), \"x\": \(number(-8...8)), "
            + "\"y\": \(number(-8...8)) }")
      }
      if chance(0.15) { fields.append("\"blur\": \(value(0...6, animated: animated))") }
      if chance(0.15) { fields.append("\"clipShape\": \"circle\"") }
      if chance(0.1) {
        fields.append(
          "\"rotation3DEffect\": { \"degrees\": \(value(-60...60, animated: animated)), "
            + "\"axis\": [0, 1, 0] }")
      }
      items.append("{ " + fields.joined(separator: ", ") + " }")
    }
    return """
      {
        "canvas": { "width": 200, "height": 150, "scale": \(chance(0.5) ? 1 : 2), "background": "#E4F6FF" },
        "state": { "t": 0 },
        "layers": [ { "zstack": [ \(items.joined(separator: ",\n")) ] } ],
        "events": [ { "at": 0.05, "set": { "t": 1 }, "animation": { "type": "easeInOut", "duration": \(number(0.2...0.5)) } } ]
      }
      """
  }

  /// Every frame drawn whole, one by one.
  static func fullFrames(_ scene: Scene) throws -> [Pixmap] {
    var compositor = Compositor()
    return try (0..<scene.frameCount).map {
      try #require(scene.render(frame: $0, compositor: &compositor))
    }
  }

  /// The frames `FrameRenderer` hands over on `threads` threads.
  static func rendererFrames(_ scene: Scene, threads: Int) throws -> [Pixmap] {
    var frames: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: threads).render(0..<scene.frameCount) { _, frame in
      frames.append(frame)
    }
    return frames
  }

  @Test(arguments: 0..<32)
  func damageRenderingEqualsFullRendering(seed: Int) throws {
    let text = Self.randomScene(seed: UInt64(seed))
    let scene = try SceneFile.load(text: text, settings: SceneSettings(frameRate: 30, hold: 0.1))
      .scene
    let full = try Self.fullFrames(scene)
    // Frames one after another, and in a random order: any frame over any other.
    var compositor = Compositor()
    let base = try #require(scene.renderBase(compositor: &compositor))
    var canvas = base.pixels
    var drawn: IntRect?
    var g = SeededGenerator(seed: UInt64(seed) &+ 99)
    let order =
      Array(0..<scene.frameCount)
      + (0..<scene.frameCount).map { _ in Int.random(in: 0..<scene.frameCount, using: &g) }
    for index in order {
      drawn = scene.render(
        frame: index, compositor: &compositor, base: base, onto: &canvas, over: drawn)
      #expect(canvas == full[index], "seed \(seed) frame \(index)\n\(text)")
      if canvas != full[index] { return }
    }
    for threads in [1, 2] {
      #expect(
        try Self.rendererFrames(scene, threads: threads) == full, "seed \(seed), \(threads) threads"
      )
    }
  }

  /// A frame is the same whatever was drawn before it (the fuzzer's finding): three 320 × 210
  /// pt shadowed cards springing across a 96 pt canvas. Frame 0's large offscreen kept a blurred
  /// silhouette that frame 9's small one would not draw; reused there, two pixels differed by a
  /// level from frame 9 drawn alone.
  @Test func aKeptShadowIsUsedOnlyWhereAFreshOneWouldBe() throws {
    func card(_ id: String, _ fill: String, _ y: String, _ scale: String) -> String {
      #"{"id": "\#(id)", "zstack": [{"shape": "roundedRectangle", "cornerRadius": 10, "#
        + #""frame": {"width": 320, "height": 210}, "fill": "\#(fill)"}], "#
        + #""shadow": {"radius": 6}, "offset": {"x": 0, "y": "\#(y)"}, "scaleEffect": "\#(scale)"}"#
    }
    let text = """
      {"canvas": {"scale": 2, "background": "white", "width": 96, "height": 96},
       "state": {"expanded": false},
       "layers": [{"id": "stack", "zstack": [
         \(card("walmart", "blue", "=expanded ? -400 : -40", "=expanded ? 1 : 0.90")),
         \(card("target", "red", "=expanded ? -200 : -20", "=expanded ? 1 : 0.95")),
         \(card("card", "black", "=0", "=1"))],
         "offset": {"x": 0, "y": "=expanded ? 150 : 0"}}],
       "events": [{"at": 0, "set": {"expanded": true},
                   "animation": {"type": "spring", "mass": 2, "stiffness": 100, "damping": 20}}]}
      """
    let scene = try SceneFile.load(text: text, settings: SceneSettings(frameRate: 10, hold: 0))
      .scene
    let indices = [0, scene.frameCount / 2, scene.frameCount - 1]
    var frames: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: 1).render(
      indices, prepare: { _, pixmap, _ in pixmap }, consume: { _, pixmap in frames.append(pixmap) })
    for (k, index) in indices.enumerated() {
      var fresh = Compositor()
      let alone = try #require(scene.render(frame: index, compositor: &fresh))
      let differing = alone.pixels.indices.first { frames[k].pixels[$0] != alone.pixels[$0] }
      #expect(differing == nil, "frame \(index) differs at pixel \(differing ?? -1)")
    }
  }

  @Test func renderedFramesSayWhereTheyChanged() throws {
    let scene = try SceneFile.load(
      text: Self.randomScene(seed: 7), settings: SceneSettings(frameRate: 30, hold: 0.1)
    ).scene
    try FrameRenderer(scene: scene, threads: 2).render(
      Array(0..<scene.frameCount),
      preparing: { frame -> Bool in
        guard let previous = frame.previous else { return frame.changed == frame.pixels.bounds }
        let r = frame.changed
        for y in 0..<frame.pixels.height {
          for x in 0..<frame.pixels.width
          where !(x >= r.minX && x < r.maxX && y >= r.minY && y < r.maxY)
            && frame.pixels[x, y] != previous[x, y]
          {
            return false
          }
        }
        return true
      }
    ) { index, holds in #expect(holds, "frame \(index) changed outside its rectangle") }
  }

  @Test(arguments: [
    "backgrounds", "banner", "cards", "cats", "clock", "colors", "counter", "effects",
    "environment", "expand", "flip", "frames", "gradients", "images", "keyframes", "lift",
    "phases", "progress", "repeats", "safearea", "spin", "sticker", "strokes", "symbols", "tabs",
    "text", "toast", "toggle", "typography",
  ])
  func examplesRenderTheSameWithDamage(name: String) throws {
    let path = ExampleSceneTests.examples + "/\(name).json"
    let scene = try SceneFile.load(path: path, settings: SceneSettings(scale: 1, frameRate: 20))
      .scene
    let full = try Self.fullFrames(scene)
    let frames = try Self.rendererFrames(scene, threads: 2)
    let changed = (0..<min(frames.count, full.count)).filter { frames[$0] != full[$0] }
    #expect(frames.count == full.count && changed.isEmpty, "\(name): frames \(changed)")
  }
}
