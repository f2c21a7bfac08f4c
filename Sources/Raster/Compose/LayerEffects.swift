/// What clips a layer (`.clipShape`, `.clipped()`, `.cornerRadius`): a path in the layer's own
/// units filled with its rule; the layer keeps its pixels times the path's exact-area coverage.
public struct ClipShape: Hashable, Sendable {
  public var path: Path
  public var rule: FillRule

  public init(_ path: Path, rule: FillRule = .nonzero) {
    self.path = path
    self.rule = rule
  }
}

/// A layer's `.blur(radius:opaque:)`: a Gaussian of standard deviation `radius` in the layer's own
/// units (scaled by its transform, like a shadow's). Transparent (`opaque` false): everything
/// outside the layer counts as transparent, so its edges fade and the blur spreads past them.
/// Opaque: the layer's edge pixels extend outwards while blurring, so edges keep their colour,
/// and nothing is drawn outside `bounds` (the layer's frame in its own units; nil: its content's
/// bounds).
public struct Blur: Hashable, Sendable {
  public var radius: Double
  public var opaque: Bool
  public var bounds: Rect?

  public init(radius: Double, opaque: Bool = false, bounds: Rect? = nil) {
    self.radius = radius
    self.opaque = opaque
    self.bounds = bounds
  }

  /// σ in device pixels under the layer's full transform `t` (the radius times its mean scale).
  public func sigma(under t: Transform) -> Double {
    max(0, radius) * abs(t.determinant).squareRoot()
  }
}

/// A layer whose alpha masks another (`.mask { … }`), drawn in the masked layer's own space.
public indirect enum LayerMask: Hashable, Sendable {
  case alpha(Layer)

  public var layer: Layer {
    switch self {
    case .alpha(let layer): return layer
    }
  }
}
