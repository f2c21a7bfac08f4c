import Motion
import Raster
import SceneGraph

/// A change of state as the layouts see it: when its animation starts and when it was made
/// (seconds; later by the animation's delay), and its animation.
typealias StateChange = (time: Double, made: Double, animation: Animation)

/// Layout lengths from state (`"frame": {"height": "=open ? 220 : 80"}`, `"padding"`,
/// `"spacing"`): layout runs again for every state the events and taps give, and each view's
/// geometry — its centre in its parent, its size, a shape's frame, a clip's frame — moves from
/// the old layout's to the new one's with the animation of the change, as SwiftUI animates a
/// transaction's layout changes: the views' frames are interpolated, each shape drawn in its
/// frame of the moment (`Shape.path(in:)`). What cannot be interpolated (a text broken into other
/// lines, an image or path drawn at another size) shows the new layout's drawing at the change.
extension SceneAssembler {
  /// Whether any of the layers, or the layers inside them, has a layout length that is an
  /// expression.
  static func hasLayoutBounds(_ layers: [LayerDescription]) -> Bool {
    layers.contains { layer in
      !layer.layoutBounds.isEmpty || !layer.alignmentBounds.isEmpty || layer.condition != nil
        || (layer.backgrounds + layer.overlays).contains { $0.alignmentBound != nil }
        || hasLayoutBounds(innerLayers(layer))
    }
  }

  /// Whether a layout expression reads state (so layout may change with the events).
  static func layoutReadsState(_ layers: [LayerDescription], _ state: Set<String>) -> Bool {
    layers.contains { layer in
      layer.layoutBounds.values.contains { $0.expression.reads(anyOf: state) }
        || layer.alignmentBounds.values.contains { $0.expression.reads(anyOf: state) }
        || (layer.backgrounds + layer.overlays).contains {
          $0.alignmentBound?.expression.reads(anyOf: state) ?? false
        }
        || (layer.condition?.expression.reads(anyOf: state) ?? false)
        || layoutReadsState(innerLayers(layer), state)
    }
  }

  /// Whether any of the layers, or the layers inside them, is a text from state.
  static func hasTextFromState(_ layers: [LayerDescription]) -> Bool {
    layers.contains { layer in
      if case .text(let runs, _) = layer.content, runs.contains(where: { $0.template != nil }) {
        return true
      }
      return hasTextFromState(innerLayers(layer))
    }
  }

  /// The characters of every text from state among the layers, written in `scope`.
  func textsFromState(
    _ layers: [LayerDescription], in scope: ExpressionScope
  ) throws(SceneFileError) -> [String] {
    var texts: [String] = []
    for layer in layers {
      if case .text(let runs, _) = layer.content, runs.contains(where: { $0.template != nil }) {
        texts.append(try textOfRuns(layer, runs, in: scope).joined(separator: "\u{0}"))
      }
      texts += try textsFromState(Self.innerLayers(layer), in: scope)
    }
    return texts
  }

  /// A stack's children, the mask, the backgrounds and overlays.
  static func innerLayers(_ layer: LayerDescription) -> [LayerDescription] {
    var inner = layer.effects.mask + layer.backgrounds.map(\.layer) + layer.overlays.map(\.layer)
    if case .stack(_, let children, _, _) = layer.content { inner += children }
    return inner
  }

  /// The layers with every layout expression evaluated in `scope`, the values appended to
  /// `values` in the order met (so two states' layouts can be compared). `when` says which state
  /// an error is about.
  func resolvingLayout(
    _ layers: [LayerDescription], in scope: ExpressionScope, values: inout [Double], when: String
  ) throws(SceneFileError) -> [LayerDescription] {
    var resolved: [LayerDescription] = []
    for layer in layers {
      // `"if"`: a layer whose condition is false is not there (it takes no room).
      if let condition = layer.condition {
        if condition.expression.names.contains("time") {
          throw condition.error("\"if\" cannot follow time (layout runs once per state)")
        }
        let there = try condition.evaluate(scope, count: 1, what: "true or false")[0] != 0
        values.append(there ? 1 : 0)
        guard there else { continue }
      }
      resolved.append(try resolvingLayout(layer, in: scope, values: &values, when: when))
    }
    return resolved
  }

