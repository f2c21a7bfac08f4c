import Motion
import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// Layout, events and animations of scene files, checked through the scenes they build.
@Suite struct SceneLayoutTests {
  static func load(_ text: String, frameRate: Double = 50, hold: Double = 0) throws -> LoadedScene {
    try SceneFile.load(
      text: text, settings: SceneSettings(scale: 1, frameRate: frameRate, hold: hold))
  }

  /// Where the centre of layer `id` is on the screen at `time`, in points.
  static func center(of id: String, in scene: Scene, at time: Double = 0) throws -> Point {
    let chain = try #require(SceneAssembler.chain(to: id, in: scene.root))
    var transform = Transform.identity
    for node in chain.reversed() {
      transform = transform.concatenating(node.transform(scene.values(at: time)))
    }
    return transform.apply(.zero)
  }

  /// The bounds of the plain shape layer `id` draws, in its own space (points).
  static func shapeBounds(_ id: String, in scene: Scene) throws -> Rect {
    let node = try #require(SceneAssembler.chain(to: id, in: scene.root)?.last)
    guard case .shape(let path, _, _, _) = node.content, let bounds = path.bounds else {
      throw SceneFileError(path: id, "not a plain shape")
    }
    return bounds
  }

  /// The dump's entry for layer `id`, anywhere in the tree.
  static func entry(_ id: String, in entries: [LayoutEntry]) -> LayoutEntry? {
    for e in entries {
      if e.record.id == id { return e }
      if let found = entry(id, in: e.children) { return found }
    }
    return nil
  }

