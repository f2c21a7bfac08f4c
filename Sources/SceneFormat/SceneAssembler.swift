import Motion
import Raster
import SceneGraph
import Typeset

/// Builds a `Scene` from a `SceneDescription`: fixes the canvas, lays the layers out as SwiftUI
/// would (points, y down), binds every modifier that reads state to an animated channel, and
/// plays the taps and timed events in order to give each channel its changes.
struct SceneAssembler {
  let description: SceneDescription
  let settings: SceneSettings
  let fonts: FontCatalog

  // The canvas, in points.
  var width = 0.0
  var height = 0.0
  var safeTop = 0.0
  var safeBottom = 0.0
  var scale = 2.0

  /// Screen values and the initial state, as expressions see them.
  var scope = ExpressionScope()
  var stateNames: Set<String> = []
  /// The state values that start as true or false, and those that start as one number.
  var booleanStates: Set<String> = []
  var numberStates: Set<String> = []
  var channels: [Channel] = []
  /// The names of the channels `bind` made in the first layout: a later layout's binding to a
  /// name not among them belongs to a layer that was absent then.
  var boundChannels: Set<String> = []
  /// Texts broken into lines, by layer path and width.
  var texts: [String: Paragraph] = [:]
  /// By layer path, what an HStack's or VStack's content was last offered when measured: its
  /// children are placed at the sizes that offer gives, not re-sized to the size the stack took
  /// (SwiftUI places a stack's children with the proposal it was sized with).
  var stackProposals: [String: Size] = [:]
  /// Layers measured so far (`SceneLimits.layoutMeasures`).
  var measures = 0
  var notes: [String] = []
  /// The texts from state, as placed (`SceneAssembler+TextFromState.swift`).
  var textTemplates: [PlacedTemplate] = []
  /// The widest width each text from state was offered when measured (points), which its other
  /// versions wrap to.
  var templateOffers: [String: Double] = [:]
  /// The state after each change, when it took effect and how it animated.
  var snapshots: [(time: Double, made: Double, scope: ExpressionScope, animation: Animation)] = []
  /// The layers with `.animation(_:value:)`, by path.
  var valueAnimationLayers: [String: [ValueAnimation]] = [:]
  /// For each snapshot, the `.animation(_:value:)`s its change fired, by layer path.
  var snapshotAnimations: [[String: ChosenAnimation]] = []
  /// While layouts are merged: the snapshot each layout change came from.
  var layoutChangeSnapshots: [Int] = []
  /// While layouts are merged: for each node being merged, from the root down, its place on
  /// the screen in each layout and the changes it moves with (`.animation(_:value:)` may give a
  /// node other animations than its parent's).
  var layoutParents: [(onScreen: [[Double]], changes: [StateChange])] = []

  /// An animated value: the expression it follows, the components worth tracing, and the
  /// changes the events give it.
  struct Channel {
    var name: String
    var bound: Bound
    var initial: [Double]
    var traced: [Int]
    var changes: [ChannelTimeline.Change] = []
    var lastTarget: [Double]
    /// How the trace names the components (nil: `.x`/`.y` for two, `.r`…`.a` for four).
    var suffixes: [String]? = nil
    /// Whether its expression reads `time`: it is then sampled at every frame, not changed by
    /// the events.
    var readsTime = false
    var samples: [[Double]]? = nil
    /// Whether it holds a colour (straight RGBA, gamma-encoded), which animates in linear sRGB.
    var isColor = false
    /// Whether it takes each new value at once, at the change, whatever its animation (a value
    /// SwiftUI does not animate, as `allowsHitTesting`'s).
    var jumps = false
  }

  struct Size: Hashable {
    var width: Double
    var height: Double
  }

  var changeCount = 0
  /// Each layout's layers with a matched geometry, by node name: the resolved layer, its frame
  /// on the screen and its parent's origin on the screen (points), filled after each layout.
  var matchedPlacements: [Int: [String: MatchedPlacement]] = [:]
  /// The state each layout was made in.
  var layoutScopes: [Int: ExpressionScope] = [:]
  /// Each layout's nodes' centres on the screen (points), by name: filled when matched
  /// geometries need them.
  var nodeOrigins: [Int: [String: Point]] = [:]

