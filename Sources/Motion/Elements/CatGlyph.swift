import Raster

/// Our own cat glyph (a standing cat in profile, tail up), the same path data as
/// `Assets/cat.svgpath` (a test keeps the two identical), compiled in so the tool needs no
/// resource files.
public enum CatGlyph {
  public static let pathData = """
    M20 84C18 66 24 54 34 46L30 14C30 10 33 9 36 11L56 33C62 31 68 31 74 33L92 13\
    C95 10 98 11 98 15L96 48C102 58 104 68 102 80C126 88 158 84 182 92C192 78 196 58 200 40\
    C203 26 212 12 224 10C232 9 236 16 230 20C220 26 214 40 212 56C210 78 212 98 208 114\
    C214 128 214 142 208 154L210 190C210 196 198 197 197 191L190 160C187 156 183 156 181 160\
    L182 190C182 196 170 197 169 191L166 156C142 162 118 162 100 154L100 190\
    C100 196 88 197 87 191L84 158C82 154 78 154 76 158L76 190C76 196 64 197 63 191L62 140\
    C60 126 58 116 56 110C40 108 24 100 20 84Z
    """

  /// The parsed glyph.
  public static let path: Path = (try? PathDataParser.parse(pathData)) ?? .empty

  /// The box the glyph is fitted by: its outline's bounds (control points included).
  public static var viewBox: Rect { path.bounds ?? Rect(x: 0, y: 0, width: 1, height: 1) }

  /// The demo's `catView(scale:opacity:)` with this glyph.
  public static func view(scale: Double, opacity: Double) -> CatView {
    CatView(glyph: path, viewBox: viewBox, scale: scale, opacity: opacity)
  }
}
