import Raster

/// A view of a scene with SwiftUI-shaped modifiers, all in points.
///
/// The content is drawn centred on its own origin; then, in SwiftUI's order: `.shadow` (in the
/// content's space), `.offset(x:y:)`, `.scaleEffect(_:)` about the layout centre (so an offset
/// inside it is scaled too), placement at `center` (`.position`, or where the parent's layout puts
/// it), and `.opacity` as group opacity.
public struct SceneNode: Hashable, Sendable {
  public indirect enum Content: Hashable, Sendable {
    case fill(Path, Color, FillRule)
    case group([SceneNode])
    /// A layer built once (a card with its title and shadow), placed by the node's modifiers.
    case layer(Layer)
    /// A path drawn through `transform` (e.g. a glyph fitted into its frame) in a colour.
    case shape(Path, Color, FillRule, Transform)
    /// A trimmed, stroked circle in a colour, whose trim fractions may be animated.
    /// A ring, its trim and, when they animate, its line width and its diameter (points; the
    /// shape's otherwise: the diameter follows a frame that layout animates).
    case ring(
      RingShape, Color, from: ScalarBinding, to: ScalarBinding, lineWidth: ScalarBinding? = nil,
      diameter: ScalarBinding? = nil)
    /// An image drawn into a rectangle of the node's space.
    case image(RasterImage, Rect, ImageInterpolation)
    /// A shape filled and/or stroked, maybe trimmed, whose trim, line width, dash phase and
    /// colours may be animated.
    case drawing(ShapeDrawing)
  }

  public var name: String
  public var content: Content
  public var centerX: ScalarBinding
  public var centerY: ScalarBinding
  public var offsetX: ScalarBinding
  public var offsetY: ScalarBinding
  public var scale: ScalarBinding
  /// `.rotationEffect`, in degrees, clockwise on screen, about `rotationAnchor`.
  public var rotation: ScalarBinding = .constant(0)
  /// `.scaleEffect(x:y:)`'s vertical factor when it differs from `scale` (nil: `scale`).
  public var scaleY: ScalarBinding? = nil
  /// The points the scale and the rotation keep fixed (`anchor:`), in the node's space (points
  /// from the layout centre; the origin is `.center`).
  public var scaleAnchor = Point(0, 0)
  public var rotationAnchor = Point(0, 0)
  /// The anchors as unit points of the frame, which replace `scaleAnchor` and `rotationAnchor`
  /// where set: animated with state, or following the frame's size as layout animates it.
  public var scaleAnchorBinding: AnchorBinding? = nil
  public var rotationAnchorBinding: AnchorBinding? = nil
  /// `.rotation3DEffect`, after the other transforms and before the placement at the centre.
  public var rotation3D: Rotation3DBinding? = nil
  public var opacity: ScalarBinding
  public var shadow: Shadow?
  /// Overrides a fill's colour from a channel of four components, straight red, green, blue and
  /// alpha in 0...1 (SwiftUI interpolates colours component-wise too).
  public var fillColor: String?
  /// Overrides the shadow's radius (points) and its colour's alpha from channels.
  public var shadowRadius: ScalarBinding?
  public var shadowOpacity: ScalarBinding?
  /// Override the shadow's colour (straight RGBA, before `shadowOpacity`) and offset (points).
  public var shadowColor: [ScalarBinding]?
  public var shadowOffsetX: ScalarBinding?
  public var shadowOffsetY: ScalarBinding?
  /// `.clipShape` / `.clipped()` / `.cornerRadius`, `.mask`, `.blur`: applied to the content in
  /// the node's own space, before the shadow (see `Layer`).
  public var clip: ClipBinding?
  /// The mask's node (at most one), laid out in this node's own space.
  public var mask: [SceneNode] = []
  public var blur: BlurBinding?
  /// Colour modifiers, applied in this order to the content's colours.
  public var colorEffects: [ColorEffectBinding] = []
  /// The layer this node was laid out for (nil for a node layout made as a helper).
  public var layout: LayoutRecord? = nil
  /// A conditional layer's (`"if"`): drawn while this is above 0 (it is there, or its removal
  /// is still animating), and in the layout while `present` is (nil: always).
  public var drawn: ScalarBinding? = nil
  public var present: ScalarBinding? = nil
  /// Where the node takes a tap itself (`HitTest`): a text's or a symbol's own bounds, or what
  /// its content draws; nil where only its children do (a stack, a spacer).
  public var hitArea: HitArea? = nil
  /// `.allowsHitTesting(_:)`: while this is 0 neither the node nor its children take taps.
  public var allowsHitTesting: ScalarBinding = .constant(1)
  /// `.contentShape(_:)`, in the node's own space: where the node and its children take taps,
  /// the node itself wherever none of its children does.
  public var contentShape: ClipBinding? = nil

