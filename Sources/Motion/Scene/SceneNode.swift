import Raster

/// A number in a scene: fixed, or one component of an animated channel.
public enum ScalarBinding: Hashable, Sendable {
  case constant(Double)
  case channel(String, component: Int)

  func resolve(_ values: [String: [Double]]) -> Double {
    switch self {
    case .constant(let v): return v
    case .channel(let name, let component):
      guard let vector = values[name], component < vector.count else { return 0 }
      return vector[component]
    }
  }
}

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
  }

  public var name: String
  public var content: Content
  public var centerX: ScalarBinding
  public var centerY: ScalarBinding
  public var offsetX: ScalarBinding
  public var offsetY: ScalarBinding
  public var scale: ScalarBinding
  public var opacity: ScalarBinding
  public var shadow: Shadow?
  /// Overrides a fill's colour from a channel of four components, straight red, green, blue and
  /// alpha in 0...1 (SwiftUI interpolates colours component-wise too).
  public var fillColor: String?
  /// Overrides the shadow's radius (points) and its colour's alpha from channels.
  public var shadowRadius: ScalarBinding?
  public var shadowOpacity: ScalarBinding?

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

  /// Whether the node's own modifiers are plain: no offset, scale 1, opacity 1, no shadow, so
  /// drawing its children one by one equals drawing the node.
  var isStaticTransform: Bool {
    let plain: [(ScalarBinding, Double)] = [(offsetX, 0), (offsetY, 0), (scale, 1), (opacity, 1)]
    guard shadow == nil, plain.allSatisfy({ $0.0 == .constant($0.1) }) else { return false }
    if case .constant = centerX, case .constant = centerY { return true }
    return false
  }

  /// Whether the node looks the same at every time: no modifier is bound to a channel.
  public var isStatic: Bool {
    let bindings =
      [centerX, centerY, offsetX, offsetY, scale, opacity]
      + [shadowRadius, shadowOpacity].compactMap { $0 }
    guard fillColor == nil, bindings.allSatisfy({ if case .constant = $0 { true } else { false } })
    else { return false }
    if case .group(let children) = content { return children.allSatisfy(\.isStatic) }
    return true
  }

  /// The layer this node draws with the channels at `values`.
  public func layer(_ values: [String: [Double]]) -> Layer {
    let s = scale.resolve(values)
    let transform = Transform.translation(offsetX.resolve(values), offsetY.resolve(values))
      .concatenating(.scale(s, s))
      .concatenating(.translation(centerX.resolve(values), centerY.resolve(values)))
    let drawn: LayerContent
    switch content {
    case .fill(let path, let color, let rule):
      var paint = color
      if let channel = fillColor, let c = values[channel], c.count == 4 {
        paint = Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
      }
      drawn = .fill(path, paint, rule)
    case .group(let children): drawn = .group(children.map { $0.layer(values) })
    case .layer(let layer): drawn = .group([layer])
    }
    var shade = shadow
    if var animated = shade {
      if let radius = shadowRadius { animated.radius = max(0, radius.resolve(values)) }
      if let alpha = shadowOpacity { animated.color.alpha = min(max(alpha.resolve(values), 0), 1) }
      shade = animated
    }
    return Layer(drawn, transform: transform, opacity: opacity.resolve(values), shadow: shade)
  }
}
