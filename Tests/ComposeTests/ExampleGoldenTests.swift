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

  /// Each example at the moments worth looking at, every one at 100 % and 300 %.
  static let moments: [(example: String, times: [Double])] = [
    // Strokes: the check mark half drawn and the dashes moving; then everything at rest.
    ("strokes", [0.7, 2]),
    // Gradients: the stop sliding, the sun growing, the wheel turning; then at rest.
    ("gradients", [0.8, 2]),
    // Clips, masks, blur: corners rounding, the ticker moving, the title still blurred; at rest.
    ("effects", [0.8, 2]),
    // Colours (the file's dark scheme): modifiers halfway, then at rest.
    ("colors", [0.8, 2]),
    // Symbols: the heart springing and the tab moving; then at rest.
    ("symbols", [0.5, 3]),
    // Images: the photo zooming and a tint changing; then at rest.
    ("images", [1, 3]),
    // Backgrounds and overlays: the toast sliding in, the badge popping; then at rest.
    ("backgrounds", [0.4, 2]),
    // Flexible frames: the banner turning red; then at rest.
    ("frames", [0.6, 2]),
    // Wrapped text: the toast fading in and the ticker moving; then at rest.
    ("text", [0.7, 2]),
    // Styled text: the sale row sliding in; then at rest.
    ("typography", [0.35, 2]),
    // The safe area per edge: the tab bar sliding up; then at rest.
    ("safearea", [0.35, 2]),
    // Text from state: the counter rolling and the percentage crossfading; then at rest.
    ("counter", [0.45, 2]),
    // An animated shadow: the card lifted; then settled.
    ("lift", [0.6, 2.5]),
    // Repeats and anchors: the spinner, the pulse, the bars and the bell mid-swing; then later.
    ("repeats", [0.5, 1.5]),
    // Transitions: the toast sliding in and the row sliding in; the row pushed out; at rest.
    ("toast", [0.45, 1.3, 2.95]),
    // Matched geometry: the pill between tabs; at rest.
    ("tabs", [0.4, 3]),
    // Time: the hands, the sweep and the breath at two moments.
    ("clock", [0.5, 1.7]),
    // Keyframes: the heart mid-pop and the dots mid-bounce; then after the second pop.
    ("keyframes", [0.55, 2.9]),
    // Phases: the arrow dipping and the bell mid-wiggle; later.
    ("phases", [0.75, 2.9]),
    // Layout that animates: the card growing open; the middle row collapsing; at rest.
    ("expand", [0.5, 1.55, 3.5]),
    // 3D rotation: the front turning away (gradient and shadow resampled, door and banner
    // projected exactly); the back turning in; the door springing back.
    ("flip", [0.5, 0.75, 1.7]),
    // 3D turns from keyframes and phases: the coin edge-on, the card rocked back by its first
    // phase and the coin turning back in; the card's second rock, the coin at rest.
    ("spin", [0.3, 0.75, 2.15]),
    // A clear background: the heart mid-pop over transparency; the label in, at rest.
    ("sticker", [0.15, 1.5]),
    // Text styles on stacks: the notification's texts halfway from grey to black; at rest.
    ("environment", [0.6, 1.5]),
    // Hit testing: the card turning indigo after the tap beside the button (count 1); at rest
    // after the tap through the banner (count 2, the heart pink).
    ("taps", [1.2, 3]),
    // `.animation(_:value:)`: the heart springing, the card opening (its texts crossfading at
    // the card's leading edge); the switch halfway, its label already orange; at rest.
    ("animations", [0.4, 1.2, 2.1, 3]),
  ]

  static let cases: [Case] = moments.flatMap { moment in
    moment.times.flatMap { time in
      [1.0, 3].map { Case(example: moment.example, time: time, scale: $0) }
    }
  }

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
