extension Compositor {
  /// The device pixels of `target` that drawing `layer` under `parent` (`render(_:into:transform:)`)
  /// may change; nil when it changes none. Every pixel outside keeps its value exactly, so a frame
  /// that differs from another only by layers drawn over the same background differs only inside
  /// their damage (`Scene.render(frame:compositor:base:onto:)` restores and redraws just that).
  ///
  /// It follows `draw`: an isolated layer (opacity, shadow or effects) changes at most its
  /// offscreen box (`isolation(of:parent:target:)`); a fill, stroke or image at most the whole
  /// pixels its bounds (control points and the stroke's reach included) touch, grown by one for
  /// safety; a group the union of its children's; a projected layer, when the projection is
  /// affine, its child's under it, else its projected bounds grown by two (the flat drawing's
  /// margin and its resampling).
  public static func damage(of layer: Layer, parent: Transform, target: IntRect) -> IntRect? {
    var bounds = PixelBounds()
    addDamage(of: layer, parent: parent, target: target, to: &bounds)
    guard let box = bounds.rect else { return nil }
    let inside = box.intersection(target)
    return inside.isEmpty ? nil : inside
  }

  private static func addDamage(
    of layer: Layer, parent: Transform, target: IntRect, to bounds: inout PixelBounds
  ) {
    guard layer.opacity > 0 else { return }
    if !(layer.opacity >= 1 && layer.shadow == nil && !layer.hasEffects) {
      if let box = isolation(of: layer, parent: parent, target: target)?.box {
        bounds.add(box.intersection(target))
      }
      return
    }
    let t = layer.transform.concatenating(parent)
    switch layer.content {
    case .group(let children):
      for child in children { addDamage(of: child, parent: t, target: target, to: &bounds) }
    case .fill, .stroke, .image:
      if let box = layer.bounds(under: parent) {
        bounds.add(box.roundedOut.outset(by: 1).intersection(target))
      }
    case .projected(let child, let projection):
      if let affine = projection.concatenating(t).affine {
        addDamage(of: child, parent: affine, target: target, to: &bounds)
      } else if let box = layer.bounds(under: parent) {
        bounds.add(box.roundedOut.outset(by: 2).intersection(target))
      }
    }
  }
}
