import CFontconfig

/// The installed fonts that draw the characters a text's own font lacks, found through
/// fontconfig per character: the fonts `FcFontSort` ranks for the text's weight and slant whose
/// character sets hold the character, the best ranked first (as CoreText cascades to fonts that
/// have a character). Fonts without outlines (colour-bitmap emoji) are skipped: they draw nothing
/// here yet.
///
/// It opens fonts and keeps them, so it is a class, and it is not thread-safe: lay text out with
/// it before rendering frames in parallel.
public final class FontFallbacks {
  private var config: OpaquePointer?
  private var faces: [String: FontFace] = [:]
  /// Per weight, slant and code point, the face that draws it (nil: none does).
  private var chosen: [String: FontFace?] = [:]
  /// The characters no installed font has, in the order first met.
  public private(set) var missing: [Unicode.Scalar] = []

  public init() {
    config = FcInitLoadConfigAndFonts()
  }

  deinit {
    if let config { FcConfigDestroy(config) }
  }

  /// The face that draws `scalar` at `weight` (italic or upright), nil when no installed font
  /// with outlines has it.
  public func face(for scalar: Unicode.Scalar, weight: FontWeight, italic: Bool) -> FontFace? {
    let key = "\(scalar.value)|\(weight.rawValue)|\(italic)"
    if let known = chosen[key] { return known }
    let found = search(scalar, weight: weight, italic: italic)
    chosen[key] = found
    if found == nil, !missing.contains(scalar) { missing.append(scalar) }
    return found
  }

  private func search(_ scalar: Unicode.Scalar, weight: FontWeight, italic: Bool) -> FontFace? {
    guard let config, let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    guard let wanted = FcCharSetCreate() else { return nil }
    defer { FcCharSetDestroy(wanted) }
    FcCharSetAddChar(wanted, scalar.value)
    FcPatternAddCharSet(pattern, cfc_charset, wanted)
    FcPatternAddInteger(pattern, cfc_weight, Int32(weight.rawValue))
    FcPatternAddInteger(
      pattern, cfc_slant, Int32(italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN))
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let sorted = FcFontSort(config, pattern, FcFalse, nil, &result) else { return nil }
    defer { FcFontSetDestroy(sorted) }
    for i in 0..<Int(sorted.pointee.nfont) {
      guard let font = sorted.pointee.fonts[i] else { continue }
      var charset: OpaquePointer?
      guard FcPatternGetCharSet(font, cfc_charset, 0, &charset) == FcResultMatch,
        let charset, FcCharSetHasChar(charset, scalar.value) != 0
      else { continue }
      var file: UnsafeMutablePointer<FcChar8>?
      var family: UnsafeMutablePointer<FcChar8>?
      var index: Int32 = 0
      guard FcPatternGetString(font, cfc_file, 0, &file) == FcResultMatch, let file else {
        continue
      }
      _ = FcPatternGetString(font, cfc_family, 0, &family)
      _ = FcPatternGetInteger(font, cfc_index, 0, &index)
      func text(_ p: UnsafeMutablePointer<FcChar8>) -> String {
        String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
      }
      let fontFile = FontFile(path: text(file), index: Int(index), family: family.map(text) ?? "")
      let key = "\(fontFile.path)#\(fontFile.index)"
      let face: FontFace
      if let open = faces[key] {
        face = open
      } else {
        guard let opened = try? FontFace(fontFile) else { continue }
        faces[key] = opened
        face = opened
      }
      if face.hasOutlines, face.glyph(forCodePoint: scalar.value) != nil { return face }
    }
    return nil
  }
}
