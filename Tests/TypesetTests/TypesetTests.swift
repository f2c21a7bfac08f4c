import Raster
import Testing

@testable import Typeset

@Suite struct TypesetTests {
  @Test func interIsFoundByFamilyAndWeight() throws {
    let semibold = try #require(FontLocator.locate(family: "Inter", weight: .semibold))
    #expect(semibold.path.hasSuffix("Inter-SemiBold.otf"))
    let display = try #require(FontLocator.locate(family: "Inter Display", weight: .bold))
    #expect(display.path.hasSuffix("InterDisplay-Bold.otf"))
  }

  @Test func missingFamilyFallsBackWithAWarning() throws {
    #expect(FontLocator.locate(family: "No Such Family 12345", weight: .regular) == nil)
    let fallback = try #require(
      FontLocator.locateWithFallback(family: "No Such Family 12345", weight: .regular))
    #expect(fallback.file.family == "DejaVu Sans")
    #expect(fallback.warning?.contains("No Such Family 12345") == true)
  }

  @Test func kerningTightensPairs() throws {
    let face = try FontFace(try #require(FontLocator.locate(family: "Inter", weight: .semibold)))
    let pair = TextLayout("AV", font: face, size: 100).width
    let apart =
      TextLayout("A", font: face, size: 100).width + TextLayout("V", font: face, size: 100).width
    #expect(pair < apart - 1)
  }

  @Test func trackingAddsBetweenGlyphs() throws {
    let face = try FontFace(try #require(FontLocator.locate(family: "Inter", weight: .semibold)))
    let plain = TextLayout("Cats", font: face, size: 17)
    let tracked = TextLayout("Cats", font: face, size: 17, tracking: -0.43)
    #expect(abs((plain.width - tracked.width) - 3 * 0.43) < 1e-9)
  }

  @Test func metricsScaleWithSize() throws {
    let face = try FontFace(try #require(FontLocator.locate(family: "Inter", weight: .semibold)))
    let text = TextLayout("Tap", font: face, size: 17)
    // Inter: ascender 0.969 em, descender 0.242 em (hhea), line height ≈ 1.21 em.
    #expect(abs(text.lineHeight / 17 - 1.21) < 0.01)
    let bounds = try #require(text.path.bounds)
    #expect(bounds.minY < -10 && bounds.maxY > 2)  // cap height above, 'p' descends
  }

  @Test func appleLogoIsDrawnWithOurMark() throws {
    let face = try FontFace(
      try #require(FontLocator.locate(family: "Inter Display", weight: .bold)))
    let withMark = TextLayout("\u{F8FF} Card", font: face, size: 34)
    let without = TextLayout(" Card", font: face, size: 34)
    #expect(abs(withMark.width - without.width - AppleMark.advance * 34 / 1000) < 1e-6)
    #expect(
      withMark.path.elements.count == without.path.elements.count + AppleMark.path.elements.count)
  }

  @Test func fontFileOverrideOpensAnyFont() throws {
    let dejavu = try #require(FontLocator.locate(family: "DejaVu Sans", weight: .regular))
    let face = try FontFace(FontFile(path: dejavu.path))
    #expect(face.unitsPerEm == 2048)
    #expect(throws: TypesetError.self) { try FontFace(FontFile(path: "/nonexistent.otf")) }
  }
}
