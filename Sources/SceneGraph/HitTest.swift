import Raster

/// Where a node takes a tap itself, as SwiftUI hit-tests views: a text or a symbol in its own
/// bounds; an image, a shape where what it draws is (`Shape`'s default content shape).
public enum HitArea: Hashable, Sendable {
  /// A rectangle of the node's space (points): a text's lines' block or a symbol's square, as
  /// drawn in its frame (padding excluded).
  case rect(Rect)
  /// What the node's content draws: a shape's fill or the band of its stroke, a path, a ring,
  /// an image's rectangle.
  case drawn
}

/// SwiftUI's hit testing of a scene at one moment: a tap goes to the frontmost view drawn under
/// it that takes taps — a shape within its path, an image where it is drawn, a text or a symbol
/// within its own bounds, a view with a `contentShape` within that shape — and not to the views
/// behind it. A view faded to opacity 0, one not there (an `"if"` that is false), and one with
/// `allowsHitTesting(false)` take none, nor do their children; stacks and spacers take none
/// themselves, nor does a shape filled with a clear colour (as `Color.clear` takes none). Clips
/// and masks change what is drawn, not what is hit (`.clipped()` does not limit a view's hit
/// area in SwiftUI; `contentShape` does).
public enum HitTest {
  /// The nodes from a child of `root` down to the frontmost node that takes a tap at `point`
  /// (the root's space: screen points) with the channels at `values`; nil when none does.
  public static func chain(
    at point: Point, in root: SceneNode, _ values: [String: [Double]]
  ) -> [SceneNode]? {
    guard case .group(let children) = root.content else { return nil }
    for child in children.reversed() {
      if let chain = visit(child, point, values, inDrawing: false) { return chain }
    }
    return nil
  }

  /// `node` and the nodes down to the one hit, `point` in its parent's space; `inDrawing` when
  /// an ancestor takes taps where its content draws (a ring's or a text's inner nodes).
  private static func visit(
    _ node: SceneNode, _ point: Point, _ values: [String: [Double]], inDrawing: Bool
  ) -> [SceneNode]? {
    guard node.opacity.resolve(values) > 0, (node.drawn?.resolve(values) ?? 1) > 0,
      (node.present?.resolve(values) ?? 1) > 0, node.allowsHitTesting.resolve(values) != 0,
      let local = self.local(point, through: node.placement(values))
    else { return nil }
    if let shape = node.contentShape?.clip(values),
      !shape.path.contains(local, rule: shape.rule)
    {
      return nil
    }
    let area = node.hitArea ?? (inDrawing ? .drawn : nil)
    if case .rect(let rect)? = area {
      let r = animated(rect, node, values)
      let inside =
        local.x >= r.minX && local.x <= r.maxX && local.y >= r.minY && local.y <= r.maxY
      return inside || node.contentShape != nil ? [node] : nil
    }
    if case .group(let children) = node.content {
      for child in children.reversed() {
        if let chain = visit(child, local, values, inDrawing: area == .drawn) {
          return [node] + chain
        }
      }
    } else if area == .drawn || node.hitArea == nil, contentContains(node, local, values) {
      return [node]
    }
    return node.contentShape != nil ? [node] : nil
  }

  /// Whether what `node` draws covers `point` (its own space).
  private static func contentContains(
    _ node: SceneNode, _ point: Point, _ values: [String: [Double]]
  ) -> Bool {
    switch node.content {
    case .group: return false
    case .fill(let path, let color, let rule):
      return node.paint(color, values).alpha > 0 && path.contains(point, rule: rule)
    case .shape(let path, let color, let rule, let transform):
      guard node.paint(color, values).alpha > 0, let inverse = transform.inverted else {
        return false
      }
      return path.contains(inverse.apply(point), rule: rule)
    case .ring(var ring, _, let from, let to, let width, let diameter):
      if let width { ring.lineWidth = max(0, width.resolve(values)) }
      if let diameter { ring.diameter = max(0, diameter.resolve(values)) }
      return ring.path(from: from.resolve(values), to: to.resolve(values))?.contains(
        point, rule: .nonzero) ?? false
    case .drawing(let drawing): return drawing.contains(point, values)
    case .image(_, let rect, _):
      return point.x >= rect.minX && point.x <= rect.maxX && point.y >= rect.minY
        && point.y <= rect.maxY
    case .layer:
      guard let layout = node.layout else { return false }
      return abs(point.x) <= layout.width / 2 && abs(point.y) <= layout.height / 2
    }
  }

  /// `rect` (laid out for the node's first layout) in the frame layout animates it to, its
  /// distances from the frame's centre scaled with the frame.
  private static func animated(
    _ rect: Rect, _ node: SceneNode, _ values: [String: [Double]]
  ) -> Rect {
    guard let layout = node.layout, let size = layout.animatedSize, size.count == 2,
      layout.width > 0, layout.height > 0
    else { return rect }
    let (sx, sy) = (size[0].resolve(values) / layout.width, size[1].resolve(values) / layout.height)
    return Rect(
      minX: rect.minX * sx, minY: rect.minY * sy, maxX: rect.maxX * sx, maxY: rect.maxY * sy)
  }

  /// `point` (the parent's space) taken back through a node's `placement` into its own space:
  /// through the projection onto a turned plane, and nil where it would lie behind the eye.
  public static func local(_ point: Point, through placement: Projection) -> Point? {
    guard let inverse = placement.inverted else { return nil }
    let w = inverse.m13 * point.x + inverse.m23 * point.y + inverse.m33
    guard w != 0, w.isFinite else { return nil }
    let local = Point(
      (inverse.m11 * point.x + inverse.m21 * point.y + inverse.m31) / w,
      (inverse.m12 * point.x + inverse.m22 * point.y + inverse.m32) / w)
    guard placement.w(local) >= Projection.nearestW else { return nil }
    return local
  }
}
