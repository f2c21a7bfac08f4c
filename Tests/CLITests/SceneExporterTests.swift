import Codecs
import Raster
import RenderAnimKit
import SceneFormat
import SceneGraph
import Testing

@Suite struct SceneExporterTests {
  private func scene() throws -> Scene {
    try SceneExporter(
      builtIn: "cats",
      settings: SceneSettings(
        device: try #require(Device.named("se")), scale: 1, frameRate: 5, hold: 0.2,
        taps: [Tap(x: 80, y: 500)])
    ).scene
  }

  @Test func gifIsTheSameWithOneOrThreeThreads() throws {
    let scene = try scene()
    var calls = 0
    let one = try SceneExporter(scene: scene, threads: 1).gif { _, _ in calls += 1 }
    let three = try SceneExporter(scene: scene, threads: 3).gif()
    #expect(one == three)
    #expect(calls == scene.frameCount)
    #expect(Array(one.prefix(6)) == Array("GIF89a".utf8))
  }

  /// The render's length and the frame for a time, as `--times` chooses it (an embedding
  /// walkthrough's wish: a documentation pipeline asks for "the frame at 0.4 s").
  @Test func durationAndFramesByTime() throws {
    let exporter = SceneExporter(scene: try scene(), threads: 1)
    let count = exporter.scene.frameCount
    #expect(try exporter.duration() == Double(count) / 5)
    #expect(try exporter.frameIndex(at: 0) == 0)
    #expect(try exporter.frameIndex(at: 0.4) == 2)  // 5 fps: frame 2 starts at 0.4 s
    #expect(try exporter.frameIndex(at: 0.41) == 3)
    #expect(try exporter.frame(at: 0.4) == exporter.frame(2))
    for bad in [-1, Double.nan, Double(count)] {
      #expect(throws: (any Error).self) { try exporter.frameIndex(at: bad) }
    }
    var stopped = exporter
    stopped.scene.frameRate = 0
    #expect(throws: (any Error).self) { try stopped.duration() }
  }

  @Test func framesAndPNGsAgree() throws {
    let exporter = SceneExporter(scene: try scene(), threads: 2)
    let frame = try exporter.frame(2)
    #expect(try PNGCodec.decode(exporter.png(frame: 2)) == frame)
    var names: [Int] = []
    try exporter.pngFrames { index, _ in names.append(index) }
    #expect(names == Array(0..<exporter.scene.frameCount))
  }

  @Test func traceAndNamesAndDelays() throws {
    let exporter = SceneExporter(scene: try scene())
    let lines = exporter.trace().split(separator: "\n")
    #expect(lines.first == "frame,time,cats.position.x,cats.position.y")
    #expect(lines.count == exporter.scene.frameCount + 1)
    #expect(SceneExporter.frameName(7) == "frame-0007.png")
    #expect(SceneExporter.frameName(12345) == "frame-12345.png")
    #expect((0..<6).map { SceneExporter.delay(frame: $0, fps: 30) } == [3, 3, 4, 3, 3, 4])
    #expect((0..<3).map { SceneExporter.delay(frame: $0, fps: 50) } == [2, 2, 2])
  }
}
