#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The perceptual comparison of two straight RGBA8 images: a colour distance in OKLab and
/// pixelmatch's idea of excusing anti-aliased pixels, made stricter so that an edge which really
/// moved is not excused.
///
/// - Distance: each pixel is composited (in sRGB values, as browsers blend) over white and over
///   black, converted to OKLab (Björn Ottosson's 2020 definition: linear sRGB → LMS, cube
///   root, → Lab), and the larger Euclidean ΔE of the two backgrounds is the pixel's distance —
///   so a change of alpha shows on one background or the other. OKLab rather than pixelmatch's
///   YIQ: its distances follow perceived differences evenly across hues and lightness (YIQ is a
///   broadcast encoding whose weights pixelmatch tuned by hand), so one threshold means the
///   same for a blue button and a grey label. Near black its cube root magnifies one-level steps
///   (0 → 1 is ΔE 0.07), so a pixel whose channels all differ by at most one level is rounding,
///   never a change.
/// - Anti-aliasing (Vyšniauskas 2009, as pixelmatch applies it): a pixel over the threshold is
///   excused when, in one image or the other, it has at most two neighbours of its own
///   brightness, both a darker and a brighter neighbour, and the darkest or the brightest of
///   those (any of them, where several tie: pixelmatch takes the first it scans, which judges a
///   feature's two rows differently) has three or more identical neighbours in both images (it
///   lies in a flat region, so the pixel is on an edge between flat regions) — and, our
///   addition, its brightness changed by at most a quarter of the local contrast (the
///   brightest neighbour's minus the darkest's): as much as a coverage change of a quarter
///   pixel explains. Brightness here is luma (Rec. 601
///   weights, as pixelmatch's Y) of the sRGB values over white, which is linear in coverage as
///   our compositing is. An edge moved by 1/8 px stays excused; a corner whose radius grew by a
///   point, whose pixels change by most of the contrast, does not.
/// - Small features that moved (our addition, `isPartOfMovedFeature`): a feature a few pixels
///   across has no flat pixel for the rule above, so an edge pixel of one is also excused when
///   the changed pixels around it form a small island whose ink is conserved.
///
/// The default threshold, 0.006, lies between rounding noise of two levels a channel (ΔE up to
/// 0.0056 on mid grey and systemBlue) and a colour 2 % darker (ΔE 0.0088 on mid grey, 0.0095 on
/// systemBlue, 0.015 on white).
public enum PerceptualDifference {
  /// The default threshold, ΔE in OKLab.
  public static let defaultThreshold = 0.006
  /// The share of the local contrast an excused anti-aliased pixel may change by.
  public static let antialiasingShare: Float = 0.25

  /// What a pixel of the pair is.
  public enum Verdict: Hashable, Sendable {
    /// Identical bytes, or a distance within the threshold.
    case same
    /// Over the threshold but excused as anti-aliasing.
    case antialiased
    case different
  }

  /// sRGB 8-bit value → linear light.
  private static let linear: [Float] = (0..<256).map { v in
    let c = Double(v) / 255
    return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
  }

