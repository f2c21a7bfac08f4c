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
  /// The true 0xRRGGBB of each pixel of `rect` (meaningful where the index is not unchanged).
  public var truth: [UInt32] = []

  /// How much worse (squared RGB distance) the shown colour may be than the new one and still
  /// be kept, so that tiny sub-pixel changes stay transparent.
  static let keepTolerance = 0

  /// Palettes hold at most 255 colours, so 255 is free to mark unchanged pixels.
  static let unchangedIndex: UInt8 = 255
  static let unchanged = 255

  init(
    width: Int, height: Int, rect: IntRect? = nil, indices: [UInt8] = [],
    localPalette: [UInt32]? = nil, truth: [UInt32] = []
  ) {
    self.width = width
    self.height = height
    self.rect = rect
    self.indices = indices
    self.localPalette = localPalette
    self.truth = truth
  }

  /// Whether the pixel at `i` (in `rect`) should be drawn: it changed, and its new colour is
  /// nearer its true colour than what is shown now. Otherwise the shown colour is kept, which
  /// costs nothing in quality and makes the pixel transparent.
  func draws(_ i: Int, colors: [UInt32], shown: UInt32) -> Bool {
    let index = Int(indices[i])
    guard index != GIFFrame.unchanged, colors[index] != shown else { return false }
    guard shown != 0xFFFF_FFFF else { return true }
    return Quantizer.distance(truth[i], colors[index]) + GIFFrame.keepTolerance
      < Quantizer.distance(truth[i], shown)
  }
}
