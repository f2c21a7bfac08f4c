import Motion
import Raster
import Testing

@testable import SceneFormat

/// Damaged scene files never crash the loader: each is refused with an error or, if it is still
/// a valid scene, loads and renders.
@Suite struct SceneFileFuzzTests {
  @Test func mutatedExamplesAreRefusedOrRendered() throws {
    var seed: UInt64 = 0xD1B5_4A32_D192_ED03
    func next(_ bound: Int) -> Int {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return Int(seed % UInt64(max(bound, 1)))
    }
    let alphabet = Array("{}[]\",:.-+=#!?0123456789eExyz ".utf8)
    var refused = 0
    var rendered = 0
    for name in ["cats.json", "cards.json", "toggle.json", "banner.json", "progress.json"] {
      let original = Array(try ExampleSceneTests.read(name).utf8)
      for _ in 0..<60 {
        var bytes = original
        for _ in 0...next(3) {
          let at = next(bytes.count)
          switch next(4) {
          case 0: bytes.remove(at: at)
          case 1: bytes.insert(alphabet[next(alphabet.count)], at: at)
          case 2: bytes[at] = alphabet[next(alphabet.count)]
          default:
            let end = min(bytes.count, at + next(40))
            bytes.insert(contentsOf: bytes[at..<end], at: next(bytes.count))
          }
        }
        do {
          let loaded = try SceneFile.load(
            text: String(decoding: bytes, as: UTF8.self),
            settings: SceneSettings(scale: 1, frameRate: 10, hold: 0))
          let scene = loaded.scene
          guard scene.pixelWidth * scene.pixelHeight <= 1 << 20 else { continue }
          var compositor = Compositor()
          _ = scene.render(frame: 0, compositor: &compositor)
          _ = scene.render(frame: scene.frameCount - 1, compositor: &compositor)
          rendered += 1
        } catch {
          #expect(!error.message.isEmpty)
          refused += 1
        }
      }
    }
    #expect(refused + rendered > 250)
    print("fuzzed scene files: \(refused) refused, \(rendered) rendered")
  }
}
