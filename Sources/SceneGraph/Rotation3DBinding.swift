import Raster

/// A view's `.rotation3DEffect(_:axis:anchor:anchorZ:perspective:)`, in the node's own space
/// (points, the origin at the layout centre): the angle may be animated, and so may the view's
/// size, which places the anchor (a unit point of the frame) and sets the eye's distance; the
/// axis, the unit anchor, anchorZ and perspective are fixed.
///
/// SwiftUI's projection (`_Rotation3DEffect.effectValue(size:)`): the eye stands
/// `max(width, height) / perspective` points in front of the view's plane; the view turns about
/// `axis` through the anchor by the right-hand rule (so positive degrees about the y-axis send
/// the trailing edge away from the eye); a perspective of 0 is an orthographic view.
public struct Rotation3DBinding: Hashable, Sendable {
  /// Degrees.
  public var degrees: ScalarBinding
  public var axisX: Double
  public var axisY: Double
  public var axisZ: Double
  /// The anchor as a unit point of the frame (0 at the leading or top edge, 1 at the trailing or
  /// bottom one) and its depth (points).
  public var unitAnchor: Point
  public var anchorZ: Double
  public var perspective: Double
  /// The view's laid-out size in points: fixed, or the layout's size channel where the frame
  /// changes with state.
  public var width: ScalarBinding
  public var height: ScalarBinding

  public init(
    degrees: ScalarBinding, axis: (x: Double, y: Double, z: Double), unitAnchor: Point,
    anchorZ: Double, perspective: Double, width: Double, height: Double
  ) {
    self.degrees = degrees
    (axisX, axisY, axisZ) = axis
    self.unitAnchor = unitAnchor
    self.anchorZ = anchorZ
    self.perspective = perspective
    self.width = .constant(width)
    self.height = .constant(height)
  }

  /// The channels it reads.
  public var channels: [ScalarBinding] { [degrees, width, height] }

  /// The projection of the node's space onto itself with the channels at `values`; nil when
  /// it is the identity (no turn) or degenerate (a zero axis).
  public func projection(_ values: [String: [Double]]) -> Projection? {
    let degrees = degrees.resolve(values)
    guard degrees.truncatingRemainder(dividingBy: 360) != 0 else { return nil }
    let (width, height) = (width.resolve(values), height.resolve(values))
    let anchor = Point((unitAnchor.x - 0.5) * width, (unitAnchor.y - 0.5) * height)
    let side = max(width, height, 1e-9)
    return Projection.rotation(
      radians: degrees * .pi / 180, axis: (axisX, axisY, axisZ), anchor: anchor,
      anchorZ: anchorZ, eyeDistance: perspective == 0 ? .infinity : side / perspective)
  }
}
