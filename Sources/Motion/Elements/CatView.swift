import Raster

/// The cats demo's `catView(scale:opacity:)`, in points, centred on the origin:
///
/// ```swift
/// Image(systemName: "cat.fill").resizable().aspectRatio(contentMode: .fit)
///   .frame(width: 200, height: 200).foregroundColor(.orange)
///   .shadow(color: .black.opacity(0.16), radius: 4, x: 0, y: 2)
///   .scaleEffect(scale).opacity(opacity)
/// ```
///
/// The glyph is our own (`Assets/cat.svgpath`), aspect-fitted into the 200 pt frame. The shadow
/// sits inside the scale, so the scale shrinks its radius and offset too; the opacity is group
/// opacity over glyph and shadow.
public struct CatView: Hashable, Sendable {
  /// The glyph in its own units and the view box it is drawn in.
  public var glyph: Path
  public var viewBox: Rect
  public var scale: Double
  public var opacity: Double

  /// The side of the square frame the glyph is fitted into, in points.
  public static let frameSide = 200.0
  public static let shadow = Shadow(
    color: Color(red: 0, green: 0, blue: 0, alpha: 0.16), radius: 4, offset: Point(0, 2))

  public init(glyph: Path, viewBox: Rect, scale: Double = 1, opacity: Double = 1) {
    self.glyph = glyph
    self.viewBox = viewBox
    self.scale = scale
    self.opacity = opacity
  }

  /// The layer, in points, with the frame's centre at the origin: the fitted glyph inside a
  /// group that carries the shadow (in points), the scale and the opacity.
  public var layer: Layer {
    let half = Self.frameSide / 2
    let fit = Transform.mapping(
      viewBox, fittedInto: Rect(x: -half, y: -half, width: 2 * half, height: 2 * half))
    return .group(
      [.fill(glyph, DemoPalette.orange, transform: fit)], transform: .scale(scale, scale),
      opacity: opacity, shadow: Self.shadow)
  }
}