  struct MatchedPlacement {
    var layer: LayerDescription
    var frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0)
    var parentOrigin = Point(0, 0)
  }

  /// Keyframe tracks that a trigger plays: their channel, the trigger and the animation each
  /// play gives them (filled once the events have played).
  var triggeredKeyframes: [(channel: String, trigger: Bound, animation: Animation)] = []

  /// Phase animators: their holder's name, keys, phases, animations, phase lengths and (without
  /// a trigger) their cycle's steps; `playPhases` gives their channels the changes.
  var pendingPhases:
    [(
      base: String, keys: [String], phases: PhasesDescription,
      animations: [AnimationDescription], lengths: [Double], steps: [PhaseStep]
    )] = []

  /// Where the first animation that repeats for ever was written.
  var endlessAnimation: String?
  /// Whether layout is running again for a later state (`animateLayout`): bindings name the
  /// channels the first layout made, and nothing is recorded twice.
  var rebuilding = false
  /// Whether layout lengths read state: shapes are then drawn from their frames, so that a
  /// frame can animate.
  var animatesLayout = false
  /// The state texts from state are written in while layout runs again for a later state
  /// (nil: `scope`'s).
  var textScope: ExpressionScope? = nil
  /// While layout runs again: the index of the layout being made (0: the first).
  var layoutVersion = 0
  /// For each change, the layout in effect after it when it was made again (nil: the first
  /// layout's sizes hold).
  var snapshotLayouts: [Int?] = []
  /// The layers with `"if"`, by the name of the node their parent holds: their own name, their
  /// transition and their laid-out size where they first were (points).
  var conditionalLayers: [String: ConditionalLayer] = [:]

  struct ConditionalLayer {
    var name: String
    var transition: TransitionDescription
    var size: Size
  }

  /// Where each layout put each text from state's box (node space, points), by node name and
  /// layout index.
  var templateBoxes: [String: [Int: Rect]] = [:]

  /// Counts `count` more changes of animated values against the scene's bound.
  /// Counts changes of animated values against `SceneLimits.changes`; past it, an error at
  /// `path` that blames `cause` (the events and taps unless a phase animator's cycle made them).
  mutating func countChanges(
    _ count: Int, path: String = "events", cause: String = "the events and taps"
  ) throws(SceneFileError) {
    changeCount += count
    guard changeCount <= SceneLimits.changes else {
      throw SceneFileError(
        path: path,
        "\(cause) change animated values \(changeCount) times; at most \(SceneLimits.changes)"
      )
    }
  }

  /// The scope at each frame of the duration (nil: the scene has none): the state in effect then
  /// (a change of state takes effect at once) with `time` the frame's time in seconds.
  func frameScopes(initial: ExpressionScope) -> [ExpressionScope]? {
    guard let duration = settings.duration ?? description.duration else { return nil }
    let rate = settings.frameRate
    let count = max(1, Int((duration * rate - 1e-9).rounded(.up)))
    var scopes: [ExpressionScope] = []
    scopes.reserveCapacity(count)
    var next = 0
    var state = initial
    for frame in 0..<count {
      let t = Double(frame) / rate
      while next < snapshots.count, snapshots[next].made <= t {
        state = snapshots[next].scope
        next += 1
      }
      state.values["time"] = [t]
      scopes.append(state)
    }
    return scopes
  }

  /// The values that follow time, at every frame of the duration: each expression with `time`
  /// the frame's time and the state in effect then (a change of state takes effect at once for
  /// them).
  private mutating func sampleTimeChannels(initial: ExpressionScope) throws(SceneFileError) {
    guard channels.contains(where: \.readsTime), let scopes = frameScopes(initial: initial)
    else { return }
    for index in channels.indices where channels[index].readsTime {
      var samples: [[Double]] = []
      samples.reserveCapacity(scopes.count)
      for state in scopes {
        samples.append(
          try channels[index].bound.evaluate(
            state, count: channels[index].initial.count, what: "the same size"))
      }
      channels[index].samples = samples
    }
  }

  /// Frames whose cost is estimated: spread evenly, first and last included.
  static let costSamples = 64

  init(_ description: SceneDescription, settings: SceneSettings, fonts: FontCatalog) {
    self.description = description
    self.settings = settings
    self.fonts = fonts
  }

  mutating func assemble() throws(SceneFileError) -> LoadedScene {
    let canvas = description.canvas
    if let device = settings.device ?? canvas.device {
      (width, height, safeTop, safeBottom) = (
        device.width, device.height, device.safeTop, device.safeBottom
      )
    } else {
      (width, height, safeTop, safeBottom) = (
        canvas.width ?? 390, canvas.height ?? 844, canvas.safeTop, canvas.safeBottom
      )
    }
    scale = settings.scale ?? canvas.scale ?? 2
    let safeHeight = height - safeTop - safeBottom
    var screen: [String: [Double]] = [
      "screen.width": [width], "screen.height": [height], "safeArea.top": [safeTop],
      "safeArea.bottom": [safeBottom], "safeArea.width": [width], "safeArea.height": [safeHeight],
      // `TimelineView(.animation)`'s date: seconds since the start (0 until sampled).
      "time": [0],
    ]
    // Colour names read in expressions (`"=on ? green : systemGray4"`), in the scene's scheme.
    for name in NamedColors.names {
      if let c = NamedColors.color(name, scheme: description.colorScheme) {
        screen[name] = [c.red, c.green, c.blue, c.alpha]
      }
    }
    scope = ExpressionScope(screen)
    for value in description.state {
      let v = try value.initial.evaluate(ExpressionScope(screen), count: nil, what: "a value")
      scope.values[value.name] = v
      stateNames.insert(value.name)
      if value.isBoolean
        || value.initial.expression.valueType(booleans: [], numbers: []) == .boolean
      {
        booleanStates.insert(value.name)
      } else if v.count == 1 {
        numberStates.insert(value.name)
      }
    }
    try checkConditions(description.layers)
    valueAnimationLayers = Self.valueAnimations(in: description.layers)
    try checkValueAnimations()
    // Every `set` keeps its state's type, checked once here (a tap's handler too, whether or
    // not a tap runs it).
    for assignments in description.events.map(\.assignments)
      + description.tapHandlers.map(\.assignments)
    {
      for assignment in assignments { try checkType(of: assignment) }
    }
    // A tap handler's names and sizes too: a handler no tap runs would otherwise hide them.
    for handler in description.tapHandlers {
      for assignment in handler.assignments { try checkHandlerAssignment(assignment) }
    }
    var ids: Set<String> = []
    var masked: Set<String> = []
    try checkIDs(description.layers, &ids, masked: &masked)
    // A handler's layer must exist, taps or not (a typo would otherwise show only with a tap).
    for handler in description.tapHandlers {
      // A mask's layers are drawn as its alpha, not as views: they take no taps.
      if let id = handler.layer, masked.contains(id) {
        throw SceneFileError(
          path: handler.path + ".layer",
          "the layer \"\(id)\" is inside a mask, which takes no taps: give the handler to the "
            + "masked layer", line: handler.layerLine, column: handler.layerColumn)
      }
      guard let id = handler.layer, !ids.contains(id) else { continue }
      throw SceneFileError(
        path: handler.path + ".layer",
        "no layer has the id \"\(id)\""
          + (ids.isEmpty
            ? " (no layer has an id)"
            : JSONField.didYouMean(id, among: ids.sorted(), quote: "\"")),
        line: handler.layerLine, column: handler.layerColumn)
    }
    var layers = description.layers
    if Self.hasLayoutBounds(layers) {
      var values: [Double] = []
      layers = try resolvingLayout(layers, in: scope, values: &values, when: "in the initial state")
      animatesLayout = Self.layoutReadsState(description.layers, stateNames)
    }
    // A text from state may change size, and its layout with it.
    animatesLayout = animatesLayout || Self.hasTextFromState(description.layers)
    var root = try layoutRoot(layers)
    let initialScope = scope
    try play(root: root, initial: initialScope)
    if animatesLayout {
      try animateLayout(&root, layers: description.layers, initial: initialScope)
    }
    try playKeyframes(initial: initialScope)
    try playPhases(initial: initialScope)
    try showTextsFromState(in: &root, initial: initialScope)
    try sampleTimeChannels(initial: initialScope)
    notes =
      fonts.warnings + fonts.missingCharacters + Self.unusedKeys(description.layers, nested: false)
      + notes
    var timelines: [String: ChannelTimeline] = [:]
    var columns: [TraceColumn] = []
    var linearColors: Set<String> = []
    for channel in channels {
      // A colour moves in linear sRGB, as SwiftUI's `Color.Resolved` does; one that follows
      // time is computed at every frame, and keyframes keep the values they were given.
      let linear =
        channel.isColor && channel.samples == nil
        && !channel.changes.contains { if case .keyframes = $0.animation { true } else { false } }
      if linear { linearColors.insert(channel.name) }
      let timeline =
        channel.samples.map { ChannelTimeline(samples: $0, frameRate: settings.frameRate) }
        ?? ChannelTimeline(
          initial: linear ? LinearSRGB.linear(channel.initial) : channel.initial,
          changes: linear
            ? channel.changes.map { change in
              var change = change
              change.target = LinearSRGB.linear(change.target)
              return change
            } : channel.changes,
          frameRate: settings.frameRate)
      timelines[channel.name] = timeline
      for index in timeline.unsettledChanges {
        notes.append(
          "\(channel.name): the animation that starts at "
            + "\(Self.format(timeline.changes[index].time)) s has not settled "
            + "\(Self.format(ChannelTimeline.longestAnimation)) s later (a spring with little or "
            + "no damping); it ends there and the value jumps to its target")
      }
      let suffixes =
        channel.suffixes
        ?? (channel.initial.count == 2
          ? [".x", ".y"] : channel.initial.count == 4 ? [".r", ".g", ".b", ".a"] : [""])
      for component in channel.traced {
        columns.append(
          TraceColumn(
            channel.name + suffixes[component], channel: channel.name, component: component))
      }
    }
    var scene = Scene(
      width: width, height: height, scale: scale, background: description.canvas.background,
      root: root, channels: timelines, traceColumns: columns, frameRate: settings.frameRate,
      hold: settings.hold)
    scene.linearColorChannels = linearColors
    scene.duration = settings.duration ?? description.duration
    if scene.duration == nil,
      let endless = channels.first(where: { channel in
        channel.changes.contains { $0.animation.isEndless }
      })
    {
      throw SceneFileError(
        path: endlessAnimation ?? "events",
        "the animation repeats for ever (repeatForever) and moves \(endless.name), so the scene "
          + "never ends: " + Self.durationAdvice + " to say how long to render")
    }
    guard scene.pixelWidth <= SceneLimits.frameSidePixels,
      scene.pixelHeight <= SceneLimits.frameSidePixels,
      scene.pixelWidth * scene.pixelHeight <= SceneLimits.framePixels
    else {
      throw SceneFileError(
        path: "canvas",
        "\(scene.pixelWidth)×\(scene.pixelHeight) pixels; at most \(SceneLimits.frameSidePixels) a side and \(SceneLimits.framePixels) in all"
      )
    }
    try checkCost(of: scene)
    return LoadedScene(scene: scene, notes: notes)
  }

  /// Refuses, before anything is drawn, a scene whose frames would take too long or need too
  /// large an offscreen: the cost of up to `costSamples` frames spread over the animation is
  /// estimated from their layers' geometry.
  private func checkCost(of scene: Scene) throws(SceneFileError) {
    let count = scene.frameCount
    let step = max(1, (count - 1) / (Self.costSamples - 1))
    let samples = Set(Array(stride(from: 0, to: count, by: step)) + [count - 1])
    let costs = samples.sorted().map { scene.estimatedCost(frame: $0) }
    guard let worst = costs.max(by: { $0.work < $1.work }),
      let largest = costs.map(\.largestIsolatedPixels).max()
    else { return }
    func amount(_ work: Double) -> String {
      work >= 1e9
        ? "\(Self.format((work / 1e8).rounded() / 10)) G"
        : "\(Self.format((work / 1e5).rounded() / 10)) M"
    }
    let what =
      "\(worst.isolatedLayers) layer\(worst.isolatedLayers == 1 ? "" : "s") drawn offscreen, "
      + "the largest \(amount(Double(worst.largestIsolatedPixels))) pixels; "
      + "\(worst.shadows) shadow\(worst.shadows == 1 ? "" : "s")"
    let advice =
      "use fewer or smaller shadowed or translucent layers, smaller shadow or blur radii, or a "
      + "smaller "
      + "canvas or --scale"
    /// The layer that makes a sampled frame too costly, by the test that failed, and where it
    /// is written.
    func culprit(_ exceeds: (RenderCost) -> Bool) -> (path: String, line: Int?, column: Int?) {
      for (frame, cost) in zip(samples.sorted(), costs) where exceeds(cost) {
        guard let path = scene.costliestLayerPath(frame: frame, where: exceeds) else { break }
        let layer = Self.layer(at: path, in: description.layers)
        return (path, layer?.line, layer?.column)
      }
      return ("layers", nil, nil)
    }
    /// The error `message` at the layer that makes a sampled frame fail `exceeds`, at its key
    /// `key` gives (nil: the layer itself).
    func refusal(
      _ message: String, key: (LayerDescription) -> String? = { _ in nil },
      where exceeds: (RenderCost) -> Bool
    ) -> SceneFileError {
      let at = culprit(exceeds)
      let suffix = Self.layer(at: at.path, in: description.layers).flatMap(key) ?? ""
      return SceneFileError(path: at.path + suffix, message, line: at.line, column: at.column)
    }
    if let dashes = costs.map(\.mostDashes).max(), dashes > Double(Dasher.maximumDashes) {
      throw refusal(
        "a stroke's dash pattern would cut its path into about \(Int(min(dashes, 1e15))) dashes; "
          + "at most \(Dasher.maximumDashes) are drawn: give the dash a longer pattern (points)",
        // The key that gives the pattern, where the layer strokes its shape itself.
        key: { layer in layer.stroke.map { $0.inside ? ".strokeBorder.dash" : ".stroke.dash" } }
      ) { $0.mostDashes > Double(Dasher.maximumDashes) }
    }
    if let points = costs.map(\.mostStrokePoints).max(), points > Double(Stroker.maximumPoints) {
      throw refusal(
        "a stroke's outline would have about \(Int(min(points, 1e15))) points; at most "
          + "\(Stroker.maximumPoints) are drawn: use a narrower stroke, fewer round joins or "
          + "caps, a longer dash pattern, or a smaller canvas or --scale"
      ) { $0.mostStrokePoints > Double(Stroker.maximumPoints) }
    }
    if largest > SceneLimits.offscreenPixels {
      throw refusal(
        "a layer drawn offscreen (translucent, shadowed, blurred, clipped or masked) would need "
          + "\(amount(Double(largest))) pixels, its blur margins included; at most "
          + "\(amount(Double(SceneLimits.offscreenPixels))): \(advice)"
      ) { $0.largestIsolatedPixels > SceneLimits.offscreenPixels }
    }
    if worst.work > SceneLimits.frameWork {
      throw SceneFileError(
        path: "layers",
        "a frame would cost about \(amount(worst.work)) pixel operations (\(what)); at most "
          + "\(amount(SceneLimits.frameWork)) are drawn per frame: \(advice)")
    }
    let total = worst.work * Double(count)
    if total > SceneLimits.renderWork {
      throw SceneFileError(
        path: "layers",
        "\(count) frames of about \(amount(worst.work)) pixel operations each (\(what)) would "
          + "cost \(amount(total)) in all; at most \(amount(SceneLimits.renderWork)): \(advice), "
          + "or fewer frames (--fps, --hold; SceneSettings.frameRate, .hold)")
    }
  }

  /// The layer written at `path` (`layers[1].zstack[0].mask`), searched through stacks, masks,
  /// backgrounds and overlays.
  static func layer(at path: String, in layers: [LayerDescription]) -> LayerDescription? {
    for layer in layers {
      if layer.path == path { return layer }
      guard path.hasPrefix(layer.path) else { continue }
      var inner = layer.effects.mask + layer.backgrounds.map(\.layer) + layer.overlays.map(\.layer)
      if case .stack(_, let children, _, _) = layer.content { inner += children }
      if let found = Self.layer(at: path, in: inner) { return found }
    }
    return nil
  }

  private func checkIDs(
    _ layers: [LayerDescription], _ ids: inout Set<String>, inMask: Bool = false,
    masked: inout Set<String>
  ) throws(SceneFileError) {
    for layer in layers {
      if let id = layer.id, !ids.insert(id).inserted {
        throw SceneFileError(
          path: layer.path + ".id", "the id \"\(id)\" is used twice", line: layer.line,
          column: layer.column)
      }
      if inMask, let id = layer.id { masked.insert(id) }
      if case .stack(_, let children, _, _) = layer.content {
        try checkIDs(children, &ids, inMask: inMask, masked: &masked)
      }
      try checkIDs(layer.effects.mask, &ids, inMask: true, masked: &masked)
      try checkIDs(
        layer.backgrounds.map(\.layer) + layer.overlays.map(\.layer), &ids, inMask: inMask,
        masked: &masked)
    }
  }

  /// Warnings for keys a layer takes that do nothing where it is: `ignoresSafeArea` below the
  /// top level (only top-level layers are laid out against the safe area), `contentTransition`
  /// on a text that is not from state.
  static func unusedKeys(_ layers: [LayerDescription], nested: Bool) -> [String] {
    var notes: [String] = []
    for layer in layers {
      if nested, !layer.ignoresSafeArea.isEmpty {
        notes.append(
          "warning: \(layer.path).ignoresSafeArea does nothing below the top level; give it to "
            + "the top-level layer whose area should reach the screen's edge")
      }
      if case .text(let runs, _) = layer.content, layer.textOptions.ownTransition,
        layer.textOptions.transition != .opacity,
        !runs.contains(where: { $0.template != nil })
      {
        notes.append(
          "warning: \(layer.path).contentTransition does nothing on a text that is not from "
            + "state (=\"\\(…)\")")
      }
      var inner = layer.effects.mask + layer.backgrounds.map(\.layer) + layer.overlays.map(\.layer)
      if case .stack(_, let children, _, _) = layer.content { inner += children }
      notes += unusedKeys(inner, nested: true)
    }
    return notes
  }

  /// The screen's node: the top-level layers laid out in the safe area, each centred in it,
  /// unless they ignore it on some edges.
  mutating func layoutRoot(_ layers: [LayerDescription]) throws(SceneFileError) -> SceneNode {
    /// The safe area, reaching the screen's edge on the edges a layer ignores it on (the
    /// presets' safe areas have no leading or trailing inset).
    func area(ignoring edges: EdgeSet) -> Rect {
      let top = edges.top ? 0 : safeTop
      let bottom = edges.bottom ? height : height - safeBottom
      return Rect(x: 0, y: top, width: width, height: bottom - top)
    }
    var children: [(node: SceneNode, z: Double)] = []
    for layer in layers {
      let area = area(ignoring: layer.ignoresSafeArea)
      let size = try measure(layer, Size(width: area.width, height: area.height))
      let box = onGrid(
        Rect(
          x: snapped(area.minX, (area.width - size.width) / 2),
          y: snapped(area.minY, (area.height - size.height) / 2), width: size.width,
          height: size.height), in: area, keepingSize: Self.laysItselfOut(layer))
      children.append((try node(layer, box: box), layer.zIndex))
    }
    return SceneNode("screen", .group(Self.byZIndex(children)))
  }

  static func byZIndex(_ children: [(node: SceneNode, z: Double)]) -> [SceneNode] {
    children.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
      .map(\.element.node)
  }

  // MARK: - Bindings

  /// The names a tap handler's `set` reads besides the state: where the finger landed.
  static let tapNames: Set<String> = ["tap", "tap.x", "tap.y"]

  /// What a scene that never ends needs, as every such message says it.
  static let durationAdvice =
    "give --duration SECONDS (or a top-level \"duration\"; SceneSettings.duration in the library)"

  /// A modifier's value: a constant, or a channel when its expression reads state. `count` is
  /// how many components it must have.
  mutating func bind(
    _ bound: Bound, _ name: String, count: Int, what: String, animated: Bool = true
  ) throws(SceneFileError) -> [ScalarBinding] {
    // The value, or the components it is made of (a colour object's, a point's, hsb()'s).
    let parts: [Expression]
    switch bound.expression {
    case .vector(let components): parts = components
    case .call(let f, let arguments) where f == "hsb" || f == Expression.hsbInitializer:
      parts = arguments
    default: parts = [bound.expression]
    }
    if what != "true or false" {
      let types = parts.map { $0.valueType(booleans: booleanStates, numbers: numberStates) }
      if types.contains(.boolean) {
        // As Swift would not compile `Color(white: on)` or `.opacity(on)`.
        throw bound.error(
          "expected \(what), not true or false: choose with ?:, as on ? 1 : 0 (Swift needs "
            + "a value here, not a Bool)")
      }
      if types.contains(.mixed) {
        throw bound.error(
          "expected \(what), but the two sides of a ?: differ, one true or false and one a "
            + "number (Swift needs a value from both)")
      }
    }
    // Every name is checked, not only those the state at hand reaches: a misspelt name in the
    // branch of a ?: that no state takes passed unseen.
    for name in bound.expression.names.sorted()
    where scope.value(of: name) == nil && !Self.tapNames.contains(name) {
      throw bound.error("unknown name '\(name)'" + scope.suggestion(for: name))
    }
    let value = try bound.evaluate(scope, count: count, what: what)
    let readsTime = bound.expression.names.contains("time")
    guard readsTime || bound.expression.reads(anyOf: stateNames) else {
      return value.map { .constant($0) }
    }
    if readsTime, settings.duration ?? description.duration == nil {
      throw bound.error(
        "the value follows time, so the scene never ends: " + Self.durationAdvice
          + " to say how long to render")
    }
    var traced = Array(0..<count)
    if case .vector(let parts) = bound.expression {
      traced = parts.indices.filter { parts[$0].reads(anyOf: stateNames) }
    }
    /// The value's channel, starting at `initial`.
    func channel(from initial: [Double]) -> Channel {
      var channel = Channel(
        name: name, bound: bound, initial: initial, traced: traced, lastTarget: initial)
      channel.readsTime = readsTime
      channel.jumps = !animated
      channel.isColor = what == "a colour"
      return channel
    }
    if rebuilding {
      // A layer absent from the initial state (an `if` that was false) gets its channel when it
      // first appears: its value in that state, then the changes of the later states with
      // their animations, as SwiftUI animates a view's modifiers once it is there.
      if let present = textScope, !boundChannels.contains(name) {
        var channel = channel(from: try bound.evaluate(present, count: count, what: what))
        if !readsTime {
          let appeared = snapshotLayouts.count - 1
          for i in snapshots.indices where i > appeared {
            let target = try bound.evaluate(snapshots[i].scope, count: count, what: what)
            guard target != channel.lastTarget else { continue }
            let change = snapshotChange(i, at: bound.path)
            channel.changes.append(
              channel.jumps || change.animation == .none
                ? .init(time: snapshots[i].made, target: target, animation: .none)
                : .init(
                  time: change.time, target: target, animation: change.animation,
                  madeAt: snapshots[i].made))
            channel.lastTarget = target
          }
          try countChanges(channel.changes.count)
        }
        channels.append(channel)
        boundChannels.insert(name)
      }
      return (0..<count).map { .channel(name, component: $0) }
    }
    channels.append(channel(from: value))
    boundChannels.insert(name)
    return (0..<count).map { .channel(name, component: $0) }
  }

  // MARK: - Events

  /// Plays taps and timed events in time order (timed events first at equal times), turning
  /// each state change into changes of the channels whose values it moves.
  private mutating func play(root: SceneNode, initial: ExpressionScope) throws(SceneFileError) {
    enum Item {
      case event(TimedEvent)
      case tap(x: Double, y: Double, time: Double)
    }
    var items: [(time: Double, item: Item)] = description.events.map { ($0.time, .event($0)) }
    let screenScope = ExpressionScope(scope.values.filter { !stateNames.contains($0.key) })
    if let taps = settings.taps {
      items += taps.map { ($0.time, .tap(x: $0.x, y: $0.y, time: $0.time)) }
    } else {
      for tap in description.taps {
        let x = try tap.x.evaluate(screenScope, count: 1, what: "a number")[0]
        let y = try tap.y.evaluate(screenScope, count: 1, what: "a number")[0]
        // As `--tap` is refused there: a finger lands on the screen.
        for (value, bound, extent) in [(x, tap.x, width), (y, tap.y, height)]
        where !(0...extent).contains(value) {
          throw bound.error(
            "\(Self.format(value)) lies outside the \(Self.format(width))×\(Self.format(height)) pt "
              + "screen (0 … \(Self.format(extent)))")
        }
        items.append((tap.time, .tap(x: x, y: y, time: tap.time)))
      }
    }
    let ordered = items.enumerated().sorted {
      ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
    }.map(\.element.item)
    let end = settings.duration ?? description.duration
    for item in ordered {
      if let end {
        // What comes at or after the render's end (its frames are before it) changes nothing
        // that is shown: say so.
        switch item {
        case .event(let event) where event.time >= end:
          notes.append(
            "the event at \(Self.format(event.time)) s comes after the end (a duration of "
              + "\(Self.format(end)) s): nothing it changes is shown")
        case .tap(let x, let y, let time) where time >= end:
          notes.append(
            "the tap at \(Self.format(x)),\(Self.format(y))@\(Self.format(time)) comes after the "
              + "end (a duration of \(Self.format(end)) s): nothing it changes is shown")
        default: break
        }
      }
      switch item {
      case .event(let event):
        try apply(event.assignments, animation: event.animation, at: event.time, extra: [:])
      case .tap(let x, let y, let time):
        // Hit-tested against the layout of the moment: when layout changes with state, the
        // layouts the changes so far give, merged as they will be drawn.
        var placed = (root: root, channels: channels)
        // (Only handlers bound to a layer hit-test.)
        if animatesLayout, !snapshots.isEmpty,
          description.tapHandlers.contains(where: { $0.layer != nil })
        {
          var trial = self
          try trial.animateLayout(&placed.root, layers: description.layers, initial: initial)
          placed.channels = trial.channels
        }
        guard
          let handler = handler(
            for: Point(x, y), at: time, root: placed.root, channels: placed.channels)
        else {
          let layers = description.tapHandlers.compactMap(\.layer).map { "'\($0)'" }
          notes.append(
            "tap at \(Self.format(x)),\(Self.format(y))@\(Self.format(time)) misses "
              + (layers.isEmpty
                ? "every tap handler (the file has no onTap)"
                : "the tappable layers (" + layers.joined(separator: ", ") + ")")
              + "; nothing changes")
          continue
        }
        try apply(
          handler.assignments, animation: handler.animation, at: time,
          extra: ["tap": [x, y], "tap.x": [x], "tap.y": [y]])
      }
    }
  }

  static func format(_ v: Double) -> String { JSONValue.format(v) }

  /// The handler a tap at `point` runs at `time`, as SwiftUI routes a tap: to the frontmost
  /// layer that takes it (`HitTest`: not one behind it, nor one faded out or with
  /// `allowsHitTesting` false) and then its ancestors, the innermost layer with a handler first
  /// (a child's gesture wins over its parent's), a layer's handlers in file order; else to a
  /// handler without a layer (a gesture on the whole screen).
  private func handler(
    for point: Point, at time: Double, root: SceneNode, channels: [Channel]
  ) -> TapHandler? {
    var values: [String: [Double]] = [:]
    // A value that follows time as the frame at the tap's moment shows it: its expression with
    // the state of the moment (the events and taps so far) and `time`.
    var now = scope
    now.values["time"] = [time]
    for channel in channels {
      if channel.readsTime {
        values[channel.name] = try? channel.bound.evaluate(
          now, count: channel.initial.count, what: "the same size")
        continue
      }
      values[channel.name] = ChannelTimeline(
        initial: channel.initial, changes: channel.changes, frameRate: settings.frameRate
      ).value(at: time)
    }
    if let chain = HitTest.chain(at: point, in: root, values) {
      for node in chain.reversed() {
        if let handler = description.tapHandlers.first(where: { $0.layer == node.name }) {
          return handler
        }
      }
    }
    return description.tapHandlers.first { $0.layer == nil }
  }

  /// The nodes from the root's child down to the node named `name`.
  static func chain(to name: String, in node: SceneNode) -> [SceneNode]? {
    guard case .group(let children) = node.content else { return nil }
    for child in children {
      if child.name == name { return [child] }
      if let below = chain(to: name, in: child) { return [child] + below }
    }
    return nil
  }

  /// Refuses a condition that is a number where Swift needs a Bool: an `"if"`,
  /// `allowsHitTesting` and the condition of a choice of texts (`=n ? "a" : "b"`), in every
  /// layer; write a comparison (`n != 0`).
  private func checkConditions(_ layers: [LayerDescription]) throws(SceneFileError) {
    func check(
      _ expression: Expression, _ what: String, _ error: (String) -> SceneFileError
    )
      throws(SceneFileError)
    {
      switch expression.valueType(booleans: booleanStates, numbers: numberStates) {
      case .number:
        throw error(
          "\(what) is true or false, not a number: write a comparison, as n != 0 (Swift needs a "
            + "Bool here)")
      case .mixed:
        throw error(
          "\(what) is true or false, but the two sides of its ?: differ, one true or false and "
            + "one a number (Swift needs a Bool from both)")
      default: return
      }
    }
    for layer in layers {
      if let c = layer.condition { try check(c.expression, "\"if\"", c.error) }
      if let a = layer.allowsHitTesting { try check(a.expression, "allowsHitTesting", a.error) }
      if case .text(let runs, _) = layer.content {
        for run in runs {
          for c in run.template?.conditions ?? [] {
            try check(c, "the condition of a choice of texts") { message in
              SceneFileError(path: run.path, message, line: layer.line, column: layer.column)
            }
          }
        }
      }
      try checkConditions(Self.innerLayers(layer))
    }
  }

  /// Refuses a `set` whose value is not of its state's type, as Swift's types do: a Bool state
  /// takes true or false, a number state a number (a state of more components is checked by its
  /// count when set). A state that does not exist is left to `apply`, which names the known.
  func checkType(of assignment: Assignment) throws(SceneFileError) {
    guard stateNames.contains(assignment.name), scope.values[assignment.name]?.count == 1 else {
      return
    }
    let isBool = booleanStates.contains(assignment.name)
    let given: Expression.ValueType =
      assignment.isBooleanLiteral.map { $0 ? .boolean : .number }
      ?? assignment.value.expression.valueType(booleans: booleanStates, numbers: numberStates)
    switch given {
    case .unknown: return
    case .mixed:
      throw assignment.value.error(
        "the two sides of ?: differ, one true or false and one a number: \"\(assignment.name)\" "
          + "takes \(isBool ? "true or false" : "a number") from both")
    case .boolean where !isBool:
      throw assignment.value.error(
        "\"\(assignment.name)\" is a number (its initial value), not true or false: write 1 or "
          + "0, or make its initial value true or false")
    case .number where isBool:
      throw assignment.value.error(
        "\"\(assignment.name)\" is true or false (its initial value), not a number")
    default: return
    }
  }

  /// Sets state values (all computed from the state before the change) and retargets every
  /// channel whose value moves, with `animation`, from `time` + its delay.
  /// The current value of the state `assignment` sets; an error when no state has its name or
  /// the new value reads time.
  private func assigned(_ assignment: Assignment) throws(SceneFileError) -> [Double] {
    if assignment.value.expression.names.contains("time") {
      throw assignment.value.error(
        "a state change cannot read time (it happens at its event's or tap's moment, which "
          + "\"at\" already gives): read time in the modifier instead")
    }
    guard let old = scope.values[assignment.name], stateNames.contains(assignment.name) else {
      throw assignment.value.error(
        "no state value is named \"\(assignment.name)\""
          + ExpressionScope(scope.values.filter { stateNames.contains($0.key) }).suggestion(
            for: assignment.name))
    }
    return old
  }

  /// What `apply` would refuse in a tap handler's assignment whatever the tap, checked when the
  /// scene loads: reading time, a state that does not exist, an unknown name, a value of the
  /// wrong size (`tap` is a point, `tap.x` and `tap.y` numbers). Sizes that depend on values
  /// (the two sides of `?:` differ) are left to the tap.
  private func checkHandlerAssignment(_ assignment: Assignment) throws(SceneFileError) {
    let expression = assignment.value.expression
    let old = try assigned(assignment)
    var tapped = scope
    tapped.values["tap"] = [0, 0]
    let count: Int?
    do {
      count = try expression.components({ tapped.value(of: $0)?.count }, scope: tapped)
    } catch { throw assignment.value.error(error.description) }
    if let count, count != old.count {
      throw assignment.value.error(
        "expected \(old.count) component\(old.count == 1 ? "" : "s") like its initial value, got "
          + "\(count) component\(count == 1 ? "" : "s")")
    }
  }

  private mutating func apply(
    _ assignments: [Assignment], animation: AnimationDescription, at time: Double,
    extra: [String: [Double]]
  ) throws(SceneFileError) {
    var before = scope
    before.values.merge(extra) { $1 }
    var after = scope
    for assignment in assignments {
      let old = try assigned(assignment)
      after.values[assignment.name] = try assignment.value.evaluate(
        before, count: old.count,
        what: "\(old.count) component\(old.count == 1 ? "" : "s") like its initial value")
    }
    scope = after
    let resolved = animation.resolve(settings.swiftUI)
    if resolved.isEndless, endlessAnimation == nil { endlessAnimation = animation.path }
    // `.animation(_:value:)`s whose values this change moves.
    var afterWithExtra = after
    afterWithExtra.values.merge(extra) { $1 }
    let fired =
      valueAnimationLayers.isEmpty
      ? [:] : try firedValueAnimations(before: before, after: afterWithExtra)
    for path in fired.keys.sorted() where fired[path]?.animation.isEndless == true {
      if endlessAnimation == nil { endlessAnimation = path + ".animation" }
    }
    snapshots.append((time + animation.delay, time, scope, resolved))
    snapshotAnimations.append(fired)
    for index in channels.indices where !channels[index].readsTime {
      let target = try channels[index].bound.evaluate(
        scope, count: channels[index].initial.count, what: "the same size")
      guard target != channels[index].lastTarget else { continue }
      try countChanges(1)
      let chosen =
        fired.isEmpty ? nil : Self.governing(channels[index].bound.path, in: fired)
      channels[index].changes.append(
        channels[index].jumps
          ? .init(time: time, target: target, animation: .none)
          : .init(
            time: time + (chosen?.delay ?? animation.delay), target: target,
            animation: chosen?.animation ?? resolved, madeAt: time))
      channels[index].lastTarget = target
    }
  }
}
