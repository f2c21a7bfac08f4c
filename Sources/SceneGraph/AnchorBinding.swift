import Raster

/// An animated `anchor:` of `.scaleEffect` or `.rotationEffect`: a unit point of the layer's
/// frame (0 at the leading or top edge, 1 at the trailing or bottom one), each coordinate fixed
/// or a component of a channel. SwiftUI animates it with the effect (the effects' animatable
/// data pair the factor or angle with `UnitPoint.AnimatableData`), so a change of anchor moves
/// the fixed point smoothly instead of jumping.
public struct AnchorBinding: Hashable, Sendable {
  public var x: ScalarBinding
  public var y: ScalarBinding
  /// The layer's frame, points.
  public var width: Double
  public var height: Double

  public init(x: ScalarBinding, y: ScalarBinding, width: Double, height: Double) {
    (self.x, self.y) = (x, y)
    (self.width, self.height) = (width, height)
  }

  /// The anchor in the node's space: points from the frame's centre.
  public func resolve(_ values: [String: [Double]]) -> Point {
    Point((x.resolve(values) - 0.5) * width, (y.resolve(values) - 0.5) * height)
  }

  /// Whether neither coordinate is animated.
  public var isFixed: Bool {
    if case .constant = x, case .constant = y { return true }
    return false
  }

  /// The channels it reads.
  var channels: [ScalarBinding] { [x, y] }
}