  private func resolvingLayout(
    _ layer: LayerDescription, in scope: ExpressionScope, values: inout [Double], when: String
  ) throws(SceneFileError) -> LayerDescription {
    var l = layer
    for slot in LayerDescription.LayoutSlot.allCases {
      guard let bound = layer.layoutBounds[slot] else { continue }
      if bound.expression.names.contains("time") {
        throw bound.error(
          "a layout length cannot follow time (layout runs once per state): animate an offset, "
            + "a scale or a frame from state instead")
      }
      let v = try bound.evaluate(scope, count: 1, what: "a length in points")[0]
      values.append(v)
      switch slot {
      case .width: l.frameWidth = v
      case .height: l.frameHeight = v
      case .minWidth: l.flexWidth?.min = v
      case .idealWidth: l.flexWidth?.ideal = v
      case .maxWidth: l.flexWidth?.max = v
      case .minHeight: l.flexHeight?.min = v
      case .idealHeight: l.flexHeight?.ideal = v
      case .maxHeight: l.flexHeight?.max = v
      case .paddingTop: l.padding.top = v
      case .paddingLeading: l.padding.leading = v
      case .paddingBottom: l.padding.bottom = v
      case .paddingTrailing: l.padding.trailing = v
      case .spacing:
        if case .stack(let axis, let children, let alignment, _) = l.content {
          l.content = .stack(axis, children, alignment: alignment, spacing: v)
        }
      }
    }
    for slot in LayerDescription.AlignmentSlot.allCases {
      guard let bound = layer.alignmentBounds[slot] else { continue }
      var allowed = Alignment.nine
      if slot == .stack, case .stack(let axis, _, _, _) = l.content {
        allowed =
          switch axis {
          case .zstack: Alignment.nine
          case .vstack: [.center, .leading, .trailing]
          case .hstack: [.center, .top, .bottom]
          }
      }
      let alignment = try Self.alignment(
        bound, among: allowed, in: scope, values: &values, when: when)
      switch slot {
      case .frame: l.frameAlignment = alignment
      case .stack:
        if case .stack(let axis, let children, _, let spacing) = l.content {
          l.content = .stack(axis, children, alignment: alignment, spacing: spacing)
        }
      }
    }
    // SwiftUI's "Contradictory frame constraints": a minimum above the ideal or the maximum, an
    // ideal above the maximum.
    for (bounds, axis, slots) in [
      (l.flexWidth, "Width", [LayerDescription.LayoutSlot.minWidth, .idealWidth, .maxWidth]),
      (l.flexHeight, "Height", [.minHeight, .idealHeight, .maxHeight]),
    ] {
      guard let bounds, slots.contains(where: { layer.layoutBounds[$0] != nil }) else { continue }
      let named = [("min", bounds.min), ("ideal", bounds.ideal), ("max", bounds.max)]
      for i in 0..<2 {
        for j in (i + 1)..<3 {
          guard let low = named[i].1, let high = named[j].1, low > high else { continue }
          let bound = layer.layoutBounds[slots[j]] ?? layer.layoutBounds[slots[i]]
          let message =
            "\(named[i].0)\(axis) \(JSONValue.format(low)) is above \(named[j].0)\(axis) "
            + "\(JSONValue.format(high)) \(when)"
          throw bound?.error(message) ?? SceneFileError(path: layer.path + ".frame", message)
        }
      }
    }
    if case .stack(let axis, let children, let alignment, let spacing) = l.content {
      l.content = .stack(
        axis, try resolvingLayout(children, in: scope, values: &values, when: when),
        alignment: alignment, spacing: spacing)
    }
    l.effects.mask = try resolvingLayout(l.effects.mask, in: scope, values: &values, when: when)
    func decorations(
      _ list: [LayerDescription.Decoration]
    ) throws(SceneFileError) -> [LayerDescription.Decoration] {
      var kept: [LayerDescription.Decoration] = []
      for d in list {
        var alignment = d.alignment
        if let bound = d.alignmentBound {
          alignment = try Self.alignment(
            bound, among: Alignment.nine, in: scope, values: &values, when: when)
        }
        for layer in try resolvingLayout([d.layer], in: scope, values: &values, when: when) {
          kept.append(LayerDescription.Decoration(alignment: alignment, layer: layer))
        }
      }
      return kept
    }
    l.keepsDecorations = (l.backgrounds + l.overlays).contains { $0.layer.condition != nil }
    l.backgrounds = try decorations(l.backgrounds)
    l.overlays = try decorations(l.overlays)
    return l
  }

  /// After the events have played: lays the layers out again in each state whose layout
  /// lengths or texts from state differ from the state before, and merges the layouts into `root`, each difference
  /// becoming a channel that moves with the change's animation.
  mutating func animateLayout(
    _ root: inout SceneNode, layers: [LayerDescription], initial: ExpressionScope
  ) throws(SceneFileError) {
    var last: [Double] = []
    _ = try resolvingLayout(layers, in: initial, values: &last, when: "in the initial state")
    var lastTexts = try textsFromState(layers, in: initial)
    var versions = [root]
    if !matchedPlacements.isEmpty { placeMatched(in: root, version: 0, scope: initial) }
    var changes: [StateChange] = []
    var distinct = [LayoutSignature(lengths: last, texts: lastTexts): 0]
    let final = scope
    defer {
      scope = final
      textScope = nil
      rebuilding = false
    }
    layoutChangeSnapshots = []
    for (index, snapshot) in snapshots.enumerated() {
      var values: [Double] = []
      let resolved = try resolvingLayout(
        layers, in: snapshot.scope, values: &values,
        when: "after the change at \(Self.format(snapshot.made)) s")
      let texts = try textsFromState(layers, in: snapshot.scope)
      guard values != last || texts != lastTexts else {
        snapshotLayouts.append(snapshotLayouts.last ?? nil)
        continue
      }
      (last, lastTexts) = (values, texts)
      // A layout met before (a toggle back) is that layout again: its tree and records.
      let signature = LayoutSignature(lengths: values, texts: texts)
      if let earlier = distinct[signature] {
        let v = versions.count
        snapshotLayouts.append(v)
        versions.append(versions[earlier])
        changes.append((snapshot.time, snapshot.made, snapshot.animation))
        layoutChangeSnapshots.append(index)
        matchedPlacements[v] = matchedPlacements[earlier]
        nodeOrigins[v] = nodeOrigins[earlier]
        layoutScopes[v] = layoutScopes[earlier]
        for (name, boxes) in templateBoxes { templateBoxes[name]?[v] = boxes[earlier] }
        continue
      }
      distinct[signature] = versions.count
      guard distinct.count <= SceneLimits.layoutVersions else {
        throw SceneFileError(
          path: "layers",
          "the events and taps give more than \(SceneLimits.layoutVersions) different layouts; "
            + "at most \(SceneLimits.layoutVersions) (a layout length from state, and a text from "
            + "state, which is laid out anew for each value it takes, make a layout per value)")
      }
      // Everything but the layout lengths as in the initial state: the channels already carry
      // what changes, and the layouts must differ only in geometry.
      scope = initial
      textScope = snapshot.scope
      rebuilding = true
      layoutVersion = versions.count
      snapshotLayouts.append(layoutVersion)
      versions.append(try layoutRoot(resolved))
      if !matchedPlacements.isEmpty {
        placeMatched(
          in: versions[versions.count - 1], version: layoutVersion, scope: snapshot.scope)
      }
      changes.append((snapshot.time, snapshot.made, snapshot.animation))
      layoutChangeSnapshots.append(index)
    }
    guard versions.count > 1 else { return }
    root = try merged(versions, changes)
  }

