import Foundation
import RenderAnimKit
import Testing

/// A scene with a clear background makes a transparent GIF: decoded by Pillow (an independent
/// decoder), every frame shows transparent exactly where the rendered frame is less than half
/// opaque, and elsewhere the rendered colour composited over the matte, within the palette's
/// rounding — across frames where pixels turn transparent again (disposal to the background).
@Suite struct TransparentGIFTests {
  /// A dot with a soft shadow sliding right, a badge that fades out and is removed, a label that
  /// stays: pixels go from clear to opaque, opaque to clear, and stay.
  static let scene = """
    {"canvas": {"width": 160, "height": 100, "scale": 1, "background": "clear"},
     "state": {"on": false},
     "layers": [
       {"shape": "circle", "fill": "systemBlue", "frame": {"width": 40, "height": 40},
        "offset": {"x": "=on ? 45 : -45", "y": -10}, "shadow": {"radius": 5, "y": 3, "opacity": 0.6}},
       {"if": "=!on", "shape": "capsule", "fill": "systemRed", "frame": {"width": 50, "height": 16},
        "offset": {"x": 40, "y": -32}},
       {"shape": "rectangle", "fill": "#1C1C1E", "frame": {"width": 120, "height": 6}, "offset": {"y": 38}}
     ],
     "events": [{"at": 0.12, "set": {"on": true}, "animation": {"type": "easeInOut", "duration": 0.3}}]}
    """

  /// Frames decoded by Pillow: (width, height, duration in ms, straight RGBA bytes).
  static func decode(_ gif: [UInt8]) throws -> [(Int, Int, Int, [UInt8])] {
    let folder = ToolRun.scratchFolder("transparent-gif")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(gif).write(to: URL(fileURLWithPath: folder + "/out.gif"))
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Support/decode-gif.py").path
    let process = Process()
    (process.executableURL, process.arguments) = PillowDecoded.interpreter([
      script, folder + "/out.gif", folder + "/frames",
    ])
    let err = Pipe()
    process.standardError = err
    try process.run()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      // Pillow is installed by scripts/setup.sh (python3-pil): missing, this test fails.
      Issue.record("Pillow could not decode the GIF: \(message)")
      return []
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/frames")))
    var frames: [(Int, Int, Int, [UInt8])] = []
    var at = 0
    while at < bytes.count {
      guard let newline = bytes[at...].firstIndex(of: 10) else { break }
      let header = String(decoding: bytes[at..<newline], as: UTF8.self).split(separator: " ")
      let (w, h, ms) = (Int(header[1]) ?? 0, Int(header[2]) ?? 0, Int(header[3]) ?? 0)
      let start = newline + 1
      frames.append((w, h, ms, Array(bytes[start..<(start + w * h * 4)])))
      at = start + w * h * 4
    }
    return frames
  }

