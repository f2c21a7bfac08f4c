import TestSupport
import Testing

@testable import Raster

/// The sweep into a solid colour in C (`csk_sweep_solid`) against its Swift twin
/// (`CoverageAccumulator.sweepRows` with `SolidColorRow`): the same pixels, and cells, owners and
/// touched bits left zero, band by band and in whole fills and strokes.
@Suite struct SolidSweepTests {
  /// A random destination of premultiplied pixels.
  static func canvas(width: Int, height: Int, _ random: inout SeededGenerator) -> Pixmap? {
    guard var pixmap = Pixmap(width: width, height: height, filledWith: .init(packed: 0)) else {
      return nil
    }
    for y in 0..<height {
      for x in 0..<width {
        let a = UInt8.random(in: 0...255, using: &random)
        pixmap[x, y] = PremultipliedRGBA8(
          r: UInt8.random(in: 0...a, using: &random), g: UInt8.random(in: 0...a, using: &random),
          b: UInt8.random(in: 0...a, using: &random), a: a)
      }
    }
    return pixmap
  }

  /// Random bands of deposits: runs of touched cells of every length (one cell, two, up to 70,
  /// across words and up to the region's right edge and the cells past it), sums inside and far
  /// past ±1, regions inside a larger canvas, opaque, translucent and transparent colours. Both
  /// sweeps see the same cells, owners and bits and must leave the same pixels and all zero.
  @Test func bandsMatchTheirTwin() throws {
    var random = SeededGenerator(seed: 91)
    var blended = 0
    for round in 0..<160 {
      let width = [1, 2, 3, 5, 13, 63, 64, 65, 130, 200][round % 10]
      let rows = 1 + round % CoverageAccumulator.bandRows
      let region = IntRect(minX: round % 3, minY: round % 4, maxX: round % 3 + width, maxY: 40)
      let canvasWidth = region.maxX + round % 5
      let stride = CoverageAccumulator.cellStride(width: width)
      let cellWords = (stride + 63) >> 6
      let wordsPerRow = cellWords + 1
      var cells = [Float](repeating: 0, count: stride * rows)
      var owners = [Int32](repeating: 0, count: stride * rows)
      var touched = [UInt64](repeating: 0, count: wordsPerRow * rows)
      for row in 0..<rows {
        touched[row * wordsPerRow + cellWords] = 1
        var x = Int.random(in: 0...3, using: &random)
        while x <= width + 1 {
          let length = [1, 1, 2, 3, 4, 5, 9, 70][Int.random(in: 0..<8, using: &random)]
          let scale: Float = Int.random(in: 0..<4, using: &random) == 0 ? 3 : 0.7
          for cell in x..<min(x + length, width + 2) {
            cells[row * stride + cell] = Float.random(in: -scale...scale, using: &random)
            owners[row * stride + cell] = Int32.random(in: 1...50, using: &random)
            touched[row * wordsPerRow + cell >> 6] |= 1 << UInt64(cell & 63)
          }
          x += length + Int.random(in: 0...6, using: &random)
        }
      }
      let color = [
        Color(r: 0, g: 0, b: 0).premultiplied, Color(r: 255, g: 149, b: 0).premultiplied,
        Color(r: 20, g: 90, b: 200, a: 140).premultiplied, PremultipliedRGBA8(packed: 0),
      ][round % 4]
      let scaled = CoverageScaledColor(color).entries
      let start = try #require(Self.canvas(width: canvasWidth, height: 44, &random))
      let layout = BandLayout(
        originX: Float(region.minX), originY: Float(region.minY), rowStart: 0, rowEnd: rows,
        stride: stride, cellWords: cellWords, wordsPerRow: wordsPerRow)
      var results: [(Pixmap, CoverageAccumulator)] = []
      for inC in [true, false] {
        var accumulator = CoverageAccumulator()
        accumulator.cells = cells
        accumulator.owners = owners
        accumulator.touched = touched
        accumulator.sweepsInC = inC
        var pixmap = start
        pixmap.withUnsafeMutablePixels { pixels in
          scaled.withUnsafeBufferPointer { scaled in
            var sink = PlaneSink(
              first: SolidColorRow(
                pixels: pixels, width: canvasWidth, scaled: scaled.baseAddress!))
            accumulator.sweep(
              layout: layout, region: region, rule: .nonzero, exactRows: 0, into: &sink)
          }
        }
        results.append((pixmap, accumulator))
      }
      let (c, swift) = (results[0], results[1])
      #expect(c.0 == swift.0, "round \(round)")
      #expect(c.1.cells.allSatisfy { $0 == 0 } && swift.1.cells.allSatisfy { $0 == 0 })
      #expect(c.1.owners.allSatisfy { $0 == 0 } && swift.1.owners.allSatisfy { $0 == 0 })
      #expect(c.1.touched == swift.1.touched, "round \(round)")
      if swift.0 != start { blended += 1 }
    }
    // A quarter of the rounds are in a transparent colour, which changes no pixel.
    #expect(blended > 100, "the bands change pixels: \(blended) of 160")
  }

  /// Fills (nonzero in C, even-odd the Swift way in both) and strokes of a path that crosses
  /// itself, in an opaque and a translucent colour over a random canvas, give the same pixels
  /// with the sweep in C as with the Swift loop.
  @Test func fillsAndStrokesGiveTheSamePixels() throws {
    var random = SeededGenerator(seed: 93)
    let path = try #require(tangledPath(count: 60, using: &random))
    let start = try #require(Self.canvas(width: 96, height: 90, &random))
    let transform = Transform.identity
    for color in [
      Color(r: 0, g: 0, b: 0).premultiplied, Color(r: 20, g: 90, b: 200, a: 140).premultiplied,
    ] {
      for draw in 0..<5 {
        var images: [Pixmap] = []
        for inC in [true, false] {
          var rasterizer = Rasterizer()
          rasterizer.accumulator.sweepsInC = inC
          var pixmap = start
          switch draw {
          case 0, 1:
            rasterizer.fill(
              path, transform: transform, rule: draw == 0 ? .nonzero : .evenodd, color: color,
              into: &pixmap)
          default:
            let style = StrokeStyle(width: [0.4, 2, 9][draw - 2], cap: .round, join: .miter)
            rasterizer.stroke(
              path, style: style, transform: transform, color: color, into: &pixmap)
          }
          images.append(pixmap)
        }
        #expect(images[0] == images[1], "draw \(draw), colour \(color)")
        #expect(images[0] != start)
      }
    }
  }
}