  /// An alignment from state in `scope`: one of `allowed`, its unit point appended to
  /// `values`; a name that is neither state nor an alignment's, an alignment not allowed or
  /// time is refused, naming what there is.
  static func alignment(
    _ bound: Bound, among allowed: [Alignment], in scope: ExpressionScope, values: inout [Double],
    when: String
  ) throws(SceneFileError) -> Alignment {
    if bound.expression.names.contains("time") {
      throw bound.error("an alignment cannot follow time (layout runs once per state)")
    }
    for name in bound.expression.names.sorted() where scope.value(of: name) == nil {
      let names = Alignment.nine.map(\.rawValue)
      throw bound.error(
        "unknown name '\(name)'\(JSONField.didYouMean(name, among: names)): an alignment from "
          + "state chooses among " + names.joined(separator: ", "))
    }
    let p = try bound.evaluate(scope, count: 2, what: "a unit point, as leading or [0, 0.5]")
    values += p
    guard let alignment = Alignment.at(horizontal: p[0], vertical: p[1], among: allowed) else {
      throw bound.error(
        "the alignment is [\(JSONValue.format(p[0])), \(JSONValue.format(p[1]))] \(when); "
          + "expected one of " + allowed.map(\.rawValue).joined(separator: ", "))
    }
    return alignment
  }

  /// What makes two states' layouts the same: their layout lengths (and `if`s) and their texts
  /// from state.
  struct LayoutSignature: Hashable {
    var lengths: [Double]
    var texts: [String]
  }

