import Raster

/// The circle or rounded square an SF Symbol variant puts its glyph in (`heart.circle`,
/// `heart.circle.fill`, `heart.square`, `heart.square.fill`), for the names Material Icons has no
/// icon of its own for: the enclosure drawn as Material draws its own (`add_circle_outline`,
/// `add_circle`, `add_box`): a circle of 20 grid units or a square of 18 with corners of 2, a
/// 2-unit line for the outlined ones; the base glyph at half size in the middle, cut out of a
/// filled enclosure (SwiftUI's default monochrome rendering leaves it transparent), drawn inside
/// an outlined one.
///
/// Geometry in em units of the icon's square (0 … 1, y down; 24 grid units to the em).
enum SymbolEnclosure: Sendable, CaseIterable {
  case circle, filledCircle, square, filledSquare

  /// The name's ending: `.circle`, `.circle.fill`, `.square`, `.square.fill`.
  var suffix: String {
    switch self {
    case .circle: ".circle"
    case .filledCircle: ".circle.fill"
    case .square: ".square"
    case .filledSquare: ".square.fill"
    }
  }

  var isFilled: Bool { self == .filledCircle || self == .filledSquare }

  /// How the README's list describes the drawing, with the Material icon of the glyph.
  func description(glyph material: String?) -> String {
    guard let material else {
      return isFilled ? "a \(isCircle ? "disc" : "rounded square"), filled" : "an outline"
    }
    return switch self {
    case .circle: "\(material) in a circle"
    case .filledCircle: "\(material) cut out of a disc"
    case .square: "\(material) in a square"
    case .filledSquare: "\(material) cut out of a square"
    }
  }

  /// The glyph's share of the icon: its 20-unit live area becomes 10 units.
  static let glyphScale = 0.5

  private static func grid(_ units: Double) -> Double { units / 24 }

  private var isCircle: Bool { self == .circle || self == .filledCircle }

  /// The enclosure's outer outline, and for an outlined one its inner edge, 2 units in.
  private var outer: Path { isCircle ? shape(reach: 10) : shape(reach: 9, corner: 2) }
  private var inner: Path { isCircle ? shape(reach: 8) : shape(reach: 7, corner: 0.5) }

  /// A circle of radius `reach` grid units about the icon's centre, or a square of that half
  /// side with corners of radius `corner`.
  private func shape(reach: Double, corner: Double = 0) -> Path {
    let r = Self.grid(reach)
    let box = Rect(x: 0.5 - r, y: 0.5 - r, width: 2 * r, height: 2 * r)
    return isCircle
      ? .ellipse(in: box) : .roundedRect(box, cornerRadius: Self.grid(corner), style: .circular)
  }

  /// The composed icon around `glyph` (an icon's outline in em units), to be filled nonzero:
  /// each part traced the way that makes the winding 1 where the icon is drawn and 0 where the
  /// glyph is cut out. `glyph` must wind once inside itself (as icon glyphs do).
  func icon(around glyph: Path) -> Path {
    let centre = Transform.translation(-0.5, -0.5)
      .concatenating(.scale(Self.glyphScale, Self.glyphScale))
      .concatenating(.translation(0.5, 0.5))
    let small = glyph.isEmpty ? glyph : glyph.applying(centre) ?? .empty
    let outer = self.outer
    let clockwise = outer.signedArea() > 0
    // Cut out: the glyph the other way round from the enclosure; inside a ring: the same way.
    let glyphClockwise = small.signedArea() > 0
    let placed = (glyphClockwise == clockwise) != isFilled ? small : small.reversed
    var builder = PathBuilder()
    builder.add(outer)
    if !isFilled {
      let inner = self.inner
      builder.add((inner.signedArea() > 0) == clockwise ? inner.reversed : inner)
    }
    builder.add(placed)
    return builder.build() ?? outer
  }
}
