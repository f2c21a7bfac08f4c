// Scene files: JSONParser, then SceneFile.load(text:folder:settings:) with default settings
// (decoding, expressions, fonts through fontconfig, layout).
//
// Checks: JSON the parser accepts has 1-based positions and survives writing it out and parsing
// it again; a refused scene comes with a message; a loaded scene has a sane canvas and frame
// count, and its channels can be evaluated at the start and the end.

import FuzzSupport
import RenderAnimKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneLoad(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  // Scene files must be UTF-8 (SceneFile.load(path:) refuses anything else).
  guard let text = String(validating: bytes, as: UTF8.self) else { return -1 }

  do {
    let json = try JSONParser.parse(text)
    guard JSONText.positionsValid(json) else { fuzzFailure("a value without a position") }
    let written = JSONText.write(json)
    do {
      let again = try JSONParser.parse(written)
      guard JSONText.same(json, again) else {
        fuzzFailure("JSON changed in a round trip: \(written)")
      }
    } catch {
      fuzzFailure("JSON written from a parsed value is refused: \(error); \(written)")
    }
  } catch {
    if error.description.isEmpty { fuzzFailure("a JSON error without a message") }
    return 0
  }

  let loaded: LoadedScene
  do {
    loaded = try SceneFile.load(
      text: text, folder: FuzzEnvironment.sceneFolder, settings: SceneSettings())
  } catch {
    if error.message.isEmpty { fuzzFailure("a refusal without a message at \(error.path)") }
    return 0
  }
  SceneChecks.check(loaded.scene)
  return 0
}

enum SceneChecks {
  static func check(_ scene: Scene) {
    guard scene.width.isFinite, scene.height.isFinite, scene.scale.isFinite, scene.scale > 0,
      scene.frameRate.isFinite, scene.frameRate > 0, scene.hold.isFinite, scene.hold >= 0
    else {
      fuzzFailure("canvas \(scene.width)×\(scene.height)@\(scene.scale), \(scene.frameRate) fps")
    }
    let settle = scene.settleTime
    guard settle.isFinite, settle >= 0 else { fuzzFailure("settle time \(settle)") }
    // These trap on values out of Int's range.
    let (width, height, frames) = (scene.pixelWidth, scene.pixelHeight, scene.frameCount)
    guard width >= 0, height >= 0, frames >= 1 else {
      fuzzFailure("\(width)×\(height) pixels, \(frames) frames")
    }
    for time in [0, settle / 2, settle] {
      for (name, value) in scene.values(at: time) where value.contains(where: { !$0.isFinite }) {
        fuzzFailure("channel \(name) is \(value) at \(time) s")
      }
    }
    _ = scene.traceRow(frame: frames - 1)
    _ = scene.layer(at: 0)
  }
}