  /// Whether a colour modifier, clip, mask or blur applies.
  var hasEffects: Bool { clip != nil || !mask.isEmpty || blur != nil || !colorEffects.isEmpty }

  public init(
    _ name: String, _ content: Content, centerX: ScalarBinding = .constant(0),
    centerY: ScalarBinding = .constant(0), offsetX: ScalarBinding = .constant(0),
    offsetY: ScalarBinding = .constant(0), scale: ScalarBinding = .constant(1),
    opacity: ScalarBinding = .constant(1), shadow: Shadow? = nil
  ) {
    self.name = name
    self.content = content
    self.centerX = centerX
    self.centerY = centerY
    self.offsetX = offsetX
    self.offsetY = offsetY
    self.scale = scale
    self.opacity = opacity
    self.shadow = shadow
  }

  /// Whether the node's own modifiers are plain: no offset, scale 1, no rotation, opacity 1, no
  /// shadow, so drawing its children one by one equals drawing the node.
  var isStaticTransform: Bool {
    let plain: [(ScalarBinding, Double)] = [
      (offsetX, 0), (offsetY, 0), (scale, 1), (rotation, 0), (opacity, 1),
      (scaleY ?? .constant(1), 1),
    ]
    guard shadow == nil, drawn == nil, rotation3D == nil, !hasEffects,
      plain.allSatisfy({ $0.0 == .constant($0.1) })
    else {
      return false
    }
    if case .constant = centerX, case .constant = centerY { return true }
    return false
  }

  /// Whether the node looks the same at every time: no modifier is bound to a channel.
  public var isStatic: Bool {
    let bindings =
      [centerX, centerY, offsetX, offsetY, scale, rotation, opacity]
      + [scaleY, shadowRadius, shadowOpacity, shadowOffsetX, shadowOffsetY].compactMap { $0 }
      + (rotation3D?.channels ?? [])
      + (shadowColor ?? []) + anchorBindings
    guard fillColor == nil, drawn == nil,
      bindings.allSatisfy({ if case .constant = $0 { true } else { false } }),
      clip?.isStatic ?? true, mask.allSatisfy(\.isStatic)
    else { return false }
    if let blur, case .channel = blur.radius { return false }
    if let bounds = blur?.animatedBounds, !bounds.isStatic { return false }
    let colorBindings = colorEffects.flatMap(\.bindings)
    guard colorBindings.allSatisfy({ if case .constant = $0 { true } else { false } }) else {
      return false
    }
    switch content {
    case .group(let children): return children.allSatisfy(\.isStatic)
    case .ring(_, _, let from, let to, let width, let diameter):
      return ([from, to] + (width.map { [$0] } ?? []) + (diameter.map { [$0] } ?? [])).allSatisfy {
        if case .constant = $0 { true } else { false }
      }
    case .drawing(let drawing): return drawing.isStatic
    case .fill, .layer, .shape, .image: return true
    }
  }

  /// The channels the node's own placement reads (centre, offset, scale, rotation).
  public var placementChannels: Set<String> {
    var names: Set<String> = []
    for binding in [centerX, centerY, offsetX, offsetY, scale, rotation]
      + [scaleY].compactMap({ $0 }) + (rotation3D?.channels ?? []) + anchorBindings
    {
      names.formUnion(binding.channelNames)
    }
    return names
  }

  /// The coordinates of the animated anchors.
  private var anchorBindings: [ScalarBinding] {
    (scaleAnchorBinding?.channels ?? []) + (rotationAnchorBinding?.channels ?? [])
  }

  /// The node's modifiers as one transform from its own space to its parent's, with the
  /// channels at `values` (a `rotation3DEffect` aside: `layer(_:)` projects through it).
  public func transform(_ values: [String: [Double]]) -> Transform {
    localTransform(values).concatenating(
      .translation(centerX.resolve(values), centerY.resolve(values)))
  }

  /// The node's modifiers as one map from its own space to its parent's, a `rotation3DEffect`
  /// included (points): what a tap is hit-tested through.
  public func placement(_ values: [String: [Double]]) -> Projection {
    let centre = Transform.translation(centerX.resolve(values), centerY.resolve(values))
    guard let projection = rotation3D?.projection(values) else {
      return Projection(localTransform(values).concatenating(centre))
    }
    return projection.after(localTransform(values)).concatenating(centre)
  }