  /// One node from its versions in each layout (the same node in the same place of each tree).
  private mutating func merged(
    _ nodes: [SceneNode], _ changes: [StateChange]
  ) throws(SceneFileError) -> SceneNode {
    var node = nodes[0]
    // A layer's `.animation(_:value:)` animates its own and its children's layout changes.
    var changes = changes
    if !valueAnimationLayers.isEmpty,
      let path = (node.layout ?? Self.positionedChild(of: node)?.layout)?.path
    {
      // Each layout change is its snapshot's change, as `snapshotChange` times it for the path.
      changes = changes.enumerated().map { k, change in
        guard k < layoutChangeSnapshots.count else { return change }
        let chosen = snapshotChange(layoutChangeSnapshots[k], at: path)
        return (chosen.time, change.made, chosen.animation)
      }
    }
    // Where the node's layout puts it on the screen in each version (its centre plus its
    // parent's), and whether its parent moves there with other animations than its own.
    let parent = layoutParents.last
    let constantCentre: Bool
    if case .constant = node.centerX, case .constant = node.centerY {
      constantCentre = true
    } else {
      constantCentre = false
    }
    let centres = nodes.map {
      constantCentre ? [$0.centerX.resolve([:]), $0.centerY.resolve([:])] : [0.0, 0]
    }
    let onScreen =
      parent.map { p in zip(p.onScreen, centres).map { [$0[0] + $1[0], $0[1] + $1[1]] } }
      ?? centres
    let ownMotion =
      constantCentre
      && (parent.map { p in
        p.onScreen.contains { $0 != p.onScreen[0] }
          && zip(p.changes, changes).contains { $0.time != $1.time || $0.animation != $1.animation }
      } ?? false)
    // A node that moves on the screen may carry children that move by animations of their own
    // (`.animation(_:value:)`): they are visited even where nothing else about them changes.
    let carries = !valueAnimationLayers.isEmpty && onScreen.contains { $0 != onScreen[0] }
    guard ownMotion || carries || nodes.contains(where: { $0 != node }) else { return node }
    let name = node.name
    if ownMotion, let parent {
      // SwiftUI animates each view's frame on the screen with the view's own transaction
      // (OpenSwiftUI's `AnimatedFrame`, built from the view's position and transaction): the
      // node's place on the screen moves with its animations, and its centre in its parent is
      // that less the parent's place, which moves with the parent's.
      let own = name + ".layout.position"
      let theirs = name + ".layout.parentPosition"
      let movesOwn = try layoutChannel(own, onScreen, changes, suffixes: [".x", ".y"])
      let movesTheirs = try layoutChannel(
        theirs, parent.onScreen, parent.changes, suffixes: [".x", ".y"], traced: false)
      func part(_ moves: Bool, _ channel: String, _ values: [Double], _ i: Int) -> ScalarBinding {
        moves ? .channel(channel, component: i) : .constant(values[i])
      }
      node.centerX = .difference(
        part(movesOwn, own, onScreen[0], 0), part(movesTheirs, theirs, parent.onScreen[0], 0))
      node.centerY = .difference(
        part(movesOwn, own, onScreen[0], 1), part(movesTheirs, theirs, parent.onScreen[0], 1))
    } else if constantCentre {
      let channel = name + ".layout.center"
      if try layoutChannel(channel, centres, changes, suffixes: [".x", ".y"]) {
        node.centerX = .channel(channel, component: 0)
        node.centerY = .channel(channel, component: 1)
      }
    }
    layoutParents.append((onScreen, changes))
    defer { layoutParents.removeLast() }
    if node.layout != nil {
      let sizes = nodes.map { [$0.layout?.width ?? 0, $0.layout?.height ?? 0] }
      let channel = name + ".layout.size"
      if try layoutChannel(channel, sizes, changes, suffixes: [".width", ".height"]) {
        let (width, height) = (
          ScalarBinding.channel(channel, component: 0), ScalarBinding.channel(channel, component: 1)
        )
        node.layout?.animatedSize = [width, height]
        // The anchors are unit points of the frame of the moment, as SwiftUI resolves them.
        node.scaleAnchorBinding?.width = width
        node.scaleAnchorBinding?.height = height
        node.rotationAnchorBinding?.width = width
        node.rotationAnchorBinding?.height = height
        node.rotation3D?.width = width
        node.rotation3D?.height = height
      }
    }
    if let record = node.layout, nodes.contains(where: { $0.layout?.lines != record.lines }) {
      // The dump shows the lines of the layout that holds, switching at the changes.
      var distinct: [[LayoutRecord.Line]] = []
      var shown: [[Double]] = []
      for n in nodes {
        let lines = n.layout?.lines ?? []
        if let k = distinct.firstIndex(of: lines) {
          shown.append([Double(k)])
        } else {
          distinct.append(lines)
          shown.append([Double(distinct.count - 1)])
        }
      }
      let channel = name + ".layout.lines"
      if try layoutChannel(
        channel, shown, changes.map { ($0.made, $0.made, Animation.none) }, suffixes: [""],
        traced: false)
      {
        node.layout?.linesByLayout = distinct
        node.layout?.linesShown = .channel(channel, component: 0)
      }
    }
    node.content = try mergedContent(nodes, changes)
    if node.layout == nil, node.rotation3D != nil, case .group(let children) = node.content,
      children.count == 1, let size = children[0].layout?.animatedSize, size.count == 2
    {
      // A keyframe or phase holder's 3D turn (`holder(of:named:keys:turn:)`): its anchor is a
      // unit point of its one child's frame of the moment, as the layer's own turn's is.
      node.rotation3D?.width = size[0]
      node.rotation3D?.height = size[1]
    }
    if let clip = node.clip {
      let frames = nodes.compactMap { $0.clip.flatMap(Self.clipFrame) }
      if frames.count == nodes.count, nodes.allSatisfy({ Self.sameClipShape($0.clip, clip) }),
        try layoutChannel(
          name + ".layout.clip", frames.map(Self.components), changes,
          suffixes: Self.rectSuffixes)
      {
        node.clip?.frame = RectBinding(channel: name + ".layout.clip")
      }
    }
    if let shape = node.contentShape {
      let frames = nodes.compactMap { $0.contentShape.flatMap(Self.clipFrame) }
      if frames.count == nodes.count,
        nodes.allSatisfy({ $0.contentShape.map { Self.sameClipShape($0, shape) } ?? false }),
        try layoutChannel(
          name + ".layout.contentShape", frames.map(Self.components), changes,
          suffixes: Self.rectSuffixes, traced: false)
      {
        node.contentShape?.frame = RectBinding(channel: name + ".layout.contentShape")
      }
    }
    if node.blur != nil {
      let bounds = nodes.map { Self.components($0.blur?.bounds ?? Self.noRect) }
      if try layoutChannel(name + ".layout.blur", bounds, changes, suffixes: Self.rectSuffixes) {
        node.blur?.animatedBounds = RectBinding(channel: name + ".layout.blur")
      }
    }
    if !node.mask.isEmpty, nodes.allSatisfy({ $0.mask.count == node.mask.count }) {
      node.mask = [try merged(nodes.map { $0.mask[0] }, changes)]
    }
    return node
  }

