import Testing

@testable import Raster

/// `Path.reversed` and `Path.signedArea`: the winding a reversed shape adds is negated, so a
/// reversed shape inside another cuts it out under the nonzero rule.
@Suite struct PathReversedTests {
  static let square = Path.rect(Rect(x: 18, y: 18, width: 24, height: 24))
  static let disc = Path.ellipse(in: Rect(x: 5, y: 5, width: 50, height: 50))

  /// Sum of a mask's coverage, in pixels.
  static func area(_ path: Path) throws -> Double {
    var rasterizer = Rasterizer()
    let drawn = rasterizer.mask(of: path, width: 60, height: 60)
    let mask = try #require(drawn)
    return Double(mask.values.reduce(0) { $0 + Int($1) }) / 255
  }

  static func joined(_ paths: Path...) throws -> Path {
    var builder = PathBuilder()
    for path in paths { builder.add(path) }
    return try #require(builder.build())
  }

  @Test func theSignedAreaIsTheAreaWithTheDirectionsSign() throws {
    // x right, y down: (0,0) → (1,0) → (1,1) turns clockwise on screen.
    var builder = PathBuilder()
    builder.move(to: Point(0, 0))
    builder.line(to: Point(4, 0))
    builder.line(to: Point(4, 3))
    builder.close()
    let triangle = try #require(builder.build())
    #expect(triangle.signedArea() == 6)
    #expect(triangle.reversed.signedArea() == -6)
    for shape in [Self.square, Self.disc] {
      let area = shape.signedArea()
      #expect(abs(shape.reversed.signedArea() + area) < 1e-9 * abs(area))
    }
    // Four cubics stray 0.03 % from the circle.
    #expect(abs(abs(Self.disc.signedArea()) - Double.pi * 625) < 1e-3 * Double.pi * 625)
  }

  @Test func aShapeAndItsReverseCancel() throws {
    for shape in [Self.square, Self.disc] {
      #expect(try Self.area(Self.joined(shape, shape.reversed)) == 0)
      // Reversing twice draws the same pixels.
      var rasterizer = Rasterizer()
      #expect(
        rasterizer.mask(of: shape.reversed.reversed, width: 60, height: 60)
          == rasterizer.mask(of: shape, width: 60, height: 60))
    }
  }

  @Test func aReversedShapeInsideCutsItOut() throws {
    let cut = try Self.area(Self.joined(Self.disc, Self.square.reversed))
    let expected = Double.pi * 625 - 576
    #expect(abs(cut - expected) < 0.5, "\(cut) against \(expected)")
    // Traced the same way, the two add up to the disc alone under nonzero.
    let same = (Self.square.signedArea() > 0) == (Self.disc.signedArea() > 0)
    let union = try Self.area(Self.joined(Self.disc, same ? Self.square : Self.square.reversed))
    #expect(abs(union - Double.pi * 625) < 0.5)
  }

  @Test func openSubpathsRunBackFromTheirEnd() throws {
    var builder = PathBuilder()
    builder.move(to: Point(0, 0))
    builder.line(to: Point(1, 0))
    builder.cubic(to: Point(4, 0), control1: Point(2, 1), control2: Point(3, 2))
    builder.quad(to: Point(6, 6), control: Point(5, 0))
    builder.move(to: Point(9, 9))
    builder.line(to: Point(9, 10))
    builder.close()
    let path = try #require(builder.build())
    #expect(
      path.reversed.elements == [
        .move(Point(6, 6)), .quad(Point(5, 0), Point(4, 0)),
        .cubic(Point(3, 2), Point(2, 1), Point(1, 0)), .line(Point(0, 0)),
        .move(Point(9, 9)), .line(Point(9, 10)), .line(Point(9, 9)), .close,
      ])
  }
}
