import Motion
import Raster
import SceneGraph

/// Texts from state (`"text": "=\"\\(count) likes\""`): laid out with their characters in the
/// initial state, then, once the events and taps have played, drawn in every version the state
/// gives them, each faded in and out by its own opacity as `contentTransition` says.
extension SceneAssembler {
  /// A text from state as it was placed: where, in what colour, and the node that holds its
  /// drawing (the layer's, or its `.content` child when it is decorated).
  struct PlacedTemplate {
    var name: String
    var layer: LayerDescription
    /// The layer's frame inside its padding, and the box its first text was drawn in (node
    /// space, points).
    var frame: Rect
    var box: Rect
    var color: Color
    var animatedColor: String?
    var holder: String
  }

  /// Replaces each text from state that takes more than one version with one node per version,
  /// placed in the layer's frame by its alignment (centred by default), whose opacity is 1 while
  /// the state gives that version; a change moves the opacities with its animation (a crossfade),
  /// or at once for `identity`. Where layout ran again for a version, it is placed where that
  /// layout put it (`SceneAssembler+LayoutAnimation.swift`).
  mutating func showTextsFromState(
    in root: inout SceneNode, initial: ExpressionScope
  ) throws(SceneFileError) {
    guard !textTemplates.isEmpty else { return }
    let final = scope
    defer { scope = final }
    for placed in textTemplates {
      guard case .text(let runs, _) = placed.layer.content else { continue }
      if runs.contains(where: { $0.template?.names.contains("time") == true }) {
        try showTextFollowingTime(placed, runs: runs, initial: initial, in: &root)
        continue
      }
      // The version at the start and after each change.
      var scopes = [initial]
      scopes += snapshots.map(\.scope)
      var versions: [String] = []
      var firstScope: [ExpressionScope] = []
      /// Where each version first shows: 0 at the start, i after the i-th change.
      var firstShown: [Int] = []
      var shown: [Int] = []
      for (i, s) in scopes.enumerated() {
        scope = s
        let text = try textOfRuns(placed.layer, runs).joined(separator: "\u{0}")
        if let k = versions.firstIndex(of: text) {
          shown.append(k)
        } else {
          versions.append(text)
          firstScope.append(s)
          firstShown.append(i)
          shown.append(versions.count - 1)
        }
      }
      guard versions.count > 1 else { continue }
      guard versions.count <= SceneLimits.textVersions else {
        throw SceneFileError(
          path: placed.layer.path + ".text",
          "the text takes \(versions.count) different values over the events; at most "
            + "\(SceneLimits.textVersions)", line: placed.layer.line, column: placed.layer.column)
      }
      var boxes: [Rect] = []
      var contents: [SceneNode.Content] = []
      /// Each version's characters on its line, for a numeric text (nil: not one line).
      var cells: [[CharacterCell]?] = []
      for k in versions.indices {
        scope = firstScope[k]
        let box: Rect
        if k == shown[0] {
          box = placed.box
        } else if firstShown[k] > 0, let version = snapshotLayouts[firstShown[k] - 1],
          let laidOut = templateBoxes[placed.name]?[version]
        {
          // Layout ran again for this text: where that layout put it (the node moves there with
          // the change's animation).
          box = laidOut
        } else {
          box = try boxInFrame(placed)
        }
        boxes.append(box)
        contents.append(
          try self.content(
            placed.layer, frame: box, color: placed.color, animatedColor: placed.animatedColor,
            name: placed.name + ".text[\(k)]"))
        cells.append(numericRise(placed) == nil ? nil : try characterCells(placed, runs, box: box))
      }
      let lines = cells.compactMap { $0 }
      if let rise = numericRise(placed), lines.count == cells.count {
        let nodes = try rollCharacters(
          placed, shown: shown, boxes: boxes, contents: contents, cells: lines, rise: rise)
        _ = Self.replaceContent(of: placed.holder, with: .group(nodes), in: &root)
        continue
      }
      var nodes: [SceneNode] = []
      for k in versions.indices {
        let name = placed.name + ".text[\(k)]"
        let content = contents[k]
        // Its opacity: 1 while it is shown.
        var changes: [ChannelTimeline.Change] = []
        var last = shown[0] == k ? 1.0 : 0
        for (i, snapshot) in snapshots.enumerated() {
          let target = shown[i + 1] == k ? 1.0 : 0
          guard target != last else { continue }
          let change = snapshotChange(i, at: placed.layer.path)
          let animation: Animation =
            placed.layer.textOptions.transition == .identity ? .none : change.animation
          // Without an animation the text is the model's at once, not after the delay.
          changes.append(
            .init(
              time: animation == .none ? snapshot.made : change.time, target: [target],
              animation: animation, madeAt: snapshot.made))
          last = target
        }
        try countChanges(changes.count)
        channels.append(
          Channel(
            name: name + ".opacity",
            bound: Bound(
              expression: .constant([0]), path: placed.layer.path, line: placed.layer.line,
              column: placed.layer.column),
            initial: [shown[0] == k ? 1 : 0], traced: [], changes: changes, lastTarget: [last]))
        var node = SceneNode(name, content, opacity: .channel(name + ".opacity", component: 0))
        node.fillColor = placed.animatedColor
        // Drawn at the text's frame of the moment, as SwiftUI draws a text in its frame while
        // the frame moves from one version's to the next's: the version's top-leading corner
        // follows the shown version's with each change's animation. (Drawn in its own box, the
        // new text of a growing leading-aligned row stood centred, out past its leading edge.)
        let corner = try cornerChannel(placed, shown: shown, boxes: boxes, version: k)
        if let x = corner.x { node.offsetX = x }
        if let rise = numericRise(placed) {
          node.offsetY = try rollChannel(
            name, shown: shown, version: k, rise: rise, path: placed.layer.path)
        } else if let y = corner.y {
          node.offsetY = y
        }
        nodes.append(node)
      }
      _ = Self.replaceContent(of: placed.holder, with: .group(nodes), in: &root)
    }
  }