  /// The node's content from its versions: children merged one by one, a shape drawn in an
  /// animated frame, a drawing moved by an animated translation, or else each different drawing
  /// shown while its layout holds.
  private mutating func mergedContent(
    _ nodes: [SceneNode], _ changes: [StateChange]
  ) throws(SceneFileError) -> SceneNode.Content {
    let contents = nodes.map(\.content)
    let first = contents[0]
    // Children are visited where the node moves on the screen and some may move by their own
    // animations, though they are the same in every layout.
    var carries = false
    if case .group = first, !valueAnimationLayers.isEmpty, let here = layoutParents.last {
      carries = here.onScreen.contains { $0 != here.onScreen[0] }
    }
    guard carries || contents.contains(where: { $0 != first }) else { return first }
    let name = nodes[0].name
    switch first {
    case .group:
      var lists: [[SceneNode]] = []
      for content in contents {
        guard case .group(let children) = content else { return try steps(nodes, changes) }
        lists.append(children)
      }
      return .group(try mergedChildren(lists, parent: name, changes))
    case .drawing(let base):
      if case .path = base.outline, base.placement != nil {
        return try mergedPathDrawing(nodes, base, changes)
      }
      guard case .shape(let baseShape) = base.outline else { return try steps(nodes, changes) }
      var frames: [[Double]] = []
      for content in contents {
        guard case .drawing(let d) = content, case .shape(let shape) = d.outline,
          shape.kind == baseShape.kind, Self.withoutFrames(d) == Self.withoutFrames(base)
        else { return try steps(nodes, changes) }
        frames.append(Self.components(shape.frame))
      }
      var drawing = base
      let channel = name + ".layout.shape"
      if try layoutChannel(channel, frames, changes, suffixes: Self.rectSuffixes) {
        drawing.frame = RectBinding(channel: channel)
      }
      return .drawing(drawing)
    case .shape(let path, let color, let rule, let transform):
      // The same outline moved within the node (text placed by a frame's alignment), or
      // scaled too (a path or a symbol fitted to a frame that grows).
      var moves: [[Double]] = []
      var scales: [[Double]] = []
      for content in contents {
        guard case .shape(let p, let c, let r, let t) = content, p == path, c == color, r == rule
        else { return try steps(nodes, changes) }
        if [t.a, t.b, t.c, t.d] != [transform.a, transform.b, transform.c, transform.d] {
          guard t.b == 0, t.c == 0, transform.b == 0, transform.c == 0 else {
            return try steps(nodes, changes)
          }
        }
        moves.append([t.tx, t.ty])
        scales.append([t.a, t.d])
      }
      let channel = name + ".layout.content"
      // A scaled outline may keep its origin (a path fitted from its frame's top left corner):
      // then the move is a constant.
      let moving = try layoutChannel(channel, moves, changes, suffixes: [".x", ".y"])
      var still = transform
      (still.tx, still.ty) = (0, 0)
      let scaling = name + ".layout.contentScale"
      let scaled = try layoutChannel(scaling, scales, changes, suffixes: [".x", ".y"])
      if scaled { still = .identity }
      var moved = SceneNode(
        channel, .shape(path, color, rule, still),
        centerX: moving ? .channel(channel, component: 0) : .constant(transform.tx),
        centerY: moving ? .channel(channel, component: 1) : .constant(transform.ty))
      if scaled {
        moved.scale = .channel(scaling, component: 0)
        moved.scaleY = .channel(scaling, component: 1)
      }
      moved.fillColor = nodes[0].fillColor
      return .group([moved])
    case .ring(let ring, let color, let from, let to, let width, _):
      // A ring in a frame that layout resizes: its diameter follows the frame (a ring is
      // `Circle().trim().stroke()`, whose path SwiftUI makes in the frame of the moment).
      var diameters: [[Double]] = []
      for content in contents {
        guard case .ring(let r, let c, let f, let t, let w, nil) = content, c == color, f == from,
          t == to, w == width, r.lineWidth == ring.lineWidth, r.roundCaps == ring.roundCaps
        else { return try steps(nodes, changes) }
        diameters.append([r.diameter])
      }
      let channel = name + ".layout.diameter"
      guard try layoutChannel(channel, diameters, changes, suffixes: [""]) else { return first }
      return .ring(
        ring, color, from: from, to: to, lineWidth: width,
        diameter: .channel(channel, component: 0))
    case .image(let image, _, let interpolation):
      // An image drawn into a rectangle that layout moves or resizes (a resizable image in a
      // frame that grows): its natural-size rectangle, scaled and moved by the node.
      var rects: [[Double]] = []
      for content in contents {
        guard case .image(let i, let rect, let n) = content, i == image, n == interpolation
        else { return try steps(nodes, changes) }
        rects.append([
          rect.minX, rect.minY, rect.width / Double(image.width),
          rect.height / Double(image.height),
        ])
      }
      let channel = name + ".layout.image"
      _ = try layoutChannel(channel, rects, changes, suffixes: [".x", ".y", ".scaleX", ".scaleY"])
      let natural = Rect(
        x: 0, y: 0, width: Double(image.width), height: Double(image.height))
      var placed = SceneNode(
        channel, .image(image, natural, interpolation),
        centerX: .channel(channel, component: 0), centerY: .channel(channel, component: 1),
        scale: .channel(channel, component: 2))
      placed.scaleY = .channel(channel, component: 3)
      return .group([placed])
    default:
      return try steps(nodes, changes)
    }
  }

  /// A path drawing placed in each layout's frame (`ShapeDrawing.placement`): the placement and
  /// the frame its gradients resolve in follow the layout with the change's animation, so the
  /// path is fitted to the frame of the moment and stroked in points, as SwiftUI strokes a
  /// shape's `path(in:)`. Drawings that differ in anything else show by turns.
  private mutating func mergedPathDrawing(
    _ nodes: [SceneNode], _ base: ShapeDrawing, _ changes: [StateChange]
  ) throws(SceneFileError) -> SceneNode.Content {
    var placements: [[Double]] = []
    var frames: [[Double]] = []
    let plain = Self.withoutFrames(base)
    for node in nodes {
      guard case .drawing(let d) = node.content, let placement = d.placement,
        Self.withoutFrames(d).sameButPlacement(plain)
      else { return try steps(nodes, changes) }
      placements.append(placement.map { $0.resolve([:]) })
      frames.append(Self.components(Self.gradientFrame(of: d) ?? Self.noRect))
    }
    let name = nodes[0].name
    var drawing = base
    let channel = name + ".layout.placement"
    if try layoutChannel(channel, placements, changes, suffixes: [".a", ".d", ".x", ".y"]) {
      drawing.placement = (0..<4).map { .channel(channel, component: $0) }
    }
    let framed = name + ".layout.shape"
    if try layoutChannel(framed, frames, changes, suffixes: Self.rectSuffixes, traced: false) {
      drawing.frame = RectBinding(channel: framed)
    }
    return .drawing(drawing)
  }

  /// The frame a drawing's gradients resolve in, if it has one.
  static func gradientFrame(of drawing: ShapeDrawing) -> Rect? {
    for paint in [drawing.fill, drawing.stroke?.paint] {
      if case .gradient(let g) = paint { return g.frame }
    }
    return nil
  }

