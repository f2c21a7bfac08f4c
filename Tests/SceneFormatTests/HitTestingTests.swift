import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Taps routed as SwiftUI routes them (`HitTest`, `SceneAssembler.handler(for:…)`): to the
/// frontmost layer that takes the tap — a shape where it draws, a text, image or symbol in its
/// frame, a `contentShape` — and then its ancestors, the innermost handler first; a layer at
/// opacity 0 or with `allowsHitTesting` false lets taps through; a handler without a layer takes
/// what no layer's handler does.
@Suite struct HitTestingTests {
  /// Which handler ran: every handler sets `hit` to its own number, shown as the offset of a
  /// 1-point marker layer (0: none ran), after one tap at `tap` at 0.1 s.
  static func hit(
    _ layers: String, handlers: String, tap: (Double, Double), state: String = ""
  ) throws -> (hit: Double, notes: [String]) {
    let text = """
      {"canvas": {"width": 300, "height": 300}, "state": {"hit": 0\(state)},
       "layers": [\(layers),
                  {"id": "marker", "shape": "rectangle", "frame": {"width": 1, "height": 1},
                   "opacity": 0.01, "allowsHitTesting": false, "offset": {"x": "=hit", "y": 0}}],
       "onTap": [\(handlers)],
       "taps": [{"x": \(tap.0), "y": \(tap.1), "at": 0.1}]}
      """
    let loaded = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, frameRate: 10))
    let offset = loaded.scene.values(at: 1)["marker.offset"]?[0] ?? 0
    return (offset, loaded.notes)
  }

  /// A handler on `layer` setting `hit` to `n`.
  static func on(_ layer: String?, _ n: Int) -> String {
    let target = layer.map { #""layer": "\#($0)", "# } ?? ""
    return #"{\#(target)"set": {"hit": \#(n)}, "animation": "none"}"#
  }

  /// A button under a full-screen translucent cover does not get the tap (the cover, the
  /// frontmost layer there, takes it and has no handler); with `allowsHitTesting: false` on the
  /// cover, or the cover faded to opacity 0, the tap reaches the button.
  @Test func aLayerInFrontTakesTheTap() throws {
    let button = #"{"id": "button", "shape": "circle", "frame": {"width": 80, "height": 80}}"#
    func cover(_ extra: String) -> String {
      ##"{"id": "cover", "shape": "rectangle", "fill": "#00000080"\##(extra)}"##
    }
    let blocked = try Self.hit(
      button + ", " + cover(""), handlers: Self.on("button", 1), tap: (150, 150))
    #expect(blocked.hit == 0)
    #expect(blocked.notes.contains { $0.contains("misses the tappable layers ('button')") })
    let passing = try Self.hit(
      button + ", " + cover(#", "allowsHitTesting": false"#), handlers: Self.on("button", 1),
      tap: (150, 150))
    #expect(passing.hit == 1)
    let faded = try Self.hit(
      button + ", " + cover(#", "opacity": 0"#), handlers: Self.on("button", 1), tap: (150, 150))
    #expect(faded.hit == 1)
    // From state: the cover lets taps through while `open` is false.
    let fromState = try Self.hit(
      button + ", " + cover(#", "allowsHitTesting": "=open""#), handlers: Self.on("button", 1),
      tap: (150, 150), state: #", "open": false"#)
    #expect(fromState.hit == 1)
  }

  /// A layer at opacity 0 takes no tap itself (SwiftUI leaves it out of hit testing), even with
  /// a handler of its own.
  @Test func anInvisibleLayerTakesNoTap() throws {
    let ghost =
      #"{"id": "ghost", "shape": "rectangle", "frame": {"width": 100, "height": 100}, "opacity": 0}"#
    #expect(try Self.hit(ghost, handlers: Self.on("ghost", 1), tap: (150, 150)).hit == 0)
  }

  /// A shape takes taps where its path is: a circle's frame corner misses, its inside hits; a
  /// stroked ring is hit on its band, not in its hole; a rectangle filled clear is not hit.
  @Test func aShapeIsHitByItsPath() throws {
    let circle = #"{"id": "c", "shape": "circle", "frame": {"width": 100, "height": 100}}"#
    #expect(try Self.hit(circle, handlers: Self.on("c", 1), tap: (150, 150)).hit == 1)
    #expect(try Self.hit(circle, handlers: Self.on("c", 1), tap: (105, 105)).hit == 0)
    let ring =
      #"{"id": "r", "shape": "circle", "frame": {"width": 100, "height": 100}, "#
      + #""stroke": {"color": "black", "lineWidth": 10}}"#
    #expect(try Self.hit(ring, handlers: Self.on("r", 1), tap: (150, 102)).hit == 1)
    #expect(try Self.hit(ring, handlers: Self.on("r", 1), tap: (150, 150)).hit == 0)
    // A clear fill takes no tap (as `Color.clear`): the tap falls through to the screen's handler.
    let clear = #"{"id": "k", "shape": "rectangle", "fill": "clear"}"#
    #expect(
      try Self.hit(clear, handlers: Self.on("k", 1) + ", " + Self.on(nil, 2), tap: (150, 150)).hit
        == 2)
  }

  /// A stack takes taps only through its children: the gap between two squares misses the row,
  /// until `contentShape: "rectangle"` makes the whole frame take them (SwiftUI's
  /// `.contentShape(Rectangle())` on an `HStack`). A content shape also limits taps: a square
  /// with `contentShape: "circle"` misses at its corner.
  @Test func aStackIsHitThroughItsChildrenOrItsContentShape() throws {
    func row(_ extra: String) -> String {
      #"{"id": "row", "hstack": [{"shape": "rectangle", "frame": {"width": 40, "height": 40}}, "#
        + #"{"shape": "rectangle", "frame": {"width": 40, "height": 40}}], "spacing": 40\#(extra)}"#
    }
    // The row is 120 wide, centred: squares at 90…130 and 170…210, the gap 130…170.
    #expect(try Self.hit(row(""), handlers: Self.on("row", 1), tap: (110, 150)).hit == 1)
    #expect(try Self.hit(row(""), handlers: Self.on("row", 1), tap: (150, 150)).hit == 0)
    let shaped = row(#", "contentShape": "rectangle""#)
    #expect(try Self.hit(shaped, handlers: Self.on("row", 1), tap: (150, 150)).hit == 1)
    #expect(try Self.hit(shaped, handlers: Self.on("row", 1), tap: (150, 175)).hit == 0)
    let square =
      #"{"id": "s", "shape": "rectangle", "frame": {"width": 100, "height": 100}, "contentShape": "circle"}"#
    #expect(try Self.hit(square, handlers: Self.on("s", 1), tap: (105, 105)).hit == 0)
    #expect(try Self.hit(square, handlers: Self.on("s", 1), tap: (150, 150)).hit == 1)
    // A padded text takes taps in its padding only with a content shape (SwiftUI's
    // `Text(…).padding(30).contentShape(Rectangle())`).
    func label(_ extra: String) -> String {
      #"{"id": "t", "text": "Hi", "font": "title", "padding": 30\#(extra)}"#
    }
    #expect(try Self.hit(label(""), handlers: Self.on("t", 1), tap: (150, 122)).hit == 0)
    let shapedLabel = label(#", "contentShape": "rectangle""#)
    #expect(try Self.hit(shapedLabel, handlers: Self.on("t", 1), tap: (150, 122)).hit == 1)
    #expect(try Self.hit(shapedLabel, handlers: Self.on("t", 1), tap: (150, 150)).hit == 1)
  }

  /// The innermost layer with a handler wins (a child's gesture before its parent's), whatever
  /// the handlers' order; a handler without a layer takes the taps no layer's handler does,
  /// even when it is listed first. A text takes taps in its frame.
  @Test func theInnermostHandlerRuns() throws {
    let card =
      ##"{"id": "card", "zstack": [{"shape": "rectangle", "fill": "#DDDDDD"}, "##
      + #"{"id": "label", "text": "Buy", "font": "title"}], "frame": {"width": 200, "height": 200}}"#
    let handlers = [Self.on(nil, 3), Self.on("card", 1), Self.on("label", 2)].joined(
      separator: ", ")
    #expect(try Self.hit(card, handlers: handlers, tap: (150, 150)).hit == 2)
    #expect(try Self.hit(card, handlers: handlers, tap: (70, 70)).hit == 1)
    #expect(try Self.hit(card, handlers: handlers, tap: (10, 10)).hit == 3)
  }

  /// `hit` after the scene's own taps, with `state` and a duration of 3 s.
  static func afterTaps(
    _ layers: String, handlers: String, taps: String, state: String = ""
  )
    throws -> Double
  {
    let text = """
      {"canvas": {"width": 300, "height": 300}, "duration": 3, "state": {"hit": 0\(state)},
       "layers": [\(layers),
                  {"id": "marker", "shape": "rectangle", "frame": {"width": 1, "height": 1},
                   "opacity": 0.01, "allowsHitTesting": false, "offset": {"x": "=hit", "y": 0}}],
       "onTap": [\(handlers)], "taps": [\(taps)]}
      """
    let loaded = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, frameRate: 10))
    return loaded.scene.values(at: 2.9)["marker.offset"]?[0] ?? 0
  }

  /// A layer moved by a value that follows `time` is hit where the frame of the tap's moment
  /// draws it (a `TimelineView`'s view is hit where it is drawn), not where it was at the start.
  @Test func aValueThatFollowsTimeIsHitWhereItIsDrawn() throws {
    let moving =
      #"{"id": "m", "shape": "rectangle", "frame": {"width": 40, "height": 40}, "#
      + #""offset": {"x": "=time > 1 ? 100 : 0", "y": 0}}"#
    let at = { (x: Int, t: Double) in #"{"x": \#(x), "y": 150, "at": \#(t)}"# }
    #expect(try Self.afterTaps(moving, handlers: Self.on("m", 1), taps: at(250, 1.5)) == 1)
    #expect(try Self.afterTaps(moving, handlers: Self.on("m", 1), taps: at(150, 1.5)) == 0)
    #expect(try Self.afterTaps(moving, handlers: Self.on("m", 1), taps: at(150, 0.5)) == 1)
  }

  /// `allowsHitTesting` from state is not animated: the first tap sets `busy` with a 3-second
  /// animation, and a second tap a second later no longer reaches the button.
  @Test func allowsHitTestingChangesAtOnce() throws {
    let button =
      #"{"id": "b", "shape": "circle", "frame": {"width": 80, "height": 80}, "#
      + #""allowsHitTesting": "=!busy", "opacity": "=busy ? 0.5 : 1"}"#
    let handler =
      #"{"layer": "b", "set": {"hit": "=hit + 1", "busy": true}, "#
      + #""animation": {"type": "linear", "duration": 3}}"#
    let taps = #"{"x": 150, "y": 150, "at": 0}, {"x": 150, "y": 150, "at": 1}"#
    // `hit` moves with the 3-second animation too: at 2.9 s it is near its target.
    let hit = try Self.afterTaps(button, handlers: handler, taps: taps, state: #", "busy": false"#)
    #expect(hit.rounded() == 1, "\(hit)")
  }

  /// A text in a larger fixed frame takes taps in its own bounds only (SwiftUI's `Text` is as
  /// large as its lines; the frame around it takes none without a content shape).
  @Test func aTextInALargerFrameIsHitInItsOwnBounds() throws {
    let text = #"{"id": "t", "text": "Hi", "frame": {"width": 200, "height": 100}}"#
    #expect(try Self.hit(text, handlers: Self.on("t", 1), tap: (150, 150)).hit == 1)
    #expect(try Self.hit(text, handlers: Self.on("t", 1), tap: (70, 150)).hit == 0)
    #expect(try Self.hit(text, handlers: Self.on("t", 1), tap: (150, 110)).hit == 0)
  }

  /// A handler's layer that no layer has is an error when the scene loads, with or without taps.
  @Test func aHandlerForAMissingLayerIsAnError() throws {
    #expect {
      _ = try SceneFile.load(
        text: """
          {"state": {"a": 0}, "layers": [{"id": "dot", "shape": "circle"}],
           "onTap": [{"layer": "dott", "set": {"a": 1}}]}
          """, settings: SceneSettings(scale: 1))
    } throws: { error in
      guard let e = error as? SceneFileError else { return false }
      return e.path == "onTap[0].layer" && e.message.contains("no layer has the id \"dott\"")
        && e.message.contains("dot")
    }
  }
  /// What a handler would refuse whatever the tap is an error when the scene loads, with no
  /// tap at all: an unknown name, a value of the wrong size, a state that does not exist, a
  /// read of time. Sizes that depend on values are left to the tap, and a good handler loads.
  @Test func aHandlersNamesAndSizesAreCheckedWithoutATap() throws {
    func load(_ set: String) throws {
      _ = try SceneFile.load(
        text: """
          {"state": {"n": 0, "p": {"x": 0, "y": 0}}, "layers": [{"id": "dot", "shape": "circle"}],
           "onTap": [{"layer": "dot", "set": {\(set)}}]}
          """, settings: SceneSettings(scale: 1))
    }
    let refused: [(String, String)] = [
      (#""n": "=tap.z""#, "unknown name 'tap.z'"),
      (#""n": "=nosuch + 1""#, "unknown name 'nosuch'"),
      (#""n": "=tap""#, "expected 1 component like its initial value, got 2 components"),
      (#""p": "=tap.x""#, "expected 2 components like its initial value, got 1 component"),
      (#""p": "=tap + [1, 2, 3]""#, "needs values of the same size, got 2 and 3 components"),
      (#""n": "=(max(tap, 1) < 2) ? 1 : 0""#, "must be a single number"),
      (#""m": 1"#, "no state value is named \"m\""),
      (#""n": "=time""#, "cannot read time"),
    ]
    for (set, message) in refused {
      #expect("\(set)") {
        try load(set)
      } throws: { error in
        guard let e = error as? SceneFileError else { return false }
        return e.path.hasPrefix("onTap[0].set.") && e.message.contains(message)
      }
    }
    // A long chain of comparisons is sized in one pass (sizing each operand again doubled the
    // work at every level: 100 terms would not load in a lifetime).
    let chain = Array(repeating: "n<1", count: 120).joined(separator: "&&")
    #expect(throws: Never.self) { try load(#""n": "=(\#(chain)) ? 1 : 0""#) }
    for set in [
      #""n": "=tap.x / 2 + n""#, #""p": "=tap - [1, 1]""#, #""p": "=n > 1 ? tap : [0, 0]""#,
      #""n": "=min(tap.y, 100)""#, #""p": "=mix(p, tap, 0.5)""#,
    ] {
      #expect(throws: Never.self, "\(set)") { try load(set) }
    }
  }
}
