import Raster
import Typeset

/// The demos' two text styles with the stand-in fonts for SF Pro: Inter SemiBold 17 pt for
/// `.headline` and Inter Display Bold 34 pt for `.largeTitle.bold()`, with the tracking SF applies
/// at those sizes (−0.43 pt and +0.40 pt).
public struct DemoFonts {
  public let headline: FontFace
  public let largeTitle: FontFace
  /// One line per font that had to fall back (Inter missing).
  public let warnings: [String]

  public static let headlineSize = 17.0
  public static let headlineTracking = -0.43
  public static let largeTitleSize = 34.0
  public static let largeTitleTracking = 0.40

  /// Finds the fonts through fontconfig, falling back to DejaVu Sans with a warning; `override`
  /// (a font file) replaces both.
  public init(override: String? = nil) throws(TypesetError) {
    if let override {
      let face = try FontFace(FontFile(path: override))
      headline = face
      largeTitle = face
      warnings = []
      return
    }
    var warnings: [String] = []
    func open(_ family: String, _ weight: FontWeight) throws(TypesetError) -> FontFace {
      guard let (file, warning) = FontLocator.locateWithFallback(family: family, weight: weight)
      else {
        throw TypesetError("no usable font found through fontconfig (install fonts-inter)")
      }
      if let warning { warnings.append(warning) }
      return try FontFace(file)
    }
    headline = try open("Inter", .semibold)
    largeTitle = try open("Inter Display", .bold)
    self.warnings = warnings
  }

  /// `Text(text).font(.headline)`.
  public func headlineLayout(_ text: String) -> TextLayout {
    TextLayout(text, font: headline, size: Self.headlineSize, tracking: Self.headlineTracking)
  }

  /// `Text(text).font(.largeTitle).bold()`.
  public func largeTitleLayout(_ text: String) -> TextLayout {
    TextLayout(text, font: largeTitle, size: Self.largeTitleSize, tracking: Self.largeTitleTracking)
  }
}
