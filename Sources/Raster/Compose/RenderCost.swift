/// What drawing a layer tree into a target costs, estimated from its geometry without drawing:
/// enough to refuse, before any frame is rendered, a scene that would take hours (two thousand
/// full-screen shadows, a blur radius as wide as the screen).
///
/// `work` counts pixel operations weighted by what each costs relative to writing a pixel of a
/// solid fill, following `Compositor`'s steps: a fill touches its bounds on the target and pays
/// per path element for flattening and edge deposits; an isolated layer (opacity below 1 or a
/// shadow) clears an offscreen of its box, draws into it and composites it; a shadow adds its
/// silhouette mask and the blur's passes over the box.
public struct RenderCost: Hashable, Sendable {
  /// Weighted pixel operations.
  public var work: Double = 0
  /// Layers drawn offscreen, and the largest offscreen among them (pixels).
  public var isolatedLayers = 0
  public var largestIsolatedPixels = 0
  /// Layers with a shadow.
  public var shadows = 0
  /// The most dashes a stroke's pattern cuts its path into (`Stroker.dashCount`): past
  /// `Dasher.maximumDashes` a stroke would be cut short, so such a scene is refused.
  public var mostDashes = 0.0
  /// The most points a stroke's outline is estimated at (`Stroker.estimatedPoints`): past
  /// `Stroker.maximumPoints` the rest of a stroke would not be drawn, so such a scene is
  /// refused.
  public var mostStrokePoints = 0.0

  /// Weights, relative to a solid fill's pixel, measured on this machine's kernels (see
  /// BENCHMARKS.md): clearing and compositing an offscreen pixel, a shadow's silhouette and
  /// blur per pixel, and flattening and depositing one path element.
  static let offscreenWeight = 3.0
  static let shadowWeight = 12.0
  static let elementWeight = 40.0

  public init() {}

  public static func + (a: RenderCost, b: RenderCost) -> RenderCost {
    var sum = a
    sum.work += b.work
    sum.isolatedLayers += b.isolatedLayers
    sum.largestIsolatedPixels = max(a.largestIsolatedPixels, b.largestIsolatedPixels)
    sum.shadows += b.shadows
    sum.mostDashes = max(a.mostDashes, b.mostDashes)
    sum.mostStrokePoints = max(a.mostStrokePoints, b.mostStrokePoints)
    return sum
  }
}

extension Layer {
  /// The cost of drawing this layer with `Compositor.render` into `target` (device pixels)
  /// under `parent`.
  public func estimatedCost(under parent: Transform, target: IntRect) -> RenderCost {
    guard opacity > 0 else { return RenderCost() }
    guard opacity < 1 || shadow != nil || hasEffects else {
      return contentCost(under: parent, target: target)
    }
    guard let isolation = Compositor.isolation(of: self, parent: parent, target: target) else {
      return RenderCost()
    }
    // The offscreen drawn into (grown where the shadow is the drawn content moved).
    let box = isolation.shift == nil ? isolation.box : isolation.canvas
    let pixels = Double(box.width) * Double(box.height)
    var cost = RenderCost()
    cost.isolatedLayers = 1
    cost.largestIsolatedPixels = box.width * box.height
    cost.work = pixels * RenderCost.offscreenWeight
    let local = IntRect(x: 0, y: 0, width: box.width, height: box.height)
    let toOffscreen = parent.concatenating(
      .translation(Double(-box.minX), Double(-box.minY)))
    var content = self
    content.opacity = 1
    content.shadow = nil
    // The content with its effects: a clip's mask, a mask layer drawn offscreen, a blur of four
    // channels (each as costly as a shadow's blur).
    var processed = content.contentCost(under: toOffscreen, target: local)
    let t = transform.concatenating(toOffscreen)
    if let clip {
      processed.work +=
        pixels + Double(clip.path.elements.count) * RenderCost.elementWeight
    }
    if let mask {
      processed.work += pixels * RenderCost.offscreenWeight
      processed = processed + mask.layer.estimatedCost(under: t, target: local)
    }
    if blur != nil { processed.work += 4 * pixels * RenderCost.shadowWeight }
    if colorMatrix != nil { processed.work += pixels * RenderCost.offscreenWeight }
    cost = cost + processed
    if isolation.shadow != nil {
      cost.shadows += 1
      cost.work += pixels * RenderCost.shadowWeight
      // The silhouette: the drawn content moved (a pass over the box), or drawn again, which
      // costs what drawing it did (`processed`, without effects its content's cost alone:
      // counted once, not estimated again, so that nested shadows are estimated in linear time
      // even where they are drawn 2^depth times).
      if isolation.shift != nil {
        cost.work += pixels
      } else {
        cost = cost + processed
      }
    }
    return cost
  }

  /// The cost of the content alone (no isolation of this layer itself).
  func contentCost(under parent: Transform, target: IntRect) -> RenderCost {
    let t = transform.concatenating(parent)
    switch content {
    case .fill, .stroke, .image:
      var cost = RenderCost()
      if case .image(let image, _, _) = content {
        // Every source row is filtered once; the device box is written.
        cost.work = Double(image.width) * Double(image.height) * RenderCost.offscreenWeight
      }
      if case .stroke(let path, let style, _) = content {
        // The outline's points, each a line to flatten and deposit: all of them, so that a
        // dense dash pattern on many layers is not estimated as cheaper than it is.
        let stroker = Stroker(transform: t)
        let points = stroker.estimatedPoints(of: path, style: style)
        cost.work = points * RenderCost.elementWeight
        cost.mostDashes = stroker.dashCount(of: path, style: style)
        cost.mostStrokePoints = points
      } else if case .fill(let path, _, _) = content {
        cost.work = Double(path.elements.count) * RenderCost.elementWeight
      }
      if let bounds = bounds(under: parent) {
        let covered = bounds.roundedOut.intersection(target)
        if !covered.isEmpty { cost.work += Double(covered.width) * Double(covered.height) }
      }
      return cost
    case .group(let children):
      return children.reduce(RenderCost()) { $0 + $1.estimatedCost(under: t, target: target) }
    case .projected(let child, _):
      // Drawn flat at about the same scale, then resampled (4 taps) where it lands.
      var cost = child.estimatedCost(under: t, target: target)
      if let bounds = bounds(under: parent) {
        let covered = bounds.roundedOut.intersection(target)
        if !covered.isEmpty {
          cost.work +=
            4 * Double(covered.width) * Double(covered.height) * RenderCost.offscreenWeight
        }
      }
      return cost
    }
  }
}