  /// The offset, rotation and scale: from the content's space to the node's (the layout centre
  /// at the origin), where `rotation3DEffect` applies.
  func localTransform(_ values: [String: [Double]]) -> Transform {
    let s = scale.resolve(values)
    let sy = scaleY?.resolve(values) ?? s
    var transform = Transform.translation(offsetX.resolve(values), offsetY.resolve(values))
    /// `t` about `anchor`: there and back.
    func about(_ anchor: Point, _ t: Transform) -> Transform {
      guard anchor.x != 0 || anchor.y != 0 else { return t }
      return Transform.translation(-anchor.x, -anchor.y).concatenating(t)
        .concatenating(.translation(anchor.x, anchor.y))
    }
    let degrees = rotation.resolve(values)
    if degrees != 0 {
      let anchor = rotationAnchorBinding?.resolve(values) ?? rotationAnchor
      transform = transform.concatenating(about(anchor, .rotation(degrees * .pi / 180)))
    }
    return transform.concatenating(
      about(scaleAnchorBinding?.resolve(values) ?? scaleAnchor, .scale(s, sy)))
  }

  /// The layer this node draws with the channels at `values`.
  public func layer(_ values: [String: [Double]]) -> Layer {
    // A node faded out draws nothing (group opacity covers its shadow too): its subtree is not
    // built (a text from state keeps a node per value, most of them at opacity 0).
    let faded = opacity.resolve(values)
    guard faded > 0, (drawn?.resolve(values) ?? 1) > 0 else {
      return Layer(.group([]), opacity: 0)
    }
    let local = localTransform(values)
    let centre = Transform.translation(centerX.resolve(values), centerY.resolve(values))
    let drawn: LayerContent
    switch content {
    case .fill(let path, let color, let rule):
      drawn = .fill(path, .solid(paint(color, values)), rule)
    case .group(let children): drawn = .group(children.map { $0.layer(values) })
    case .layer(let layer): drawn = .group([layer])
    case .shape(let path, let color, let rule, let pathTransform):
      drawn = .group([.fill(path, paint(color, values), rule: rule, transform: pathTransform)])
    case .ring(var ring, let color, let from, let to, let width, let diameter):
      if let width { ring.lineWidth = max(0, width.resolve(values)) }
      if let diameter { ring.diameter = max(0, diameter.resolve(values)) }
      let path = ring.path(from: from.resolve(values), to: to.resolve(values))
      drawn = .group(path.map { [.fill($0, paint(color, values))] } ?? [])
    case .drawing(let drawing):
      drawn = .group(drawing.layers(values))
    case .image(let image, let rect, let interpolation):
      drawn = .group([Layer(.image(image, rect, interpolation))])
    }
    var shade = shadow
    if var animated = shade {
      if let c = shadowColor, c.count == 4 {
        let v = c.map { min(max($0.resolve(values), 0), 1) }
        animated.color = Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
      }
      if let x = shadowOffsetX { animated.offset.x = x.resolve(values) }
      if let y = shadowOffsetY { animated.offset.y = y.resolve(values) }
      if let radius = shadowRadius { animated.radius = max(0, radius.resolve(values)) }
      if let alpha = shadowOpacity { animated.color.alpha = min(max(alpha.resolve(values), 0), 1) }
      shade = animated
    }
    let projection = rotation3D?.projection(values)
    var layer = Layer(
      drawn, transform: projection == nil ? local.concatenating(centre) : local,
      opacity: opacity.resolve(values), shadow: shade)
    layer.clip = clip?.clip(values)
    layer.mask = mask.first.map { .alpha($0.layer(values)) }
    layer.blur = blur?.blur(values)
    if !colorEffects.isEmpty {
      layer.colorMatrix = colorEffects.dropFirst().reduce(colorEffects[0].matrix(values)) {
        $0.concatenating($1.matrix(values))
      }
    }
    guard let projection else { return layer }
    return Layer(.projected(layer, projection), transform: centre)
  }

  /// `color`, or the fill colour channel's value when the node has one.
  func paint(_ color: Color, _ values: [String: [Double]]) -> Color {
    guard let channel = fillColor, let c = values[channel], c.count == 4 else { return color }
    return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
  }

  /// Splits the node into layers that look the same in every frame and can be drawn once (in
  /// the parent's space, back to front) and the node that is left to draw each frame (nil when
  /// nothing is). Only a leading run is split off, following the first animated child down
  /// through groups with plain modifiers, so drawing the two in turn equals drawing the node.
  public func splittingStaticPrefix(
    _ values: [String: [Double]]
  ) -> (
    drawn: [Layer], rest: SceneNode?
  ) {
    if isStatic { return ([layer(values)], nil) }
    guard isStaticTransform, case .group(let children) = content else { return ([], self) }
    var drawn = children.prefix { $0.isStatic }.map { $0.layer(values) }
    var remaining = Array(children.dropFirst(drawn.count))
    if let first = remaining.first {
      let (inner, innerRest) = first.splittingStaticPrefix(values)
      drawn += inner
      if let innerRest { remaining[0] = innerRest } else { remaining.removeFirst() }
    }
    var rest = self
    rest.content = .group(remaining)
    guard !drawn.isEmpty else { return ([], self) }
    return ([.group(drawn, transform: transform(values))], rest)
  }
}