  /// How far version `version` of a text from state is moved, on each axis, to stand at the
  /// top-leading corner of the version shown (nil on an axis where every version's corner is
  /// the same): 0 while it is shown, the corners' difference while another is, moving with the
  /// changes' animations (at once for `identity`).
  mutating func cornerChannel(
    _ placed: PlacedTemplate, shown: [Int], boxes: [Rect], version: Int
  ) throws(SceneFileError) -> (x: ScalarBinding?, y: ScalarBinding?) {
    let own = boxes[version]
    var axes: [ScalarBinding?] = []
    for (axis, corner) in [("x", \Rect.minX), ("y", \Rect.minY)] {
      let values = shown.map { boxes[$0][keyPath: corner] - own[keyPath: corner] }
      guard values.contains(where: { abs($0 - values[0]) > 1e-9 }) else {
        axes.append(nil)
        continue
      }
      var changes: [ChannelTimeline.Change] = []
      for i in snapshots.indices where shown[i + 1] != shown[i] {
        let change = snapshotChange(i, at: placed.layer.path)
        let animation: Animation =
          placed.layer.textOptions.transition == .identity ? .none : change.animation
        changes.append(
          .init(
            time: animation == .none ? snapshots[i].made : change.time, target: [values[i + 1]],
            animation: animation, madeAt: snapshots[i].made))
      }
      axes.append(
        try scalarChannel(
          placed.name + ".text[\(version)].corner.\(axis)", initial: values[0], changes))
    }
    return (axes[0], axes[1])
  }

  /// Where the text in `scope` goes when layout does not run again for it: wrapped to what the
  /// layer was offered, as a new layout would, and placed in the layer's frame by its alignment
  /// (node space, points).
  mutating func boxInFrame(_ placed: PlacedTemplate) throws(SceneFileError) -> Rect {
    let alignment = placed.layer.frameAlignment ?? .center
    let offer = templateOffers[placed.layer.path] ?? placed.frame.width
    let text = try paragraph(
      placed.layer, width: wrapWidth(placed.layer, offer.isFinite ? offer : placed.frame.width),
      height: textHeight(placed.layer, placed.frame.height))
    let size = textSize(text, placed.layer)
    return Rect(
      x: snapped(placed.frame.minX, (placed.frame.width - size.width) * alignment.horizontal),
      y: snapped(placed.frame.minY, (placed.frame.height - size.height) * alignment.vertical),
      width: size.width, height: size.height)
  }

