import CScanKernels
import TestSupport
import Testing

@testable import Raster

/// `csk_row_crossings` (the exact resolver's crossings, four pairs at a time in C) against its
/// plain twin `ExactRowResolver.crossingsPlainly`: the same heights, bit for bit.
@Suite struct RowCrossingTests {
  /// Random pieces through one row: short and long, steep and flat, parallel pairs, pieces that
  /// share an end, pieces that end inside the row.
  static func pieces(
    _ count: Int, top: Float, _ random: inout SeededGenerator
  ) -> [ExactRowResolver.Piece] {
    var pieces: [ExactRowResolver.Piece] = []
    for k in 0..<count {
      let y0 = top - 3 + Float.random(in: 0...3.9, using: &random)
      let y1 = y0 + Float.random(in: 0.01...6, using: &random)
      var dxdy = Float.random(in: -40...40, using: &random)
      if k % 5 == 1 { dxdy = pieces[k - 1].dxdy }  // parallel to the one before
      if k % 7 == 3 { dxdy = 0 }
      var x0 = Float.random(in: 0...60, using: &random)
      if k % 6 == 2 {
        // Starting where the one before ends.
        let previous = pieces[k - 1]
        x0 = previous.x(at: previous.y1)
        pieces.append(
          .init(x0: x0, y0: previous.y1, dxdy: dxdy, y1: previous.y1 + 0.7, winding: 1))
        continue
      }
      pieces.append(.init(x0: x0, y0: y0, dxdy: dxdy, y1: y1, winding: k % 2 == 0 ? 1 : -1))
    }
    return pieces
  }

  @Test func crossingsMatchTheirTwin() {
    var random = SeededGenerator(seed: 41)
    var total = 0
    // Counts around the vector width, and past the vector loop's 512 (one at a time there).
    for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 100, 513] {
      for round in 0..<(count > 100 ? 1 : 6) {
        let top = Float(round * 7 + 3)
        let pieces = Self.pieces(count, top: top, &random)
        let expected = ExactRowResolver.crossingsPlainly(pieces, top: top, bottom: top + 1)
        var found = [Float](repeating: 0, count: max(1, count * (count - 1) / 2))
        let n = pieces.withUnsafeBufferPointer { pieces in
          found.withUnsafeMutableBufferPointer { out in
            pieces.baseAddress!.withMemoryRebound(to: csk_piece.self, capacity: count) {
              csk_row_crossings($0, count, top, top + 1, out.baseAddress!)
            }
          }
        }
        #expect(
          Array(found[0..<n]).map(\.bitPattern) == expected.map(\.bitPattern),
          "count \(count), round \(round)")
        total += expected.count
      }
    }
    #expect(total > 100, "the inputs cross: \(total) crossings")
  }

  /// The C layout of `ExactRowResolver.Piece` is Swift's.
  @Test func pieceLayoutIsTheKernelsOne() {
    #expect(MemoryLayout<ExactRowResolver.Piece>.stride == MemoryLayout<csk_piece>.stride)
    #expect(
      MemoryLayout<ExactRowResolver.Piece>.offset(of: \.winding)
        == MemoryLayout<csk_piece>.offset(of: \csk_piece.winding))
  }

  /// Fills of a path that crosses itself in most rows, and strokes with sharp turns, give the
  /// same pixels with the crossings found in C as with the Swift loop.
  @Test func fillsAndStrokesGiveTheSamePixels() throws {
    var random = SeededGenerator(seed: 43)
    var builder = PathBuilder()
    builder.move(to: Point(3, 4))
    for _ in 0..<120 {
      builder.line(
        to: Point(
          Double.random(in: -4...100, using: &random), Double.random(in: -4...100, using: &random)
        ))
    }
    builder.close()
    let path = try #require(builder.build())
    try expectTwinPixels(path, widths: [0.5, 3], cap: .butt) {
      $0.accumulator.exactRows.findsCrossingsInC = false
    }
  }
}
