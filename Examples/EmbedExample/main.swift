// Embedding render-anim: build the cats scene, render one frame, and write the GIF to a file.
// Run with `swift run -c release embed-example OUT.gif`.

import Motion
import RenderAnimKit

#if canImport(Glibc)
import Glibc
#endif

let output = CommandLine.arguments.dropFirst().first ?? "embedded-cats.gif"
do {
  let fonts = try DemoFonts()
  let scene = CatsScene.make(
    device: .iPhone14, scale: 1, swiftUI: .ios17, taps: [Tap(x: 120, y: 600, time: 0.2)],
    fonts: fonts, frameRate: 25, hold: 0.5)
  let exporter = SceneExporter(scene: scene)
  let first = try exporter.frame(0)
  print("frame 0: \(first.width)×\(first.height) pixels; \(scene.frameCount) frames in all")
  let gif = try exporter.gif { done, total in
    if done == total { print("encoded \(total) frames") }
  }
  let file = fopen(output, "wb")
  _ = gif.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
  print("wrote \(gif.count) bytes to \(output)")
} catch {
  print("embed-example: \(error)")
  exit(1)
}
