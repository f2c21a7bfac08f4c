import Motion
import Raster

/// An animated scene as data: a canvas, a tree of nodes whose modifiers may be bound to animated
/// channels, and the channels' timelines. A frame is a pure function of the scene and the frame
/// index: frame i shows time i / frameRate.
public struct Scene: Hashable, Sendable {
  /// The screen in points, the pixels per point, and what fills it first.
  public var width: Double
  public var height: Double
  public var scale: Double
  public var background: Color
  public var root: SceneNode
  public var channels: [String: ChannelTimeline]
  /// The trace's value columns: header, channel and component, in order.
  public var traceColumns: [TraceColumn]
  public var frameRate: Double
  /// Seconds of still frames after the last animation ends.
  public var hold: Double
  /// Seconds rendered, whatever the animations do (`--duration`): frames 0 ..< duration × fps,
  /// the hold ignored. A scene whose animations never end needs one.
  public var duration: Double? = nil
  /// Colour channels whose timelines run in linear sRGB (`LinearSRGB`): `values(at:)` encodes
  /// them again, so a colour animates as SwiftUI's `Color.Resolved` does.
  public var linearColorChannels: Set<String> = []

  public init(
    width: Double, height: Double, scale: Double, background: Color, root: SceneNode,
    channels: [String: ChannelTimeline], traceColumns: [TraceColumn],
    frameRate: Double, hold: Double
  ) {
    self.width = width
    self.height = height
    self.scale = scale
    self.background = background
    self.root = root
    self.channels = channels
    self.traceColumns = traceColumns
    self.frameRate = frameRate
    self.hold = hold
  }

  /// Pixel size of a frame.
  public var pixelWidth: Int { Int((width * scale).rounded()) }
  public var pixelHeight: Int { Int((height * scale).rounded()) }

  /// When the last animation ends, in seconds.
  public var settleTime: Double { channels.values.map(\.settleTime).max() ?? 0 }

  /// Frames 0...n−1: through the end of the animation and the hold, or the `duration`'s frames
  /// (at least one). A scene that never settles and has no duration has one frame (its
  /// assembler refuses it before).
  /// A frame rate or length that gives no finite count (a scene built in code with a frame
  /// rate of 0 or NaN; `SceneExporter.checkScene` refuses it) counts one frame, and a count past
  /// what an Int holds is clamped rather than trapping.
  public var frameCount: Int {
    func count(_ frames: Double) -> Int {
      guard frames.isFinite else { return 1 }
      return Int(min(max(frames, 1), 1e15))
    }
    if let duration { return count((duration * frameRate - 1e-9).rounded(.up)) }
    let end = settleTime + hold
    guard end.isFinite else { return 1 }
    return count((end * frameRate - 1e-9).rounded(.up) + 1)
  }

  public func time(ofFrame index: Int) -> Double { Double(index) / frameRate }

  /// Every channel's value at `time`.
  public func values(at time: Double) -> [String: [Double]] {
    var values = channels.mapValues { $0.value(at: time) }
    for name in linearColorChannels {
      if let linear = values[name] { values[name] = LinearSRGB.encoded(linear) }
    }
    return values
  }

  /// The layer tree at `time`, in points.
  public func layer(at time: Double) -> Layer { root.layer(values(at: time)) }

  /// Renders frame `index` into a new pixmap (premultiplied, device pixels).
  public func render(frame index: Int, compositor: inout Compositor) -> Pixmap? {
    render(frame: index, compositor: &compositor, base: nil)
  }

  /// The background with the scene's leading static layers drawn on it: what every frame starts
  /// from. Static layers that follow an animated one are left for each frame, so the stacking
  /// order is kept.
  public func renderBase(compositor: inout Compositor) -> SceneBase? {
    guard
      var pixmap = Pixmap(
        width: pixelWidth, height: pixelHeight, filledWith: background.premultiplied)
    else { return nil }
    let (drawn, rest) = root.splittingStaticPrefix(values(at: 0))
    for layer in drawn {
      compositor.render(layer, into: &pixmap, transform: .scale(scale, scale))
    }
    return SceneBase(pixels: pixmap, rest: rest)
  }

