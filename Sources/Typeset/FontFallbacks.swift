import CFontconfig

/// The installed fonts that draw the characters a text's own font lacks, found through
/// fontconfig per character: the fonts `FcFontSort` ranks for the text's weight and slant whose
/// character sets hold the character, the best ranked first (as CoreText cascades to fonts that
/// have a character). Fonts of colour bitmaps (Noto Color Emoji) count, and are preferred for
/// characters in emoji presentation.
///
/// It opens fonts and keeps them, so it is a class, and it is not thread-safe: lay text out with
/// it before rendering frames in parallel.
public final class FontFallbacks {
  /// One font fontconfig offers, with its character set (owned by `Ranking.fonts`).
  private struct Candidate {
    let charset: OpaquePointer
    let file: FontFile
  }

  /// The installed fonts ranked for one weight and slant, best first.
  private final class Ranking {
    let fonts: UnsafeMutablePointer<FcFontSet>?
    var candidates: [Candidate] = []

    init(config: OpaquePointer, weight: FontWeight, italic: Bool) {
      var fonts: UnsafeMutablePointer<FcFontSet>?
      if let pattern = FcPatternCreate() {
        defer { FcPatternDestroy(pattern) }
        FcPatternAddInteger(pattern, cfc_weight, Int32(weight.rawValue))
        FcPatternAddInteger(
          pattern, cfc_slant, Int32(italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN))
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        fonts = FcFontSort(config, pattern, FcFalse, nil, &result)
      }
      self.fonts = fonts
      guard let fonts else { return }
      func text(_ p: UnsafeMutablePointer<FcChar8>) -> String {
        String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
      }
      for i in 0..<Int(fonts.pointee.nfont) {
        guard let font = fonts.pointee.fonts[i] else { continue }
        var charset: OpaquePointer?
        var file: UnsafeMutablePointer<FcChar8>?
        var family: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetCharSet(font, cfc_charset, 0, &charset) == FcResultMatch, let charset,
          FcPatternGetString(font, cfc_file, 0, &file) == FcResultMatch, let file
        else { continue }
        _ = FcPatternGetString(font, cfc_family, 0, &family)
        _ = FcPatternGetInteger(font, cfc_index, 0, &index)
        candidates.append(
          Candidate(
            charset: charset,
            file: FontFile(path: text(file), index: Int(index), family: family.map(text) ?? "")))
      }
    }

    deinit {
      if let fonts { FcFontSetDestroy(fonts) }
    }
  }

  private var config: OpaquePointer?
  private var rankings: [String: Ranking] = [:]
  private var faces: [String: FontFace?] = [:]
  /// Per weight, slant and code point, the face that draws it (nil: none does).
  private var chosen: [String: FontFace?] = [:]
  /// The characters no installed font has, in the order first met.
  public private(set) var missing: [Unicode.Scalar] = []

  /// Whether other fonts are searched at all; without, the fallbacks only list the characters
  /// the text's fonts lack (`--font`: one file for everything).
  public let searches: Bool

  public init(searching: Bool = true) {
    searches = searching
    config = searching ? FcInitLoadConfigAndFonts() : nil
  }

  deinit {
    rankings = [:]
    if let config { FcConfigDestroy(config) }
  }

  /// The face that draws `scalar` at `weight` (italic or upright), nil when no installed font
  /// with outlines has it.
  /// `color` prefers a font of colour bitmaps (an emoji presentation); it falls back to any.
  public func face(
    for scalar: Unicode.Scalar, weight: FontWeight, italic: Bool, color: Bool = false
  ) -> FontFace? {
    let key = "\(scalar.value)|\(weight.rawValue)|\(italic)|\(color)"
    if let known = chosen[key] { return known }
    let found =
      (color ? search(scalar, weight: weight, italic: italic, color: true) : nil)
      ?? search(scalar, weight: weight, italic: italic, color: false)
    chosen[key] = found
    if found == nil, !missing.contains(scalar) { missing.append(scalar) }
    return found
  }

  /// The first font in fontconfig's ranking (`FcFontSort`: family preference, then weight and
  /// slant) whose character set has the scalar and which opens with outlines. The ranking is
  /// made once per weight and slant, so a character costs a pass over the character sets.
  private func search(
    _ scalar: Unicode.Scalar, weight: FontWeight, italic: Bool, color: Bool
  ) -> FontFace? {
    guard searches, let config else { return nil }
    let rankingKey = "\(weight.rawValue)|\(italic)"
    let ranking =
      rankings[rankingKey] ?? Ranking(config: config, weight: weight, italic: italic)
    rankings[rankingKey] = ranking
    for candidate in ranking.candidates where FcCharSetHasChar(candidate.charset, scalar.value) != 0
    {
      let key = "\(candidate.file.path)#\(candidate.file.index)"
      let face: FontFace?
      if let open = faces[key] {
        face = open
      } else {
        let opened = try? FontFace(candidate.file)
        face = opened.flatMap { $0.isDrawable ? $0 : nil }
        faces[key] = face
      }
      if let face, !color || face.hasColorBitmaps, face.glyph(forCodePoint: scalar.value) != nil {
        return face
      }
    }
    return nil
  }
}
