/// A drop shadow as SwiftUI's `.shadow(color:radius:x:y:)` draws it: the content's alpha,
/// blurred with a Gaussian of standard deviation `radius`, tinted with `color` (its alpha
/// included), moved by `offset`, beneath the content. Radius and offset are in the layer's own
/// units, so the layer's transform scales them, as modifiers after `.shadow` do in SwiftUI.
public struct Shadow: Hashable, Sendable {
  public var color: Color
  public var radius: Double
  public var offset: Point

  /// SwiftUI's default shadow colour: black at 33 % opacity.
  public static let defaultColor = Color(red: 0, green: 0, blue: 0, alpha: 0.33)

  public init(color: Color = Shadow.defaultColor, radius: Double, offset: Point = .zero) {
    self.color = color
    self.radius = radius
    self.offset = offset
  }
}

/// What a layer draws.
public indirect enum LayerContent: Hashable, Sendable {
  /// A path filled with a paint (a colour or a gradient in the layer's own units).
  case fill(Path, Paint, FillRule)
  /// A path stroked with a paint: the outline `Stroker` makes at the flattening tolerance of the
  /// layer's device transform, filled nonzero. The style's lengths are in the layer's own units.
  case stroke(Path, StrokeStyle, Paint)
  /// An image drawn into a rectangle of the layer's own space, resampled with the interpolation.
  case image(RasterImage, Rect, ImageInterpolation)
  /// Child layers, first at the back (a ZStack).
  case group([Layer])
  /// A layer seen through a projection (`rotation3DEffect`): the projection maps the child's
  /// parent space into this layer's own space. Plain fills and strokes of solid colours are
  /// flattened, then projected, and filled exactly; anything else (gradients, images, shadows,
  /// blurs, group opacity) is drawn flat at the projection's largest scale and resampled.
  case projected(Layer, Projection)

  /// Whether a layer inside casts a shadow (or holds one that does), at any depth: what makes
  /// drawing the content again for an outer shadow cost its nesting.
  var containsShadow: Bool {
    switch self {
    case .fill, .stroke, .image: return false
    case .group(let children):
      return children.contains { $0.shadow != nil || $0.content.containsShadow }
    case .projected(let layer, _): return layer.shadow != nil || layer.content.containsShadow
    }
  }
}

/// A node of the tree a frame is drawn from.
///
/// `transform` maps the layer's own space to its parent's (for the root: to device pixels).
/// A layer with `opacity` < 1, a shadow, a clip, a mask or a blur is isolated: drawn offscreen
/// and blended once, so a translucent glyph does not show its own shadow through itself (group
/// opacity). Offscreen, in this order: the content; its colours mapped by `colorMatrix`; times
/// the clip's coverage; times the mask's alpha; blurred; the shadow (of what that left) beneath
/// it; then blended with `opacity`.
public struct Layer: Hashable, Sendable {
  public var content: LayerContent
  public var transform: Transform
  public var opacity: Double
  public var shadow: Shadow?
  public var clip: ClipShape?
  public var mask: LayerMask?
  public var blur: Blur?
  /// SwiftUI's colour modifiers (`saturation`, `hueRotation`, …) as one map.
  public var colorMatrix: ColorMatrix?

  /// Whether a colour map, clip, mask or blur applies (each needs the layer drawn offscreen).
  public var hasEffects: Bool { clip != nil || mask != nil || blur != nil || colorMatrix != nil }

  public init(
    _ content: LayerContent, transform: Transform = .identity, opacity: Double = 1,
    shadow: Shadow? = nil
  ) {
    self.content = content
    self.transform = transform
    self.opacity = opacity
    self.shadow = shadow
  }

  /// A layer that fills `path`.
  public static func fill(
    _ path: Path, _ color: Color, rule: FillRule = .nonzero, transform: Transform = .identity,
    opacity: Double = 1, shadow: Shadow? = nil
  ) -> Layer {
    Layer(.fill(path, .solid(color), rule), transform: transform, opacity: opacity, shadow: shadow)
  }

  /// A layer that fills `path` with `paint`.
  public static func fill(
    _ path: Path, paint: Paint, rule: FillRule = .nonzero, transform: Transform = .identity,
    opacity: Double = 1, shadow: Shadow? = nil
  ) -> Layer {
    Layer(.fill(path, paint, rule), transform: transform, opacity: opacity, shadow: shadow)
  }

  /// A layer that strokes `path`.
  public static func stroke(
    _ path: Path, _ style: StrokeStyle, _ paint: Paint, transform: Transform = .identity,
    opacity: Double = 1, shadow: Shadow? = nil
  ) -> Layer {
    Layer(.stroke(path, style, paint), transform: transform, opacity: opacity, shadow: shadow)
  }