  /// A group's children from their lists in each layout, matched by name: the union of all, in
  /// the order they are drawn. A child missing from some layouts (`"if"` false there) keeps the
  /// geometry of its nearest layout that has it and comes and goes by its transition.
  private mutating func mergedChildren(
    _ lists: [[SceneNode]], parent: String, _ changes: [StateChange]
  ) throws(SceneFileError) -> [SceneNode] {
    var order: [String] = []
    // Each name's place in the file among its siblings, where its node has one.
    var declared: [String: (prefix: Substring, index: Int)] = [:]
    for list in lists {
      for child in list where declared[child.name] == nil {
        if let key = Self.declarationKey(child) { declared[child.name] = key }
      }
    }
    for list in lists {
      var after: Int? = nil
      for child in list {
        if let i = order.firstIndex(of: child.name) {
          after = i
        } else {
          var at = (after ?? -1) + 1
          // First of its list: before the first sibling declared after it in the file (the
          // later one is drawn above, as SwiftUI draws a stack's children), else where it was.
          if after == nil, let own = declared[child.name] {
            // A sibling's place in the file (nil for a name declared elsewhere).
            func index(_ name: String) -> Int? {
              declared[name].flatMap { $0.prefix == own.prefix ? $0.index : nil }
            }
            let later = order.firstIndex { index($0).map { $0 > own.index } ?? false }
            let earlier = order.lastIndex { index($0).map { $0 < own.index } ?? false }
            if let later {
              at = later
            } else if let earlier {
              at = earlier + 1
            }
          }
          order.insert(child.name, at: at)
          after = at
        }
      }
    }
    var children: [SceneNode] = []
    for name in order {
      let versions = lists.map { list in list.first { $0.name == name } }
      guard let nearest = versions.first(where: { $0 != nil }) ?? nil else { continue }
      var filled: [SceneNode] = []
      var last = nearest
      for version in versions {
        if let version { last = version }
        filled.append(version ?? last)
      }
      // A matched geometry: where the layer it swaps with is there instead, it is laid out in
      // that layer's frame, so that its frame moves from (or to) the other's.
      for j in versions.indices where versions[j] == nil {
        for v in [j + 1, j - 1] where versions.indices.contains(v) && versions[v] != nil {
          if let stand = try matchedStandIn(name, absentIn: j, presentIn: v, parent: parent) {
            filled[j] = stand
            break
          }
        }
      }
      let node = try merged(filled, changes)
      let presence = versions.map { $0 != nil }
      guard presence.contains(false), let conditional = conditionalLayers[name] else {
        children.append(node)
        continue
      }
      children.append(try transitioned(node, conditional, presence: presence, changes))
    }
    return children
  }

  /// Records each matched layer's frame and its parent's origin on the screen in `version`'s
  /// tree, and every node's origin (for the parents of layers missing there).
  mutating func placeMatched(in root: SceneNode, version: Int, scope: ExpressionScope) {
    layoutScopes[version] = scope
    func walk(_ node: SceneNode, parentOrigin: Point) {
      let centre = Point(
        parentOrigin.x + node.centerX.resolve([:]), parentOrigin.y + node.centerY.resolve([:]))
      nodeOrigins[version, default: [:]][node.name] = centre
      if var placement = matchedPlacements[version]?[node.name], let size = Self.laidOutSize(node) {
        // A positioned layer's container stands at its area's top left; its frame is its one
        // child's, centred at the position.
        var middle = centre
        if let child = Self.positionedChild(of: node) {
          middle = Point(
            centre.x + child.centerX.resolve([:]), centre.y + child.centerY.resolve([:]))
        }
        placement.frame = Rect(
          x: middle.x - size.width / 2, y: middle.y - size.height / 2, width: size.width,
          height: size.height)
        placement.parentOrigin = parentOrigin
        matchedPlacements[version]?[node.name] = placement
      }
      if case .group(let children) = node.content {
        for child in children { walk(child, parentOrigin: centre) }
      }
    }
    walk(root, parentOrigin: Point(0, 0))
  }

  /// The node `name` (there in layout `present`, not in `absent`) laid out where the layer it
  /// shares a matched geometry with is in layout `absent` — its frame, position or size, by
  /// its `properties` — or nil when no such layer is there.
  private mutating func matchedStandIn(
    _ name: String, absentIn absent: Int, presentIn present: Int, parent: String
  ) throws(SceneFileError) -> SceneNode? {
    guard let own = matchedPlacements[present]?[name], let matched = own.layer.matched,
      let partner = matchedPlacements[absent]?.first(where: { other in
        other.key != name && other.value.layer.matched?.key == matched.key
          && matchedPlacements[present]?[other.key] == nil
      })?.value,
      let origin = nodeOrigins[absent]?[parent]
    else { return nil }
    var frame = partner.frame
    func centre(_ r: Rect) -> Point { Point((r.minX + r.maxX) / 2, (r.minY + r.maxY) / 2) }
    switch matched.properties {
    case .frame: break
    case .position:
      frame = Rect(
        x: centre(frame).x - own.frame.width / 2, y: centre(frame).y - own.frame.height / 2,
        width: own.frame.width, height: own.frame.height)
    case .size:
      frame = Rect(
        x: centre(own.frame).x - frame.width / 2, y: centre(own.frame).y - frame.height / 2,
        width: frame.width, height: frame.height)
    }
    var box = Rect(
      x: frame.minX - origin.x, y: frame.minY - origin.y, width: frame.width,
      height: frame.height)
    var layer = own.layer
    if let position = own.layer.position {
      // `.position(p)` puts the centre p from the offered area's top left: the area is offered
      // where that puts the layer's centre on the other's.
      let p = try position.evaluate(layoutScopes[present] ?? scope, count: 2, what: "a point")
      box = Rect(
        x: centre(frame).x - origin.x - p[0], y: centre(frame).y - origin.y - p[1],
        width: frame.width, height: frame.height)
      // The positioned layer takes its own size inside the area, so it is given the other's
      // (its padding outside, as it lays out).
      if matched.properties != .position {
        let pad = layer.padding
        layer.frameWidth = max(0, frame.width - pad.leading - pad.trailing)
        layer.frameHeight = max(0, frame.height - pad.top - pad.bottom)
        (layer.flexWidth, layer.flexHeight) = (nil, nil)
      }
    }
    // Laid out as the present layout lays it out, but in the other's frame.
    let saved = (scope, textScope, rebuilding, layoutVersion, templateBoxes)
    defer { (scope, textScope, rebuilding, layoutVersion, templateBoxes) = saved }
    scope = layoutScopes[0] ?? scope
    textScope = layoutScopes[present]
    rebuilding = true
    layoutVersion = present
    return try node(layer, box: box)
  }