  /// Each decoded frame against the rendered frame it stands for: alpha exact (opaque from one
  /// half), colour within `tolerance` levels of the premultiplied colour plus (255 − a)·matte.
  static func check(
    _ scene: String = scene, matte: Color, matteRGB: (Int, Int, Int), scale: Double = 1,
    cleared: Int = 500, frames: Int = 4
  ) throws {
    let settings = SceneSettings(scale: scale, frameRate: 25, hold: 0.2)
    let exporter = try SceneExporter(json: scene, settings: settings, threads: 2)
    let gif = try exporter.gif(matte: GIFMatte(matte))
    let decoded = try decode(gif)
    #expect(decoded.count >= frames)
    var index = 0
    var worst = 0
    var sum = 0
    var opaque = 0
    var clearedAfterOpaque = 0
    let (width, height) = (exporter.scene.pixelWidth, exporter.scene.pixelHeight)
    var wasOpaque = [Bool](repeating: false, count: width * height)
    for (w, h, ms, rgba) in decoded {
      #expect(w == width && h == height)
      let rendered = try exporter.frame(index)
      for i in 0..<(w * h) {
        let p = PremultipliedRGBA8(packed: rendered.pixels[i])
        let a = Int(rgba[i * 4 + 3])
        #expect(
          a == (p.a >= 128 ? 255 : 0), "frame \(index) pixel \(i): alpha \(a), rendered \(p.a)")
        if a == 255 {
          let k = 255 - Int(p.a)
          let want = [
            Int(p.r) + (k * matteRGB.0 + 127) / 255, Int(p.g) + (k * matteRGB.1 + 127) / 255,
            Int(p.b) + (k * matteRGB.2 + 127) / 255,
          ]
          for c in 0..<3 {
            let d = abs(Int(rgba[i * 4 + c]) - min(255, want[c]))
            worst = max(worst, d)
            sum += d
          }
          opaque += 1
          wasOpaque[i] = true
        } else if wasOpaque[i] {
          clearedAfterOpaque += 1
          wasOpaque[i] = false
        }
      }
      index += max(1, ms / 40)
    }
    #expect(index == exporter.scene.frameCount)
    // Pixels turned transparent again (the dot and the badge leaving): disposal did its work.
    #expect(clearedAfterOpaque >= cleared)
    #expect(worst <= 12, "largest colour difference \(worst)")
    #expect(Double(sum) / Double(3 * opaque) < 1.5)
  }

  @Test func pillowSeesTheFramesOverAWhiteMatte() throws {
    try Self.check(matte: .white, matteRGB: (255, 255, 255))
  }

  @Test func anotherMatteColoursTheEdges() throws {
    try Self.check(matte: Color(red: 0.1, green: 0.1, blue: 0.12), matteRGB: (26, 26, 31))
  }

  /// A dot that sweeps in from off the canvas and out again: the sampled frames the palette is
  /// chosen from may all be transparent (that crashed once).
  @Test func aSweepThroughATransparentCanvas() throws {
    try Self.check(
      """
      {"canvas": {"width": 40, "height": 20, "scale": 1, "background": "clear"},
       "state": {"s": false},
       "layers": [{"shape": "circle", "fill": "#000000", "frame": {"width": 20, "height": 20},
                   "offset": {"x": "=s ? -200 : 200"}}],
       "events": [{"at": 0.1, "set": {"s": true}, "animation": {"type": "linear", "duration": 0.3}}]}
      """, matte: .white, matteRGB: (255, 255, 255), cleared: 100, frames: 3)
  }

  /// A bar fading out while it moves over a half-transparent gradient: frames that clear and
  /// draw again more colours than a palette holds get a palette of their own for both.
  @Test func aFadeOverAGradientKeepsItsColours() throws {
    try Self.check(
      """
      {"canvas": {"width": 160, "height": 80, "scale": 2, "background": "clear"},
       "state": {"s": false},
       "layers": [{"zstack": [
         {"shape": "rectangle", "fill": {"linearGradient": {"colors": ["#FF00FF80", "white", "green"],
          "startPoint": "top", "endPoint": "bottomTrailing"}}, "frame": {"width": 33, "height": 85},
          "offset": {"x": 9}, "opacity": 0.6},
         {"shape": "roundedRectangle", "cornerRadius": 0, "fill": "black", "frame": {"width": 19, "height": 88},
          "offset": {"x": "=s ? 24 : 49", "y": 3}, "opacity": "=s ? 0 : 1"}]}],
       "events": [{"at": 0.27, "set": {"s": true},
                   "animation": {"type": "spring", "response": 0.3, "dampingFraction": 0.8}}]}
      """, matte: Color(red: 0x20 / 255, green: 0x30 / 255, blue: 0x40 / 255),
      matteRGB: (0x20, 0x30, 0x40), cleared: 100)
  }

  /// The same bytes on one thread or three; an opaque scene's GIF has no transparency to clear.
  @Test func sameBytesWithAnyThreadCount() throws {
    let settings = SceneSettings(scale: 1, frameRate: 25, hold: 0.2)
    let one = try SceneExporter(json: Self.scene, settings: settings, threads: 1).gif()
    let three = try SceneExporter(json: Self.scene, settings: settings, threads: 3).gif()
    #expect(one == three)
    #expect(try SceneExporter(json: Self.scene, settings: settings).makesTransparentGIF)
    let opaque = Self.scene.replacingOccurrences(of: "\"clear\"", with: "\"white\"")
    #expect(try !SceneExporter(json: opaque, settings: settings).makesTransparentGIF)
  }
}
