// SVG path data (the `d` attribute) through PathDataParser, then filled by Rasterizer.
//
// A refused input must come with an error that names a position inside it. An accepted path is
// filled onto a small canvas three ways: with the identity map (raw coordinates, far-away
// geometry included), stretched from a 24×24 view box as `render-anim path` maps it (very large
// coordinates overflow to infinity there), and fitted onto the canvas by its bounds. Per map:
// - no coverage outside the mapped bounds, which hold every control point (one pixel of slack);
// - even-odd coverage never exceeds nonzero coverage by more than rounding;
// - `fill` (opaque white on clear), `mask` and `accumulateCoverage` agree exactly;
// - a rasterizer that has filled something else first gives the same coverage as a fresh one.

import FuzzSupport
import Raster

#if canImport(Glibc)
import Glibc
#endif

enum Limits {
  /// Side of the square canvas in device pixels; small, so an iteration stays fast.
  static let side = 48
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPathData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  let path: Path
  do {
    path = try PathDataParser.parse(utf8: bytes)
  } catch {
    guard !error.description.isEmpty, (0...bytes.count).contains(error.offset), error.line >= 1,
      error.column >= 1
    else { fuzzFailure("bad error for \(bytes.count) bytes at \(error.offset): \(error)") }
    return 0
  }
  if path.isEmpty != (path.bounds == nil) {
    fuzzFailure("an empty path with bounds, or the reverse")
  }
  guard let bounds = path.bounds else { return 0 }

  let side = Double(Limits.side)
  var maps: [Transform] = [
    .identity,
    .mapping(
      Rect(x: 0, y: 0, width: 24, height: 24),
      stretchedTo: Rect(x: 0, y: 0, width: side, height: side)),
  ]
  // Fitted by the bounds (a flat path gets a unit-thick box), 2 px in from the edges.
  let box = Rect(
    minX: bounds.minX, minY: bounds.minY,
    maxX: bounds.width > 0 ? bounds.maxX : bounds.minX + 1,
    maxY: bounds.height > 0 ? bounds.maxY : bounds.minY + 1)
  let fitted = Transform.mapping(
    box, fittedInto: Rect(x: 2, y: 2, width: side - 4, height: side - 4))
  if [fitted.a, fitted.d, fitted.tx, fitted.ty].allSatisfy(\.isFinite), fitted.a > 0 {
    maps.append(fitted)
  }
  for (index, map) in maps.enumerated() {
    check(path, bounds: bounds, map: map, other: maps[(index + 1) % maps.count])
  }
  checkStroke(path, bounds: bounds, map: maps.last ?? .identity, seed: bytes)
  return 0
}

/// Strokes the path with a style drawn from the input's bytes (width, caps, joins, miter limit,
/// dashes): the stroke is refused by its estimate or drawn, within the path's bounds grown by
/// what the style can add (half the width times the miter limit, and a square cap's corner).
func checkStroke(_ path: Path, bounds: Rect, map: Transform, seed: [UInt8]) {
  func byte(_ i: Int) -> UInt8 { seed.isEmpty ? 0 : seed[i % seed.count] }
  let width = [0, 0.05, 0.5, 1, 3, 12][Int(byte(0)) % 6] / max(map.maxScale, 1e-300)
  let dash: [Double] =
    byte(3) % 3 == 0 ? [] : [Double(byte(4) % 8), Double(byte(5) % 5) * 0.5, Double(byte(6) % 4)]
  let style = StrokeStyle(
    width: width, cap: LineCap.allCases[Int(byte(1)) % 3],
    join: LineJoin.allCases[Int(byte(2)) % 3], miterLimit: 1 + Double(byte(7) % 10),
    dash: dash.map { $0 / max(map.maxScale, 1e-300) }, dashPhase: Double(byte(8)) - 128)
  let stroker = Stroker(transform: map)
  guard stroker.dashCount(of: path, style: style) <= Double(Dasher.maximumDashes),
    stroker.estimatedPoints(of: path, style: style) <= Double(Stroker.maximumPoints)
  else { return }
  let outline = stroker.outline(of: path, style: style)
  let side = Limits.side
  var rasterizer = Rasterizer()
  guard let mask = rasterizer.mask(of: outline, transform: map, width: side, height: side) else {
    fuzzFailure("a \(side)×\(side) stroke mask was refused")
  }
  let p = map.apply(Point(bounds.minX, bounds.minY))
  let q = map.apply(Point(bounds.maxX, bounds.maxY))
  guard [p.x, p.y, q.x, q.y].allSatisfy(\.isFinite) else { return }
  // Far from the origin a double cannot hold the stroke's offsets: at y = 5e18 its spacing is
  // 1024 units, so an edge half a width away lands up to 512 units off (finding 11). The slack
  // is a few spacings of the largest coordinate, in device pixels: nothing for ordinary paths.
  let magnitude = [bounds.minX, bounds.maxX, bounds.minY, bounds.maxY].map(abs).max() ?? 0
  let spacing =
    (magnitude * map.maxScale + max(abs(map.tx), abs(map.ty))) * Double.ulpOfOne
  let reach = width * map.maxScale / 2 * max(style.miterLimit, 1.5) + 2 + 8 * spacing
  for y in 0..<side {
    for x in 0..<side where mask.values[y * side + x] != 0 {
      let (fx, fy) = (Double(x), Double(y))
      if fx < min(p.x, q.x) - reach || fx > max(p.x, q.x) + reach || fy < min(p.y, q.y) - reach
        || fy > max(p.y, q.y) + reach
      {
        fuzzFailure(
          "stroke coverage \(mask.values[y * side + x]) at (\(x), \(y)), beyond the bounds "
            + "grown by \(reach) px; \(style); \(map)")
      }
    }
  }
}

