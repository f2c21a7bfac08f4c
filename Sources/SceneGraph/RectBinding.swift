import Raster

/// A rectangle in a node's space whose origin and size may be bound to an animated channel:
/// a frame that moves and grows with layout (points, y down, origin at the top left corner).
public struct RectBinding: Hashable, Sendable {
  public var x: ScalarBinding
  public var y: ScalarBinding
  public var width: ScalarBinding
  public var height: ScalarBinding

  /// The four components of a channel: x, y, width, height.
  public init(channel name: String) {
    (x, y) = (.channel(name, component: 0), .channel(name, component: 1))
    (width, height) = (.channel(name, component: 2), .channel(name, component: 3))
  }

  var bindings: [ScalarBinding] { [x, y, width, height] }

  var isStatic: Bool { bindings.allSatisfy { if case .constant = $0 { true } else { false } } }

  /// The rectangle with the channels at `values`; a negative width or height (a spring
  /// overshooting past zero) is drawn as nothing wide.
  func resolve(_ values: [String: [Double]]) -> Rect {
    Rect(
      x: x.resolve(values), y: y.resolve(values), width: max(0, width.resolve(values)),
      height: max(0, height.resolve(values)))
  }
}
