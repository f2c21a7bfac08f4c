import Raster
import SceneGraph
import Testing
import Typeset

@testable import SceneFormat

/// `"symbol"`: SF Symbol names drawn with Material Icons (or our cat), sized like SF Symbols.
@Suite struct SymbolSceneTests {
  @Test func theTableIsLargeAndEveryGlyphIsInTheFont() throws {
    #expect(SymbolFont.names.count >= 150)
    #expect(Set(SymbolFont.names).count == SymbolFont.names.count)
    let font = try SymbolFont()
    for name in SymbolFont.names {
      let outline = try #require(font.outline(of: name), "\(name)")
      let box = try #require(outline.bounds, "\(name) is empty")
      // Inside the icon's em square.
      #expect(
        box.minX >= -0.01 && box.minY >= -0.01 && box.maxX <= 1.01 && box.maxY <= 1.01,
        "\(name): \(box)")
    }
    for name in [
      "heart", "star", "bell", "gear", "trash", "plus", "xmark", "checkmark",
      "chevron.left", "chevron.right", "arrow.up", "magnifyingglass", "person", "house", "cart",
    ] {
      #expect(SymbolFont.knows(name), "\(name)")
    }
  }

  @Test func theCatSymbolIsTheAsset() throws {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    let asset = try ExampleSceneTests.readFile(parts.joined(separator: "/") + "/Assets/cat.svgpath")
    #expect(CatSymbol.pathData == asset.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  static func render(_ layer: String) throws -> Pixmap {
    let text = #"{"canvas": {"width": 100, "height": 100}, "layers": [\#(layer)]}"#
    let scene = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0)).scene
    var compositor = Compositor()
    return try #require(scene.render(frame: 0, compositor: &compositor))
  }

  /// `.imageScale(_:)` is an environment value: on a stack it reaches the symbols inside that
  /// set none (a symbol's own wins), as `font` does.
  @Test func aStacksImageScaleReachesItsSymbols() throws {
    let own = try Self.render(#"{"symbol": "heart.fill", "imageScale": "large"}"#)
    let inherited = try Self.render(
      #"{"hstack": [{"symbol": "heart.fill"}], "imageScale": "large"}"#)
    let overridden = try Self.render(
      #"{"hstack": [{"symbol": "heart.fill", "imageScale": "medium"}], "imageScale": "large"}"#)
    let plain = try Self.render(#"{"symbol": "heart.fill"}"#)
    #expect(inherited.pixels == own.pixels)
    #expect(overridden.pixels == plain.pixels)
    #expect(own.pixels != plain.pixels)
  }

  /// Beside text aligned by its baseline, a symbol is centred on the cap height of its font (SF
  /// Symbols sit on the baseline, centred between it and the cap height) at every image scale:
  /// its frame hangs below the baseline (it sat on the baseline, its centre rising with the
  /// scale).
  @Test func symbolsSitOnTheTextBaselineCentredOnTheCapHeight() throws {
    let scene = try SceneFile.load(
      text: """
        {"canvas": {"width": 400, "height": 200}, "layers": [{"hstack": [
          {"id": "s", "symbol": "square.fill", "imageScale": "small"},
          {"id": "m", "symbol": "square.fill"},
          {"id": "l", "symbol": "square.fill", "imageScale": "large"},
          {"id": "t", "text": "Hxg"}], "alignment": "firstTextBaseline"}]}
        """, settings: SceneSettings(scale: 2)
    ).scene
    let entries = scene.layout(at: 0)
    let baseline = try #require(SceneLayoutTests.entry("t", in: entries)?.lines.first?.baseline)
    let capMiddle = baseline - 0.705 * 17 / 2
    for id in ["s", "m", "l"] {
      let frame = try #require(SceneLayoutTests.entry(id, in: entries)).frame
      #expect(abs(frame.minY + frame.height / 2 - capMiddle) <= 0.5, "\(id): \(frame)")
      #expect(frame.minY + frame.height > baseline, "\(id) hangs below the baseline")
    }
  }

  /// The columns and rows any drawn (non-white) pixel is in.
  static func inkBox(_ p: Pixmap) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
    var xs: [Int] = []
    var ys: [Int] = []
    for y in 0..<p.height {
      for x in 0..<p.width where p[x, y] != PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) {
        xs.append(x)
        ys.append(y)
      }
    }
    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else {
      return nil
    }
    return (x0...x1, y0...y1)
  }

  @Test func aSymbolIsSizedByItsFontAndScaleAndCentred() throws {
    // Body is 17 pt: the medium symbol's live area is 17 points; a square icon (stop.fill) fills
    // most of it, centred on the canvas.
    let medium = try #require(Self.inkBox(try Self.render(#"{"symbol": "stop.fill"}"#)))
    let large = try #require(
      Self.inkBox(try Self.render(#"{"symbol": "stop.fill", "imageScale": "large"}"#)))
    let title = try #require(
      Self.inkBox(try Self.render(#"{"symbol": "stop.fill", "font": {"size": 34}}"#)))
    func width(_ r: ClosedRange<Int>) -> Int { r.upperBound - r.lowerBound + 1 }
    #expect((10...17).contains(width(medium.x)), "\(medium)")
    #expect(abs(Double(width(large.x)) / Double(width(medium.x)) - 1.286) < 0.2)
    #expect(abs(Double(width(title.x)) / Double(width(medium.x)) - 2) < 0.25)
    for box in [medium, large, title] {
      #expect(abs(box.x.lowerBound + box.x.upperBound - 99) <= 1, "\(box)")
      #expect(abs(box.y.lowerBound + box.y.upperBound - 99) <= 1, "\(box)")
    }
  }

  @Test func aResizableSymbolFillsItsFrameAndIsTinted() throws {
    let p = try Self.render(
      ##"{"symbol": "stop.fill", "resizable": true, "frame": {"width": 60, "height": 40}, "foregroundColor": "#FF0000"}"##
    )
    let box = try #require(Self.inkBox(p))
    // The live area fills the 40-point side: the icon's 24-unit em is 48 points, and Material's
    // `stop` square spans 12 units of it; across, `resizable()` stretches it to the 60-point
    // width, as SwiftUI stretches a resizable image: 1.5 times as wide.
    #expect((23...25).contains(box.y.upperBound - box.y.lowerBound + 1), "\(box)")
    #expect((35...37).contains(box.x.upperBound - box.x.lowerBound + 1), "\(box)")
    #expect(p[50, 50] == PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    // With `aspectRatio` it keeps its square shape.
    let fitted = try Self.render(
      ##"{"symbol": "stop.fill", "resizable": true, "aspectRatio": "fit", "frame": {"width": 60, "height": 40}, "foregroundColor": "#FF0000"}"##
    )
    let square = try #require(Self.inkBox(fitted))
    #expect(
      square.x.upperBound - square.x.lowerBound == square.y.upperBound - square.y.lowerBound,
      "\(square)")
  }

  /// `weight` and `bold` (`.fontWeight`, `.bold()` on `Image(systemName:)`) are accepted and
  /// change nothing (Material Icons has one weight); a bad weight is still an error at its path.
  @Test func weightIsAcceptedAndChangesNothing() throws {
    let plain = try Self.render(#"{"symbol": "heart.fill", "font": {"size": 40}}"#)
    let weighted = try Self.render(
      #"{"symbol": "heart.fill", "font": {"size": 40}, "weight": "bold", "bold": true}"#)
    #expect(plain == weighted)
    do {
      _ = try Self.render(#"{"symbol": "heart.fill", "weight": "heavyy"}"#)
      Issue.record("accepted")
    } catch let error as SceneFileError {
      #expect(error.path == "layers[0].weight", "\(error)")
    }
  }

  /// Three names, nearest first: another form of a known symbol gives that symbol's forms, a
  /// first word that begins another's gives that one's (`gear` → `gearshape`), a slip of a
  /// letter gives the names that near.
  @Test func anUnknownFormGivesTheSymbolsForms() throws {
    for (name, expected) in [
      ("heart.circle.fil", #"the closest: "heart.circle.fill", "#),
      ("wifi.square", #"the closest: "wifi.slash", "wifi.circle", "wifi" ("#),
      ("gear.fill", #"the closest: "gear", "gearshape", "gearshape.fill" ("#),
      ("stat.fill", #"the closest: "star.fill", "#),
    ] {
      do {
        _ = try Self.render(#"{"symbol": "\#(name)"}"#)
        Issue.record("accepted \(name)")
      } catch let error as SceneFileError {
        #expect(error.message.contains(expected), "\(error)")
      }
    }
  }

  @Test func anUnknownNameGivesTheClosest() throws {
    do {
      _ = try Self.render(#"{"symbol": "hart.fill"}"#)
      Issue.record("accepted")
    } catch let error as SceneFileError {
      #expect(error.path == "layers[0].symbol")
      #expect(error.message.contains(#""heart.fill""#), "\(error)")
    }
    // A name from state is not a name: the error says how to write it (found by a walkthrough
    // porting a like button, which was told the closest names to the expression).
    do {
      _ = try Self.render(#"{"symbol": "=liked ? \"heart.fill\" : \"heart\""}"#)
      Issue.record("accepted")
    } catch let error as SceneFileError {
      #expect(error.path == "layers[0].symbol")
      #expect(error.message.contains("does not come from state"), "\(error)")
    }
  }
  /// `heart.circle.fill` and the other variants Material has no icon for: the base glyph at half
  /// size, cut out of a disc or a rounded square, or inside a 2-unit ring (`SymbolEnclosure`).
  @Test func enclosedVariantsCutTheGlyphOutOrRingIt() throws {
    #expect(SymbolFont.knows("heart.circle.fill") && SymbolFont.knows("location.circle.fill"))
    #expect(!SymbolFont.knows("heart.triangle.fill"))
    // A table entry keeps its own icon.
    #expect(SymbolFont.materialName(of: "plus.circle.fill") == "add_circle")
    #expect(SymbolFont.materialName(of: "heart.circle.fill") == "favorite cut out of a disc")
    // 48 points of live area: the disc is 48 points across (2..98 with the em at 57.6), the
    // heart 24, centred.
    let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)
    let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
    func draw(_ name: String) throws -> Pixmap {
      try Self.render(
        ##"{"symbol": "\##(name)", "font": {"size": 48}, "foregroundColor": "#FF0000"}"##)
    }
    let disc = try draw("heart.circle.fill")
    let discBox = try #require(Self.inkBox(disc))
    #expect((46...50).contains(discBox.x.upperBound - discBox.x.lowerBound + 1), "\(discBox)")
    #expect(disc[50, 52] == white, "the heart is cut out")
    #expect(disc[50, 30] == red && disc[30, 50] == red, "the disc around it is drawn")
    let ring = try draw("heart.circle")
    #expect(ring[50, 33] == white, "between the (outlined) heart and the ring")
    #expect(ring[50, 27] == red, "the ring")
    // `plus` is solid: drawn inside the square's 2-unit frame (28.4 ... 33.2 points in).
    let framed = try draw("plus.square")
    #expect(framed[50, 50] == red && framed[36, 36] == white && framed[30, 50] == red)
    let square = try draw("star.square.fill")
    #expect(square[50, 50] == white && square[30, 30] == red)
    #expect(square[29, 50] == red && square[27, 50] == white, "18 of 24 units across")
  }
}
