import Raster

/// An `anchor:` of `.scaleEffect` or `.rotationEffect`: a unit point of the layer's frame (0 at
/// the leading or top edge, 1 at the trailing or bottom one), each coordinate fixed or a
/// component of a channel, and the frame's size, fixed or following the layout's size channel.
/// SwiftUI animates the anchor with the effect (the effects' animatable data pair the factor or
/// angle with `UnitPoint.AnimatableData`), so a change of anchor moves the fixed point smoothly
/// instead of jumping; and it resolves the unit point in the frame the view has at the moment
/// (`GeometryEffect.effectValue(size:)` is given the current size), so where the frame grows
/// with state the anchor moves with its edges.
public struct AnchorBinding: Hashable, Sendable {
  public var x: ScalarBinding
  public var y: ScalarBinding
  /// The layer's frame, points.
  public var width: ScalarBinding
  public var height: ScalarBinding

  public init(x: ScalarBinding, y: ScalarBinding, width: Double, height: Double) {
    (self.x, self.y) = (x, y)
    (self.width, self.height) = (.constant(width), .constant(height))
  }

  /// The anchor in the node's space: points from the frame's centre.
  public func resolve(_ values: [String: [Double]]) -> Point {
    Point(
      (x.resolve(values) - 0.5) * width.resolve(values),
      (y.resolve(values) - 0.5) * height.resolve(values))
  }

  /// Whether nothing in it is animated.
  public var isFixed: Bool {
    channels.allSatisfy { if case .constant = $0 { true } else { false } }
  }

  /// The channels it reads.
  var channels: [ScalarBinding] { [x, y, width, height] }
}
