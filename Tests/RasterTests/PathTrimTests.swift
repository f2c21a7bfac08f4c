import Foundation
import Testing

@testable import Raster

/// `Path.trimmed(from:to:)`: SwiftUI's `trimmedPath` — fractions of the whole path's arc length,
/// curves cut as curves.
@Suite struct PathTrimTests {
  /// Arc length of a path by flattening it very finely (a reference independent of the
  /// quadrature the trimmer uses).
  static func flattenedLength(_ path: Path) -> Double {
    var total = 0.0
    var pen = Point.zero
    var start = Point.zero
    func cubicPoint(_ p: [Point], _ t: Double) -> Point {
      let u = 1 - t
      return p[0] * (u * u * u) + p[1] * (3 * u * u * t) + p[2] * (3 * u * t * t) + p[3]
        * (t * t * t)
    }
    /// A cubic's length as the sum of 20,000 chords.
    func sampled(_ points: [Point]) -> Double {
      var length = 0.0
      var previous = points[0]
      for i in 1...20_000 {
        let q = cubicPoint(points, Double(i) / 20_000)
        length += (q - previous).length
        previous = q
      }
      return length
    }
    for element in path.elements {
      switch element {
      case .move(let p): (pen, start) = (p, p)
      case .line(let p): (total, pen) = (total + (p - pen).length, p)
      case .quad(let c, let p):
        total += sampled([pen, pen * (1.0 / 3) + c * (2.0 / 3), p * (1.0 / 3) + c * (2.0 / 3), p])
        pen = p
      case .cubic(let c1, let c2, let p):
        total += sampled([pen, c1, c2, p])
        pen = p
      case .close: (total, pen) = (total + (start - pen).length, start)
      }
    }
    return total
  }

  static let shapes: [String] = [
    "M 10 10 L 90 10 L 90 50 Z",
    "M 0 0 C 100 0 0 100 100 100",
    "M 0 0 C 100 100 0 100 100 0",  // a loop-free curve with a tight turn
    "M 0 0 C 100 100 0 100 100 0 M 200 0 Q 250 80 300 0 L 300 50 Z",
    "M 50 0 C 150 0 -50 0 50 0",  // a cusp
  ]

