import Typeset

/// The fonts a scene's texts use, opened once each: found through fontconfig by family and
/// weight (DejaVu Sans, with a warning, when a family is missing), or one file for everything.
final class FontCatalog {
  private let override: FontFace?
  private var faces: [String: FontFace] = [:]
  /// One line per family that had to fall back.
  private(set) var warnings: [String] = []

  init(fontFile: String?) throws(TypesetError) {
    override = try fontFile.map { (path) throws(TypesetError) in try FontFace(FontFile(path: path))
    }
  }

  private var symbolFont: SymbolFont?

  /// The icon font of symbols, opened on first use.
  func symbols() throws(TypesetError) -> SymbolFont {
    if let symbolFont { return symbolFont }
    let font = try SymbolFont()
    symbolFont = font
    return font
  }

  /// Fonts for the characters the scene's fonts lack; with a `--font` file, which sets
  /// everything, none are searched, but the characters it lacks are still listed.
  private(set) lazy var fallbacks: FontFallbacks? = FontFallbacks(searching: override == nil)

  /// One line per character no installed font has.
  var missingCharacters: [String] {
    (fallbacks?.missing ?? []).map { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      let character = "'\(scalar.escaped(asASCII: false))' (\(code))"
      guard override == nil else {
        return "warning: the --font file has no \(character); it is left out"
      }
      return "warning: no installed font has \(character); it is left out "
        + "(scripts/setup.sh installs the Noto fonts)"
    }
  }

  func face(
    family: String, weight: FontWeight, italic: Bool = false
  ) throws(TypesetError) -> FontFace {
    if let override { return override }
    let key = "\(family)|\(weight.rawValue)|\(italic)"
    if let face = faces[key] { return face }
    guard
      let (file, warning) = FontLocator.locateWithFallback(
        family: family, weight: weight, italic: italic)
    else {
      throw TypesetError(
        "fontconfig finds no font at all (install fonts-inter and fonts-dejavu-core)")
    }
    if let warning, !warnings.contains(warning) { warnings.append(warning) }
    let face = try FontFace(file)
    faces[key] = face
    return face
  }
}
