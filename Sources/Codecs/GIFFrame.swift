import Raster

/// One frame's changed rectangle mapped to palette indices, or nothing when it equals the
/// previous frame. `indices` holds `unchangedIndex` where the pixel's colour did not change.
public struct GIFFrame: Sendable {
  public var width: Int
  public var height: Int
  /// The changed rectangle; nil when nothing changed.
  public var rect: IntRect?
  /// Row-major indices over `rect` into `localPalette`, or the encoder's global palette.
  public var indices: [UInt8] = []
  /// 0xRRGGBB entries, when the frame needs colours of its own.
  public var localPalette: [UInt32]?
  /// The whole frame's premultiplied opaque pixels, row-major: the true colour of each pixel
  /// (0 for a transparent pixel of a transparent GIF).
  /// Shared with the rendered frame (an array's storage is not copied), not a copy of it.
  public var pixels: [UInt32] = []

  /// Palettes hold at most 255 colours, so 255 is free to mark unchanged pixels.
  static let unchangedIndex: UInt8 = 255

  init(
    width: Int, height: Int, rect: IntRect? = nil, indices: [UInt8] = [],
    localPalette: [UInt32]? = nil, pixels: [UInt32] = []
  ) {
    self.width = width
    self.height = height
    self.rect = rect
    self.indices = indices
    self.localPalette = localPalette
    self.pixels = pixels
  }

  /// Whether the pixel at `i` in `rect` (at `pixel` in the frame) should be drawn: it changed,
  /// and its new colour is nearer its true colour than what is shown now. Otherwise the shown
  /// colour is kept, which costs nothing in quality and makes the pixel transparent.
  func draws(_ i: Int, pixel: Int, colors: [UInt32], shown: UInt32) -> Bool {
    let index = Int(indices[i])
    guard index != Int(GIFFrame.unchangedIndex), colors[index] != shown else { return false }
    // Nothing shown yet, or transparent (`GIFEncoder.clearShown`): any colour is nearer.
    guard shown <= 0xFF_FFFF else { return true }
    let truth = GIFPalette.rgb(pixels[pixel])
    return Quantizer.distance(truth, colors[index]) < Quantizer.distance(truth, shown)
  }
}