  @Test(arguments: shapes)
  func trimmedLengthsAreTheirShareOfTheWhole(data: String) throws {
    let path = try PathDataParser.parse(data)
    let total = Self.flattenedLength(path)
    #expect(abs(PathPieces(path).totalLength - total) <= 1e-6 * total + 1e-6)
    for (from, to) in [(0.0, 0.3), (0.25, 0.75), (0.6, 1.0), (0.1, 0.11), (0.0, 1.0)] {
      let part = path.trimmed(from: from, to: to)
      let length = Self.flattenedLength(part)
      // Closing lines of cut subpaths are not drawn, so a trimmed path is measured open.
      #expect(
        abs(length - (to - from) * total) <= 1e-5 * total,
        "\(from)…\(to): \(length) of \(total), pieces \(PathPieces(path).totalLength) part pieces \(PathPieces(part).totalLength)"
      )
    }
  }

  @Test func aCircleStartsAtThreeOClockAndRunsClockwiseOnScreen() throws {
    let circle = Path.ellipse(in: Rect(x: -50, y: -50, width: 100, height: 100))
    let quarter = circle.trimmed(from: 0, to: 0.25)
    guard case .move(let start) = quarter.elements.first,
      case .cubic(_, _, let end) = quarter.elements.last
    else {
      Issue.record("elements: \(quarter.elements)")
      return
    }
    #expect((start - Point(50, 0)).length < 1e-9)
    #expect((end - Point(0, 50)).length < 1e-6)
    // A cut in the middle of the curve: the point at 1/8 of the turn is at 45°.
    let eighth = circle.trimmed(from: 0, to: 0.125)
    guard case .cubic(_, _, let mid) = eighth.elements.last else {
      Issue.record("elements: \(eighth.elements)")
      return
    }
    #expect(abs(mid.x - mid.y) < 1e-3 && abs(mid.length - 50) < 0.02, "\(mid)")
  }

  @Test func wholeAndEmptyRanges() throws {
    let path = try PathDataParser.parse("M 0 0 L 10 0 L 10 10 Z M 20 0 L 30 0")
    #expect(path.trimmed(from: 0, to: 1) == path)
    #expect(path.trimmed(from: -1, to: 2) == path)
    #expect(path.trimmed(from: 0.5, to: 0.5).isEmpty)
    #expect(path.trimmed(from: 0.7, to: 0.2).isEmpty)
    #expect(Path.empty.trimmed(from: 0, to: 0.5).isEmpty)
  }

  @Test func aWholeSubpathKeepsItsCloseAndACutOneIsOpen() throws {
    // Lengths: triangle 10 + 10 + 14.14 = 34.14, then a line of 10: total 44.14.
    let path = try PathDataParser.parse("M 0 0 L 10 0 L 10 10 Z M 20 0 L 30 0")
    let total = 34.142_135_623_730_95 + 10
    let first = path.trimmed(from: 0, to: 34.2 / total)
    #expect(first.elements.contains(.close))
    let cut = path.trimmed(from: 1 / total, to: 1)
    #expect(!cut.elements.contains(.close))
    #expect(cut.elements.first == .move(Point(1, 0)))
    // The second subpath alone, from its own start: a move, not a line from the first.
    let second = path.trimmed(from: 34.2 / total, to: 1)
    #expect(second.elements.filter { if case .move = $0 { true } else { false } }.count == 1)
    #expect(second.elements.last == .line(Point(30, 0)))
  }

  @Test func aCutEndingOnAJoinAddsNoZeroLengthPiece() throws {
    let path = try PathDataParser.parse("M 0 0 L 10 0 L 10 10")
    // Exactly the first line: no degenerate line into the second (it would draw a round cap's
    // dot where the trim ends).
    let first = path.trimmed(from: 0, to: 0.5)
    #expect(first.elements == [.move(Point(0, 0)), .line(Point(10, 0))])
    let second = path.trimmed(from: 0.5, to: 1)
    #expect(second.elements == [.move(Point(10, 0)), .line(Point(10, 10))])
  }

  @Test func adjacentTrimsMeetAndCoverThePath() throws {
    let path = try PathDataParser.parse("M 0 0 C 100 0 0 100 100 100 Q 150 150 200 100")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50 {
      let m = Double.random(in: 0.01...0.99, using: &generator)
      let a = path.trimmed(from: 0, to: m)
      let b = path.trimmed(from: m, to: 1)
      guard case .move(let start) = b.elements.first else {
        Issue.record("no move")
        continue
      }
      let end: Point
      switch a.elements.last {
      case .cubic(_, _, let p), .line(let p): end = p
      default:
        Issue.record("no end")
        continue
      }
      #expect((end - start).length < 1e-9)
      let lengths = Self.flattenedLength(a) + Self.flattenedLength(b)
      #expect(abs(lengths - Self.flattenedLength(path)) < 1e-3)
    }
  }

  @Test func applyingMapsEveryPoint() throws {
    let path = try PathDataParser.parse("M 1 2 L 3 4 Q 5 6 7 8 C 9 10 11 12 13 14 Z")
    let t = Transform.scale(2, 3).concatenating(.translation(1, -1))
    let mapped = try #require(path.applying(t))
    #expect(
      mapped.elements == [
        .move(Point(3, 5)), .line(Point(7, 11)), .quad(Point(11, 17), Point(15, 23)),
        .cubic(Point(19, 29), Point(23, 35), Point(27, 41)), .close,
      ])
    #expect(path.applying(.scale(1e308, 1e308)) == nil)
  }
}
