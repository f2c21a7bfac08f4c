// A program that depends on render-anim as another package would: it imports RenderAnimKit
// beside names an app importing SwiftUI also has, and renders a frame. scripts/check-dependents.sh
// builds it against this package by path and by a tagged git URL.

import RenderAnimKit

#if canImport(Glibc)
import Glibc
#endif

// SwiftUI declares these; an app that imports both modules names ours qualified.
struct Scene {}
struct Color {}
struct Animation {}
struct Path {}
struct Spring {}

let json = """
  {"canvas": {"width": 40, "height": 30, "scale": 1}, "state": {"on": false},
   "layers": [{"shape": "circle", "frame": {"width": 20, "height": 20}, "fill": "orange",
               "opacity": "=on ? 1 : 0.2"}],
   "events": [{"at": 0, "set": {"on": true}, "animation": "easeInOut"}]}
  """

do {
  let exporter = try SceneExporter(json: json, settings: SceneSettings(frameRate: 10, hold: 0))
  let scene: RenderAnimKit.Scene = exporter.scene
  let frame: RenderAnimKit.Pixmap = try exporter.frame(scene.frameCount - 1)
  let center = frame[20, 15]
  let orange = RenderAnimKit.Color(red: 1, green: 149 / 255, blue: 0).premultiplied
  guard frame.width == 40, frame.height == 30, center == orange else {
    print("unexpected frame: \(frame.width)×\(frame.height), centre \(center)")
    exit(1)
  }
  let _: RenderAnimKit.Animation = .none
  let _: RenderAnimKit.Spring = .swiftUI17Default
  let _: RenderAnimKit.Path = .empty
  let gif = try exporter.gif()
  print(
    "render-anim \(RenderAnimKit.version): \(scene.frameCount) frames, last \(frame.width)×"
      + "\(frame.height), GIF \(gif.count) bytes; notes: \(exporter.notes)")
} catch {
  print("error: \(error)")
  exit(1)
}
