import Codecs
import Foundation
import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// `"image"` layers: files next to the scene, natural size and `@2x`, `resizable`,
/// `aspectRatio`, template rendering, and the errors.
@Suite struct ImageSceneTests {
  /// One folder for this process's image folders, removed when it exits.
  static let root: String = {
    let path = NSTemporaryDirectory() + "render-anim-images-\(UUID().uuidString)"
    atexit { try? FileManager.default.removeItem(atPath: ImageSceneTests.root) }
    return path
  }()

  /// A fresh folder holding `files` (name → pixmap, written as PNG).
  static func folder(_ files: [String: Pixmap]) throws -> String {
    let path = root + "/\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, pixmap) in files {
      let bytes = try PNGCodec.encode(pixmap)
      FileManager.default.createFile(atPath: path + "/" + name, contents: Data(bytes))
    }
    return path
  }

  static let red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)
  static let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)

  /// A 20 × 10 red image, a 40 × 20 one named @2x, and a half-transparent gray 10 × 10.
  static func images() throws -> String {
    try folder([
      "wide.png": try #require(Pixmap(width: 20, height: 10, filledWith: red)),
      "wide@2x.png": try #require(Pixmap(width: 40, height: 20, filledWith: red)),
      "glyph.png": try #require(
        Pixmap(width: 10, height: 10, filledWith: PremultipliedRGBA8(r: 64, g: 64, b: 64, a: 128))),
    ])
  }

  /// An image whose ICC profile cannot be read is drawn as sRGB, and the scene's notes say so,
  /// naming the layer and the file.
  @Test func anIgnoredProfileIsANote() throws {
    let path = try Self.folder([
      "plain.png": try #require(Pixmap(width: 4, height: 4, filledWith: Self.red))
    ])
    var png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/plain.png")))
    // An iCCP chunk after IHDR (8 + 25 bytes) whose compressed profile is not zlib.
    let typed = Array("iCCP".utf8) + Array("broken".utf8) + [0, 0, 1, 2, 3, 4]
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in typed {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    func bigEndian(_ v: UInt32) -> [UInt8] {
      [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) }
    }
    png.insert(contentsOf: bigEndian(UInt32(typed.count - 4)) + typed + bigEndian(crc), at: 33)
    FileManager.default.createFile(atPath: path + "/profiled.png", contents: Data(png))
    let text = #"{"canvas": {"width": 10, "height": 10}, "layers": [{"image": "profiled.png"}]}"#
    FileManager.default.createFile(atPath: path + "/scene.json", contents: Data(text.utf8))
    let loaded = try SceneFile.load(path: path + "/scene.json", settings: SceneSettings(scale: 1))
    #expect(
      loaded.notes.contains {
        $0.contains("layers[0].image") && $0.contains("profiled.png")
          && $0.contains("ICC profile is ignored")
      }, "\(loaded.notes)")
  }

  static func render(_ layers: String, in folder: String) throws -> Pixmap {
    let text = #"{"canvas": {"width": 100, "height": 100}, "layers": [\#(layers)]}"#
    let path = folder + "/scene.json"
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    let scene = try SceneFile.load(path: path, settings: SceneSettings(scale: 1, hold: 0)).scene
    var compositor = Compositor()
    return try #require(scene.render(frame: 0, compositor: &compositor))
  }

  /// The drawn (non-white) box: (minX, minY, maxX, maxY), inclusive.
  static func box(_ p: Pixmap) -> [Int] {
    var (x0, y0, x1, y1) = (Int.max, Int.max, -1, -1)
    for y in 0..<p.height {
      for x in 0..<p.width where p[x, y] != white {
        (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
      }
    }
    return [x0, y0, x1, y1]
  }

  @Test func naturalSizeInPointsAndTheAt2xScale() throws {
    let folder = try Self.images()
    // 20 × 10 points, centred: x 40…59, y 45…54; the @2x file is the same size in points.
    #expect(Self.box(try Self.render(#"{"image": "wide.png"}"#, in: folder)) == [40, 45, 59, 54])
    #expect(
      Self.box(try Self.render(#"{"image": "wide@2x.png"}"#, in: folder)) == [40, 45, 59, 54])
    // Without resizable a frame does not scale the image.
    #expect(
      Self.box(
        try Self.render(#"{"image": "wide.png", "frame": {"width": 80, "height": 80}}"#, in: folder)
      )
        == [40, 45, 59, 54])
  }

  @Test func resizableFillsFitsOrCovers() throws {
    let folder = try Self.images()
    let frame = #""frame": {"width": 60, "height": 60}"#
    #expect(
      Self.box(try Self.render(#"{"image": "wide.png", "resizable": true, \#(frame)}"#, in: folder))
        == [20, 20, 79, 79])
    // Fit: 60 × 30 centred; fill: 120 × 60, wider than the canvas.
    #expect(
      Self.box(
        try Self.render(
          #"{"image": "wide.png", "resizable": true, "aspectRatio": "fit", \#(frame)}"#, in: folder)
      )
        == [20, 35, 79, 64])
    #expect(
      Self.box(
        try Self.render(
          #"{"image": "wide.png", "resizable": true, "aspectRatio": "fill", \#(frame)}"#, in: folder
        ))
        == [0, 20, 99, 79])
  }

  /// `Image(…).resizable().aspectRatio(1, contentMode: .fit)`: the modifier's form with a ratio
  /// offers a square, which the resizable image fills (stretched, as SwiftUI's is); without a
  /// ratio it takes the image's own, as `"fit"` does.
  @Test func theAspectRatioModifierShapesWhatAnImageIsOffered() throws {
    let folder = try Self.images()
    let frame = #""frame": {"width": 100, "height": 60}"#
    #expect(
      Self.box(
        try Self.render(
          #"{"image": "wide.png", "resizable": true, "aspectRatio": {"ratio": 1, "contentMode": "fit"}, \#(frame)}"#,
          in: folder)) == [20, 20, 79, 79])
    #expect(
      Self.box(
        try Self.render(
          #"{"image": "wide.png", "resizable": true, "aspectRatio": {"contentMode": "fit"}, \#(frame)}"#,
          in: folder))
        == Self.box(
          try Self.render(
            #"{"image": "wide.png", "resizable": true, "aspectRatio": "fit", \#(frame)}"#,
            in: folder)))
  }

  @Test func templateImagesTakeTheForegroundColour() throws {
    let folder = try Self.images()
    let p = try Self.render(
      ##"{"image": "glyph.png", "renderingMode": "template", "foregroundColor": "#0000FF"}"##,
      in: folder)
    // Blue at the image's alpha (128) over white.
    let c = p[50, 50]
    #expect(c.b == 255 && abs(Int(c.r) - 127) <= 1 && abs(Int(c.g) - 127) <= 1, "\(c)")
  }

  /// A path without a viewBox is fitted by the extent of its curves, not of their control
  /// points (a quadratic bulging to 100 with its control at 200 was fitted as 200 tall: half
  /// the size, stuck to the top; found by a hostile walkthrough, 2026-12-05).
  @Test func aPathIsFittedByItsCurvesExtent() throws {
    let folder = try Self.images()
    let box = Self.box(
      try Self.render(
        ##"{"path": "M0 0 Q 50 200 100 0 Z", "frame": {"width": 80, "height": 80}, "fill": "#000000"}"##,
        in: folder))
    #expect(zip(box, [10, 10, 89, 89]).allSatisfy { abs($0 - $1) <= 1 }, "\(box)")
  }

  /// The tint of a template image reaches its own pixels only: its background and overlay keep
  /// their colours (the whole decorated layer was tinted, a yellow tile turned blue; found by a
  /// hostile walkthrough, 2026-12-05).
  @Test func aTemplatesTintLeavesItsDecorationsAlone() throws {
    let folder = try Self.images()
    let p = try Self.render(
      ##"{"image": "glyph.png", "renderingMode": "template", "foregroundColor": "#0000FF", "##
        + ##""frame": {"width": 40, "height": 40}, "background": "#FFFF00", "##
        + ##""overlay": {"alignment": "topLeading", "content": {"shape": "rectangle", "##
        + ##""fill": "#FF0000", "frame": {"width": 5, "height": 5}}}}"##,
      in: folder)
    #expect(p[50, 50].b > 100 && p[50, 50].r < 200, "the glyph is tinted: \(p[50, 50])")
    #expect(p[35, 50] == PremultipliedRGBA8(r: 255, g: 255, b: 0, a: 255), "\(p[35, 50])")
    #expect(p[31, 31] == Self.red, "\(p[31, 31])")
  }

  /// `.foregroundStyle(LinearGradient(…))` on a template image: the gradient across the image's
  /// rectangle (leading red to trailing blue), through its alpha; a resizable image's rectangle is
  /// its frame. Outside it, nothing.
  @Test func templateImagesTakeAGradient() throws {
    let folder = try Self.images()
    let p = try Self.render(
      ##"{"image": "glyph.png", "renderingMode": "template", "resizable": true, "frame": {"width": 40, "height": 20}, "fill": {"linearGradient": {"colors": ["#FF0000", "#0000FF"], "startPoint": "leading", "endPoint": "trailing"}}}"##,
      in: folder)
    // At alpha 128 over white: red-ish at the leading edge, blue-ish at the trailing one.
    let (left, right) = (p[31, 50], p[68, 50])
    #expect(left.r >= 245 && left.b <= 140 && abs(Int(left.g) - 127) <= 1, "\(left)")
    #expect(right.b >= 245 && right.r <= 140 && abs(Int(right.g) - 127) <= 1, "\(right)")
    let middle = p[50, 50]
    #expect(abs(Int(middle.r) - Int(middle.b)) <= 8 && middle.g < 140, "\(middle)")
    #expect(p[25, 50] == Self.white && p[50, 35] == Self.white)
  }

  @Test(arguments: [
    (#"{"image": "missing.png"}"#, "\"missing.png\": no such file"),
    (
      #"{"image": "wide.png", "fill": {"linearGradient": {"colors": ["red", "blue"]}}}"#,
      "a gradient fills a template image"
    ),
    (#"{"image": "scene.json"}"#, "is neither a PNG nor a JPEG file"),
    (#"{"image": "signed.png"}"#, "corrupt: no valid chunk type at byte 8"),
    (#"{"image": "../outside.png"}"#, "outside"),
    (#"{"image": "wide.png", "aspectRatio": "fit"}"#, "aspectRatio scales a resizable image"),
    (#"{"image": "wide.png", "interpolation": "best"}"#, #"expected one of "none""#),
  ])
  func errorsNameTheFileAndTheProblem(layer: String, message: String) throws {
    let folder = try Self.images()
    // PNG's signature, then text: no IHDR to take a size from (not "1634886241×… pixels").
    FileManager.default.createFile(
      atPath: folder + "/signed.png",
      contents: Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a text, no chunks".utf8)))
    do {
      _ = try Self.render(layer, in: folder)
      Issue.record("accepted \(layer)")
    } catch let error as SceneFileError {
      #expect(error.message.contains(message), "\(error)")
      #expect(error.path.hasPrefix("layers[0]"))
    }
  }
}
