import Foundation
import TestSupport

@testable import Raster

/// Where the package and the test data in it are, found from this file's location.
enum TestLocations {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  /// Font Awesome icon paths and their supersampled references (see `Refcases/NOTICE.md`).
  static let refcases = packageRoot.appendingPathComponent("Tests/RasterTests/Refcases")
}

/// One entry of Tests/RasterTests/Refcases/manifest.tsv.
struct Refcase: CustomStringConvertible, Sendable {
  let name: String
  let size: Int
  let width: Int
  let height: Int
  let viewBox: Rect

  var description: String { "\(name)@\(size)" }

  var pathData: String {
    (try? String(
      contentsOf: TestLocations.refcases.appendingPathComponent("\(name).svgpath"),
      encoding: .utf8)) ?? ""
  }

  /// Maps the view box onto the reference render's pixels, stretched as the renders were made.
  var transform: Transform {
    .mapping(viewBox, stretchedTo: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
  }

  var pngPath: String { TestLocations.refcases.appendingPathComponent("\(name)@\(size).png").path }

  static let all: [Refcase] = {
    let manifest = TestLocations.refcases.appendingPathComponent("manifest.tsv")
    guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let f = line.split(separator: "\t").map(String.init)
      guard f.count >= 5, let size = Int(f[1]), let w = Int(f[2]), let h = Int(f[3]) else {
        return nil
      }
      let v = f[4].split(separator: ",").compactMap { Double($0) }
      guard v.count == 4 else { return nil }
      return Refcase(
        name: f[0], size: size, width: w, height: h,
        viewBox: Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
    }
  }()
}

/// Shapes of our own for the accuracy and robustness tests, in a 0...100 user space.
enum TestShapes {
  static let cases: [(name: String, data: String, rule: FillRule)] = [
    ("circle", "M50 5A45 45 0 1 1 50 95A45 45 0 1 1 50 5Z", .nonzero),
    (
      "ring evenodd",
      "M50 5A45 45 0 1 1 50 95A45 45 0 1 1 50 5ZM50 25A25 25 0 1 1 50 75A25 25 0 1 1 50 25Z",
      .evenodd
    ),
    (
      "ring nonzero opposite",
      "M50 5A45 45 0 1 1 50 95A45 45 0 1 1 50 5ZM50 25A25 25 0 1 0 50 75A25 25 0 1 0 50 25Z",
      .nonzero
    ),
    ("pentagram nonzero", "M50 3L79 94L2 37H98L21 94Z", .nonzero),
    ("pentagram evenodd", "M50 3L79 94L2 37H98L21 94Z", .evenodd),
    (
      "thin slivers", "M10 10L90 10.3L90 10.6ZM10 50L10.2 90L10.4 50ZM20 20L80 80.05L80 80Z",
      .nonzero
    ),
    ("near-horizontal edges", "M0 30L100 31L100 70L0 69.5Z", .nonzero),
    ("rotated square", "M50 8L92 50L50 92L8 50Z", .nonzero),
    ("wavy cubic", "M5 50C20 -10 35 110 50 50S80 -10 95 50L95 95L5 95Z", .nonzero),
    ("quads", "M5 90Q25 -20 50 60T95 30L95 95Z", .nonzero),
    ("tiny features", "M10 10h0.3v0.3h-0.3zM20 10h0.7v0.1h-0.7zM30 30l0.5 0.5l-0.5 0.5z", .nonzero),
    ("overlapping same direction", "M10 10H70V70H10ZM30 30H90V90H30Z", .nonzero),
    ("overlapping evenodd", "M10 10H70V70H10ZM30 30H90V90H30Z", .evenodd),
    // Crossings (rows resolved exactly) next to the right edge, the tip cut off by it.
    ("pentagram past the right edge", "M70 3L99 94L22 37H118L41 94Z", .nonzero),
    ("pentagram past the right edge evenodd", "M70 3L99 94L22 37H118L41 94Z", .evenodd),
    // Flat tops shorter than a pixel (the outline joined across dropped horizontal edges), and
    // two overlapping contours whose ends meet at one height (not joined: resolved exactly).
    (
      "flat-topped peaks", "M5 90L20 20.3H20.4L35 90L45 40.6H45.2L55 90L60 60.1H60.15L65 90Z",
      .nonzero
    ),
    ("contours meeting at one height", "M70 10L90 50.5H70ZM70.3 10L60.3 50.5H70.3Z", .nonzero),
  ]
}

/// A closed tangle of `count` random cubics in about 0…100, crossing itself everywhere: the
/// worst case of the exact resolver and of the claims, for the kernels' twin tests.
func tangledPath(count: Int, using random: inout SeededGenerator) -> Path? {
  var builder = PathBuilder()
  builder.move(to: Point(3, 4))
  for _ in 0..<count {
    let p = Point(
      Double.random(in: -4...100, using: &random), Double.random(in: -4...100, using: &random))
    builder.cubic(to: p, control1: Point(p.y, p.x), control2: Point(50, p.y))
  }
  builder.close()
  return builder.build()
}
