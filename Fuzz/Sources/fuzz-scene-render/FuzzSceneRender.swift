// Scene files loaded and rendered: a few frames of scenes small enough to draw fast (at most
// 256×256 pixels at the file's scale, at most `maximumFrames` frames at 10 fps with no hold).
//
// Per scene: frames 0, middle and last, drawn directly (SceneExporter.frame) and through
// FrameRenderer (static base, still-frame reuse, one thread), must be the same pixels, the right
// size and validly premultiplied; frame 0 survives a PNG round trip; the trace is made; tiny
// scenes also go through the whole GIF export (palette, quantiser, giflib).

import FuzzSupport
import RenderAnimKit

enum Budget {
  static let maximumPixels = 256 * 256
  static let maximumFrames = 200
  /// The GIF export runs when frames × pixels stays under this.
  static let gifWork = 1 << 17
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneRender(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  guard let text = String(validating: bytes, as: UTF8.self) else { return -1 }
  let scene: Scene
  do {
    scene = try SceneFile.load(
      text: text, folder: FuzzEnvironment.sceneFolder,
      settings: SceneSettings(frameRate: 10, hold: 0)
    ).scene
  } catch {
    return 0
  }
  let (width, height, frames) = (scene.pixelWidth, scene.pixelHeight, scene.frameCount)
  guard width >= 1, height >= 1, width * height <= Budget.maximumPixels,
    frames <= Budget.maximumFrames
  else { return -1 }

  let exporter = SceneExporter(scene: scene, threads: 1)
  let indices = Array(Set([0, frames / 2, frames - 1])).sorted()
  let direct: [Pixmap]
  let batched: [Pixmap]
  do {
    direct = try indices.map { try exporter.frame($0) }
    var frames: [Pixmap] = []
    try FrameRenderer(scene: scene, threads: 1).render(
      indices, prepare: { _, pixmap, _ in pixmap }, consume: { _, pixmap in frames.append(pixmap) })
    batched = frames
  } catch {
    fuzzFailure("a \(width)×\(height) frame failed: \(error)")
  }
  for (k, index) in indices.enumerated() {
    let frame = direct[k]
    guard frame.width == width, frame.height == height else {
      fuzzFailure("frame \(index) is \(frame.width)×\(frame.height), not \(width)×\(height)")
    }
    if let i = frame.pixels.firstIndex(where: { !PremultipliedRGBA8(packed: $0).isValid }) {
      fuzzFailure("frame \(index) pixel \(i) is not premultiplied")
    }
    if batched[k] != frame {
      let i = frame.pixels.indices.first { batched[k].pixels[$0] != frame.pixels[$0] } ?? -1
      fuzzFailure("frame \(index): FrameRenderer and SceneExporter.frame differ at pixel \(i)")
    }
  }

  do {
    let png = try PNGCodec.encode(direct[0], compression: .fast)
    let back = try PNGCodec.decodeStraightRGBA(png)
    guard back.width == width, back.height == height,
      back.rgba == PNGCodec.straightBytes(of: direct[0])
    else { fuzzFailure("frame 0 changed in a PNG round trip") }
  } catch {
    fuzzFailure("PNG round trip of a \(width)×\(height) frame failed: \(error)")
  }

  _ = exporter.trace()

  if frames * width * height <= Budget.gifWork {
    do {
      let gif = try exporter.gif()
      guard gif.starts(with: Array("GIF89a".utf8)), gif.last == 0x3B else {
        fuzzFailure("the GIF does not start with GIF89a or end with a trailer")
      }
    } catch {
      fuzzFailure("GIF export of \(frames) frames of \(width)×\(height) failed: \(error)")
    }
  }
  return 0
}
