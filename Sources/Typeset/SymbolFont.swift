import Raster

/// The icon font SF Symbol names are drawn from: Google's Material Icons (Debian's
/// fonts-material-design-icons-iconfont), found through fontconfig and read with FreeType.
///
/// Outlines are given in em units of the icon's square: (0, 0) is its top left, (1, 1) its bottom
/// right; Material icons are drawn on a 24-unit grid with their live area in the middle 20.
public final class SymbolFont {
  public static let family = "Material Icons"
  private let face: FontFace

  /// Opens the font; an error says which package provides it.
  public init() throws(TypesetError) {
    guard let file = FontLocator.locate(family: Self.family, weight: .regular) else {
      throw TypesetError(
        "symbols need the \(Self.family) font, which fontconfig does not find (install Debian's "
          + "fonts-material-design-icons-iconfont)")
    }
    face = try FontFace(file)
  }

  /// Every SF Symbol name drawn: those the table maps to an icon, then those composed of an
  /// icon in a circle or square (`SymbolEnclosure`).
  public static var names: [String] {
    SymbolNames.table.map(\.name) + SymbolNames.enclosed.map(\.name)
      + SymbolNames.aliases.keys.sorted()
  }

  /// Whether `name` is a symbol this font draws.
  public static func knows(_ name: String) -> Bool {
    let name = SymbolNames.resolved(name)
    return SymbolNames.codePoints[name] != nil || SymbolNames.enclosedByName[name] != nil
  }

  /// What `name` draws, as the README lists it: the Material icon, an icon in an enclosure, or
  /// the name it is another name of.
  public static func materialName(of name: String) -> String? {
    if let target = SymbolNames.aliases[name] { return "as \(target)" }
    if let row = SymbolNames.table.first(where: { $0.name == name }) { return row.material }
    guard let composed = SymbolNames.enclosedByName[name] else { return nil }
    if composed.glyph.isEmpty { return composed.enclosure.description(glyph: nil) }
    guard let glyph = SymbolNames.table.first(where: { $0.name == composed.glyph }) else {
      return nil
    }
    return composed.enclosure.description(glyph: glyph.material)
  }

  /// The outline of symbol `name` in em units (see the type's comment); nil for a name the
  /// table lacks or a glyph the installed font lacks.
  public func outline(of name: String) -> Path? {
    let name = SymbolNames.resolved(name)
    if let composed = SymbolNames.enclosedByName[name] {
      if composed.glyph.isEmpty { return composed.enclosure.icon(around: .empty) }
      return outline(of: composed.glyph).map { composed.enclosure.icon(around: $0) }
    }
    guard let codePoint = SymbolNames.codePoints[name],
      let glyph = face.glyph(forCodePoint: codePoint)
    else { return nil }
    // Font units, y down, origin on the baseline; the icon's square spans the ascender above it.
    let em = face.unitsPerEm
    let top = -face.ascender
    return face.outline(of: glyph).applying(
      Transform.translation(0, -top).concatenating(.scale(1 / em, 1 / em)))
  }
}
