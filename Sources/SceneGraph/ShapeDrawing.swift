import Raster

/// A shape SwiftUI can inset (`InsettableShape`): what `strokeBorder` strokes, half its line
/// width inside the frame. In points, in the node's space.
public struct InsettableShape: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case rectangle
    /// Corner radius in points, and how the corners bend.
    case roundedRectangle(cornerRadius: Double, style: CornerStyle)
    case capsule
    case ellipse
    /// The largest circle centred in the frame.
    case circle
  }

  public var kind: Kind
  public var frame: Rect

  public init(_ kind: Kind, frame: Rect) {
    self.kind = kind
    self.frame = frame
  }

  /// The shape's path in `frame` inset by `amount` points on every side, as SwiftUI's
  /// `inset(by:)` gives it: the frame shrinks, a rounded rectangle's corner radius shrinks by the
  /// same amount (not below 0), a capsule and a circle stay a capsule and a circle of the smaller
  /// frame. Empty when the inset frame would have a negative side (as `CGRect.insetBy` gives the
  /// null rect then), so a `strokeBorder` wider than the frame draws nothing rather than
  /// spilling out of it; a side of 0 is a degenerate shape that a stroke still draws (a
  /// rectangle 0 points wide stroked is a bar, as in Core Graphics) and a fill does not.
  public func path(insetBy amount: Double = 0) -> Path {
    guard 2 * amount <= frame.width, 2 * amount <= frame.height else { return .empty }
    let f = Rect(
      minX: frame.minX + amount, minY: frame.minY + amount, maxX: frame.maxX - amount,
      maxY: frame.maxY - amount)
    guard f.width >= 0, f.height >= 0 else { return .empty }
    switch kind {
    case .rectangle: return .rect(f)
    case .roundedRectangle(let radius, let style):
      return .roundedRect(f, cornerRadius: max(0, radius - amount), style: style)
    case .capsule:
      return .roundedRect(f, cornerRadius: min(f.width, f.height) / 2, style: .circular)
    case .ellipse: return .ellipse(in: f)
    case .circle:
      let side = min(f.width, f.height)
      let (midX, midY) = ((f.minX + f.maxX) / 2, (f.minY + f.maxY) / 2)
      return .ellipse(in: Rect(x: midX - side / 2, y: midY - side / 2, width: side, height: side))
    }
  }
}

/// A shape as a scene draws it — SwiftUI's `.trim(from:to:)`, then `.fill`, `.stroke(_:style:)`
/// or `.strokeBorder(_:style:)`, fill first when both are given — with the values that may be
/// animated bound to channels. Points, in the node's space.
public struct ShapeDrawing: Hashable, Sendable {
  /// Where the path comes from: a fixed path, or an insettable shape (inset by half the line
  /// width for `strokeBorder`).
  public enum Outline: Hashable, Sendable {
    case path(Path)
    case shape(InsettableShape)
  }

  /// The stroke: its style (whose `width`, `miterLimit` and `dashPhase` the bindings replace —
  /// SwiftUI's `StrokeStyle.animatableData`) and paint.
  public struct StrokeDrawing: Hashable, Sendable {
    public var style: StrokeStyle
    public var paint: PaintBinding
    public var lineWidth: ScalarBinding
    public var dashPhase: ScalarBinding
    /// The miter limit, a multiple of the width (at least 1).
    public var miterLimit: ScalarBinding
    /// `strokeBorder`: the shape is inset by half the line width, so the stroke lies inside it.
    public var inside: Bool

    public init(
      style: StrokeStyle, paint: PaintBinding, lineWidth: ScalarBinding? = nil,
      dashPhase: ScalarBinding? = nil, miterLimit: ScalarBinding? = nil, inside: Bool = false
    ) {
      self.style = style
      self.paint = paint
      self.lineWidth = lineWidth ?? .constant(style.width)
      self.dashPhase = dashPhase ?? .constant(style.dashPhase)
      self.miterLimit = miterLimit ?? .constant(style.miterLimit)
      self.inside = inside
    }
  }

  public var outline: Outline
  /// The fill's paint, nil when the shape is only stroked.
  public var fill: PaintBinding?
  public var rule: FillRule
  public var stroke: StrokeDrawing?
  /// Fractions of the path's length kept (`trim(from:to:)`), each clamped to 0...1.
  public var trimFrom: ScalarBinding
  public var trimTo: ScalarBinding
  /// A rounded rectangle's corner radius when it is animated (points).
  public var cornerRadius: ScalarBinding?
  /// The shape's frame when layout animates it (it replaces the insettable shape's frame, and
  /// the frame its gradients' unit points resolve in).
  public var frame: RectBinding?
  /// Where a `.path` outline is placed in the node's space, when that may be animated (a path
  /// fitted to a frame that layout animates): x' = a·x + tx, y' = d·y + ty, bound as
  /// [a, d, tx, ty]; the path is placed before it is trimmed and stroked, as SwiftUI strokes
  /// `path(in:)` of the frame of the moment. Nil: the path is where it is.
  public var placement: [ScalarBinding]?