  /// A text from state that reads `time` (a running clock, `TimelineView(.animation)`): written
  /// at every frame of the duration with the state in effect then, each different text one node
  /// shown exactly at the frames that give it (its opacity sampled per frame, as other values of
  /// time are: no transition, as a timeline's redraw has none). Layout does not follow time (it
  /// runs with `time` 0): each text is placed in the frame the first layout gave (by the frame's
  /// alignment, centred by default), wrapped to the same offer. At most
  /// `SceneLimits.textVersions` different texts.
  mutating func showTextFollowingTime(
    _ placed: PlacedTemplate, runs: [TextRun], initial: ExpressionScope,
    in root: inout SceneNode
  ) throws(SceneFileError) {
    let path = runs.first { $0.template?.names.contains("time") == true }?.path ?? placed.layer.path
    guard let scopes = frameScopes(initial: initial) else {
      throw SceneFileError(
        path: path,
        "the text follows time, so the scene never ends: " + Self.durationAdvice
          + " to say how long to render", line: placed.layer.line,
        column: placed.layer.column)
    }
    var versions: [String] = []
    var firstScope: [ExpressionScope] = []
    var shown: [Int] = []
    for s in scopes {
      scope = s
      let text = try textOfRuns(placed.layer, runs).joined(separator: "\u{0}")
      if let k = versions.firstIndex(of: text) {
        shown.append(k)
        continue
      }
      versions.append(text)
      firstScope.append(s)
      shown.append(versions.count - 1)
      guard versions.count <= SceneLimits.textVersions else {
        throw SceneFileError(
          path: path,
          "the text follows time and takes more than \(SceneLimits.textVersions) different "
            + "values over the \(scopes.count) frames rendered: write fewer digits (a coarser "
            + "specifier, such as \"%.0f\"), or render a shorter duration",
          line: placed.layer.line, column: placed.layer.column)
      }
    }
    guard versions.count > 1 else { return }
    var nodes: [SceneNode] = []
    var lines: [[LayoutRecord.Line]] = []
    for k in versions.indices {
      scope = firstScope[k]
      // The first frame's text is the one layout placed.
      let box = k == shown[0] ? placed.box : try boxInFrame(placed)
      // Its lines for the layout dump, as the layout records them.
      let text = try paragraph(
        placed.layer, width: wrapWidth(placed.layer, box.width),
        height: textHeight(placed.layer, box.height))
      let top = (box.minY + box.maxY) / 2 - textSize(text, placed.layer).height / 2
      let spacing = placed.layer.textOptions.lineSpacing
      lines.append(
        zip(text.lines, text.baselines(lineSpacing: spacing)).map { line, baseline in
          LayoutRecord.Line(text: line.text, baseline: top + baseline, width: line.layout.width)
        })
      let name = placed.name + ".text[\(k)]"
      let content = try self.content(
        placed.layer, frame: box, color: placed.color, animatedColor: placed.animatedColor,
        name: name)
      var channel = Channel(
        name: name + ".opacity",
        bound: Bound(
          expression: .constant([0]), path: placed.layer.path, line: placed.layer.line,
          column: placed.layer.column),
        initial: [shown[0] == k ? 1 : 0], traced: [], changes: [],
        lastTarget: [shown.last == k ? 1 : 0])
      channel.samples = shown.map { [$0 == k ? 1 : 0] }
      channels.append(channel)
      var node = SceneNode(name, content, opacity: .channel(name + ".opacity", component: 0))
      node.fillColor = placed.animatedColor
      nodes.append(node)
    }
    _ = Self.replaceContent(of: placed.holder, with: .group(nodes), in: &root)
    // The layout dump shows the lines of the text of the frame (`render-anim layout --at`).
    var shownLines = Channel(
      name: placed.name + ".text.lines",
      bound: Bound(expression: .constant([0]), path: placed.layer.path, line: 0, column: 0),
      initial: [Double(shown[0])], traced: [], lastTarget: [Double(shown.last ?? 0)])
    shownLines.samples = shown.map { [Double($0)] }
    channels.append(shownLines)
    _ = Self.updateNode(named: placed.name, in: &root) { node in
      node.layout?.linesByLayout = lines
      node.layout?.linesShown = .channel(placed.name + ".text.lines", component: 0)
    }
  }

  /// Changes the node named `name` (the first found, depth first) with `change`.
  static func updateNode(
    named name: String, in node: inout SceneNode, _ change: (inout SceneNode) -> Void
  ) -> Bool {
    if node.name == name {
      change(&node)
      return true
    }
    guard case .group(var children) = node.content else { return false }
    for i in children.indices where updateNode(named: name, in: &children[i], change) {
      node.content = .group(children)
      return true
    }
    return false
  }

  /// How far a version of a `numericText` text rolls as it comes and goes (points: half its
  /// line height, positive counting up, where the new text rises from below), or nil for the
  /// other transitions.
  func numericRise(_ placed: PlacedTemplate) -> Double? {
    let transition = placed.layer.textOptions.transition
    guard transition == .numericText || transition == .numericTextCountsDown else { return nil }
    let rise = placed.box.height / 2
    return transition == .numericText ? rise : -rise
  }

  /// The vertical offset of version `version` of a rolling text: it comes in from `rise` below
  /// (jumping there just before the change) and leaves by `rise` above, with each change's
  /// animation.
  mutating func rollChannel(
    _ name: String, shown: [Int], version: Int, rise: Double, path: String
  ) throws(SceneFileError) -> ScalarBinding {
    var changes: [ChannelTimeline.Change] = []
    var visible = shown[0] == version
    for (i, snapshot) in snapshots.enumerated() {
      let now = shown[i + 1] == version
      guard now != visible else { continue }
      let change = snapshotChange(i, at: path)
      if now {
        changes.append(
          .init(
            time: change.time - 1e-9, target: [rise], animation: .none, madeAt: snapshot.made))
        changes.append(
          .init(
            time: change.time, target: [0], animation: change.animation, madeAt: snapshot.made))
      } else {
        changes.append(
          .init(
            time: change.time, target: [-rise], animation: change.animation,
            madeAt: snapshot.made))
      }
      visible = now
    }
    try countChanges(changes.count)
    channels.append(
      Channel(
        name: name + ".roll",
        bound: Bound(expression: .constant([0]), path: name, line: 0, column: 0),
        initial: [0], traced: [], changes: changes, lastTarget: [changes.last?.target[0] ?? 0]))
    return .channel(name + ".roll", component: 0)
  }

  /// Sets the content of the node named `name` (the first found, depth first).
  static func replaceContent(
    of name: String, with content: SceneNode.Content, in node: inout SceneNode
  ) -> Bool {
    if node.name == name {
      node.content = content
      return true
    }
    guard case .group(var children) = node.content else { return false }
    for i in children.indices where replaceContent(of: name, with: content, in: &children[i]) {
      node.content = .group(children)
      return true
    }
    return false
  }
}