func check(_ path: Path, bounds: Rect, map: Transform, other: Transform) {
  let side = Limits.side
  let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
  var fresh = Rasterizer()
  var reused = Rasterizer()
  guard
    let nonzero = fresh.mask(of: path, transform: map, rule: .nonzero, width: side, height: side),
    let evenOdd = fresh.mask(of: path, transform: map, rule: .evenodd, width: side, height: side),
    var scratch = Pixmap(width: side, height: side),
    var pixmap = Pixmap(width: side, height: side),
    var accumulated = Mask(width: side, height: side)
  else { fuzzFailure("a \(side)×\(side) canvas was refused") }
  // The reused rasterizer fills something else first, so its scratch cells hold old values.
  reused.fill(path, transform: other, rule: .evenodd, color: white, into: &scratch)
  reused.fill(path, transform: map, rule: .nonzero, color: white, into: &pixmap)
  reused.accumulateCoverage(of: path, transform: map, rule: .evenodd, into: &accumulated)
  guard let again = reused.mask(of: path, transform: map, rule: .nonzero, width: side, height: side)
  else { fuzzFailure("a \(side)×\(side) mask was refused") }

  // The map is a scale and a translation, so two corners give the mapped bounds.
  let p = map.apply(Point(bounds.minX, bounds.minY))
  let q = map.apply(Point(bounds.maxX, bounds.maxY))
  // (Bounds that overflow the map say nothing; far geometry is still checked where they don't.)
  guard [p.x, p.y, q.x, q.y].allSatisfy(\.isFinite) else { return }
  let lowX = min(p.x, q.x).rounded(.down) - 1
  let highX = max(p.x, q.x).rounded(.up) + 1
  let lowY = min(p.y, q.y).rounded(.down) - 1
  let highY = max(p.y, q.y).rounded(.up) + 1

  for y in 0..<side {
    for x in 0..<side {
      let i = y * side + x
      let c = nonzero.values[i]
      let inside = Double(x) >= lowX && Double(x) < highX && Double(y) >= lowY && Double(y) < highY
      if !inside, c != 0 || evenOdd.values[i] != 0 {
        fuzzFailure(
          "coverage \(c)/\(evenOdd.values[i]) at (\(x), \(y)), outside the mapped bounds "
            + "x \(lowX)..<\(highX), y \(lowY)..<\(highY); \(map)")
      }
      if Int(evenOdd.values[i]) > Int(c) + 1 {
        fuzzFailure("even-odd \(evenOdd.values[i]) over nonzero \(c) at (\(x), \(y)); \(map)")
      }
      let pixel = PremultipliedRGBA8(packed: pixmap.pixels[i])
      if pixel != PremultipliedRGBA8(r: c, g: c, b: c, a: c) {
        fuzzFailure("fill gave \(pixel) where mask has \(c) at (\(x), \(y)); \(map)")
      }
      if again.values[i] != c {
        fuzzFailure(
          "a reused rasterizer gave \(again.values[i]), a fresh one \(c) at (\(x), \(y)); \(map)")
      }
      if accumulated.values[i] != evenOdd.values[i] {
        fuzzFailure(
          "accumulateCoverage gave \(accumulated.values[i]), mask \(evenOdd.values[i]) at "
            + "(\(x), \(y)); \(map)")
      }
    }
  }
}
