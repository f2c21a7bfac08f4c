import Testing

@testable import Raster

/// Fills `path` under both rules and strokes it at each of `widths` (pixels, `cap`, miter joins)
/// on a 96-pixel mask, once with a rasterizer that `plain` sets to a kernel's plain twin and once
/// with a default one, and expects the same pixels.
func expectTwinPixels(
  _ path: Path, widths: [Double], cap: LineCap, plain: (inout Rasterizer) -> Void
) throws {
  for rule in FillRule.allCases {
    var twin = Rasterizer()
    plain(&twin)
    var fast = Rasterizer()
    let expected = try requireMask(twin.mask(of: path, rule: rule, width: 96, height: 96))
    let mask = try requireMask(fast.mask(of: path, rule: rule, width: 96, height: 96))
    #expect(mask.values == expected.values, "\(rule)")
  }
  for width in widths {
    let style = StrokeStyle(width: width, cap: cap, join: .miter)
    var twin = Rasterizer()
    plain(&twin)
    var fast = Rasterizer()
    var expected = try #require(Mask(width: 96, height: 96))
    twin.accumulateStrokeCoverage(of: path, style: style, into: &expected)
    var mask = try #require(Mask(width: 96, height: 96))
    fast.accumulateStrokeCoverage(of: path, style: style, into: &mask)
    #expect(mask.values == expected.values, "width \(width)")
  }
}
