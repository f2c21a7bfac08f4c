/// Separable resampling of premultiplied images onto a device grid, in Float.
///
/// Each output pixel's centre is mapped to source coordinates; the filter (`ImageInterpolation`)
/// is centred there. When shrinking, the filter is widened by the shrink factor, so every source
/// pixel counts by the area it covers (no aliasing), and only pixels inside the image count
/// (the weights renormalised over them); when enlarging it interpolates, and source pixels past
/// the edges repeat the edge.
enum ImageResampler {
  /// Weights of one axis: for each output index, a run of source indices and their weights.
  struct Axis {
    var first: [Int] = []
    var count: [Int] = []
    /// `stride` weights per output index.
    var weights: [Float] = []
    var stride = 0

    /// Output indices `outputs` (device pixels), a source of `sourceCount` pixels whose edge 0 is
    /// at device coordinate `origin`, `scale` device pixels per source pixel (negative: mirrored).
    init(
      outputs: Range<Int>, sourceCount: Int, origin: Double, scale: Double,
      interpolation: ImageInterpolation
    ) {
      let shrink = min(abs(scale), 1)
      let shrinks = abs(scale) < 1
      // One source pixel per device pixel, edges on the device grid: every pixel centre falls on
      // a source pixel's centre, and each device pixel takes that pixel as it is (Core Graphics
      // draws such an image pixel for pixel). Mitchell's filter, which does not interpolate,
      // would otherwise blur it: at whole offsets it weighs the neighbours 1/18 each.
      let isIdentity =
        abs(abs(scale) - 1) <= 1e-9 && abs(origin - origin.rounded()) <= 1e-9
      let nearest = interpolation == .none || isIdentity
      let radius = nearest ? 0.5 : interpolation.support / shrink
      stride = nearest ? 1 : Int((2 * radius).rounded(.up)) + 2
      first.reserveCapacity(outputs.count)
      weights = [Float](repeating: 0, count: outputs.count * stride)
      for (k, i) in outputs.enumerated() {
        let centre = (Double(i) + 0.5 - origin) / scale
        if nearest {
          first.append(min(max(Int(centre.rounded(.down)), 0), sourceCount - 1))
          count.append(1)
          weights[k * stride] = 1
          continue
        }
        let low = Int((centre - radius - 0.5).rounded(.up))
        let high = Int((centre + radius - 0.5).rounded(.down))
        var taps: [(Int, Double)] = []
        var total = 0.0
        for j in low...max(low, high) {
          // Shrinking, the widened filter averages the pixels inside the image by their
          // weights (an edge pixel counts for its own area, not again for the pixels a repeated
          // edge would put beyond it); enlarging, the edge repeats.
          if shrinks, j < 0 || j >= sourceCount { continue }
          let w = interpolation.weight((Double(j) + 0.5 - centre) * shrink)
          if w == 0 { continue }
          taps.append((min(max(j, 0), sourceCount - 1), w))
          total += w
        }
        if taps.isEmpty || total == 0 {
          taps = [(min(max(Int(centre.rounded(.down)), 0), sourceCount - 1), 1)]
          total = 1
        }
        // Repeated edge indices merge, so a run is contiguous.
        let start = taps.map(\.0).min() ?? 0
        let end = taps.map(\.0).max() ?? 0
        let span = end - start + 1
        if span > stride {
          // Cannot happen with the stride above; keep the nearest taps if it ever did.
          first.append(start)
          count.append(stride)
        } else {
          first.append(start)
          count.append(span)
        }
        for (j, w) in taps where j - start < stride {
          weights[k * stride + j - start] += Float(w / total)
        }
      }
    }
  }

  /// The image resampled onto output columns `xs.outputs` × rows `ys.outputs`: premultiplied
  /// pixels, `columns` wide, row-major, colour channels capped at alpha.
  static func resample(_ image: Pixmap, xs: Axis, ys: Axis, columns: Int, rows: Int) -> [UInt32] {
    guard columns > 0, rows > 0 else { return [] }
    // The source rows any output row reads.
    let firstRow = ys.first.min() ?? 0
    let lastRow = zip(ys.first, ys.count).map { $0 + $1 - 1 }.max() ?? 0
    let sourceRows = lastRow - firstRow + 1
    var horizontal = [SIMD4<Float>](repeating: .zero, count: sourceRows * columns)
    let width = image.width
    image.pixels.withUnsafeBufferPointer { source in
      for r in 0..<sourceRows {
        let row = (firstRow + r) * width
        for c in 0..<columns {
          var sum = SIMD4<Float>.zero
          let base = c * xs.stride
          for t in 0..<xs.count[c] {
            let p = source[row + xs.first[c] + t]
            let v = SIMD4<Float>(
              Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
            sum += v * xs.weights[base + t]
          }
          horizontal[r * columns + c] = sum
        }
      }
    }
    var out = [UInt32](repeating: 0, count: columns * rows)
    for y in 0..<rows {
      let base = y * ys.stride
      for c in 0..<columns {
        var sum = SIMD4<Float>.zero
        for t in 0..<ys.count[y] {
          sum += horizontal[(ys.first[y] - firstRow + t) * columns + c] * ys.weights[base + t]
        }
        let a = min(max(sum.w, 0), 255)
        let r = min(max(sum.x, 0), a)
        let g = min(max(sum.y, 0), a)
        let b = min(max(sum.z, 0), a)
        out[y * columns + c] =
          UInt32(r + 0.5) | UInt32(g + 0.5) << 8 | UInt32(b + 0.5) << 16 | UInt32(a + 0.5) << 24
      }
    }
    return out
  }
}
