import Raster

extension GIFFrame {
  /// `drawn(indices:pixels:colors:shown:rect:width:into:)` over this frame's changed rectangle,
  /// indices and pixels: `chosen` must hold the rectangle's pixels. Nil bounds when none is drawn
  /// or the frame has no changed rectangle.
  func drawn(colors: [UInt32], shown: [UInt32], into chosen: inout [Int16]) -> IntRect? {
    guard let rect else { return nil }
    return indices.withUnsafeBufferPointer { indices in
      pixels.withUnsafeBufferPointer { pixels in
        colors.withUnsafeBufferPointer { colors in
          shown.withUnsafeBufferPointer { shown in
            chosen.withUnsafeMutableBufferPointer { chosen in
              Self.drawn(
                indices: indices, pixels: pixels, colors: colors, shown: shown, rect: rect,
                width: width, into: chosen)
            }
          }
        }
      }
    }
  }

  /// Kernel: for each pixel of `rect` (the frame's changed rectangle, `indices` over it), the
  /// index it is drawn with, or -1 when it keeps what is shown (`draws(_:pixel:colors:shown:)`
  /// decides), into `chosen` (`rect`'s size, row-major); returns the bounds of the pixels drawn.
  /// `pixels` and `shown` are whole frames `width` wide. Its plain twin is `drawnPlainly`.
  static func drawn(
    indices: UnsafeBufferPointer<UInt8>, pixels: UnsafeBufferPointer<UInt32>,
    colors: UnsafeBufferPointer<UInt32>, shown: UnsafeBufferPointer<UInt32>, rect: IntRect,
    width: Int, into chosen: UnsafeMutableBufferPointer<Int16>
  ) -> IntRect? {
    var bounds = PixelBounds()
    let unchanged = Int(unchangedIndex)
    let rowWidth = rect.width
    for y in rect.minY..<rect.maxY {
      let row = (y - rect.minY) * rowWidth
      let frameRow = y * width + rect.minX
      var first = -1
      var last = -1
      for i in 0..<rowWidth {
        let index = Int(indices[row + i])
        chosen[row + i] = -1
        guard index != unchanged else { continue }
        let color = colors[index]
        let now = shown[frameRow + i]
        guard color != now else { continue }
        if now <= 0xFF_FFFF {
          let truth = GIFPalette.rgb(pixels[frameRow + i])
          guard Quantizer.distance(truth, color) < Quantizer.distance(truth, now) else { continue }
        }
        chosen[row + i] = Int16(truncatingIfNeeded: index)
        if first < 0 { first = i }
        last = i
      }
      if first >= 0 { bounds.add(x: rect.minX + first, through: rect.minX + last, y: y) }
    }
    return bounds.rect
  }

  /// `drawn`'s plain twin: `draws` pixel by pixel over arrays.
  func drawnPlainly(colors: [UInt32], shown: [UInt32]) -> (chosen: [Int16], bounds: IntRect?) {
    guard let r = rect else { return ([], nil) }
    var chosen = [Int16](repeating: -1, count: r.width * r.height)
    var bounds = PixelBounds()
    for y in r.minY..<r.maxY {
      for x in r.minX..<r.maxX {
        let source = (y - r.minY) * r.width + (x - r.minX)
        let p = y * width + x
        if draws(source, pixel: p, colors: colors, shown: shown[p]) {
          chosen[source] = Int16(indices[source])
          bounds.add(x: x, y: y)
        }
      }
    }
    return (chosen, bounds.rect)
  }
}
