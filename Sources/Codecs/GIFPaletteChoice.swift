/// Which palette a GIF frame's changed pixels use: the shared (global) one, or one of the frame's
/// own of 127 colours (7-bit LZW codes, a 384-byte table) or 255 (8-bit, 768 bytes). Each costs
/// its squared error over the changed pixels (R, G, B summed, weighted by count) plus `lambda`
/// times its bytes: the table, and the LZW codes estimated by coding every `rowStep`-th row of
/// the changed rectangle (unchanged pixels transparent) and scaling up.
///
/// A palette of the frame's own must not be worse than the shared one: it may buy error with
/// bytes but not bytes with error, since an error left on screen lasts until the pixel is drawn
/// again (in a scene with still parts, many frames), which the frame alone cannot see.
///
/// Measured on the demo scenes (BENCHMARKS.md, "The demo command"): cards, whose pixels nearly
/// all move, take a palette of their own on 46 of 50 frames (127 colours on most); the cats'
/// frames keep the palettes they had (`GIFEncoder.prepare` gives an exact one first where the
/// shared one fits poorly).
struct GIFPaletteChoice {
  /// Squared error worth one byte.
  static let lambda = 60.0
  /// Below this mean squared error per channel of the shared palette (on the changed pixels)
  /// no other palette is tried: it could not gain more than a few bytes' worth, and trying costs
  /// two quantizations and three trial codings.
  static let floor = 0.05
  /// Rows of the changed rectangle coded to estimate a palette's bytes: one in `rowStep`.
  static let rowStep = 4

  /// The changed pixels' distinct colours (0xRRGGBB) and how often each occurs.
  let colors: [UInt32]
  let counts: [Int]
  /// Every `rowStep`-th row of the changed rectangle: the colour index of each changed pixel,
  /// -1 for an unchanged one.
  let sampled: [Int32]

  /// The frame's own palette and each colour's index in it, when one of `sizes` costs less than
  /// the shared palette (`sharedTable`: each colour's index among its `sharedCount` entries, with
  /// squared error `sharedError`); nil to keep the shared one.
  func ownPalette(
    sharedTable: [UInt8], sharedCount: Int, sharedError: Int, sizes: [Int]
  )
    -> Quantizer.Result?
  {
    let coder = GIFLZW()
    var best =
      Double(sharedError) + Self.lambda * Double(codeBytes(sharedTable, sharedCount, coder))
    var chosen: Quantizer.Result?
    let sizes = Set(sizes).sorted()
    let palettes = Quantizer(refinementPasses: GIFEncoder.localPalettePasses).quantize(
      colors, counts: counts, sizes: sizes)
    for (size, own) in zip(sizes, palettes) {
      var error = 0
      for (i, color) in colors.enumerated() {
        error += Quantizer.distance(color, own.palette[Int(own.indices[i])]) * counts[i]
      }
      guard error <= sharedError else { continue }
      let table = 3 << GIFEncoder.tableBits(own.palette.count + 1)
      let cost =
        Double(error) + Self.lambda
        * Double(codeBytes(own.indices, own.palette.count, coder) + table)
      if cost < best { (best, chosen) = (cost, own) }
      // An exact palette: a larger one cannot do better.
      if own.palette.count < size { break }
    }
    return chosen
  }

  /// The LZW bytes of the changed rectangle with each colour coded `table[colour]` (one of
  /// `count` entries, the transparent index after them), estimated from the sampled rows.
  private func codeBytes(_ table: [UInt8], _ count: Int, _ coder: GIFLZW) -> Int {
    // An unchanged pixel is coded transparent, the entry after the `count` colours.
    var indices = GIFEncoder.paletteIndices(
      of: sampled, through: table, unchanged: UInt8(truncatingIfNeeded: count))
    return coder.encode(&indices, minimumCodeSize: GIFEncoder.codeSize(count + 1)).count
      * Self.rowStep
  }
}
