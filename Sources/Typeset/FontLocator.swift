import CFontconfig

/// A font file and the face inside it.
public struct FontFile: Hashable, Sendable {
  public var path: String
  public var index: Int
  /// The family fontconfig matched (may differ from the one asked for).
  public var family: String

  public init(path: String, index: Int = 0, family: String = "") {
    self.path = path
    self.index = index
    self.family = family
  }
}

/// Font weights on fontconfig's scale, named as SwiftUI's `Font.Weight`, lightest first.
/// `ultraLight` is SwiftUI's lightest (UIFont.Weight −0.8, SF Pro's Ultralight face, CSS 100)
/// and `thin` the next (−0.6, SF Pro Thin, CSS 200), so they take fontconfig's Thin and
/// ExtraLight.
public enum FontWeight: Int, Hashable, Sendable, CaseIterable {
  case ultraLight = 0
  case thin = 40
  case light = 50
  case regular = 80
  case medium = 100
  case semibold = 180
  case bold = 200
  case heavy = 205
  case black = 210

  /// SwiftUI's name: `ultraLight`, `semibold`, …
  public var name: String {
    switch self {
    case .ultraLight: "ultraLight"
    case .thin: "thin"
    case .light: "light"
    case .regular: "regular"
    case .medium: "medium"
    case .semibold: "semibold"
    case .bold: "bold"
    case .heavy: "heavy"
    case .black: "black"
    }
  }
}

/// Finds fonts through fontconfig.
public enum FontLocator {
  /// The installed font best matching `family`, `weight` and slant (an upright face of the family
  /// where it has no italic), or nil when fontconfig has
  /// no font of that family at all (it would otherwise substitute another family silently).
  public static func locate(
    family: String, weight: FontWeight, italic: Bool = false
  ) -> FontFile? {
    guard let match = bestMatch(family: family, weight: weight, italic: italic) else { return nil }
    return match.family.lowercased() == family.lowercased() ? match : nil
  }

  /// Like `locate`, but falls back to DejaVu Sans (then anything fontconfig offers) and says so in
  /// `warning`.
  public static func locateWithFallback(
    family: String, weight: FontWeight, italic: Bool = false
  )
    -> (file: FontFile, warning: String?)?
  {
    if let file = locate(family: family, weight: weight, italic: italic) { return (file, nil) }
    let fallback =
      locate(family: "DejaVu Sans", weight: weight, italic: italic)
      ?? bestMatch(family: "sans-serif", weight: weight, italic: italic)
    guard let fallback else { return nil }
    // Only Inter comes from a package this tool installs; other families are the scene's choice.
    let advice =
      family.lowercased().hasPrefix("inter") ? " (install Debian's fonts-inter for Inter)" : ""
    return (
      fallback,
      "warning: font family '\(family)' is not installed; using \(fallback.family)\(advice)"
    )
  }

  private static func bestMatch(
    family: String, weight: FontWeight, italic: Bool = false
  ) -> FontFile? {
    guard let config = FcInitLoadConfigAndFonts() else { return nil }
    defer { FcConfigDestroy(config) }
    guard let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    _ = family.withCString { name in
      name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
        FcPatternAddString(pattern, cfc_family, $0)
      }
    }
    FcPatternAddInteger(pattern, cfc_weight, Int32(weight.rawValue))
    FcPatternAddInteger(pattern, cfc_slant, Int32(italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN))
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(config, pattern, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    var file: UnsafeMutablePointer<FcChar8>?
    var matchedFamily: UnsafeMutablePointer<FcChar8>?
    var index: Int32 = 0
    guard FcPatternGetString(match, cfc_file, 0, &file) == FcResultMatch, let file else {
      return nil
    }
    _ = FcPatternGetString(match, cfc_family, 0, &matchedFamily)
    _ = FcPatternGetInteger(match, cfc_index, 0, &index)
    func text(_ p: UnsafeMutablePointer<FcChar8>) -> String {
      String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
    }
    return FontFile(
      path: text(file), index: Int(index), family: matchedFamily.map(text) ?? "")
  }
}
