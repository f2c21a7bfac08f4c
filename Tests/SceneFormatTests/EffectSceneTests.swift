import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// `clipShape`, `clipped`, `cornerRadius`, `mask` and `blur` in scene files, checked on the
/// pixels they draw (scale 1, a white 100 × 100 canvas; a 40-point frame is x, y 30…70).
@Suite struct EffectSceneTests {
  static let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
  static let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)

  static func render(
    _ layers: String, state: String = "", events: String = "", frame: Int = 0
  )
    throws -> Pixmap
  {
    try StrokeSceneTests.render(layers, state: state, events: events, frame: frame)
  }

  static let square =
    ##""shape": "rectangle", "fill": "#FF0000", "frame": {"width": 40, "height": 40}"##

  /// A shadow whose colour, radius and offset follow state: a hard (radius 0) shadow moves from
  /// beside the square to below it and turns from red to blue, with the change's animation.
  @Test func shadowsMoveAndChangeColourWithState() throws {
    let layer = ##"""
      {"shape": "rectangle", "fill": "white", "frame": {"width": 20, "height": 20},
       "shadow": {"color": "=down ? #0000FF : #FF0000", "radius": "=down * 0", "x": "=down ? 0 : 20",
                  "y": "=down ? 20 : 0"}}
      """##
    let events = #"[{"at": 0.1, "set": {"down": true}, "animation": "none"}]"#
    let before = try Self.render(layer, state: #"{"down": false}"#, events: events, frame: 0)
    let after = try Self.render(layer, state: #"{"down": false}"#, events: events, frame: 100)
    // The square is x, y 40…60; its shadow first at x 60…80, then at y 60…80.
    #expect(before[70, 50] == Self.red && before[50, 70] == Self.white)
    #expect(after[50, 70] == PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
    #expect(after[70, 50] == Self.white)
  }

  @Test func clipShapeKeepsTheShapeAntialiased() throws {
    let p = try Self.render("{\(Self.square), \"clipShape\": \"circle\"}")
    #expect(p[50, 50] == Self.red)
    #expect(p[31, 31] == Self.white)  // the frame's corner is outside the circle
    // On the circle's edge a pixel is partly covered: anti-aliased, not a hard clip.
    let edge = (0..<100).map { p[$0, 50 - 14] }.filter { $0.g > 0 && $0.g < 255 }
    #expect(!edge.isEmpty)
  }

  @Test func clippedCutsWhatLeavesTheFrame() throws {
    // A 40-point square moved 30 points right inside a 40-point frame: clipped, nothing shows
    // past x = 70.
    let layers = """
      {"zstack": [{\(Self.square), "offset": {"x": 30, "y": 0}}], "clipped": true,
       "frame": {"width": 40, "height": 40}}
      """
    let p = try Self.render(layers)
    #expect(p[65, 50] == Self.red)
    #expect(p[75, 50] == Self.white)
    let unclipped = try Self.render(layers.replacingOccurrences(of: "\"clipped\": true,", with: ""))
    #expect(unclipped[75, 50] == Self.red)
  }

  @Test func cornerRadiusRoundsAnyLayerAndAnimates() throws {
    let layers = """
      {"zstack": [{\(Self.square)}], "cornerRadius": "=r", "frame": {"width": 40, "height": 40}}
      """
    let state = #"{"r": 0}"#
    let events = #"[{"at": 0, "set": {"r": 20}, "animation": {"type": "linear", "duration": 1}}]"#
    let start = try Self.render(layers, state: state, events: events, frame: 0)
    let end = try Self.render(layers, state: state, events: events, frame: 1000)
    #expect(start[30, 30] == Self.red)
    #expect(end[30, 30] == Self.white)  // a circle by now
    #expect(end[50, 50] == Self.red)
    // On a circle, `cornerRadius` is the clip too (not an error).
    _ = try Self.render(#"{"shape": "circle", "cornerRadius": 4}"#)
  }

  /// `clipShape`'s own corner radius animates: each frame draws what a constant radius of the
  /// value in flight draws, pixel for pixel (a linear animation from 0 to 20 over 1 s, so frame
  /// f of 50 fps has radius 20·f/50).
  @Test func aClipShapesCornerRadiusAnimates() throws {
    let clip = #""clipShape": {"shape": "roundedRectangle", "cornerRadius": "=r"}"#
    let state = #"{"r": 0}"#
    let events = #"[{"at": 0, "set": {"r": 20}, "animation": {"type": "linear", "duration": 1}}]"#
    for frame in [0, 10, 25, 50] {
      let animated = try Self.render(
        "{\(Self.square), \(clip)}", state: state, events: events, frame: frame)
      let radius = JSONValue.format(20 * Double(frame) / 50)
      let still = try Self.render(
        "{\(Self.square), \"clipShape\": {\"shape\": \"roundedRectangle\", \"cornerRadius\": \(radius)}}"
      )
      #expect(animated == still, "frame \(frame), radius \(radius)")
    }
    let end = try Self.render("{\(Self.square), \(clip)}", state: state, events: events, frame: 50)
    #expect(end[31, 31] == Self.white)  // a circle by then
    #expect(end[50, 50] == Self.red)
    // A radius on a shape that has none is refused, naming it.
    #expect(throws: SceneFileError.self) {
      try Self.render(
        #"{"shape": "rectangle", "clipShape": {"shape": "circle", "cornerRadius": 4}}"#)
    }
  }

  @Test func anEvenOddClipPathHasAHole() throws {
    let ring = "M 0 0 H 40 V 40 H 0 Z M 10 10 H 30 V 30 H 10 Z"
    let even = try Self.render(
      "{\(Self.square), \"clipShape\": {\"path\": \"\(ring)\", \"style\": \"evenOdd\"}}")
    #expect(even[50, 50] == Self.white)
    #expect(even[35, 50] == Self.red)
    let nonzero = try Self.render("{\(Self.square), \"clipShape\": {\"path\": \"\(ring)\"}}")
    #expect(nonzero[50, 50] == Self.red)
  }

  @Test func aMaskKeepsWhereItsAlphaIs() throws {
    // The mask: a 20-point circle at half opacity, centred in the frame.
    let p = try Self.render(
      """
      {\(Self.square), "mask": {"shape": "circle", "frame": {"width": 20, "height": 20}, "opacity": 0.5}}
      """)
    #expect(p[35, 50] == Self.white)
    let centre = p[50, 50]
    #expect(centre.r == 255 && (126...129).contains(Int(centre.g)))
  }

  @Test func aBlurSpreadsPastTheFrameUnlessOpaque() throws {
    let soft = try Self.render("{\(Self.square), \"blur\": 4}")
    #expect(soft[27, 50].g < 250)  // reaches 3 points outside
    #expect(soft[50, 50] == Self.red)  // the middle is still solid
    #expect(soft[30, 50].g > 60)  // the edge has faded
    let opaque = try Self.render(
      "{\(Self.square), \"blur\": {\"radius\": 4, \"opaque\": true}}")
    #expect(opaque[29, 50] == Self.white)
    #expect(opaque[30, 50] == Self.red)  // edges keep their colour
    #expect(opaque[30, 30] == Self.red)
    // Radius 0 changes nothing.
    #expect(try Self.render("{\(Self.square), \"blur\": 0}") == Self.render("{\(Self.square)}"))
  }

  @Test func theShadowIsOfTheClippedShape() throws {
    let clipped = try Self.render(
      "{\(Self.square), \"clipShape\": \"circle\", \"shadow\": {\"radius\": 1}}")
    // The frame's corner: outside the circle, so only a faint shadow, not the square's red.
    #expect(clipped[31, 31].g > 200)
  }
}
