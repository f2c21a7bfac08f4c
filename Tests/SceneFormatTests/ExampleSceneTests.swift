import Raster
import Testing

@testable import SceneFormat

/// The scene files in `Examples/`: the built-in scenes are their compiled-in copies, and every
/// example loads and animates.
@Suite struct ExampleSceneTests {
  static let examples: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Examples"
  }()

  static func read(_ name: String) throws -> String { try readFile(examples + "/" + name) }

  static func readFile(_ path: String) throws -> String {
    guard let file = fopen(path, "rb") else {
      throw SceneFileError(path: "", "cannot open \(path)")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = fread(&chunk, 1, chunk.count, file)
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test(arguments: ["cats", "cards"])
  func builtInScenesAreTheExampleFiles(name: String) throws {
    // Regenerate with scripts/embed-scenes.sh after editing Examples/\(name).json.
    let file = try Self.read(name + ".json")
    #expect(SceneFile.builtIn(name) == String(file.dropLast(file.hasSuffix("\n") ? 1 : 0)))
  }

  @Test(arguments: [
    "cats.json", "cards.json", "toggle.json", "banner.json", "progress.json", "strokes.json",
    "gradients.json", "effects.json", "colors.json", "symbols.json",
    "images.json",
  ])
  func examplesLoadAndAnimate(name: String) throws {
    let loaded = try SceneFile.load(
      path: Self.examples + "/" + name, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0.2))
    let scene = loaded.scene
    #expect(loaded.notes.filter { !$0.hasPrefix("warning:") }.isEmpty)
    var compositor = Compositor()
    let first = try #require(scene.render(frame: 0, compositor: &compositor))
    let middle = try #require(scene.render(frame: scene.frameCount / 2, compositor: &compositor))
    if name != "cats.json" {  // the cats move only when tapped
      #expect(scene.frameCount > 5)
      let moved = first != middle
      #expect(moved)
    }
  }
}

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CatGlyphTests {
  /// The cat in `Examples/cats.json` is our own drawing, `Assets/cat.svgpath`.
  @Test func theCatsPathIsTheAsset() throws {
    let asset = try ExampleSceneTests.readFile(
      ExampleSceneTests.examples + "/../Assets/cat.svgpath")
    let json = try JSONParser.parse(try #require(SceneFile.builtIn("cats")))
    let definitions = try JSONField(json, path: "").object(keys: [
      "$schema", "description", "canvas", "state", "definitions", "layers", "onTap",
    ])["definitions"]
    let cat = try #require(definitions?.object(keys: ["cat"])["cat"])
    let path = try #require(
      cat.object(keys: ["path", "viewBox", "frame", "foregroundColor", "shadow"])["path"])
    #expect(try path.string() == asset.split(separator: "\n").joined())
  }
}
