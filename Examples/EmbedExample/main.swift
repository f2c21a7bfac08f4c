// Embedding render-anim: build a scene from JSON made in code, render one frame, and write the
// GIF to a file. Run with `swift run -c release embed-example OUT.gif`.

import RenderAnimKit

#if canImport(Glibc)
import Glibc
#endif

/// A badge that pops in: a scene built by the program rather than read from a file.
func badgeScene(text: String, color: String) -> String {
  """
  {
    "canvas": { "width": 240, "height": 120, "background": "white" },
    "state": { "shown": false },
    "layers": [
      {
        "zstack": [
          { "shape": "capsule", "frame": { "width": 180, "height": 56 }, "fill": "\(color)" },
          { "text": "\(text)", "font": "headline", "foregroundColor": "white" }
        ],
        "scaleEffect": "=shown ? 1 : 0.2",
        "opacity": "=shown ? 1 : 0",
        "shadow": { "radius": 6, "y": 3 }
      }
    ],
    "events": [{ "at": 0.2, "set": { "shown": true }, "animation": "bouncy" }]
  }
  """
}

let output = CommandLine.arguments.dropFirst().first ?? "embedded-badge.gif"
do {
  let exporter = try SceneExporter(
    json: badgeScene(text: "Saved", color: "#34C759"),
    settings: SceneSettings(scale: 2, frameRate: 25, hold: 0.5))
  let scene = exporter.scene
  let last = try exporter.frame(scene.frameCount - 1)
  print("last frame: \(last.width)×\(last.height) pixels; \(scene.frameCount) frames in all")
  let gif = try exporter.gif { done, total in
    if done == total { print("encoded \(total) frames") }
  }
  try OutputFile.write(gif, to: output)
  print("wrote \(gif.count) bytes to \(output)")
} catch {
  print("embed-example: \(error)")
  exit(1)
}
