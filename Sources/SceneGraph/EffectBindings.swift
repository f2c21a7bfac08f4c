import Raster

/// A clip whose outline may be animated: `.clipShape` (a shape or path), `.clipped()` (the
/// frame) or `.cornerRadius` (a rounded frame whose radius may be bound). Points, in the node's
/// own space.
public struct ClipBinding: Hashable, Sendable {
  public enum Outline: Hashable, Sendable {
    case path(Path)
    /// A path placed in a frame each time it is drawn, as SwiftUI's `path(in:)` is called with
    /// the view's frame of the moment: its view box fitted into the frame (xMidYMid meet), or
    /// without one its coordinates taken from the frame's top left corner.
    case placedPath(Path, viewBox: Rect?, frame: Rect)
    case shape(InsettableShape)
    /// A rectangle with rounded corners of a bound radius.
    case roundedFrame(Rect, radius: ScalarBinding, style: CornerStyle)
  }

  public var outline: Outline
  public var rule: FillRule
  /// The frame of a `.placedPath`, `.shape` or `.roundedFrame` outline when layout animates it.
  public var frame: RectBinding? = nil

  public init(_ outline: Outline, rule: FillRule = .nonzero) {
    self.outline = outline
    self.rule = rule
  }

  var isStatic: Bool {
    if case .roundedFrame(_, .channel, _) = outline { return false }
    return frame?.isStatic ?? true
  }

  /// `path` placed in `frame` as `.placedPath` places it; nil when that leaves the finite range.
  public static func place(_ path: Path, viewBox: Rect?, in frame: Rect) -> Path? {
    let placement =
      viewBox.map { Transform.mapping($0, fittedInto: frame) }
      ?? .translation(frame.minX, frame.minY)
    return path.applying(placement)
  }

  func clip(_ values: [String: [Double]]) -> ClipShape {
    let animated = self.frame?.resolve(values)
    switch outline {
    case .path(let path): return ClipShape(path, rule: rule)
    case .placedPath(let path, let viewBox, let own):
      let placed = Self.place(path, viewBox: viewBox, in: animated ?? own)
      return ClipShape(placed ?? .empty, rule: rule)
    case .shape(var shape):
      if let animated { shape.frame = animated }
      return ClipShape(shape.path(), rule: rule)
    case .roundedFrame(let own, let radius, let style):
      let frame = animated ?? own
      return ClipShape(
        .roundedRect(frame, cornerRadius: max(0, radius.resolve(values)), style: style), rule: rule)
    }
  }
}

/// `.blur(radius:opaque:)` with a radius that may be bound; `bounds` is the layer's frame.
public struct BlurBinding: Hashable, Sendable {
  public var radius: ScalarBinding
  public var opaque: Bool
  public var bounds: Rect
  /// The bounds when layout animates them.
  public var animatedBounds: RectBinding? = nil

  public init(radius: ScalarBinding, opaque: Bool, bounds: Rect) {
    self.radius = radius
    self.opaque = opaque
    self.bounds = bounds
  }

  func blur(_ values: [String: [Double]]) -> Blur {
    Blur(
      radius: max(0, radius.resolve(values)), opaque: opaque,
      bounds: animatedBounds?.resolve(values) ?? bounds)
  }
}

/// One of SwiftUI's colour modifiers, its amount possibly bound.
public enum ColorEffectBinding: Hashable, Sendable {
  case saturation(ScalarBinding)
  case brightness(ScalarBinding)
  case contrast(ScalarBinding)
  case grayscale(ScalarBinding)
  /// Degrees.
  case hueRotation(ScalarBinding)
  /// Four straight components.
  case colorMultiply([ScalarBinding])
  case colorInvert
  /// `renderingMode(.template)`: every pixel takes the colour (four straight components),
  /// keeping its alpha times the colour's.
  case template([ScalarBinding])

  var bindings: [ScalarBinding] {
    switch self {
    case .saturation(let b), .brightness(let b), .contrast(let b), .grayscale(let b),
      .hueRotation(let b):
      return [b]
    case .colorMultiply(let c), .template(let c): return c
    case .colorInvert: return []
    }
  }

  func matrix(_ values: [String: [Double]]) -> ColorMatrix {
    switch self {
    case .saturation(let s): return .saturation(s.resolve(values))
    case .brightness(let b): return .brightness(b.resolve(values))
    case .contrast(let c): return .contrast(c.resolve(values))
    case .grayscale(let g): return .saturation(1 - min(max(g.resolve(values), 0), 1))
    case .hueRotation(let degrees): return .hueRotation(degrees.resolve(values) * .pi / 180)
    case .colorMultiply(let c):
      let v = c.map { $0.resolve(values) }
      return .multiply(Color(red: v[0], green: v[1], blue: v[2], alpha: v[3]))
    case .colorInvert: return .invert
    case .template(let c):
      let v = c.map { $0.resolve(values) }
      return ColorMatrix([
        0, 0, 0, 0, v[0], 0, 0, 0, 0, v[1], 0, 0, 0, 0, v[2], 0, 0, 0, v[3], 0,
      ])
    }
  }
}
