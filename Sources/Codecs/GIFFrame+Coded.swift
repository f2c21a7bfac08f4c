import CPixelKernels
import Raster

extension GIFFrame {
  /// What a lossless frame codes over its changed rectangle, in one pass: the pixels `drawn`
  /// picks, the LZW's alternates, and the shown colours updated.
  struct Coded {
    /// Per pixel of `rect` (row-major), the index drawn, or `blank` when the pixel keeps what
    /// is shown.
    var indices: [UInt8]
    /// Per pixel of `rect`, the index drawn, or else the first index of the colour the pixel
    /// shows (`blank` when the palette lacks it): what the LZW may code instead of `blank`.
    var alternates: [UInt8]
    /// The bounds of the pixels drawn; nil when none is.
    var bounds: IntRect?
  }

  /// `coded(indices:pixels:colors:shown:rect:width:lookup:blank:into:_:)` over this frame's
  /// changed rectangle, indices and pixels, updating `shown`; nil when the frame has no changed
  /// rectangle.
  func coded(
    colors: [UInt32], shown: inout [UInt32], lookup: PaletteLookup, inC: Bool = true
  ) -> Coded? {
    guard let rect else { return nil }
    let count = rect.width * rect.height
    let blank = UInt8(truncatingIfNeeded: colors.count)
    // Every element is written by the kernel: no clearing first.
    var coded = [UInt8](unsafeUninitializedCapacity: count) { $1 = count }
    var alternates = [UInt8](unsafeUninitializedCapacity: count) { $1 = count }
    let bounds = indices.withUnsafeBufferPointer { indices in
      pixels.withUnsafeBufferPointer { pixels in
        colors.withUnsafeBufferPointer { colors in
          shown.withUnsafeMutableBufferPointer { shown in
            coded.withUnsafeMutableBufferPointer { coded in
              alternates.withUnsafeMutableBufferPointer { alternates in
                inC
                  ? Self.codedInC(
                    indices: indices, pixels: pixels, colors: colors, shown: shown, rect: rect,
                    width: width, lookup: lookup, blank: blank, into: coded, alternates)
                  : Self.coded(
                    indices: indices, pixels: pixels, colors: colors, shown: shown, rect: rect,
                    width: width, lookup: lookup, blank: blank, into: coded, alternates)
              }
            }
          }
        }
      }
    }
    return Coded(indices: coded, alternates: alternates, bounds: bounds)
  }

  /// `coded(indices:…)` by its C kernel (`cpk_gif_coded`), which that Swift loop is the plain
  /// twin of: the same indices, alternates, shown colours and bounds.
  static func codedInC(
    indices: UnsafeBufferPointer<UInt8>, pixels: UnsafeBufferPointer<UInt32>,
    colors: UnsafeBufferPointer<UInt32>, shown: UnsafeMutableBufferPointer<UInt32>,
    rect: IntRect, width: Int, lookup: PaletteLookup, blank: UInt8,
    into coded: UnsafeMutableBufferPointer<UInt8>, _ alternates: UnsafeMutableBufferPointer<UInt8>
  ) -> IntRect? {
    precondition(
      indices.count >= rect.width * rect.height && coded.count >= indices.count
        && alternates.count >= indices.count && pixels.count >= width * rect.maxY
        && shown.count >= width * rect.maxY && rect.minX >= 0 && rect.maxX <= width)
    guard let indexAt = indices.baseAddress, let pixelAt = pixels.baseAddress,
      let colorAt = colors.baseAddress, let shownAt = shown.baseAddress,
      let codedAt = coded.baseAddress, let alternateAt = alternates.baseAddress
    else { return nil }
    var bounds = (0, 0, 0, 0)
    let any = lookup.withTables { tables in
      withUnsafeMutableBytes(of: &bounds) { raw in
        cpk_gif_coded(
          indexAt, pixelAt, colorAt, colors.count, shownAt,
          cpk_gif_rect(
            x: rect.minX, y: rect.minY, width: rect.width, height: rect.height,
            frame_width: width),
          tables, blank, codedAt, alternateAt,
          raw.baseAddress?.assumingMemoryBound(to: Int.self))
      }
    }
    guard any != 0 else { return nil }
    return IntRect(minX: bounds.0, minY: bounds.1, maxX: bounds.2 + 1, maxY: bounds.3 + 1)
  }

