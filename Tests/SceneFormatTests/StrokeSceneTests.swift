import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// `stroke`, `strokeBorder` and `trim` in scene files, checked on the pixels they draw (scale 1,
/// a white canvas, shapes on whole points so edges fall between pixels).
@Suite struct StrokeSceneTests {
  static func render(
    _ layers: String, state: String = "", events: String = "", frame: Int = 0
  )
    throws -> Pixmap
  {
    let text = """
      {"canvas": {"width": 100, "height": 100, "background": "white"},
       \(state.isEmpty ? "" : "\"state\": \(state),")
       "layers": [\(layers)]\(events.isEmpty ? "" : ", \"events\": \(events)")}
      """
    let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0)).scene
    var compositor = Compositor()
    return try #require(
      scene.render(frame: min(frame, scene.frameCount - 1), compositor: &compositor))
  }

  static let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
  static let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)
  static let blue = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)

  /// A 40 × 40 square centred at (50, 50): its frame is x, y 30…70.
  static let square = #""shape": "rectangle", "frame": {"width": 40, "height": 40}"#

  /// A 4-point stroke of the square: `stroke` covers x 28…32 on its left edge (centred on the
  /// outline), `strokeBorder` x 30…34 (inside the frame); neither fills.
  @Test(arguments: [("stroke", 28), ("strokeBorder", 30)])
  func theStrokeBandAndNoFill(key: String, first: Int) throws {
    let p = try Self.render(
      ##"{\##(Self.square), "\##(key)": {"color": "#FF0000", "lineWidth": 4}}"##)
    for x in first..<first + 4 { #expect(p[x, 50] == Self.red, "x \(x)") }
    #expect(p[first - 1, 50] == Self.white)
    #expect(p[first + 4, 50] == Self.white)
    #expect(p[50, 50] == Self.white)
    // Miter joins: the corner is square.
    #expect(p[first, first] == Self.red)
  }

  /// A border wider than the frame is inset to nothing, as SwiftUI's `insetBy` gives a null
  /// rect: nothing is drawn, and above all nothing outside the frame (a Rect that swapped its
  /// crossed edges drew a 140 pt square for a 100 pt border of a 60 pt frame).
  @Test(arguments: ["rectangle", "circle", "capsule", "ellipse", "roundedRectangle"])
  func aBorderWiderThanItsFrameDrawsNothing(shape: String) throws {
    let p = try Self.render(
      ##"{"shape": "\##(shape)", "cornerRadius": 8, "frame": {"width": 60, "height": 40}, "##
        + ##""strokeBorder": {"color": "#FF0000", "lineWidth": 100}}"##)
    for y in 0..<100 {
      for x in 0..<100 where p[x, y] != Self.white {
        Issue.record("\(shape): (\(x), \(y)) is \(p[x, y])")
        return
      }
    }
  }

  /// A dash pattern that would cut the stroke into more dashes than are drawn is refused
  /// before anything is drawn (it was cut short without a word).
  @Test func tooManyDashesAreRefused() throws {
    let refused = #expect(throws: SceneFileError.self) {
      try Self.render(
        ##"{"shape": "circle", "frame": {"width": 80, "height": 80}, "##
          + ##""stroke": {"color": "black", "lineWidth": 4, "dash": [0.0001, 0.0001]}}"##)
    }
    // The key that gives the pattern (it named the layer only).
    #expect(refused?.path.hasSuffix(".stroke.dash") == true, "\(String(describing: refused))")
    do {
      _ = try Self.render(
        ##"{"shape": "circle", "stroke": {"color": "black", "dash": [0.0001, 0.0001]}}"##)
    } catch {
      #expect("\(error)".contains("dash pattern would cut its path into about"), "\(error)")
    }
    _ = try Self.render(
      ##"{"shape": "circle", "stroke": {"color": "black", "lineWidth": 4, "dash": [0.01, 0.01]}}"##)
  }

  /// A cap at the end of a curve is square to the curve's tangent, not to its last chord: the
  /// butt cap of a half circle trimmed from 3 o'clock, 180 pt wide at 300 %, is the line y = 600
  /// px across its whole 540 px (facing the first chord, it ran from 597.8 to 602.2 px).
  @Test func aCapAtACurvesEndFacesItsTangent() throws {
    let text =
      #"{"canvas": {"width": 400, "height": 400, "background": "white"}, "layers": ["#
      + #"{"shape": "circle", "trim": [0, 0.5], "frame": {"width": 200, "height": 200}, "#
      + #""stroke": {"color": "black", "lineWidth": 180}}]}"#
    let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 3, hold: 0)).scene
    var compositor = Compositor()
    let p = try #require(scene.render(frame: 0, compositor: &compositor))
    for x in stride(from: 635, to: 1170, by: 25) {
      // The cap's edge: where the column's ink starts, from the coverage of rows 580…619.
      var ink = 0.0
      for y in 580..<620 { ink += Double(255 - Int(p[x, y].r)) / 255 }
      #expect(abs(620 - ink - 600) < 0.05, "x \(x): edge at \(620 - ink)")
    }
  }

  /// A path that is one point, in a frame, is a dot at the frame's centre when stroked with round
  /// caps (it was refused: fitting a point into a frame scaled it by infinity).
  @Test func aOnePointPathInAFrameIsADot() throws {
    let p = try Self.render(
      ##"{"path": "M10 10 L10 10", "frame": {"width": 100, "height": 100}, "##
        + ##""stroke": {"color": "#FF0000", "lineWidth": 10, "lineCap": "round"}}"##)
    #expect(p[50, 50] == Self.red)
    #expect(p[50, 40] == Self.white && p[40, 50] == Self.white)
  }

  @Test func aCircleBorderLiesInsideItsFrame() throws {
    // A circle's border: inside its 40-point frame, with none of it outside.
    let c = try Self.render(
      ##"{"shape": "circle", "frame": {"width": 40, "height": 40}, "strokeBorder": {"color": "#FF0000", "lineWidth": 6}}"##
    )
    #expect(c[29, 50] == Self.white)
    #expect(c[31, 50] == Self.red)
    #expect(c[50, 50] == Self.white)
  }

  @Test func fillIsDrawnUnderTheStrokeAndTheStrokeTakesTheForegroundColour() throws {
    let p = try Self.render(
      ##"{\##(Self.square), "fill": "#0000FF", "foregroundColor": "#FF0000", "stroke": {"lineWidth": 4}}"##
    )
    #expect(p[50, 50] == Self.blue)
    #expect(p[31, 50] == Self.red)  // the stroke on top of the fill
    #expect(p[29, 50] == Self.red)
    // The stroke's colour comes down from a stack's foregroundColor too.
    let inherited = try Self.render(
      ##"{"zstack": [{\##(Self.square), "stroke": {"lineWidth": 2}}], "foregroundColor": "#0000FF"}"##
    )
    #expect(inherited[29, 50] == Self.blue)
    #expect(inherited[50, 50] == Self.white)
    // A colour string is a stroke of width 1.
    let thin = try Self.render(##"{\##(Self.square), "stroke": "#FF0000"}"##)
    #expect(thin[29, 50].r == 255 && thin[29, 50].g == 127)
    #expect(thin[30, 50].g == 127)
  }

  @Test func aTrimmedCircleStartsAtThreeOClockAndRunsClockwise() throws {
    let p = try Self.render(
      ##"{"shape": "circle", "frame": {"width": 60, "height": 60}, "fill": "#FF0000", "trim": [0, 0.25]}"##
    )
    // A quarter of the outline, filled: the segment between 3 and 6 o'clock, bottom right.
    #expect(p[70, 65] == Self.red)
    #expect(p[75, 30] == Self.white)
    #expect(p[25, 70] == Self.white)
    #expect(p[55, 55] == Self.white)  // inside the chord: not part of the segment
  }

  @Test func translucentSelfOverlapsDoNotDouble() throws {
    // A path crossing itself, stroked at 50 % alpha: the crossing is as light as the rest.
    let p = try Self.render(
      ##"{"path": "M 10 10 L 90 90 M 90 10 L 10 90", "stroke": {"color": "#FF000080", "lineWidth": 8}}"##
    )
    #expect(p[50, 50] == p[30, 30])
  }

  @Test func trimLineWidthDashPhaseAndColourAnimate() throws {
    let layers = """
      {"path": "M 10 50 L 90 50", "trim": [0, "=t"],
       "stroke": {"color": "=t > 0.5 ? #0000FF : #FF0000", "lineWidth": "=2 + t * 8",
                  "dash": [10, 10], "dashPhase": "=t * 10"}}
      """
    let state = #"{"t": 0}"#
    let events = #"[{"at": 0, "set": {"t": 1}, "animation": {"type": "linear", "duration": 1}}]"#
    let start = try Self.render(layers, state: state, events: events, frame: 0)
    let end = try Self.render(layers, state: state, events: events, frame: 1000)
    // At t = 0 nothing is drawn (trim [0, 0]); at the end the whole dashed line, 10 wide and
    // blue, its phase moved by 10: the first dash is a gap.
    #expect((0..<100).allSatisfy { start[$0, 50] == Self.white })
    #expect(end[15, 50] == Self.white)
    #expect(end[25, 46] == Self.blue)
    #expect(end[25, 44] == Self.white)
  }

  /// `miterLimit` animates (StrokeStyle's animatableData): a 60° corner needs a limit of 2
  /// (1/sin 30°) for its miter; below that it is bevelled. Each frame draws what the constant
  /// limit in flight draws.
  @Test func theMiterLimitAnimates() throws {
    func chevron(_ limit: String) -> String {
      """
      {"path": "M 20 80 L 50 28.04 L 80 80", "stroke": {"color": "#FF0000", "lineWidth": 10,
       "miterLimit": \(limit)}}
      """
    }
    let state = #"{"m": 1}"#
    let events = #"[{"at": 0, "set": {"m": 3}, "animation": {"type": "linear", "duration": 1}}]"#
    for (frame, limit) in [(0, "1"), (20, "1.8"), (25, "2"), (40, "2.6"), (50, "3")] {
      let animated = try Self.render(chevron("\"=m\""), state: state, events: events, frame: frame)
      #expect(animated == (try Self.render(chevron(limit))), "frame \(frame)")
    }
    // The miter's tip, 10 points above the corner (half the width times 1/sin 30°): bevelled
    // at the start, drawn at the end.
    let start = try Self.render(chevron("\"=m\""), state: state, events: events, frame: 0)
    let end = try Self.render(chevron("\"=m\""), state: state, events: events, frame: 50)
    #expect(start[50, 20] == Self.white)
    #expect(end[50, 20] == Self.red)
  }

  /// Degenerate frames, as Core Graphics strokes them: a rectangle 0 points wide stroked 10 wide
  /// is a 10-point bar (its fill is nothing), and a vertical line in a frame 0 points wide fits
  /// the frame by its height (it was refused as leaving the finite range).
  @Test func zeroWidthFramesStillStroke() throws {
    let bar = try Self.render(
      ##"{"shape": "rectangle", "frame": {"width": 0, "height": 30}, "stroke": {"color": "#FF0000", "lineWidth": 10}}"##
    )
    #expect(bar[46, 50] == Self.red && bar[53, 50] == Self.red)
    #expect(bar[44, 50] == Self.white && bar[56, 50] == Self.white)
    let filled = try Self.render(
      ##"{"shape": "rectangle", "frame": {"width": 0, "height": 30}, "fill": "#FF0000"}"##)
    #expect((0..<100).allSatisfy { filled[$0, 50] == Self.white })
    let line = try Self.render(
      ##"{"path": "M0 0 L0 20", "frame": {"width": 0, "height": 40}, "stroke": {"color": "#FF0000", "lineWidth": 4}}"##
    )
    // Fitted by its height: 20 units to 40 points, centred at x = 50.
    #expect(line[49, 35] == Self.red && line[50, 65] == Self.red)
    #expect(line[49, 25] == Self.white)
  }

  /// A ring's `lineWidth` animates as a stroke's does: each frame is the ring of the width in
  /// flight (a linear change from 2 to 12 points over 1 s, so frame f of 50 fps is 2 + f / 5).
  @Test func aRingsLineWidthAnimates() throws {
    func ring(_ width: String) -> String {
      ##"{"shape": "ring", "lineWidth": \##(width), "fill": "#FF0000", "frame": {"width": 60, "height": 60}}"##
    }
    let state = #"{"w": 2}"#
    let events = #"[{"at": 0, "set": {"w": 12}, "animation": {"type": "linear", "duration": 1}}]"#
    for (frame, width) in [(0, "2"), (25, "7"), (50, "12")] {
      let animated = try Self.render(ring("\"=w\""), state: state, events: events, frame: frame)
      #expect(animated == (try Self.render(ring(width))), "frame \(frame)")
    }
  }
}