  @Test func stacksPaddingAndSpacersPlaceLikeSwiftUI() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100, "safeArea": {"top": 10, "bottom": 0}},
       "layers": [{"vstack": [
          {"id": "a", "shape": "rectangle", "frame": {"width": 40, "height": 20}, "padding": 5},
          {"id": "b", "shape": "rectangle", "frame": {"width": 60, "height": 10}},
          {"hstack": [{"id": "c", "shape": "circle", "frame": {"width": 10, "height": 10}},
                      {"spacer": true},
                      {"id": "d", "shape": "circle", "frame": {"width": 20, "height": 20}}],
           "frame": {"width": 200, "height": 20}}
        ], "alignment": "leading", "spacing": 4}]}
      """
    ).scene
    // The VStack (200 × 30 + 10 + 20 + 2·4 = 68) is centred in the safe area (y 10…100).
    let top = 10 + (90 - 68) / 2.0
    #expect(try Self.center(of: "a", in: scene) == Point(25, top + 15))
    #expect(try Self.center(of: "b", in: scene) == Point(30, top + 30 + 4 + 5))
    // The spacer pushes d to the trailing edge.
    #expect(try Self.center(of: "c", in: scene) == Point(5, top + 48 + 10))
    #expect(try Self.center(of: "d", in: scene) == Point(190, top + 48 + 10))
  }

  /// A negative padding takes the edges in (SwiftUI's `padding(_:)` takes any length): the
  /// layer is its content's size less the insets, the content keeps its size and overflows the
  /// edges, so a background after it is the smaller box; the size is never below 0; past −4096
  /// is refused with the key's path.
  /// `.overlay(Image(systemName: "star.fill"))`: a layer given as the overlay itself is its
  /// content, centred, as `{"content": …}` without an alignment is (it was refused, naming only
  /// `alignment` and `content`).
  @Test func anOverlayMayBeALayerItself() throws {
    func star(_ overlay: String) throws -> Rect {
      let scene = try SceneFile.load(
        text: """
          {"canvas": {"width": 120, "height": 120}, "layers": [{"shape": "circle",
           "frame": {"width": 80, "height": 80}, "overlay": \(overlay)}]}
          """, settings: SceneSettings(scale: 1)
      ).scene
      return try #require(Self.entry("star", in: scene.layout(at: 0))).frame
    }
    let plain = try star(#"{"id": "star", "symbol": "star.fill"}"#)
    #expect(plain == (try star(#"{"content": {"id": "star", "symbol": "star.fill"}}"#)))
    #expect(
      abs(plain.minX + plain.width / 2 - 60) <= 0.5
        && abs(plain.minY + plain.height / 2 - 60) <= 0.5,
      "\(plain)")
  }

  @Test func negativePaddingTakesTheEdgesIn() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100, "safeArea": {"top": 0, "bottom": 0}},
       "layers": [{"vstack": [
          {"id": "a", "shape": "rectangle", "frame": {"width": 40, "height": 20}, "padding": -5,
           "background": {"content": {"id": "ab", "shape": "rectangle"}}},
          {"id": "b", "shape": "rectangle", "frame": {"width": 60, "height": 10},
           "padding": {"top": -4, "horizontal": -40}}
        ], "spacing": 0}]}
      """
    ).scene
    // a is 30 × 10, b 0 (not −20) × 6: the VStack is 30 × 16, centred in 200 × 100.
    let layout = scene.layout(at: 0)
    let a = try #require(Self.entry("a", in: layout)).frame
    let background = try #require(Self.entry("ab", in: layout)).frame
    let b = try #require(Self.entry("b", in: layout)).frame
    #expect(a == Rect(minX: 85, minY: 42, maxX: 115, maxY: 52))
    #expect(background == a)
    #expect(b.width == 0 && b.height == 6 && b.minY == 52)
    #expect(throws: SceneFileError.self) {
      try Self.load(#"{"layers": [{"shape": "circle", "padding": {"top": -4097}}]}"#)
    }
  }

  /// `.padding(.horizontal)`: an edge given as `true` takes SwiftUI's default 16 pt; a false
  /// edge or another value is refused with its path.
  @Test func paddingEdgesTakeTheDefault() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100},
       "layers": [{"id": "a", "shape": "rectangle", "frame": {"width": 40, "height": 20},
                   "padding": {"horizontal": true, "top": 4}}]}
      """
    ).scene
    let a = try #require(Self.entry("a", in: scene.layout(at: 0))).frame
    #expect(a.width == 72 && a.height == 24, "\(a)")
    let error = #expect(throws: SceneFileError.self) {
      try Self.load(#"{"layers": [{"shape": "circle", "padding": {"vertical": false}}]}"#)
    }
    #expect(error?.path == "layers[0].padding.vertical", "\(String(describing: error))")
  }

  /// `.background(alignment:content:)` and `.overlay(alignment:content:)` offer their content
  /// the decorated view's size — padding included, as `.padding().background(…)` does — and
  /// place it by the alignment (Apple's documentation of `background(alignment:content:)`: the
  /// content is given the size of the view it modifies and aligned in it). A ZStack places each
  /// child by its alignment the same way.
  /// A negative spacing overlaps a stack's children, as `HStack(spacing: -12)` does: three
  /// 40-point circles make a stack 3 · 40 − 2 · 12 = 96 wide, centred, each 28 points after the
  /// one before; a spacing from state may be negative too; past −4096 is an error naming it.
  /// SwiftUI rounds every view's frame to the pixel grid, each edge to the nearest pixel (a
  /// half up: `CGRect.roundCoordinatesToNearestOrUp(toMultipleOf:)`), so equal shares of a
  /// width that is not a whole number of pixels per child leave no seam between the children:
  /// three flexible rectangles in 100 pt are 33.5, 33 and 33.5 pt wide at 2×, and a 10.3 pt
  /// height moves an edge to the nearest pixel.
  @Test(arguments: [1.0, 2, 3])
  func framesAreRoundedToThePixelGrid(scale: Double) throws {
    func bar(_ id: String) -> String {
      #"{"id": "\#(id)", "shape": "rectangle", "fill": "black", "frame": {"maxWidth": "infinity"}}"#
    }
    func slab(_ id: String) -> String {
      #"{"id": "\#(id)", "shape": "rectangle", "fill": "black", "frame": {"width": 50, "height": 10.3}}"#
    }
    let scene = try SceneFile.load(
      text: """
        {"canvas": {"width": 100, "height": 100, "background": "white"},
         "layers": [{"vstack": [
           {"id": "row", "hstack": [\(bar("a")), \(bar("b")), \(bar("c"))], "spacing": 0,
            "frame": {"height": 20}},
           \(slab("d")), \(slab("e"))], "spacing": 0}]}
        """, settings: SceneSettings(scale: scale, frameRate: 50, hold: 0)
    ).scene
    let layout = scene.layout(at: 0)
    func frame(_ id: String) throws -> Rect { try #require(Self.entry(id, in: layout)).frame }
    for id in ["a", "b", "c", "d", "e", "row"] {
      let f = try frame(id)
      for edge in [f.minX, f.maxX, f.minY, f.maxY] {
        #expect(abs(edge * scale - (edge * scale).rounded()) < 1e-9, "\(id) at \(scale)×: \(f)")
      }
    }
    // Neighbours share their edges.
    for (first, second) in [("a", "b"), ("b", "c")] {
      #expect(try abs(frame(first).maxX - frame(second).minX) < 1e-9)
    }
    #expect(try abs(frame("d").maxY - frame("e").minY) < 1e-9)
    if scale == 2 {
      let widths = try [frame("a").width, frame("b").width, frame("c").width]
      #expect(zip(widths, [33.5, 33, 33.5]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(widths)")
    }
    // No seam: the row is black from edge to edge, and so are the slabs down their middle.
    var compositor = Compositor()
    let pixmap = try #require(scene.render(frame: 0, compositor: &compositor))
    let row = try frame("row")
    let y = Int(((row.minY + row.maxY) / 2 * scale).rounded(.down))
    for x in 0..<pixmap.width {
      #expect(
        pixmap[x, y] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255), "(\(x), \(y)) at \(scale)×")
    }
    let slabs = (try frame("d").minY, try frame("e").maxY)
    let middle = Int(50 * scale)
    for y in Int((slabs.0 * scale).rounded())..<Int((slabs.1 * scale).rounded()) {
      #expect(
        pixmap[middle, y] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255),
        "(\(middle), \(y)) at \(scale)×")
    }
  }

  /// Rounding to the grid never makes a box whose content lays itself out smaller than it was
  /// measured (SwiftUI rounds after layout): a text inside a padding of 0.6 pt at 1× (0.3 pt at
  /// 2×) keeps its one line instead of being cut to "Hello wo…".
  @Test(arguments: [(0.6, 1.0), (0.3, 2), (0.3, 3), (1.7, 3)])
  func roundingNeverCutsAText(padding: Double, scale: Double) throws {
    let scene = try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 60},
         "layers": [{"id": "t", "text": "Hello world", "padding": \(padding)},
                    {"hstack": [{"id": "u", "text": "Hello world", "padding": \(padding)},
                                {"shape": "rectangle", "frame": {"width": 10.3}}], "spacing": 0.4}]}
        """, settings: SceneSettings(scale: scale, frameRate: 50, hold: 0)
    ).scene
    let layout = scene.layout(at: 0)
    for id in ["t", "u"] {
      let lines = try #require(Self.entry(id, in: layout)).lines.map(\.text)
      #expect(lines == ["Hello world"], "\(id) at \(scale)×: \(lines)")
    }
  }

  @Test func negativeSpacingOverlapsTheChildren() throws {
    func circle(_ id: String) -> String {
      #"{"id": "\#(id)", "shape": "circle", "frame": {"width": 40, "height": 40}}"#
    }
    let scene = try Self.load(
      """
      {"canvas": {"width": 300, "height": 100}, "state": {"tight": true},
       "layers": [{"id": "row", "hstack": [\(circle("a")), \(circle("b")), \(circle("c"))],
                   "spacing": "=tight ? -12 : 8"}]}
      """
    ).scene
    for (id, x) in [("a", 122.0), ("b", 150), ("c", 178)] {
      #expect(try Self.center(of: id, in: scene) == Point(x, 50), "\(id)")
    }
    #expect(Self.entry("row", in: scene.layout(at: 0))?.frame.width == 96)
    #expect {
      _ = try Self.load(
        #"{"layers": [{"hstack": [{"shape": "circle"}], "spacing": -5000}]}"#)
    } throws: { error in
      (error as? SceneFileError)?.path == "layers[0].spacing"
    }
  }

  @Test func backgroundsAndOverlaysTakeTheModifiedViewsSize() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 200},
       "layers": [{"id": "toast", "shape": "rectangle", "frame": {"width": 60, "height": 20},
          "padding": {"horizontal": 10, "vertical": 5},
          "background": {"content": {"id": "bg", "shape": "capsule"}},
          "overlay": {"alignment": "topTrailing",
                      "content": {"id": "badge", "shape": "circle", "frame": {"width": 8, "height": 8}}}},
         {"zstack": [{"shape": "rectangle", "frame": {"width": 50, "height": 40}},
                     {"id": "corner", "shape": "circle", "frame": {"width": 10, "height": 10}}],
          "alignment": "bottomLeading", "frame": {"width": 50, "height": 40},
          "position": {"x": 40, "y": 160}},
         {"zstack": [{"id": "centred", "shape": "circle", "frame": {"width": 10, "height": 10}}],
          "alignment": "bottomLeading", "frame": {"width": 50, "height": 40},
          "position": {"x": 140, "y": 160}}]}
      """
    ).scene
    // The toast is 80 × 30, centred at (100, 100); the capsule fills it.
    #expect(try Self.center(of: "toast", in: scene) == Point(100, 100))
    #expect(try Self.center(of: "bg", in: scene) == Point(100, 100))
    let bg = try #require(SceneAssembler.chain(to: "bg", in: scene.root)?.last)
    guard case .shape(let path, _, _, _) = bg.content, let box = path.bounds else {
      Issue.record("the background is not a plain shape: \(bg.content)")
      return
    }
    #expect(box.width == 80 && box.height == 30, "\(box)")
    // The badge's centre: 4 pt in from the toast's top trailing corner (140, 85).
    #expect(try Self.center(of: "badge", in: scene) == Point(136, 89))
    // The ZStack is as large as its 50 × 40 rectangle, x 15…65, y 140…180: the circle sits at
    // its bottom leading corner.
    #expect(try Self.center(of: "corner", in: scene) == Point(20, 175))
    // A ZStack is only as large as its children: alone in it, the circle is the whole ZStack,
    // which its frame centres (a ZStack's alignment places children among themselves; the
    // frame's alignment places the stack).
    #expect(try Self.center(of: "centred", in: scene) == Point(140, 160))
  }

  /// Flexible frames, each case against SwiftUI's rule (docs/SEMANTICS.md, "Geometry and layout"):
  /// the content is proposed the offer clamped to [min, max]; the frame is the content's length
  /// lifted to max(min, min(c, offer)) and grown to min(max, max(c, offer)); the content sits in
  /// it by the frame's alignment.
  @Test func flexibleFramesSizeAndAlignLikeSwiftUI() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 300, "height": 300},
       "layers": [
         {"id": "wide", "shape": "rectangle", "frame": {"maxWidth": "infinity", "maxHeight": 20},
          "position": {"x": 150, "y": 20}},
         {"id": "capped", "shape": "rectangle", "frame": {"maxWidth": 100, "minHeight": 10, "maxHeight": 10},
          "position": {"x": 150, "y": 60}},
         {"id": "box", "zstack": [{"id": "dot", "shape": "circle", "frame": {"width": 10, "height": 10}}],
          "frame": {"minWidth": 80, "maxWidth": 80, "minHeight": 40, "maxHeight": 40, "alignment": "bottomTrailing"},
          "position": {"x": 150, "y": 150}},
         {"id": "fixed", "zstack": [{"id": "mark", "shape": "circle", "frame": {"width": 10, "height": 10}}],
          "frame": {"width": 60, "height": 30, "alignment": "topLeading"}, "position": {"x": 150, "y": 250}}
       ]}
      """
    ).scene
    func frame(_ id: String) throws -> Rect { try Self.shapeBounds(id, in: scene) }
    // A shape takes what it is offered: the whole 300 wide, 20 high (the offer clamped).
    #expect(try frame("wide").width == 300)
    #expect(try frame("wide").height == 20)
    #expect(try frame("capped").width == 100)
    #expect(try frame("capped").height == 10)
    // The ZStack is as large as its 10-point dot; the frame lifts it to 80 × 40 and puts the dot
    // at its bottom trailing corner: frame x 110…190, y 130…170, dot centre (185, 165).
    #expect(try Self.center(of: "dot", in: scene) == Point(185, 165))
    // A fixed frame with an alignment: 60 × 30 around (150, 250), the mark at its top leading.
    #expect(try Self.center(of: "mark", in: scene) == Point(125, 240))
  }

  /// `idealWidth`/`idealHeight` stand in for a missing proposal (Apple's
  /// `frame(minWidth:idealWidth:maxWidth:…)`: "any unspecified dimensions in the proposal replaced
  /// by the corresponding ideal dimensions"): under `fixedSize` a shape takes its frame's ideal
  /// size, not 10 × 10; with a proposal the ideal is ignored; text is offered the ideal width and
  /// wraps to it.
  @Test func idealSizesStandInForAMissingProposal() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 300, "height": 300},
       "layers": [{"vstack": [
         {"id": "fixed", "shape": "rectangle", "frame": {"idealWidth": 120, "maxWidth": "infinity", "idealHeight": 30},
          "fixedSize": true},
         {"id": "offered", "shape": "rectangle", "frame": {"idealWidth": 120, "maxWidth": "infinity", "height": 20}},
         {"id": "lifted", "shape": "rectangle", "frame": {"minWidth": 150, "idealWidth": 150, "height": 20},
          "fixedSize": {"horizontal": true}},
         {"id": "text", "text": "one two three four five six seven", "frame": {"idealWidth": 90},
          "fixedSize": {"horizontal": true}}
       ], "spacing": 0}]}
      """
    ).scene
    let layout = scene.layout(at: 0)
    func frame(_ id: String) throws -> Rect { try #require(Self.entry(id, in: layout)).frame }
    #expect(try frame("fixed").width == 120)
    #expect(try frame("fixed").height == 30)
    // Drawn at that size too, not at a shape's ideal 10 × 10.
    #expect(try Self.shapeBounds("fixed", in: scene).width == 120)
    #expect(try Self.shapeBounds("fixed", in: scene).height == 30)
    #expect(try frame("offered").width == 300)
    #expect(try frame("lifted").width == 150)
    let text = try #require(Self.entry("text", in: layout))
    #expect(text.lines.count > 1)
    #expect(text.lines.allSatisfy { $0.width <= 90 })
  }

  /// `ignoresSafeArea` per edge: the layer's area reaches the screen's edge on the edges named
  /// (Apple's `ignoresSafeArea(_:edges:)`), the safe area's on the others.
  @Test func ignoresSafeAreaPerEdge() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 100, "height": 200, "safeArea": {"top": 40, "bottom": 30}},
       "layers": [
         {"id": "safe", "shape": "rectangle"},
         {"id": "top", "shape": "rectangle", "ignoresSafeArea": "top"},
         {"id": "bottom", "shape": "rectangle", "ignoresSafeArea": ["bottom", "horizontal"]},
         {"id": "all", "shape": "rectangle", "ignoresSafeArea": true},
         {"id": "none", "shape": "rectangle", "ignoresSafeArea": false}
       ]}
      """
    ).scene
    let layout = scene.layout(at: 0)
    func frame(_ id: String) throws -> Rect { try #require(Self.entry(id, in: layout)).frame }
    #expect(try frame("safe") == Rect(x: 0, y: 40, width: 100, height: 130))
    #expect(try frame("top") == Rect(x: 0, y: 0, width: 100, height: 170))
    #expect(try frame("bottom") == Rect(x: 0, y: 40, width: 100, height: 160))
    #expect(try frame("all") == Rect(x: 0, y: 0, width: 100, height: 200))
    #expect(try frame("none") == (try frame("safe")))
  }

  /// In a stack, a frame with a maximum is flexible and shares the room the fixed children
  /// leave, the least flexible child offered its share first and the rest going on to the others
  /// (SwiftUI's HStack and VStack, as objc.io's *Thinking in SwiftUI* describes them).
  @Test func flexibleFramesShareAStacksRoom() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 200, "height": 100},
       "layers": [{"hstack": [
         {"id": "a", "shape": "rectangle", "frame": {"width": 40, "height": 10}},
         {"id": "b", "shape": "rectangle", "frame": {"maxWidth": "infinity", "height": 10}},
         {"id": "c", "shape": "rectangle", "frame": {"minWidth": 30, "maxWidth": 50, "height": 10}}
       ], "spacing": 0}]}
      """
    ).scene
    // 200 − 40 = 160 for b and c. SwiftUI offers the less flexible first (c: 30…50, b: 0…200):
    // c is offered 80 and takes 50; b is offered the 110 left and takes it.
    #expect(try Self.center(of: "a", in: scene).x == 20)
    #expect(try Self.center(of: "b", in: scene).x == 40 + 55)
    #expect(try Self.center(of: "c", in: scene).x == 150 + 25)
  }

  /// Stacks nested as deep as scene files allow, each with flexible children, lay out in time
  /// linear in the layers times the depth: measuring a child more than once a level would make
  /// this depth take 3^30 measurements.
  @Test func deeplyNestedFlexibleStacksLayOutQuickly() throws {
    var layer = #"{"shape": "rectangle", "frame": {"maxWidth": "infinity", "maxHeight": 40}}"#
    for depth in 0..<30 {
      let axis = depth % 2 == 0 ? "hstack" : "vstack"
      layer = #"{"\#(axis)": [{"shape": "circle"}, \#(layer), {"spacer": true}], "spacing": 1}"#
    }
    let scene = try Self.load(#"{"canvas": {"width": 400, "height": 400}, "layers": [\#(layer)]}"#)
      .scene
    #expect(scene.frameCount >= 1)
  }

  /// Text wraps to the width it is offered and is as tall as its lines, as many as fit the height
  /// it is offered; `fixedSize` keeps it on one line; in an HStack, text is offered its share.
  @Test func textWrapsToWhatItIsOffered() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 900},
       "layers": [{"vstack": [
         {"id": "wrapped", "text": "one two three four five six seven", "frame": {"width": 80}},
         {"id": "fixed", "text": "one two three four five six seven", "fixedSize": true,
          "frame": {"maxWidth": 80}},
         {"id": "shrunk", "text": "one two three four", "lineLimit": 1,
          "minimumScaleFactor": 0.4, "frame": {"width": 100}},
         {"id": "cut", "text": "one two three four", "lineLimit": 1, "frame": {"width": 100}},
         {"id": "short", "text": "one two three four five six seven eight", "frame": {"width": 100, "height": 45}},
         {"id": "tall", "text": "one two three four five six seven eight", "frame": {"width": 100, "height": 8}},
         {"id": "framedFixed", "text": "one two three four five six seven", "fixedSize": true,
          "frame": {"width": 80}},
         {"hstack": [{"shape": "circle", "frame": {"width": 40, "height": 40}},
                     {"id": "beside", "text": "one two three four five six seven eight nine"}],
          "spacing": 0, "frame": {"width": 200}}
       ]}]}
      """#
    ).scene
    let layout = scene.layout(at: 0)
    let wrapped = try #require(Self.entry("wrapped", in: layout))
    #expect(wrapped.lines.count > 2)
    #expect(wrapped.lines.allSatisfy { $0.width <= 80 })
    // Lines one line-height apart, the first baseline an ascender below the top.
    let steps = zip(wrapped.lines.dropFirst(), wrapped.lines).map { $0.baseline - $1.baseline }
    #expect(steps.allSatisfy { abs($0 - steps[0]) < 1e-9 })
    let fixed = try #require(Self.entry("fixed", in: layout))
    #expect(fixed.lines.count == 1)
    // minimumScaleFactor shrinks a one-line label until it fits, instead of cutting it.
    let shrunk = try #require(Self.entry("shrunk", in: layout))
    #expect(shrunk.lines.count == 1 && !shrunk.lines[0].text.hasSuffix("…"))
    #expect(shrunk.lines[0].width <= 100)
    let cut = try #require(Self.entry("cut", in: layout))
    #expect(cut.lines.count == 1 && cut.lines[0].text.hasSuffix("…"))
    // A text shows the lines that fit the height it is offered, the last ending in "…" (two
    // lines of body text in 45 points), and never fewer than one.
    let short = try #require(Self.entry("short", in: layout))
    #expect(short.lines.count == 2 && short.lines[1].text.hasSuffix("…"), "\(short.lines)")
    #expect(short.lines.allSatisfy { $0.baseline < short.frame.maxY })
    // `fixedSize` applies to the framed text (`.frame(width: 80).fixedSize()`): the frame
    // proposes its width, the text wraps to it and the frame is as tall as the lines drawn.
    let framedFixed = try #require(Self.entry("framedFixed", in: layout))
    #expect(framedFixed.lines.count > 2 && framedFixed.lines.allSatisfy { $0.width <= 80 })
    #expect(framedFixed.frame.width == 80)
    #expect(framedFixed.lines.allSatisfy { $0.baseline < framedFixed.frame.maxY })
    let tall = try #require(Self.entry("tall", in: layout))
    #expect(tall.lines.count == 1 && tall.lines[0].text.hasSuffix("…"))
    let beside = try #require(Self.entry("beside", in: layout))
    #expect(beside.lines.count >= 2)
    #expect(beside.lines.allSatisfy { $0.width <= 160 })
  }

  /// Each line is as tall as its own runs and fonts make it (CoreText's lines): a title run on
  /// the first line does not make the body's lines tall, a line of Chinese from the fallback
  /// font is taller than the Latin ones, the layer is as tall as the lines together, and a
  /// height offered fits as many lines as their own heights let it.
  @Test func eachLineIsAsTallAsItsOwnFonts() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 900},
       "layers": [{"vstack": [
         {"id": "runs", "text": [{"text": "Title\n", "font": "largeTitle"}, "one\ntwo"]},
         {"id": "mixed", "text": "Cats\n猫と犬\nDogs", "font": {"size": 17}},
         {"id": "latin", "text": "Cats\nmice\nDogs", "font": {"size": 17}},
         {"id": "fits", "text": "Cats\n猫と犬\nDogs", "font": {"size": 17}, "frame": {"height": 46}}
       ]}]}
      """#
    ).scene
    let layout = scene.layout(at: 0)
    let runs = try #require(Self.entry("runs", in: layout))
    let step = runs.lines[2].baseline - runs.lines[1].baseline
    #expect(abs(step - 17 * 1.21) < 0.05, "\(runs.lines)")
    // From the title's baseline: its descender and the body line's ascender, not a title line.
    let fromTitle = runs.lines[1].baseline - runs.lines[0].baseline
    #expect(fromTitle > step + 3 && fromTitle < 34 * 1.21 - 10, "\(fromTitle)")
    let sum: Double = (34 + 2 * 17) * 1.21 + 1
    #expect(runs.frame.height < sum)
    let mixed = try #require(Self.entry("mixed", in: layout))
    let latin = try #require(Self.entry("latin", in: layout))
    let mixedSteps = zip(mixed.lines.dropFirst(), mixed.lines).map { $0.baseline - $1.baseline }
    let latinSteps = zip(latin.lines.dropFirst(), latin.lines).map { $0.baseline - $1.baseline }
    #expect(abs(latinSteps[0] - latinSteps[1]) < 1e-9)
    // Noto Sans CJK's ascender (1.16 em) and descender (0.288 em) against Inter's (0.969, 0.241).
    #expect(abs(mixedSteps[0] - latinSteps[0] - 17 * (1.16 - 2728.0 / 2816)) < 0.01)
    #expect(abs(mixedSteps[1] - latinSteps[1] - 17 * (0.288 - 680.0 / 2816)) < 0.01)
    #expect(mixed.frame.height >= latin.frame.height + 4)
    // 46 points hold the Latin line and the taller Chinese one (20.57 + 24.62), not the third.
    let fits = try #require(Self.entry("fits", in: layout))
    #expect(fits.lines.count == 2 && fits.lines[1].text.hasSuffix("…"), "\(fits.lines)")
    #expect(fits.lines.allSatisfy { $0.baseline < fits.frame.maxY })
  }

  /// `minimumScaleFactor` shrinks a text to fit the height it is offered too, not only its
  /// width: three lines of body text in 50 points shrink to about 13.8 points and all show,
  /// uncut (they were cut to two at the smallest size; found by a walkthrough).
  @Test func minimumScaleFactorFitsTheHeight() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 300},
       "layers": [{"id": "m", "text": "Ag\nAg\nAg", "font": "body", "minimumScaleFactor": 0.5,
                   "frame": {"width": 60, "height": 50}}]}
      """#
    ).scene
    let m = try #require(Self.entry("m", in: scene.layout(at: 0)))
    #expect(m.lines.map(\.text) == ["Ag", "Ag", "Ag"], "\(m.lines)")
    let step = m.lines[1].baseline - m.lines[0].baseline
    // Lines of 50/3 points at most, and not much less: the largest size that fits.
    #expect(step <= 50.0 / 3 + 1e-6 && step > 50.0 / 3 - 0.5, "\(step)")
  }

  /// SwiftUI's stack algorithm (`StackLayout`, as OpenSwiftUI reconstructs it): children are
  /// offered an equal share of what is left, least flexible first, and a text is flexible
  /// across an HStack — so a long text beside a shape wraps to half the row and the shape takes
  /// the rest, and a short text beside a long one keeps its line while the long one wraps to
  /// what it leaves. The children are placed at the sizes the stack was measured with: they lie
  /// inside the stack, side by side, and add up to its width.
  @Test func stacksOfferTheLeastFlexibleChildItsShareFirst() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 400},
       "layers": [{"vstack": [
         {"id": "row", "hstack": [{"id": "box", "shape": "rectangle", "fill": "red"},
                                  {"id": "long", "text": "A long label that needs more than all the room"}],
          "frame": {"width": 300, "height": 60}},
         {"id": "pair", "hstack": [{"id": "a", "text": "A long label that wraps maybe"},
                                   {"id": "b", "text": "Short"}]},
         {"id": "gap", "hstack": [{"id": "left", "shape": "rectangle", "frame": {"width": 100, "height": 10}},
                                  {"id": "space", "spacer": true},
                                  {"id": "right", "shape": "rectangle", "frame": {"width": 100, "height": 10}}],
          "spacing": 0, "fixedSize": true},
         {"id": "apart", "hstack": [{"shape": "rectangle", "frame": {"width": 100, "height": 10}},
                                    {"id": "least", "spacer": {"minLength": 30}}],
          "spacing": 0, "fixedSize": true},
         {"id": "shared", "hstack": [{"id": "half", "spacer": {"minLength": 30}},
                                     {"id": "rest", "shape": "rectangle"}],
          "spacing": 0, "frame": {"width": 100, "height": 10}},
         {"id": "card", "vstack": [
            {"id": "title", "text": "A card title that is long enough to wrap onto several lines"},
            {"id": "uploadRow", "hstack": [{"id": "label", "text": "Upload over cellular data"},
                                     {"spacer": true}, {"shape": "circle", "frame": {"width": 20, "height": 20}}]}],
          "frame": {"width": 160, "height": 70}}
       ]}]}
      """#
    ).scene
    let layout = scene.layout(at: 0)
    func frame(_ id: String) throws -> Rect { try #require(Self.entry(id, in: layout)).frame }
    // The text, less flexible than the rectangle, is offered (300 − 8) / 2 = 146 and wraps.
    let long = try frame("long")
    #expect(long.width <= 146 && long.width > 100, "\(long)")
    #expect(try frame("box").width == 300 - 8 - long.width)
    // "Short" (42.5 wide) takes its share's part first; the long text is offered the rest.
    let (a, b, pair) = (try frame("a"), try frame("b"), try frame("pair"))
    #expect(a.width > 96 && a.width <= 300 - 8 - b.width, "\(a) \(b)")
    #expect(a.minX == pair.minX && b.maxX == pair.maxX && b.minX == a.maxX + 8)
    #expect(a.minY >= pair.minY && a.maxY <= pair.maxY)
    // A spacer without an offer (fixedSize) is its minimum length, 8 points by default…
    #expect(try frame("space").width == 8 && frame("gap").width == 208)
    // …or the minLength given; offered room, it takes its share like any flexible child.
    #expect(try frame("least").width == 30 && frame("apart").width == 130)
    #expect(try frame("half").width == 50 && frame("rest").width == 50)
    // Down a VStack a text is flexible too (one line to all of them): the two texts share the
    // card's 70 points and stay inside it, the title cut to the lines that fit (before, the two
    // were 124.5 points tall, spilling out of the card); an HStack's
    // spacer is nothing tall, so the row is no more flexible in height than its text.
    let (card, title, row) = (try frame("card"), try frame("title"), try frame("uploadRow"))
    #expect(title.minY >= card.minY && row.maxY <= card.maxY, "\(title) \(row) in \(card)")
    let titleLines = try #require(Self.entry("title", in: layout)).lines
    #expect(titleLines.last?.text.hasSuffix("…") == true, "\(titleLines)")
    #expect(title.height + 8 + row.height <= card.height)
  }

  /// HStack(alignment: .firstTextBaseline / .lastTextBaseline): the children's first (last)
  /// baselines on one line; a view without text sits with its bottom edge on it (SwiftUI's
  /// default baseline for such views).
  @Test func baselineAlignmentLinesUpTexts() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 300},
       "layers": [{"vstack": [
         {"hstack": [{"id": "big", "text": "42", "font": "largeTitle"},
                     {"id": "small", "text": "km", "font": "caption"},
                     {"id": "box", "shape": "rectangle", "frame": {"width": 10, "height": 10}}],
          "alignment": "firstTextBaseline"},
         {"hstack": [{"id": "two", "text": "one two three four", "frame": {"width": 60}},
                     {"id": "one", "text": "end", "font": "title"}],
          "alignment": "lastTextBaseline"}
       ]}]}
      """#
    ).scene
    let layout = scene.layout(at: 0)
    let big = try #require(Self.entry("big", in: layout)?.lines.first?.baseline)
    let small = try #require(Self.entry("small", in: layout)?.lines.first?.baseline)
    let box = try #require(Self.entry("box", in: layout)?.frame)
    // On the pixel grid of 2 pixels a point: within half a pixel.
    #expect(abs(big - small) <= 0.25, "\(big) \(small)")
    #expect(abs(box.maxY - big) <= 0.25, "\(box.maxY) \(big)")
    let two = try #require(Self.entry("two", in: layout)?.lines)
    let one = try #require(Self.entry("one", in: layout)?.lines.last?.baseline)
    #expect(two.count > 1)
    #expect(abs((two.last?.baseline ?? 0) - one) <= 0.25)
  }

  /// A stack's baseline is the top-most (last: bottom-most) of its texts' baselines; children
  /// without text do not count (it was the first or last child's, so a bullet before a title
  /// or an underline below a label moved the line; found by a hostile walkthrough, 2026-12-05).
  @Test func aStacksBaselineIsItsTextsNotItsFirstChilds() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 390, "height": 400},
       "layers": [{"vstack": [
         {"hstack": [
           {"hstack": [{"shape": "circle", "frame": {"width": 8, "height": 8}},
                       {"id": "title", "text": "Title", "font": "title"}]},
           {"id": "detail", "text": "detail", "font": "caption"}],
          "alignment": "firstTextBaseline"},
         {"hstack": [
           {"vstack": [{"shape": "rectangle", "frame": {"width": 40, "height": 30}},
                       {"id": "inner", "text": "Inner"}]},
           {"id": "beside", "text": "beside", "font": "caption"}],
          "alignment": "firstTextBaseline"},
         {"hstack": [
           {"vstack": [{"id": "label", "text": "Label"},
                       {"shape": "rectangle", "frame": {"width": 40, "height": 2}}]},
           {"id": "neighbour", "text": "neighbour", "font": "caption"}],
          "alignment": "lastTextBaseline"},
         {"hstack": [
           {"zstack": [{"shape": "rectangle", "frame": {"width": 40, "height": 40}},
                       {"id": "centred", "text": "Z"}]},
           {"id": "next", "text": "next", "font": "caption"}],
          "alignment": "firstTextBaseline"}
       ], "spacing": 20}]}
      """#
    ).scene
    let layout = scene.layout(at: 0)
    func baseline(_ id: String, last: Bool = false) throws -> Double {
      let lines = try #require(Self.entry(id, in: layout)?.lines)
      return try #require(last ? lines.last?.baseline : lines.first?.baseline)
    }
    // On the pixel grid of 1 pixel a point, each side rounding its placement: within a pixel.
    for (a, b) in [
      ("title", "detail"), ("inner", "beside"), ("label", "neighbour"), ("centred", "next"),
    ] {
      #expect(abs(try baseline(a) - baseline(b)) <= 1, "\(a) \(b)")
    }
  }

  /// Stacks aligned by text baselines nested 14 deep lay out within the measuring bound (each
  /// level asked its children's baselines twice, so the work doubled a level and this was
  /// refused; found by a review, 2026-12-05).
  @Test func nestedBaselineStacksStayWithinTheBound() throws {
    var node = #"{"text": "x"}"#
    for i in 0..<14 {
      node = #"{"hstack": [\#(node), {"text": "t\#(i)"}], "alignment": "firstTextBaseline"}"#
    }
    let scene = try Self.load(
      #"{"canvas": {"width": 400, "height": 200}, "layers": ["# + node + "]}")
    #expect(!scene.scene.layout(at: 0).isEmpty)
  }

  /// A spacer that no HStack or VStack holds grows on both axes (Apple's `Spacer`: "or on both
  /// axes if not contained in a stack"): in a ZStack it makes the ZStack fill its offer, on the
  /// screen it fills it; in a stack it stays nothing across (it was 0 × 0 everywhere but along a
  /// stack; found by a hostile walkthrough, 2026-12-05).
  @Test func aSpacerOutsideAStackGrowsBothWays() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 200},
       "layers": [
         {"id": "z", "zstack": [{"spacer": true}, {"text": "in z"}], "frame": {"width": 120, "height": 80},
          "position": {"x": 100, "y": 100}},
         {"id": "free", "zstack": [{"id": "s", "spacer": true}, {"text": "x"}], "padding": 10},
         {"id": "row", "vstack": [{"text": "a"}, {"spacer": true, "frame": {"height": 20}}, {"text": "b"}],
          "position": {"x": 150, "y": 100}}
       ]}
      """#
    ).scene
    let layout = scene.layout(at: 0)
    let free = try #require(Self.entry("free", in: layout)?.frame)
    #expect(free.width == 300 && free.height == 200, "\(free)")
    let s = try #require(Self.entry("s", in: layout)?.frame)
    #expect(s.width == 280 && s.height == 180, "\(s)")
    let row = try #require(Self.entry("row", in: layout)?.frame)
    #expect(row.width < 20, "a VStack's spacer is nothing wide: \(row)")
  }

  /// `.aspectRatio(_:contentMode:)`: the content is offered the largest size of the ratio inside
  /// the offer (fit) or the smallest around it (fill), and a shape takes it.
  @Test func aspectRatioShapesTheOffer() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 300},
       "layers": [
         {"id": "fit", "shape": "rectangle", "aspectRatio": {"ratio": 2, "contentMode": "fit"},
          "frame": {"width": 100, "height": 100}, "position": {"x": 60, "y": 60}},
         {"id": "fill", "shape": "rectangle", "aspectRatio": {"ratio": 2, "contentMode": "fill"},
          "frame": {"width": 100, "height": 100}, "position": {"x": 200, "y": 60}},
         {"id": "wide", "shape": "capsule", "aspectRatio": {"ratio": 3},
          "frame": {"maxWidth": "infinity", "maxHeight": 60}, "position": {"x": 150, "y": 200}}
       ]}
      """#
    ).scene
    func box(_ id: String) throws -> Rect { try Self.shapeBounds(id, in: scene) }
    #expect(try box("fit").width == 100 && box("fit").height == 50)
    #expect(try box("fill").width == 200 && box("fill").height == 100)
    // Offered 300 × 60 by its frame: 3:1 fits as 180 × 60.
    #expect(try box("wide").width == 180 && box("wide").height == 60)
  }

  /// `.layoutPriority`: a stack offers the higher priority its room first — a flexible child
  /// takes all the others leave, a text in an overflowing HStack its whole line (Apple's
  /// `View.layoutPriority(_:)`).
  @Test func layoutPriorityIsOfferedRoomFirst() throws {
    let scene = try Self.load(
      #"""
      {"canvas": {"width": 300, "height": 300},
       "layers": [{"vstack": [
         {"hstack": [{"id": "low", "shape": "rectangle", "frame": {"height": 10}},
                     {"id": "high", "shape": "rectangle", "frame": {"maxWidth": 250, "height": 10},
                      "layoutPriority": 1}],
          "spacing": 0, "frame": {"width": 300}},
         {"hstack": [{"id": "first", "text": "a long label that needs its room"},
                     {"id": "second", "text": "another label beside it", "layoutPriority": 1}],
          "spacing": 0, "frame": {"width": 300}}
       ]}]}
      """#
    ).scene
    #expect(try Self.shapeBounds("high", in: scene).width == 250)
    #expect(try Self.shapeBounds("low", in: scene).width == 50)
    let layout = scene.layout(at: 0)
    let second = try #require(Self.entry("second", in: layout))
    let first = try #require(Self.entry("first", in: layout))
    #expect(second.lines.count == 1)
    #expect(first.lines.count > 1)
  }

  @Test func positionIsMeasuredFromTheOfferedAreaAndZIndexReorders() throws {
    let loaded = try Self.load(
      """
      {"canvas": {"width": 100, "height": 100},
       "layers": [
         {"id": "red", "shape": "rectangle", "frame": {"width": 40, "height": 40}, "fill": "#FF0000",
          "position": {"x": 30, "y": 30}, "zIndex": 1},
         {"id": "blue", "shape": "rectangle", "frame": {"width": 40, "height": 40}, "fill": "#0000FF",
          "position": {"x": 45, "y": 45}}
       ]}
      """)
    let scene = loaded.scene
    #expect(try Self.center(of: "red", in: scene) == Point(30, 30))
    var compositor = Compositor()
    let frame = try #require(scene.render(frame: 0, compositor: &compositor))
    // Red is drawn last despite coming first.
    #expect(frame[40, 40] == PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    #expect(frame[60, 60] == PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255))
  }

  @Test func timedEventsFollowTheirCurvesDelaysAndColours() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 100, "height": 100},
       "state": {"on": false},
       "layers": [{"id": "dot", "shape": "circle", "frame": {"width": 10, "height": 10},
                   "offset": {"x": "=on ? 40 : 0", "y": 0},
                   "fill": "=on ? #FFFFFF : #000000"}],
       "events": [{"at": 0.5, "set": {"on": true},
                   "animation": {"type": "easeInOut", "duration": 1, "delay": 0.25}}]}
      """
    ).scene
    #expect(
      scene.traceColumns.map(\.header) == [
        "dot.fill.r", "dot.fill.g", "dot.fill.b", "dot.fill.a", "dot.offset.x",
      ])
    #expect(scene.settleTime == 1.75)
    let curve = TimingCurve.easeInOut(duration: 1)
    for t in stride(from: 0.0, through: 2, by: 0.05) {
      let progress = curve.unitProgress(at: t - 0.75)
      let values = scene.values(at: t)
      #expect(abs((values["dot.offset"]?[0] ?? -1) - 40 * progress) < 1e-9)
      // Black to white in linear sRGB (SwiftUI's `Color.Resolved`), encoded again.
      #expect(abs((values["dot.fill"]?[1] ?? -1) - LinearSRGB.encode(progress)) < 1e-9)
    }
  }

  @Test func aRingCoversItsTrimmedArea() throws {
    // A black ring of diameter 60 and line width 10 on white, trimmed to 3/4, at 1 px per pt.
    let scene = try Self.load(
      """
      {"canvas": {"width": 100, "height": 100},
       "layers": [{"shape": "ring", "lineWidth": 10, "trim": [0, 0.75], "lineCap": "butt",
                   "frame": {"width": 60, "height": 60}}]}
      """
    ).scene
    var compositor = Compositor()
    let frame = try #require(scene.render(frame: 0, compositor: &compositor))
    var covered = 0.0
    for y in 0..<frame.height {
      for x in 0..<frame.width { covered += Double(255 - frame[x, y].r) / 255 }
    }
    let expected = 0.75 * Double.pi * (35.0 * 35 - 25 * 25)
    #expect(abs(covered - expected) / expected < 0.002)
  }

  @Test func definitionsAreUsedAndOverridden() throws {
    let scene = try Self.load(
      """
      {"canvas": {"width": 100, "height": 100},
       "definitions": {"dot": {"shape": "circle", "frame": {"width": 10, "height": 10}, "opacity": 0.5}},
       "layers": [{"id": "a", "use": "dot"}, {"id": "b", "use": "dot", "opacity": 1,
                   "offset": {"x": 20, "y": 0}}]}
      """
    ).scene
    guard case .group(let nodes) = scene.root.content else {
      Issue.record("no group")
      return
    }
    #expect(nodes.map(\.opacity) == [.constant(0.5), .constant(1)])
    #expect(try Self.center(of: "b", in: scene) == Point(70, 50))
  }

  @Test func everySpringFormResolves() throws {
    func settle(_ animation: String) throws -> Double {
      try Self.load(
        """
        {"canvas": {"width": 100, "height": 100}, "state": {"x": 0},
         "layers": [{"shape": "circle", "frame": {"width": 10, "height": 10},
                     "offset": {"x": "=x", "y": 0}}],
         "events": [{"at": 0, "set": {"x": 100}, "animation": \(animation)}]}
        """
      ).scene.settleTime
    }
    // interpolatingSpring and the 2019 spring(mass:stiffness:damping:) end at the same time.
    #expect(
      try settle(#"{"type": "spring", "mass": 1, "stiffness": 100, "damping": 20}"#)
        == settle(#"{"type": "interpolatingSpring", "mass": 1, "stiffness": 100, "damping": 20}"#))
    for animation in [
      #""spring""#, #""bouncy""#, #""snappy""#, #""smooth""#, #""interactiveSpring""#,
      #""default""#,
      #"{"type": "spring", "response": 0.3, "dampingFraction": 0.6}"#,
      #"{"type": "spring", "duration": 0.4, "bounce": 0.2}"#,
      #"{"type": "interpolatingSpring", "duration": 0.4, "bounce": 0.2}"#,
      #"{"type": "timingCurve", "controlPoints": [0.2, 0, 0, 1], "duration": 0.8}"#,
    ] {
      let t = try settle(animation)
      #expect(t > 0.1 && t < 5, "\(animation): \(t)")
    }
    #expect(try settle(#""none""#) == 0)
    #expect(try settle(#"{"type": "linear", "duration": 0.8}"#) == 0.8)
  }
}