  /// Kernel: for each pixel of `rect` (the frame's changed rectangle, `indices` over it), the
  /// index it is drawn with (`draws(_:pixel:colors:shown:)` decides, as `drawn` does) into
  /// `coded`, or `blank` when it keeps what is shown; into `alternates` the index drawn, or the
  /// first index of the shown colour in `lookup` (`blank` when none); and, for a pixel drawn,
  /// its colour into `shown`. `coded` and `alternates` are `rect`'s size, row-major; `pixels`
  /// and `shown` are whole frames `width` wide. Returns the bounds of the pixels drawn. Its
  /// plain twin is `codedPlainly`.
  static func coded(
    indices: UnsafeBufferPointer<UInt8>, pixels: UnsafeBufferPointer<UInt32>,
    colors: UnsafeBufferPointer<UInt32>, shown: UnsafeMutableBufferPointer<UInt32>,
    rect: IntRect, width: Int, lookup: PaletteLookup, blank: UInt8,
    into coded: UnsafeMutableBufferPointer<UInt8>, _ alternates: UnsafeMutableBufferPointer<UInt8>
  ) -> IntRect? {
    guard let indexAt = indices.baseAddress, let shownAt = shown.baseAddress,
      let codedAt = coded.baseAddress, let alternateAt = alternates.baseAddress
    else { return nil }
    var bounds = PixelBounds()
    let unchanged = Int(unchangedIndex)
    let rowWidth = rect.width
    // The last shown colour looked up and its index: runs of one colour look up once.
    var (lastShown, lastIndex): (UInt32, UInt8) = (0xFFFF_FFFF, blank)
    for y in rect.minY..<rect.maxY {
      let row = (y - rect.minY) * rowWidth
      let frameRow = y * width + rect.minX
      var first = -1
      var last = -1
      var i = 0
      while i < rowWidth {
        // Eight pixels unchanged that show the colour last looked up: kept, the same alternate.
        if i + 8 <= rowWidth, Kernels8.all(indexAt + row + i, equal: unchangedIndex),
          Kernels8.all(shownAt + frameRow + i, equal: lastShown)
        {
          (codedAt + row + i).update(repeating: blank, count: 8)
          (alternateAt + row + i).update(repeating: lastIndex, count: 8)
          i += 8
          continue
        }
        let block = min(rowWidth, i + 8)
        while i < block {
          defer { i += 1 }
          let index = Int(indices[row + i])
          let now = shown[frameRow + i]
          var draws = false
          if index != unchanged {
            let color = colors[index]
            if color != now {
              if now <= 0xFF_FFFF {
                let truth = GIFPalette.rgb(pixels[frameRow + i])
                draws = Quantizer.distance(truth, color) < Quantizer.distance(truth, now)
              } else {
                draws = true
              }
            }
          }
          if draws {
            let drawnIndex = UInt8(truncatingIfNeeded: index)
            coded[row + i] = drawnIndex
            alternates[row + i] = drawnIndex
            shown[frameRow + i] = colors[index]
            if first < 0 { first = i }
            last = i
          } else {
            if now != lastShown { (lastShown, lastIndex) = (now, lookup.index(of: now) ?? blank) }
            coded[row + i] = blank
            alternates[row + i] = lastIndex
          }
        }
      }
      if first >= 0 { bounds.add(x: rect.minX + first, through: rect.minX + last, y: y) }
    }
    return bounds.rect
  }

  /// `coded`'s plain twin: `drawnPlainly`, then each pixel's index, alternate and shown colour
  /// one at a time over arrays.
  func codedPlainly(colors: [UInt32], shown: inout [UInt32]) -> Coded? {
    guard let r = rect else { return nil }
    let (chosen, bounds) = drawnPlainly(colors: colors, shown: shown)
    let blank = UInt8(truncatingIfNeeded: colors.count)
    var coded = [UInt8](repeating: blank, count: r.width * r.height)
    var alternates = coded
    for y in r.minY..<r.maxY {
      for x in r.minX..<r.maxX {
        let k = (y - r.minY) * r.width + x - r.minX
        let p = y * width + x
        if chosen[k] >= 0 {
          coded[k] = UInt8(chosen[k])
          alternates[k] = UInt8(chosen[k])
          shown[p] = colors[Int(chosen[k])]
        } else if shown[p] <= 0xFF_FFFF, let i = colors.firstIndex(of: shown[p]) {
          alternates[k] = UInt8(i)
        }
      }
    }
    return Coded(indices: coded, alternates: alternates, bounds: bounds)
  }
}

/// Eight-value comparisons for the encoder's row kernels, as four 64-bit loads.
enum Kernels8 {
  /// Whether `a[0..<8]` equals `b[0..<8]`.
  @inline(__always)
  static func same(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>) -> Bool {
    let (x, y) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
    var differ: UInt64 = 0
    for k in 0..<4 {
      differ |=
        x.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self)
        ^ y.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self)
    }
    return differ == 0
  }

  /// Whether each of `a[0..<8]` is `value`.
  @inline(__always)
  static func all(_ a: UnsafePointer<UInt32>, equal value: UInt32) -> Bool {
    let x = UnsafeRawPointer(a)
    let pair = UInt64(value) << 32 | UInt64(value)
    var differ: UInt64 = 0
    for k in 0..<4 { differ |= x.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self) ^ pair }
    return differ == 0
  }

  /// Whether each of `a[0..<8]` is `value`.
  @inline(__always)
  static func all(_ a: UnsafePointer<UInt8>, equal value: UInt8) -> Bool {
    UnsafeRawPointer(a).loadUnaligned(as: UInt64.self) == UInt64(value) &* 0x0101_0101_0101_0101
  }
}
