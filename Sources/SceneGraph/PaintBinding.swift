import Raster

/// A gradient whose stops and geometry may be bound to animated channels. Unit points are
/// fractions of `frame` (the shape's frame, in the node's points), as SwiftUI resolves a
/// gradient's `UnitPoint`s against the bounds of the shape it fills; radii are points, angles
/// degrees (0 at 3 o'clock, clockwise on screen).
public struct GradientBinding: Hashable, Sendable {
  public enum Geometry: Hashable, Sendable {
    case linear(start: [ScalarBinding], end: [ScalarBinding])
    case radial(center: [ScalarBinding], startRadius: ScalarBinding, endRadius: ScalarBinding)
    case angular(center: [ScalarBinding], startAngle: ScalarBinding, endAngle: ScalarBinding)
  }

  public var geometry: Geometry
  /// Straight-alpha colours, four components each, and their locations.
  public var colors: [[ScalarBinding]]
  public var locations: [ScalarBinding]
  public var colorSpace: GradientColorSpace
  public var frame: Rect

  public init(
    geometry: Geometry, colors: [[ScalarBinding]], locations: [ScalarBinding],
    colorSpace: GradientColorSpace, frame: Rect
  ) {
    self.geometry = geometry
    self.colors = colors
    self.locations = locations
    self.colorSpace = colorSpace
    self.frame = frame
  }

  var bindings: [ScalarBinding] {
    let shape: [ScalarBinding]
    switch geometry {
    case .linear(let start, let end): shape = start + end
    case .radial(let center, let r0, let r1): shape = center + [r0, r1]
    case .angular(let center, let a0, let a1): shape = center + [a0, a1]
    }
    return shape + colors.flatMap { $0 } + locations
  }

  /// The paint with the channels at `values`, its unit points in `frame` when given (a frame
  /// layout animates) or in its own.
  func paint(_ values: [String: [Double]], frame: Rect? = nil) -> Paint {
    let frame = frame ?? self.frame
    let stops = zip(colors, locations).map { color, location in
      let c = color.map { $0.resolve(values) }
      return GradientStop(
        Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]), at: location.resolve(values))
    }
    let gradient = Gradient(stops: stops, colorSpace: colorSpace)
    func point(_ unit: [ScalarBinding]) -> Point {
      Point(
        frame.minX + unit[0].resolve(values) * frame.width,
        frame.minY + unit[1].resolve(values) * frame.height)
    }
    switch geometry {
    case .linear(let start, let end):
      return .linear(gradient, start: point(start), end: point(end))
    case .radial(let center, let r0, let r1):
      return .radial(
        gradient, center: point(center), startRadius: max(0, r0.resolve(values)),
        endRadius: max(0, r1.resolve(values)))
    case .angular(let center, let a0, let a1):
      return .angular(
        gradient, center: point(center), startAngle: a0.resolve(values) * .pi / 180,
        endAngle: a1.resolve(values) * .pi / 180)
    }
  }
}

/// A fill's or stroke's paint in a scene: a colour (a channel of four components overrides it
/// when set) or a gradient.
public enum PaintBinding: Hashable, Sendable {
  case color(Color, channel: String?)
  case gradient(GradientBinding)

  var isStatic: Bool {
    switch self {
    case .color(_, let channel): return channel == nil
    case .gradient(let g):
      return g.bindings.allSatisfy { if case .constant = $0 { true } else { false } }
    }
  }

  func paint(_ values: [String: [Double]], frame: Rect? = nil) -> Paint {
    switch self {
    case .color(let color, let channel):
      guard let channel, let c = values[channel], c.count == 4 else { return .solid(color) }
      return .solid(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
    case .gradient(let g): return g.paint(values, frame: frame)
    }
  }
}
