import Raster
import Typeset

/// The wallet demo's `CardView`, in points, centred on the origin:
///
/// ```swift
/// ZStack {
///   Rectangle().fill(color).cornerRadius(10).frame(width: 320, height: 210)
///   Text(title).font(.largeTitle).bold().foregroundColor(.white)
/// }.shadow(radius: 6)
/// ```
///
/// The title is laid out once (`TextLayout`) and centred in the card: its line box (ascender +
/// descender) is centred vertically, its advance horizontally.
public struct CardView: Hashable, Sendable {
  public var title: TextLayout
  public var color: Color
  public var cornerStyle: CornerStyle

  public static let size = (width: 320.0, height: 210.0)
  public static let cornerRadius = 10.0
  /// `.shadow(radius: 6)`: black at 33 %, no offset.
  public static let shadow = Shadow(radius: 6)

  public init(title: TextLayout, color: Color, cornerStyle: CornerStyle) {
    self.title = title
    self.color = color
    self.cornerStyle = cornerStyle
  }

  public var layer: Layer {
    let (w, h) = Self.size
    let card = Path.roundedRect(
      Rect(x: -w / 2, y: -h / 2, width: w, height: h), cornerRadius: Self.cornerRadius,
      style: cornerStyle)
    let baseline = -title.lineHeight / 2 + title.ascender
    let text = Layer.fill(
      title.path, .white, transform: .translation(-title.width / 2, baseline))
    return .group([.fill(card, color), text], shadow: Self.shadow)
  }
}