  public init(
    _ outline: Outline, fill: PaintBinding?, rule: FillRule = .nonzero,
    stroke: StrokeDrawing? = nil,
    trimFrom: ScalarBinding = .constant(0), trimTo: ScalarBinding = .constant(1)
  ) {
    self.outline = outline
    self.fill = fill
    self.rule = rule
    self.stroke = stroke
    self.trimFrom = trimFrom
    self.trimTo = trimTo
  }

  /// Whether the two are the same drawing but for where their paths are placed.
  public func sameButPlacement(_ other: ShapeDrawing) -> Bool {
    var (a, b) = (self, other)
    (a.placement, b.placement) = (nil, nil)
    return a == b
  }

  /// Every binding the drawing reads.
  var bindings: [ScalarBinding] {
    [trimFrom, trimTo] + (stroke.map { [$0.lineWidth, $0.dashPhase, $0.miterLimit] } ?? [])
      + (cornerRadius.map { [$0] } ?? []) + (frame?.bindings ?? []) + (placement ?? [])
  }

  /// Whether it looks the same at every time.
  var isStatic: Bool {
    (fill?.isStatic ?? true) && (stroke?.paint.isStatic ?? true)
      && bindings.allSatisfy { if case .constant = $0 { true } else { false } }
  }

  /// The outline with the channels at `values` (its animated frame and corner radius), and the
  /// frame its paints resolve in.
  private func resolvedOutline(_ values: [String: [Double]]) -> (Outline, frame: Rect?) {
    var outline = self.outline
    let frame = self.frame?.resolve(values)
    if let placement, placement.count == 4, case .path(let path) = outline {
      let (a, d) = (placement[0].resolve(values), placement[1].resolve(values))
      let t = Transform(
        a: a, b: 0, c: 0, d: d, tx: placement[2].resolve(values), ty: placement[3].resolve(values))
      outline = .path(path.applying(t) ?? .empty)
    }
    if let frame, case .shape(var shape) = outline {
      shape.frame = frame
      outline = .shape(shape)
    }
    if let cornerRadius, case .shape(var shape) = outline,
      case .roundedRectangle(_, let style) = shape.kind
    {
      shape.kind = .roundedRectangle(
        cornerRadius: max(0, cornerRadius.resolve(values)), style: style)
      outline = .shape(shape)
    }
    return (outline, frame)
  }

  private static func path(of outline: Outline, insetBy amount: Double) -> Path {
    switch outline {
    case .path(let path): return path
    case .shape(let shape): return shape.path(insetBy: amount)
    }
  }

  /// The layers it draws with the channels at `values`: the fill, then the stroke.
  func layers(_ values: [String: [Double]]) -> [Layer] {
    let (from, to) = (trimFrom.resolve(values), trimTo.resolve(values))
    var layers: [Layer] = []
    let (outline, frame) = resolvedOutline(values)
    if let fill {
      let path = Self.path(of: outline, insetBy: 0).trimmed(from: from, to: to)
      if !path.isEmpty {
        layers.append(.fill(path, paint: fill.paint(values, frame: frame), rule: rule))
      }
    }
    if let stroke {
      var style = stroke.style
      style.width = max(0, stroke.lineWidth.resolve(values))
      style.dashPhase = stroke.dashPhase.resolve(values)
      style.miterLimit = max(1, stroke.miterLimit.resolve(values))
      let path = Self.path(of: outline, insetBy: stroke.inside ? style.width / 2 : 0).trimmed(
        from: from, to: to)
      if !path.isEmpty, style.width > 0 {
        layers.append(.stroke(path, style, stroke.paint.paint(values, frame: frame)))
      }
    }
    return layers
  }

  /// Whether a tap at `point` (the node's space, points) hits what it draws with the channels
  /// at `values`, as SwiftUI hit-tests a shape by its path: inside the trimmed fill, or within
  /// half the line width of the trimmed stroke's path (its dashes, caps and miters aside). A
  /// fill or stroke of a clear colour takes no tap (as `Color.clear` takes none).
  func contains(_ point: Point, _ values: [String: [Double]]) -> Bool {
    let (from, to) = (trimFrom.resolve(values), trimTo.resolve(values))
    let (outline, _) = resolvedOutline(values)
    if let fill, !Self.isClear(fill, values),
      Self.path(of: outline, insetBy: 0).trimmed(from: from, to: to).contains(point, rule: rule)
    {
      return true
    }
    guard let stroke, !Self.isClear(stroke.paint, values) else { return false }
    let width = max(0, stroke.lineWidth.resolve(values))
    let path = Self.path(of: outline, insetBy: stroke.inside ? width / 2 : 0).trimmed(
      from: from, to: to)
    return width > 0 && path.distance(to: point) <= width / 2
  }

  /// Whether `paint` is a colour with no alpha at `values`.
  static func isClear(_ paint: PaintBinding, _ values: [String: [Double]]) -> Bool {
    guard case .color = paint, case .solid(let color) = paint.paint(values) else { return false }
    return color.alpha <= 0
  }
}
