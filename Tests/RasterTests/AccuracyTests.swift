import Codecs
import Testing

@testable import Raster

/// Accuracy against slow references: mean absolute error over partially covered pixels and the
/// largest error of any pixel, in 1/255. The raster-core issue's bar was 2 / 24; the limits here
/// are what was measured (at e8d3433, the worst case of each group) plus 25 %, so that a real
/// regression fails instead of hiding under an eightfold allowance. Exact pixels are held by the
/// pixel locks (`PixelLockTests`); these say how far from the truth they are.
@Suite struct AccuracyTests {
  struct Limit {
    var mean: Double
    var maximum: Double
  }
  /// Measured 1.46 / 5 (fa-regular-circle-check at 128 px, against 16×16 samples a pixel).
  static let refcasePNG128 = Limit(mean: 1.85, maximum: 6.25)
  /// Measured 4.69 / 19: the 512 px references have 8×8 samples a pixel, whose own error
  /// reaches 16/255 on near-horizontal edges, so this is a sanity bound.
  static let refcasePNG512 = Limit(mean: 5.9, maximum: 24)
  /// Measured 0.92 / 2.97 (tiny features at 200 px; circle at 97 px).
  static let ownShapes = Limit(mean: 1.15, maximum: 3.75)
  /// Measured 0.69 / 2.68 at 128 px (64 sample rows) and 0.81 / 8.37 at 512 px (16 rows).
  static let refcasePaths128 = Limit(mean: 0.87, maximum: 3.35)
  static let refcasePaths512 = Limit(mean: 1.0, maximum: 10.5)

  private func fastCoverage(
    _ path: Path, _ transform: Transform, _ rule: FillRule, _ w: Int, _ h: Int
  )
    throws -> [Double]
  {
    var rasterizer = Rasterizer()
    let mask = rasterizer.mask(of: path, transform: transform, rule: rule, width: w, height: h)
    let values = try #require(mask).values
    return values.map { Double($0) / 255 }
  }

  /// Against the supersampled PNGs in Tests/RasterTests/Refcases. The bar applies to references
  /// with at least 16×16 samples a pixel, which the 128 px renders have; the 512 px renders have
  /// 8×8, whose own error reaches 1/16 (16/255) on near-horizontal edges, so they are held to a
  /// sanity bound only (the same paths meet the bar against our own reference below).
  @Test(arguments: Refcase.all)
  func refcasePNGs(_ refcase: Refcase) throws {
    let path = try PathDataParser.parse(refcase.pathData)
    let transform = refcase.transform
    let actual = try fastCoverage(path, transform, .nonzero, refcase.width, refcase.height)
    let decoded = try PNGCodec.readStraightRGBA(refcase.pngPath)
    #expect(decoded.width == refcase.width && decoded.height == refcase.height)
    // Black on white: coverage = 1 − grey.
    let reference = stride(from: 0, to: decoded.rgba.count, by: 4).map {
      1 - Double(decoded.rgba[$0]) / 255
    }
    let measure = ErrorMeasure(reference: reference, actual: actual)
    print("refcase \(refcase): \(measure)")
    let limit = refcase.size >= 512 ? Self.refcasePNG512 : Self.refcasePNG128
    #expect(measure.mean <= limit.mean, "\(refcase): \(measure)")
    #expect(measure.maximum <= limit.maximum, "\(refcase): \(measure)")
  }

  /// The refcases are in the repository: a fresh clone runs every accuracy test.
  @Test func refcasesArePresent() {
    #expect(Refcase.all.count == 16)
    #expect(Refcase.all.allSatisfy { !$0.pathData.isEmpty })
  }

  /// Against our own reference rasterizer (64 sample lines per pixel, exact along x) on shapes
  /// chosen for their corners: slivers, near-horizontal edges, self-intersections, both rules.
  @Test(arguments: TestShapes.cases.map(\.name))
  func ownShapesAgainstReference(_ name: String) throws {
    let shape = try #require(TestShapes.cases.first { $0.name == name })
    let path = try PathDataParser.parse(shape.data)
    for (size, offset) in [(64, 0.0), (97, 0.37), (200, 0.5)] {
      let scale = Double(size) / 100
      let transform = Transform.scale(scale, scale).concatenating(.translation(offset, offset / 3))
      let actual = try fastCoverage(path, transform, shape.rule, size, size)
      let reference = ReferenceRasterizer(width: size, height: size, rowsPerPixel: 64)
        .coverage(of: path, transform: transform, rule: shape.rule)
      let measure = ErrorMeasure(reference: reference, actual: actual)
      print("\(name) @\(size): \(measure)")
      #expect(measure.mean <= Self.ownShapes.mean, "\(name)@\(size): \(measure)")
      #expect(measure.maximum <= Self.ownShapes.maximum, "\(name)@\(size): \(measure)")
    }
  }

  /// The refcase paths again, against our own finer reference rather than the PNGs.
  @Test(arguments: Refcase.all)
  func refcasePathsAgainstOwnReference(_ refcase: Refcase) throws {
    let path = try PathDataParser.parse(refcase.pathData)
    let transform = refcase.transform
    let actual = try fastCoverage(path, transform, .nonzero, refcase.width, refcase.height)
    let rows = refcase.size >= 512 ? 16 : 64
    let reference = ReferenceRasterizer(
      width: refcase.width, height: refcase.height, rowsPerPixel: rows
    )
    .coverage(of: path, transform: transform, rule: .nonzero)
    let measure = ErrorMeasure(reference: reference, actual: actual)
    print("refcase \(refcase) vs own reference: \(measure)")
    let limit = refcase.size >= 512 ? Self.refcasePaths512 : Self.refcasePaths128
    #expect(measure.mean <= limit.mean, "\(refcase): \(measure)")
    #expect(measure.maximum <= limit.maximum, "\(refcase): \(measure)")
  }
}