  /// A layer holding `children`, back to front.
  public static func group(
    _ children: [Layer], transform: Transform = .identity, opacity: Double = 1,
    shadow: Shadow? = nil
  ) -> Layer {
    Layer(.group(children), transform: transform, opacity: opacity, shadow: shadow)
  }

  /// The device-space bounds of what the layer draws (shadow excluded) under `parent`, or nil if
  /// it draws nothing. Control points are included, so the bounds may be a little generous.
  public func bounds(under parent: Transform) -> Rect? {
    guard var box = contentBounds(under: parent) else { return nil }
    let t = transform.concatenating(parent)
    if let clip {
      guard let clipBox = clip.path.bounds,
        let inside = box.intersection(Self.deviceBounds(of: clipBox, under: t))
      else { return nil }
      box = inside
    }
    if let mask {
      guard let maskBox = mask.layer.bounds(under: t), let inside = box.intersection(maskBox)
      else { return nil }
      box = inside
    }
    if let blur {
      if blur.opaque {
        if let frame = blur.bounds {
          guard let inside = box.intersection(Self.deviceBounds(of: frame, under: t)) else {
            return nil
          }
          box = inside
        }
      } else {
        let margin = Double(GaussianBlur.margin(for: blur.sigma(under: t)))
        box = Rect(
          minX: box.minX - margin, minY: box.minY - margin, maxX: box.maxX + margin,
          maxY: box.maxY + margin)
      }
    }
    return box
  }

  /// The bounds of the content alone, before clips, masks and blurs.
  func contentBounds(under parent: Transform) -> Rect? {
    let t = transform.concatenating(parent)
    switch content {
    case .fill(let path, _, _):
      guard let box = path.bounds else { return nil }
      return Self.deviceBounds(of: box, under: t)
    case .stroke(let path, let style, _):
      guard let box = path.bounds, style.width > 0 else { return nil }
      let reach = style.reach
      return Self.deviceBounds(
        of: Rect(
          minX: box.minX - reach, minY: box.minY - reach, maxX: box.maxX + reach,
          maxY: box.maxY + reach), under: t)
    case .image(_, let rect, _):
      return Self.deviceBounds(of: rect, under: t)
    case .group(let children):
      // A child's shadow is part of what the group draws (an isolated group holds it whole).
      return children.compactMap { $0.boundsWithShadow(under: t) }
        .reduce(nil) { $0?.union($1) ?? $1 }
    case .projected(let child, let projection):
      guard let box = child.boundsWithShadow(under: .identity) else { return nil }
      return projection.concatenating(t).bounds(of: box)
    }
  }

  /// The shadow's blur σ and offset in device pixels under `t` (the layer's transform after its
  /// parent's), and the margin its blur reaches; nil without a visible shadow.
  func shadowGeometry(under t: Transform) -> (sigma: Double, offset: Point, margin: Int)? {
    guard let shadow, shadow.color.alpha > 0 else { return nil }
    let sigma = shadow.radius * abs(t.determinant).squareRoot()
    let offset = Point(
      t.a * shadow.offset.x + t.c * shadow.offset.y, t.b * shadow.offset.x + t.d * shadow.offset.y)
    return (sigma, offset, GaussianBlur.margin(for: sigma) + 1)
  }

  /// `bounds(under:)` with the shadow: the box, the box moved by the shadow's offset, and the
  /// reach of its blur.
  func boundsWithShadow(under parent: Transform) -> Rect? {
    guard let box = bounds(under: parent) else { return nil }
    guard let geometry = shadowGeometry(under: transform.concatenating(parent)) else { return box }
    let margin = Double(geometry.margin)
    let area = box.union(
      Rect(
        minX: box.minX + geometry.offset.x, minY: box.minY + geometry.offset.y,
        maxX: box.maxX + geometry.offset.x, maxY: box.maxY + geometry.offset.y))
    return Rect(
      minX: area.minX - margin, minY: area.minY - margin, maxX: area.maxX + margin,
      maxY: area.maxY + margin)
  }

  /// The device-space box around `box` (user space) mapped through `t`.
  static func deviceBounds(of box: Rect, under t: Transform) -> Rect {
    let corners = [
      Point(box.minX, box.minY), Point(box.maxX, box.minY), Point(box.minX, box.maxY),
      Point(box.maxX, box.maxY),
    ].map(t.apply)
    return corners.dropFirst().reduce(
      Rect(minX: corners[0].x, minY: corners[0].y, maxX: corners[0].x, maxY: corners[0].y)
    ) { $0.including($1) }
  }
}