  /// The node inside a holder placed where it is, whose opacity, scale (about the transition's
  /// anchor) and offset move between the transition's states as the layer comes and goes, each
  /// with the change's animation; it is drawn while it is there and until its removal's
  /// animation ends, and is in the layout dump while it is there.
  private mutating func transitioned(
    _ node: SceneNode, _ layer: ConditionalLayer, presence: [Bool],
    _ changes: [StateChange]
  ) throws(SceneFileError) -> SceneNode {
    let t = layer.transition
    let size = layer.size
    func offset(_ s: TransitionState) -> [Double] {
      [s.offset.x + s.move.x * size.width, s.offset.y + s.move.y * size.height]
    }
    let identity = TransitionState()
    // Each transition part as a vector: opacity, scale, offset x, offset y.
    func parts(_ s: TransitionState) -> [Double] { [s.opacity, s.scale] + offset(s) }
    var initial = presence[0] ? parts(identity) : parts(t.insertion)
    var moves: [ChannelTimeline.Change] = []
    var current = initial
    for (k, change) in changes.enumerated() where presence[k + 1] != presence[k] {
      if presence[k + 1] {
        // Inserted: from the insertion's state (at once, if the removal left another).
        if current != parts(t.insertion) {
          moves.append(
            .init(
              time: change.made - 1e-9, target: parts(t.insertion), animation: .none,
              madeAt: change.made - 1e-9))
        }
        current = parts(identity)
      } else {
        current = parts(t.removal)
      }
      // Without an animation the view is there or gone at once: its transition, even one
      // still running, ends.
      moves.append(
        .init(
          time: change.time, target: current,
          animation: change.animation == .none ? .cut : change.animation, madeAt: change.made))
    }
    try countChanges(moves.count)
    let base = layer.name + ".transition"
    var holder = SceneNode(
      base, .group([]), centerX: node.centerX, centerY: node.centerY)
    var inner = node
    (inner.centerX, inner.centerY) = (.constant(0), .constant(0))
    holder.content = .group([inner])
    // One channel per part that moves (traced as `id.transition.opacity`, `.scale`, `.offset`).
    let used = [
      t.insertion.opacity != 1 || t.removal.opacity != 1,
      t.insertion.scale != 1 || t.removal.scale != 1,
      offset(t.insertion) != [0, 0] || offset(t.removal) != [0, 0],
    ]
    func add(_ suffix: String, _ range: Range<Int>, traced: [Int]) -> String {
      let name = base + suffix
      channels.append(
        Channel(
          name: name,
          bound: Bound(
            expression: .constant(Array(initial[range])), path: "layers", line: 0, column: 0),
          initial: Array(initial[range]), traced: traced,
          changes: moves.map {
            .init(
              time: $0.time, target: Array($0.target[range]), animation: $0.animation,
              madeAt: $0.madeAt)
          },
          lastTarget: Array(current[range])))
      return name
    }
    if used[0] { holder.opacity = .channel(add(".opacity", 0..<1, traced: [0]), component: 0) }
    if used[1] {
      holder.scale = .channel(add(".scale", 1..<2, traced: [0]), component: 0)
      let anchor = t.insertion.scale != 1 ? t.insertion.anchor : t.removal.anchor
      holder.scaleAnchor = Point((anchor.x - 0.5) * size.width, (anchor.y - 0.5) * size.height)
    }
    if used[2] {
      let name = add(".offset", 2..<4, traced: [0, 1])
      (holder.offsetX, holder.offsetY) = (
        .channel(name, component: 0), .channel(name, component: 1)
      )
    }
    // Drawn while there, and after a removal until its animation has ended.
    var drawn: [ChannelTimeline.Change] = []
    var laidOut: [ChannelTimeline.Change] = []
    for (k, change) in changes.enumerated() where presence[k + 1] != presence[k] {
      let there = presence[k + 1]
      laidOut.append(.init(time: change.made, target: [there ? 1 : 0], animation: .none))
      if there {
        drawn.append(.init(time: change.made - 1e-9, target: [1], animation: .none))
      } else {
        let upTo = moves.filter { $0.madeAt <= change.made }
        let end = ChannelTimeline(initial: initial, changes: upTo, frameRate: settings.frameRate)
          .settleTime
        // Not if it comes back first.
        let back = changes[(k + 1)...].enumerated().first { j, _ in presence[k + 2 + j] }
        if back.map({ $0.element.made > end }) ?? true {
          drawn.append(.init(time: end, target: [0], animation: .none))
        }
      }
    }
    initial = [presence[0] ? 1 : 0]
    for (suffix, list) in [(".drawn", drawn), (".present", laidOut)] {
      try countChanges(list.count)
      channels.append(
        Channel(
          name: base + suffix,
          bound: Bound(expression: .constant(initial), path: "layers", line: 0, column: 0),
          initial: initial, traced: [], changes: list, lastTarget: list.last?.target ?? initial))
    }
    holder.drawn = .channel(base + ".drawn", component: 0)
    holder.present = .channel(base + ".present", component: 0)
    return holder
  }