  /// Renders frame `index`, starting from `base` when given (see `renderBase`).
  public func render(frame index: Int, compositor: inout Compositor, base: SceneBase?) -> Pixmap? {
    let values = self.values(at: time(ofFrame: index))
    let toPixels = Transform.scale(scale, scale)
    guard let base else {
      guard
        var pixmap = Pixmap(
          width: pixelWidth, height: pixelHeight, filledWith: background.premultiplied)
      else { return nil }
      compositor.render(root.layer(values), into: &pixmap, transform: toPixels)
      return pixmap
    }
    var pixmap = base.pixels
    if let rest = base.rest {
      compositor.render(rest.layer(values), into: &pixmap, transform: toPixels)
    }
    return pixmap
  }

  /// Renders frame `index` into `canvas`, a frame drawn earlier from the same `base`: where
  /// that frame drew (`drawn`, what this call returned for it; nil for the base itself) the base
  /// is put back, then the frame's layers are drawn. Returns where this frame drew (its damage,
  /// `Compositor.damage`): outside it `canvas` holds the base. The pixels equal
  /// `render(frame:compositor:base:)`'s, byte for byte, with only the damage touched.
  public func render(
    frame index: Int, compositor: inout Compositor, base: SceneBase, onto canvas: inout Pixmap,
    over drawn: IntRect?
  ) -> IntRect? {
    if let drawn { canvas.copy(drawn, from: base.pixels) }
    guard let rest = base.rest else { return nil }
    let layer = rest.layer(values(at: time(ofFrame: index)))
    let toPixels = Transform.scale(scale, scale)
    let damage = Compositor.damage(of: layer, parent: toPixels, target: canvas.bounds)
    if damage != nil { compositor.render(layer, into: &canvas, transform: toPixels) }
    return damage
  }

  /// Where frame `index` draws over its base (see `render(frame:compositor:base:onto:over:)`);
  /// nil when nowhere.
  public func damage(frame index: Int, base: SceneBase) -> IntRect? {
    guard let rest = base.rest else { return nil }
    return Compositor.damage(
      of: rest.layer(values(at: time(ofFrame: index))), parent: .scale(scale, scale),
      target: base.pixels.bounds)
  }

  /// What drawing frame `index` costs, estimated from its layers' geometry (see `RenderCost`):
  /// the background and every layer, as `render` draws them.
  public func estimatedCost(frame index: Int) -> RenderCost {
    let target = IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
    var cost = root.layer(values(at: time(ofFrame: index))).estimatedCost(
      under: .scale(scale, scale), target: target)
    cost.work += Double(pixelWidth) * Double(pixelHeight)
    return cost
  }

  /// The scene-file path (`layers[2].overlay`) of the deepest layer whose own estimated cost at
  /// frame `index` satisfies `exceeds`, when the layers that pass are named: how a refusal of
  /// the whole scene's cost names the layer that makes it too costly.
  public func costliestLayerPath(
    frame index: Int, where exceeds: (RenderCost) -> Bool
  ) -> String? {
    let target = IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
    let values = values(at: time(ofFrame: index))
    func search(_ node: SceneNode, _ layer: Layer, under parent: Transform) -> String? {
      guard exceeds(layer.estimatedCost(under: parent, target: target)) else { return nil }
      if case .group(let children) = node.content, case .group(let drawn) = layer.content,
        children.count == drawn.count
      {
        let t = layer.transform.concatenating(parent)
        for (child, childLayer) in zip(children, drawn) {
          if let path = search(child, childLayer, under: t) { return path }
        }
      }
      if let maskNode = node.mask.first, let mask = layer.mask,
        let path = search(maskNode, mask.layer, under: layer.transform.concatenating(parent))
      {
        return path
      }
      return node.layout?.path
    }
    return search(root, root.layer(values), under: .scale(scale, scale))
  }

  /// The trace row of frame `index`: frame, time, then the trace columns' values in points.
  public func traceRow(frame index: Int) -> [Double] {
    let t = time(ofFrame: index)
    let values = values(at: t)
    return [Double(index), t]
      + traceColumns.map { column in
        // A column naming a channel or a component the scene lacks shows 0.
        guard let value = values[column.channel], value.indices.contains(column.component)
        else { return 0 }
        return value[column.component]
      }
  }
}

/// One value column of a scene's trace: a header and the channel component it shows.
public struct TraceColumn: Hashable, Sendable {
  public var header: String
  public var channel: String
  public var component: Int

  public init(_ header: String, channel: String, component: Int = 0) {
    self.header = header
    self.channel = channel
    self.component = component
  }
}

/// A frame's starting point: the background and the scene's leading static layers.
public struct SceneBase: Sendable {
  public var pixels: Pixmap
  /// What is left to draw each frame (nil when the whole scene is static).
  public var rest: SceneNode?
}
