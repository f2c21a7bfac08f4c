import Raster
import SceneFormat
import SceneGraph
import Testing

/// Frames of the vocabulary examples in `Examples/` at 100 % and 300 %, compared with recorded
/// goldens that were looked at. Each example shows one family of scene keys.
@Suite struct ExampleGoldenTests {
  static let suite = "Examples"

  static let examples: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Examples"
  }()

  struct Case: CustomTestStringConvertible, Sendable {
    let example: String
    /// Seconds into the animation.
    let time: Double
    let scale: Double
    var testDescription: String { "\(example) at \(time) s, \(Int(scale * 100)) %" }
  }

  static let cases: [Case] = [
    // Strokes: the check mark half drawn and the dashes moving; then everything at rest.
    Case(example: "strokes", time: 0.7, scale: 1), Case(example: "strokes", time: 0.7, scale: 3),
    Case(example: "strokes", time: 2, scale: 1), Case(example: "strokes", time: 2, scale: 3),
    // Gradients: the stop sliding, the sun growing, the wheel turning; then at rest.
    Case(example: "gradients", time: 0.8, scale: 1),
    Case(example: "gradients", time: 0.8, scale: 3),
    Case(example: "gradients", time: 2, scale: 1), Case(example: "gradients", time: 2, scale: 3),
    // Clips, masks, blur: corners rounding, the ticker moving, the title still blurred; at rest.
    Case(example: "effects", time: 0.8, scale: 1), Case(example: "effects", time: 0.8, scale: 3),
    Case(example: "effects", time: 2, scale: 1), Case(example: "effects", time: 2, scale: 3),
    // Colours (the file's dark scheme): modifiers halfway, then at rest.
    Case(example: "colors", time: 0.8, scale: 1), Case(example: "colors", time: 0.8, scale: 3),
    Case(example: "colors", time: 2, scale: 1), Case(example: "colors", time: 2, scale: 3),
    // Symbols: the heart springing and the tab moving; then at rest.
    Case(example: "symbols", time: 0.5, scale: 1), Case(example: "symbols", time: 0.5, scale: 3),
    Case(example: "symbols", time: 3, scale: 1), Case(example: "symbols", time: 3, scale: 3),
    // Images: the photo zooming and a tint changing; then at rest.
    Case(example: "images", time: 1, scale: 1), Case(example: "images", time: 1, scale: 3),
    Case(example: "images", time: 3, scale: 1), Case(example: "images", time: 3, scale: 3),
    // Backgrounds and overlays: the toast sliding in, the badge popping; then at rest.
    Case(example: "backgrounds", time: 0.4, scale: 1),
    Case(example: "backgrounds", time: 0.4, scale: 3),
    Case(example: "backgrounds", time: 2, scale: 1),
    Case(example: "backgrounds", time: 2, scale: 3),
    // Flexible frames: the banner turning red; then at rest.
    Case(example: "frames", time: 0.6, scale: 1), Case(example: "frames", time: 0.6, scale: 3),
    Case(example: "frames", time: 2, scale: 1), Case(example: "frames", time: 2, scale: 3),
    // Wrapped text: the toast fading in and the ticker moving; then at rest.
    Case(example: "text", time: 0.7, scale: 1), Case(example: "text", time: 0.7, scale: 3),
    Case(example: "text", time: 2, scale: 1), Case(example: "text", time: 2, scale: 3),
    // Styled text: the sale row sliding in; then at rest.
    Case(example: "typography", time: 0.35, scale: 1),
    Case(example: "typography", time: 0.35, scale: 3),
    Case(example: "typography", time: 2, scale: 1), Case(example: "typography", time: 2, scale: 3),
    // The safe area per edge: the tab bar sliding up; then at rest.
    Case(example: "safearea", time: 0.35, scale: 1),
    Case(example: "safearea", time: 0.35, scale: 3),
    Case(example: "safearea", time: 2, scale: 1), Case(example: "safearea", time: 2, scale: 3),
    // Text from state: the counter rolling and the percentage crossfading; then at rest.
    Case(example: "counter", time: 0.45, scale: 1), Case(example: "counter", time: 0.45, scale: 3),
    Case(example: "counter", time: 2, scale: 1), Case(example: "counter", time: 2, scale: 3),
    // An animated shadow: the card lifted; then settled.
    Case(example: "lift", time: 0.6, scale: 1), Case(example: "lift", time: 0.6, scale: 3),
    Case(example: "lift", time: 2.5, scale: 1), Case(example: "lift", time: 2.5, scale: 3),
    // Repeats and anchors: the spinner, the pulse, the bars and the bell mid-swing; then later.
    Case(example: "repeats", time: 0.5, scale: 1), Case(example: "repeats", time: 0.5, scale: 3),
    Case(example: "repeats", time: 1.5, scale: 1), Case(example: "repeats", time: 1.5, scale: 3),
    // Transitions: the toast sliding in and the row sliding in; the row pushed out; at rest.
    Case(example: "toast", time: 0.45, scale: 1), Case(example: "toast", time: 0.45, scale: 3),
    Case(example: "toast", time: 1.3, scale: 1), Case(example: "toast", time: 1.3, scale: 3),
    Case(example: "toast", time: 2.95, scale: 1), Case(example: "toast", time: 2.95, scale: 3),
    // Matched geometry: the pill between tabs; at rest.
    Case(example: "tabs", time: 0.4, scale: 1), Case(example: "tabs", time: 0.4, scale: 3),
    Case(example: "tabs", time: 3, scale: 1), Case(example: "tabs", time: 3, scale: 3),
    // Time: the hands, the sweep and the breath at two moments.
    Case(example: "clock", time: 0.5, scale: 1), Case(example: "clock", time: 0.5, scale: 3),
    Case(example: "clock", time: 1.7, scale: 1), Case(example: "clock", time: 1.7, scale: 3),
    // Keyframes: the heart mid-pop and the dots mid-bounce; then after the second pop.
    Case(example: "keyframes", time: 0.55, scale: 1),
    Case(example: "keyframes", time: 0.55, scale: 3),
    Case(example: "keyframes", time: 2.9, scale: 1),
    Case(example: "keyframes", time: 2.9, scale: 3),
    // Phases: the arrow dipping and the bell mid-wiggle; later.
    Case(example: "phases", time: 0.75, scale: 1), Case(example: "phases", time: 0.75, scale: 3),
    Case(example: "phases", time: 2.9, scale: 1), Case(example: "phases", time: 2.9, scale: 3),
    // Layout that animates: the card growing open; the middle row collapsing; at rest.
    Case(example: "expand", time: 0.5, scale: 1), Case(example: "expand", time: 0.5, scale: 3),
    Case(example: "expand", time: 1.55, scale: 1), Case(example: "expand", time: 1.55, scale: 3),
    Case(example: "expand", time: 3.5, scale: 1), Case(example: "expand", time: 3.5, scale: 3),
  ]

  @Test(arguments: cases)
  func exampleFrame(_ c: Case) throws {
    let scene = try SceneFile.load(
      path: Self.examples + "/\(c.example).json",
      settings: SceneSettings(scale: c.scale, frameRate: 50, hold: 0)
    ).scene
    var compositor = Compositor()
    let frame = min(Int((c.time * 50).rounded()), scene.frameCount - 1)
    let pixmap = try #require(scene.render(frame: frame, compositor: &compositor))
    let seconds = c.time == c.time.rounded() ? "\(Int(c.time))" : "\(c.time)"
    try assertGolden(
      pixmap, named: "\(c.example)-\(seconds)s@\(Int(c.scale))x", suite: Self.suite, .antialiasing)
  }
}