  /// Each different drawing of the node as a child shown (opacity 1) while its layout holds,
  /// switched at the changes without animation.
  private mutating func steps(
    _ nodes: [SceneNode], _ changes: [StateChange]
  ) throws(SceneFileError) -> SceneNode.Content {
    var distinct: [SceneNode.Content] = []
    var shown: [Int] = []
    for node in nodes {
      if let k = distinct.firstIndex(of: node.content) {
        shown.append(k)
      } else {
        distinct.append(node.content)
        shown.append(distinct.count - 1)
      }
    }
    let jumps = changes.map { ($0.made, $0.made, Animation.none) }
    var children: [SceneNode] = []
    for (k, content) in distinct.enumerated() {
      let channel = nodes[0].name + ".layout.version[\(k)]"
      _ = try layoutChannel(
        channel, shown.map { [$0 == k ? 1 : 0] }, jumps, suffixes: [""], traced: false)
      var child = SceneNode(channel, content, opacity: .channel(channel, component: 0))
      child.fillColor = nodes[0].fillColor
      children.append(child)
    }
    return .group(children)
  }

  /// Adds a channel named `name` that starts at `values[0]` and moves to `values[k]` at the k-th
  /// change with its animation; false (and no channel) when the values never differ. The trace
  /// shows the components that move (none when not `traced`).
  private mutating func layoutChannel(
    _ name: String, _ values: [[Double]], _ changes: [StateChange],
    suffixes: [String], traced: Bool = true
  ) throws(SceneFileError) -> Bool {
    // Layout's arithmetic leaves differences of a few ulps between layouts that place a view
    // alike (a centre of 0.1666…643 or …374 pt): those are no move.
    var values = values
    for k in values.indices.dropFirst()
    where zip(values[k], values[k - 1]).allSatisfy({ abs($0 - $1) < 1e-9 }) {
      values[k] = values[k - 1]
    }
    guard values.contains(where: { $0 != values[0] }) else { return false }
    let moving = values[0].indices.filter { i in values.contains { $0[i] != values[0][i] } }
    var channel = Channel(
      name: name,
      bound: Bound(expression: .constant(values[0]), path: "layers", line: 0, column: 0),
      initial: values[0], traced: traced ? moving : [], lastTarget: values[values.count - 1])
    channel.suffixes = suffixes
    for k in 1..<values.count where values[k] != values[k - 1] {
      try countChanges(1)
      channel.changes.append(
        .init(
          time: changes[k - 1].time, target: values[k], animation: changes[k - 1].animation,
          madeAt: changes[k - 1].made))
    }
    channels.append(channel)
    return true
  }

  /// Where a node's layer is declared among its siblings: its path up to its last `[`, and the
  /// index there (`layers[0].vstack[2]`: `layers[0].vstack`, 2); nil for a path that does not
  /// end in an index (a background, an overlay).
  static func declarationKey(_ node: SceneNode) -> (prefix: Substring, index: Int)? {
    guard let path = (node.layout ?? positionedChild(of: node)?.layout)?.path,
      path.hasSuffix("]"), let open = path.lastIndex(of: "["),
      let index = Int(path[path.index(after: open)..<path.index(before: path.endIndex)])
    else { return nil }
    return (path[..<open], index)
  }

  static let noRect = Rect(x: 0, y: 0, width: 0, height: 0)

  static let rectSuffixes = [".x", ".y", ".width", ".height"]

  static func components(_ r: Rect) -> [Double] { [r.minX, r.minY, r.width, r.height] }

  /// A drawing with its shape's and gradients' frames cleared, to compare two layouts' drawings
  /// by all else.
  static func withoutFrames(_ drawing: ShapeDrawing) -> ShapeDrawing {
    var d = drawing
    if case .shape(var shape) = d.outline {
      shape.frame = Self.noRect
      d.outline = .shape(shape)
    }
    func cleared(_ paint: PaintBinding) -> PaintBinding {
      guard case .gradient(var g) = paint else { return paint }
      g.frame = Self.noRect
      return .gradient(g)
    }
    d.fill = d.fill.map(cleared)
    if let stroke = d.stroke { d.stroke?.paint = cleared(stroke.paint) }
    return d
  }

  /// The frame of a clip to a shape, a rounded frame or a path placed in the frame (nil for a
  /// path placed once).
  static func clipFrame(_ clip: ClipBinding) -> Rect? {
    switch clip.outline {
    case .shape(let shape): return shape.frame
    case .roundedFrame(let frame, _, _): return frame
    case .placedPath(_, _, let frame): return frame
    case .path: return nil
    }
  }

  /// Whether two clips are the same but for their frames.
  static func sameClipShape(_ a: ClipBinding?, _ b: ClipBinding) -> Bool {
    guard let a, a.rule == b.rule else { return false }
    switch (a.outline, b.outline) {
    case (.shape(let x), .shape(let y)): return x.kind == y.kind
    case (.roundedFrame(_, let r, let s), .roundedFrame(_, let q, let t)): return r == q && s == t
    case (.placedPath(let p, let v, _), .placedPath(let q, let w, _)): return p == q && v == w
    default: return false
    }
  }
}
