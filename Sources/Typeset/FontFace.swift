import CFreeType
import CHarfBuzz
import Raster

/// An opened font: FreeType for outlines and metrics, HarfBuzz for shaping, both in font units.
///
/// It owns C resources, so it is a class, and it is not thread-safe: lay text out with it (into
/// `TextLayout`'s value paths) before rendering frames in parallel.
public final class FontFace {
  public let file: FontFile
  /// Font units per em.
  public let unitsPerEm: Double
  /// hhea ascender and descender (descender negative), in font units.
  public let ascender: Double
  public let descender: Double

  private var library: FT_Library?
  private var face: FT_Face?
  private var hbFont: OpaquePointer?
  private var outlines: [UInt32: Path] = [:]
  private var bitmaps: [UInt32: ColorGlyph?] = [:]
  private var tabularFigures: Double??
  private var spaceWidth: Double?

  public init(_ file: FontFile) throws(TypesetError) {
    self.file = file
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      throw TypesetError("cannot start FreeType")
    }
    var face: FT_Face?
    let opened = file.path.withCString { FT_New_Face(library, $0, FT_Long(file.index), &face) }
    guard opened == 0, let face else {
      FT_Done_FreeType(library)
      throw TypesetError(file: file.path, Self.reason(freeTypeError: opened))
    }
    self.library = library
    self.face = face
    // A bitmap-only face (colour emoji) reports no units per em; its `head` table has them.
    var units = Double(face.pointee.units_per_EM)
    if units <= 0, let head = FT_Get_Sfnt_Table(face, FT_SFNT_HEAD) {
      units = Double(head.assumingMemoryBound(to: TT_Header.self).pointee.Units_Per_EM)
    }
    unitsPerEm = units > 0 ? units : 2048
    ascender = Double(face.pointee.ascender)
    descender = Double(face.pointee.descender)
    guard let blob = file.path.withCString({ hb_blob_create_from_file_or_fail($0) }) else {
      throw TypesetError(file: file.path, "cannot be read by HarfBuzz")
    }
    let hbFace = hb_face_create(blob, UInt32(file.index))
    hb_blob_destroy(blob)
    hbFont = hb_font_create(hbFace)
    hb_face_destroy(hbFace)
    let scale = Int32(unitsPerEm)
    hb_font_set_scale(hbFont, scale, scale)
  }

  /// What a FreeType error code from opening a face means, in words.
  static func reason(freeTypeError code: FT_Error) -> String {
    switch code {
    case 0x01: return "cannot be opened (no such file, or not readable)"
    case 0x02: return "is not a font file FreeType knows (unknown file format)"
    case 0x03: return "is a damaged or invalid font file"
    case 0x06: return "has no face at that index"
    case 0x40: return "is too large to load (out of memory)"
    default: return "cannot be read as a font (FreeType error \(code))"
    }
  }

  deinit {
    if let hbFont { hb_font_destroy(hbFont) }
    if let face { FT_Done_Face(face) }
    if let library { FT_Done_FreeType(library) }
  }

  /// Glyphs of `text` after shaping (kerning, ligatures), in font units.
  func shape(_ text: String) -> [ShapedGlyph] {
    text.utf8CString.withUnsafeBufferPointer { chars in
      guard let base = chars.baseAddress else { return [] }
      return shape(base, length: text.utf8.count, range: 0..<text.utf8.count)
    }
  }

  /// Glyphs of bytes `range` of UTF-8 `text` (`length` bytes, the rest giving context across
  /// the range's ends), in font units, in visual order; clusters are byte offsets in `text`.
  /// `rightToLeft` sets the direction; `features` are OpenType feature switches such as
  /// `("tnum", 1)` or `("liga", 0)`.
  func shape(
    _ text: UnsafePointer<CChar>, length: Int, range: Range<Int>, rightToLeft: Bool? = nil,
    features: [(tag: String, value: UInt32)] = []
  ) -> [ShapedGlyph] {
    guard let buffer = hb_buffer_create() else { return [] }
    defer { hb_buffer_destroy(buffer) }
    hb_buffer_add_utf8(
      buffer, text, Int32(length), UInt32(range.lowerBound), Int32(range.count))
    if let rightToLeft {
      hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    }
    hb_buffer_guess_segment_properties(buffer)
    var switches = features.map { feature in
      hb_feature_t(
        tag: feature.tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, value: feature.value,
        start: 0, end: UInt32.max)
    }
    hb_shape(hbFont, buffer, &switches, UInt32(switches.count))
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
    else { return [] }
    return (0..<Int(count)).map { i in
      ShapedGlyph(
        id: infos[i].codepoint, cluster: Int(infos[i].cluster),
        advance: Double(positions[i].x_advance),
        offset: Point(Double(positions[i].x_offset), Double(positions[i].y_offset)))
    }
  }

  /// The advance of a space (font units): what a tab takes where no tab stop is left to go to
  /// (a face without a glyph for the tab would give its `.notdef`'s, most of an em).
  var spaceAdvance: Double {
    if let known = spaceWidth { return known }
    let glyphs = " ".utf8CString.withUnsafeBufferPointer { chars in
      chars.baseAddress.map {
        shape($0, length: 1, range: 0..<1, rightToLeft: false, features: [])
      } ?? []
    }
    let width = glyphs.first.map(\.advance) ?? unitsPerEm / 4
    spaceWidth = width
    return width
  }

  /// The advance every digit 0–9 takes in tabular figures (font units): the widest of the
  /// face's digits shaped with `tnum`, so that faces whose `tnum` digits still differ (Debian
  /// 12's Inter Display 4.0 beta: 1028–1220 units) are evened out; nil when the face lacks a
  /// digit.
  var tabularFigureAdvance: Double? {
    if let known = tabularFigures { return known }
    var widest: Double? = 0
    for digit in "0123456789" {
      let text = String(digit)
      let glyphs = text.utf8CString.withUnsafeBufferPointer { chars in
        chars.baseAddress.map {
          shape($0, length: 1, range: 0..<1, rightToLeft: false, features: [("tnum", 1)])
        } ?? []
      }
      guard glyphs.count == 1, glyphs[0].id != 0 else {
        widest = nil
        break
      }
      widest = max(widest ?? 0, glyphs[0].advance)
    }
    tabularFigures = .some(widest)
    return widest
  }

  /// Whether the face is an italic or oblique one (FreeType's style flags).
  public var isItalic: Bool {
    guard let face else { return false }
    return face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
  }

  /// Whether the face has outlines (a bitmap-only font, such as a colour emoji font, has none).
  public var hasOutlines: Bool {
    guard let face else { return false }
    return face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
  }

  /// Whether the face has colour bitmaps (CBDT/sbix strikes, as Noto Color Emoji has).
  public var hasColorBitmaps: Bool {
    guard let face else { return false }
    return face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
      && face.pointee.num_fixed_sizes > 0
  }

  /// Whether the face draws glyphs at all: outlines or colour bitmaps.
  public var isDrawable: Bool { hasOutlines || hasColorBitmaps }

  /// Glyph `id`'s colour bitmap from the face's largest strike: premultiplied RGBA pixels, the
  /// bitmap's left and top edges from the glyph's origin (font units, y down: `top` negative
  /// above the baseline) and the size of one bitmap pixel in font units. Nil for a face without
  /// colour bitmaps or a glyph without one. Cached.
  func colorBitmap(of id: UInt32) -> ColorGlyph? {
    if let cached = bitmaps[id] { return cached }
    var glyph: ColorGlyph?
    defer { bitmaps[id] = glyph }
    guard let face, hasColorBitmaps else { return nil }
    var best = 0
    for i in 0..<Int(face.pointee.num_fixed_sizes)
    where face.pointee.available_sizes[i].y_ppem > face.pointee.available_sizes[best].y_ppem {
      best = i
    }
    guard FT_Select_Size(face, FT_Int(best)) == 0,
      FT_Load_Glyph(face, id, FT_Int32(cft_load_color)) == 0,
      let slot = face.pointee.glyph
    else { return nil }
    let bitmap = slot.pointee.bitmap
    let width = Int(bitmap.width)
    let height = Int(bitmap.rows)
    guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), width > 0, height > 0,
      width <= 1024, height <= 1024, let buffer = bitmap.buffer
    else { return nil }
    var pixels = [UInt32](repeating: 0, count: width * height)
    let pitch = Int(bitmap.pitch)
    for y in 0..<height {
      let row = buffer + y * pitch
      for x in 0..<width {
        // FreeType's BGRA is premultiplied already.
        let b = UInt32(row[4 * x])
        let g = UInt32(row[4 * x + 1])
        let r = UInt32(row[4 * x + 2])
        let a = UInt32(row[4 * x + 3])
        pixels[y * width + x] = r | g << 8 | b << 16 | a << 24
      }
    }
    let ppem = Double(face.pointee.available_sizes[best].y_ppem) / 64
    guard ppem > 0, let pixmap = Pixmap(width: width, height: height, pixels: pixels) else {
      return nil
    }
    let unit = unitsPerEm / ppem
    // The identity names the font file, face and glyph: the same glyph is the same image.
    var hasher = FNV1a()
    hasher.add(file.path)
    hasher.add("#\(file.index)#\(id)")
    glyph = ColorGlyph(
      image: RasterImage(pixmap, identity: hasher.value),
      left: Double(slot.pointee.bitmap_left) * unit, top: -Double(slot.pointee.bitmap_top) * unit,
      pixelSize: unit)
    return glyph
  }

  /// The underline's centre below the baseline and its thickness, in font units (the `post`
  /// table's, as FreeType reads them; a twentieth of the em where the font gives none).
  var underline: (position: Double, thickness: Double) {
    guard let face, face.pointee.underline_thickness > 0 else {
      return (unitsPerEm / 10, unitsPerEm / 20)
    }
    return (-Double(face.pointee.underline_position), Double(face.pointee.underline_thickness))
  }

  /// The strikethrough's centre above the baseline and its thickness, in font units (OS/2's
  /// yStrikeoutPosition, the top of the stroke, and yStrikeoutSize; a fourth of the em up where the
  /// font gives none).
  var strikethrough: (position: Double, thickness: Double) {
    if let face, let table = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
      let os2 = table.assumingMemoryBound(to: TT_OS2.self).pointee
      if os2.yStrikeoutSize > 0 {
        let size = Double(os2.yStrikeoutSize)
        return (Double(os2.yStrikeoutPosition) - size / 2, size)
      }
    }
    return (unitsPerEm / 4, underline.thickness)
  }

  /// The glyph the font's character map gives `codePoint`, nil when it has none.
  func glyph(forCodePoint codePoint: UInt32) -> UInt32? {
    guard let face else { return nil }
    let index = FT_Get_Char_Index(face, FT_ULong(codePoint))
    return index == 0 ? nil : UInt32(index)
  }

  /// The unhinted outline of glyph `id` in font units, y down, origin on the baseline.
  func outline(of id: UInt32) -> Path {
    if let cached = outlines[id] { return cached }
    var path = Path.empty
    if let face, FT_Load_Glyph(face, id, cft_load_outline_only) == 0 {
      path = OutlineDecoder.path(of: &face.pointee.glyph.pointee.outline)
    }
    outlines[id] = path
    return path
  }
}

/// A glyph drawn as a colour bitmap: its pixels and where they sit, in font units from the glyph's
/// origin (y down).
struct ColorGlyph {
  let image: RasterImage
  let left: Double
  let top: Double
  /// One bitmap pixel's side in font units.
  let pixelSize: Double
}

/// One glyph placed by the shaper, in font units.
struct ShapedGlyph {
  var id: UInt32
  /// Byte offset in the UTF-8 text of the character(s) it draws.
  var cluster: Int
  var advance: Double
  var offset: Point
}