  /// OKLab of an opaque sRGB colour (8-bit values as Floats).
  static func oklab(_ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> {
    func lin(_ v: Float) -> Float {
      let i = min(max(Int(v), 0), 254)
      // Between table entries (composited values are fractional): linear interpolation.
      return linear[i] + (linear[i + 1] - linear[i]) * min(max(v - Float(i), 0), 1)
    }
    return lms(lin(r), lin(g), lin(b))
  }

  /// OKLab of an opaque sRGB8 colour.
  @inline(__always)
  static func oklab(opaque r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD3<Float> {
    lms(linear[Int(r)], linear[Int(g)], linear[Int(b)])
  }

  /// Linear sRGB → OKLab.
  @inline(__always)
  static func lms(_ lr: Float, _ lg: Float, _ lb: Float) -> SIMD3<Float> {
    let l = cubeRoot(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
    let m = cubeRoot(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
    let s = cubeRoot(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
    return SIMD3(
      0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
      1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
      0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
  }

  /// The cube root of x ≥ 0: an estimate from the float's exponent bits, then three Newton
  /// steps (relative error below 1e-6 over 0…1, the range of linear light; libm's `cbrtf` is
  /// slower and this needs no more).
  @inline(__always)
  static func cubeRoot(_ x: Float) -> Float {
    guard x > 1e-30 else { return 0 }
    var y = Float(bitPattern: x.bitPattern / 3 &+ 0x2A51_4067)
    for _ in 0..<3 { y = (2 * y + x / (y * y)) * (1 / 3) }
    return y
  }

  /// A straight RGBA8 pixel at byte offset `i` composited over `background` (0 or 255).
  @inline(__always)
  static func composited(
    _ p: UnsafeRawBufferPointer, _ i: Int, over background: Float
  )
    -> SIMD3<Float>
  {
    let a = Float(p[i + 3]) / 255
    func mix(_ c: UInt8) -> Float { Float(c) * a + background * (1 - a) }
    return oklab(mix(p[i]), mix(p[i + 1]), mix(p[i + 2]))
  }

  /// OKLab of the opaque colours met so far, in a small direct-mapped table: the pixels that
  /// differ between two frames repeat few colours (flat regions that moved, a changed fill), so
  /// each is converted about once. A value of the table is exactly `oklab(opaque:)`'s.
  struct OKLabCache {
    static let slots = 4096
    /// Per slot, the 0xBBGGRR it holds (above 0xFFFFFF: empty).
    private var keys = [UInt32](repeating: .max, count: slots)
    private var values = [SIMD3<Float>](repeating: .zero, count: slots)

    @inline(__always)
    mutating func oklab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD3<Float> {
      let key = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16
      // The top 12 bits of a multiplicative (Fibonacci) hash.
      let slot = Int((key &* 2_654_435_761) >> 20)
      if keys[slot] == key { return values[slot] }
      let value = PerceptualDifference.oklab(opaque: r, g, b)
      keys[slot] = key
      values[slot] = value
      return value
    }
  }

  /// The pixel's distance: the larger OKLab ΔE over white and over black.
  static func distance(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, _ i: Int,
    cache: inout OKLabCache
  )
    -> Float
  {
    if e[i + 3] == 255, a[i + 3] == 255 {
      // Opaque: both backgrounds give the same colours, straight from the table.
      let d = cache.oklab(e[i], e[i + 1], e[i + 2]) - cache.oklab(a[i], a[i + 1], a[i + 2])
      return (d * d).sum().squareRoot()
    }
    let white = composited(e, i, over: 255) - composited(a, i, over: 255)
    let black = composited(e, i, over: 0) - composited(a, i, over: 0)
    return max((white * white).sum(), (black * black).sum()).squareRoot()
  }

  /// Brightness for the anti-aliasing test: luma of the sRGB values over white, 0…1.
  @inline(__always)
  static func brightness(_ p: UnsafeRawBufferPointer, _ i: Int) -> Float {
    let a = Float(p[i + 3]) / 255
    func mix(_ c: UInt8) -> Float { Float(c) * a + 255 * (1 - a) }
    return (0.29889531 * mix(p[i]) + 0.58662247 * mix(p[i + 1]) + 0.11448223 * mix(p[i + 2]))
      / 255
  }

  /// The verdict on pixel (x, y) of `expected` and `actual` (straight RGBA8, `width` × `height`).
  static func verdict(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, x: Int, y: Int, width: Int,
    height: Int, threshold: Float, cache: inout OKLabCache
  ) -> Verdict {
    var distance: Float = 0
    return verdict(
      e, a, x: x, y: y, width: width, height: height, threshold: threshold, distance: &distance,
      cache: &cache)
  }

  /// `verdict`, with the pixel's distance (0 when its bytes are equal or within rounding).
  static func verdict(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, x: Int, y: Int, width: Int,
    height: Int, threshold: Float, distance found: inout Float, cache: inout OKLabCache
  ) -> Verdict {
    let i = (y * width + x) * 4
    if e.loadUnaligned(fromByteOffset: i, as: UInt32.self)
      == a.loadUnaligned(fromByteOffset: i, as: UInt32.self)
    {
      return .same
    }
    var levels = 0
    for c in 0..<4 { levels = max(levels, abs(Int(e[i + c]) - Int(a[i + c]))) }
    guard levels > 1 else { return .same }
    found = distance(e, a, i, cache: &cache)
    guard found > threshold else { return .same }
    let expected = Neighbourhood(e, x: x, y: y, width: width, height: height)
    let actual = Neighbourhood(a, x: x, y: y, width: width, height: height)
    let change = abs(expected.centre - actual.centre)
    let (inExpected, inActual) = (expected.isEdge(change: change), actual.isEdge(change: change))
    if inExpected && expected.alike <= 2
      && hasFlatExtreme(e, other: a, expected, x: x, y: y, width: width, height: height)
      || inActual && actual.alike <= 2
        && hasFlatExtreme(a, other: e, actual, x: x, y: y, width: width, height: height)
      || (inExpected || inActual)
        && isPartOfMovedFeature(e, a, x: x, y: y, width: width, height: height)
    {
      return .antialiased
    }
    return .different
  }

  /// A pixel's 3 × 3 neighbourhood in one image, by brightness.
  struct Neighbourhood {
    /// The pixel's own brightness, and the darkest and brightest of it and its neighbours.
    var centre: Float
    var lowest: Float
    var highest: Float
    /// Neighbours of the pixel's own brightness (beyond the image counts as one).
    var alike: Int

    init(_ image: UnsafeRawBufferPointer, x: Int, y: Int, width: Int, height: Int) {
      centre = brightness(image, (y * width + x) * 4)
      (lowest, highest) = (centre, centre)
      // Neighbours beyond the image count as alike, as pixelmatch's edge rule does.
      alike = (x == 0 || x == width - 1 || y == 0 || y == height - 1) ? 1 : 0
      for ny in max(y - 1, 0)...min(y + 1, height - 1) {
        for nx in max(x - 1, 0)...min(x + 1, width - 1) where nx != x || ny != y {
          let value = brightness(image, (ny * width + nx) * 4)
          lowest = min(lowest, value)
          highest = max(highest, value)
          if value == centre { alike += 1 }
        }
      }
    }

    /// Whether the pixel lies between a darker and a brighter neighbour and `change` (its
    /// brightness change between the images) is at most `antialiasingShare` of their contrast.
    func isEdge(change: Float) -> Bool {
      lowest < centre && highest > centre && change <= antialiasingShare * (highest - lowest)
    }
  }

  /// The widest and tallest feature, in pixels, that `isPartOfMovedFeature` looks at.
  public static let smallFeatureSpan = 16
  /// The share of a small feature's changed brightness that may be ink gained or lost.
  static let inkShare: Float = 0.125

  /// Whether (x, y) — an edge pixel in one image or the other (`Neighbourhood.isEdge`, which
  /// bounds the move to about a quarter of a pixel) — belongs to a small feature that moved by a
  /// fraction of a pixel: the case the flat-neighbour rule cannot judge, since a feature a few
  /// pixels across has no flat interior and its neighbours are edge pixels themselves (a 2 × 2
  /// px dot whose edges cross pixel edges along both axes). It does when
  /// - the pixels that changed around it (more than one level in a channel, 8-connected to it)
  ///   form an island at most `smallFeatureSpan` pixels across and down, ringed by unchanged
  ///   pixels, whose ink is conserved: the sum of the brightness changes over the island is at
  ///   most `inkShare` of the sum of their sizes (plus a level a pixel for rounding). A move
  ///   carries a feature's ink from one side to the other, since our compositing is linear in
  ///   coverage; a feature that is missing, grew, shrank or changed colour gains or loses ink
  ///   of the same sign in every pixel.
  static func isPartOfMovedFeature(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, x: Int, y: Int, width: Int,
    height: Int
  ) -> Bool {
    let span = smallFeatureSpan
    // The island holds the runs of changed pixels through (x, y) along its row and column, so
    // a run longer than the span rules it out before any search.
    guard changedRun(e, a, x: x, y: y, dx: 1, dy: 0, width: width, height: height) < span,
      changedRun(e, a, x: x, y: y, dx: 0, dy: 1, width: width, height: height) < span
    else { return false }
    // The window holding every island of at most `span` pixels across that contains (x, y).
    let side = 2 * span - 1
    let (originX, originY) = (x - span + 1, y - span + 1)
    return withUnsafeTemporaryAllocation(of: Bool.self, capacity: side * side) { seen in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: side * side) { stack in
        seen.initialize(repeating: false)
        var (minX, maxX, minY, maxY) = (x, x, y, y)
        var (ink, size): (Float, Float) = (0, 0)
        var count = 0
        var top = 0
        stack[0] = Int32((y - originY) * side + (x - originX))
        seen[(y - originY) * side + (x - originX)] = true
        top = 1
        while top > 0 {
          top -= 1
          let slot = Int(stack[top])
          let (px, py) = (slot % side + originX, slot / side + originY)
          let delta = brightness(e, (py * width + px) * 4) - brightness(a, (py * width + px) * 4)
          ink += delta
          size += abs(delta)
          count += 1
          for ny in max(py - 1, 0)...min(py + 1, height - 1) {
            for nx in max(px - 1, 0)...min(px + 1, width - 1) {
              guard changed(e, a, (ny * width + nx) * 4) else { continue }
              let (wx, wy) = (nx - originX, ny - originY)
              guard wx >= 0, wx < side, wy >= 0, wy < side else { return false }
              let next = wy * side + wx
              guard !seen[next] else { continue }
              seen[next] = true
              minX = min(minX, nx)
              maxX = max(maxX, nx)
              minY = min(minY, ny)
              maxY = max(maxY, ny)
              guard maxX - minX < span, maxY - minY < span else { return false }
              stack[top] = Int32(next)
              top += 1
            }
          }
        }
        return abs(ink) <= inkShare * size + Float(count) / 255
      }
    }
  }

  /// The length of the run of changed pixels through (x, y) along (dx, dy) and back, counted
  /// up to `smallFeatureSpan`.
  static func changedRun(
    _ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, x: Int, y: Int, dx: Int, dy: Int,
    width: Int, height: Int
  ) -> Int {
    var run = 1
    for direction in [1, -1] {
      var (px, py) = (x + dx * direction, y + dy * direction)
      while run < smallFeatureSpan, px >= 0, px < width, py >= 0, py < height,
        changed(e, a, (py * width + px) * 4)
      {
        run += 1
        px += dx * direction
        py += dy * direction
      }
    }
    return run
  }

  /// Whether two straight RGBA8 pixels at byte offset `i` differ by more than a level of
  /// rounding in some channel.
  @inline(__always)
  static func changed(_ e: UnsafeRawBufferPointer, _ a: UnsafeRawBufferPointer, _ i: Int) -> Bool {
    if e.loadUnaligned(fromByteOffset: i, as: UInt32.self)
      == a.loadUnaligned(fromByteOffset: i, as: UInt32.self) || e[i + 3] == 0 && a[i + 3] == 0
    {
      return false
    }
    for c in 0..<4 where abs(Int(e[i + c]) - Int(a[i + c])) > 1 { return true }
    return false
  }

  /// Whether the darkest or the brightest neighbour of (x, y) in `image` (`around` its
  /// neighbourhood there) — every one of them where several tie — has three or more identical
  /// neighbours in both images: it lies in a flat region, so the pixel is on an edge between
  /// flat regions. Which of tied neighbours is looked at must not depend on the order of the
  /// scan (a feature's row next to a sliver of it would otherwise be judged unlike the row
  /// beside it).
  static func hasFlatExtreme(
    _ image: UnsafeRawBufferPointer, other: UnsafeRawBufferPointer, _ around: Neighbourhood,
    x: Int, y: Int, width: Int, height: Int
  ) -> Bool {
    for ny in max(y - 1, 0)...min(y + 1, height - 1) {
      for nx in max(x - 1, 0)...min(x + 1, width - 1) where nx != x || ny != y {
        let value = brightness(image, (ny * width + nx) * 4)
        guard value == around.lowest || value == around.highest else { continue }
        if hasManySiblings(image, x: nx, y: ny, width: width, height: height)
          && hasManySiblings(other, x: nx, y: ny, width: width, height: height)
        {
          return true
        }
      }
    }
    return false
  }

  /// Whether (x, y) has three or more neighbours with exactly its bytes (beyond the image
  /// counts as one).
  static func hasManySiblings(
    _ image: UnsafeRawBufferPointer, x: Int, y: Int, width: Int, height: Int
  ) -> Bool {
    let own = image.loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self)
    var same = (x == 0 || x == width - 1 || y == 0 || y == height - 1) ? 1 : 0
    for ny in max(y - 1, 0)...min(y + 1, height - 1) {
      for nx in max(x - 1, 0)...min(x + 1, width - 1) where nx != x || ny != y {
        if image.loadUnaligned(fromByteOffset: (ny * width + nx) * 4, as: UInt32.self) == own {
          same += 1
          if same > 2 { return true }
        }
      }
    }
    return false
  }
}
