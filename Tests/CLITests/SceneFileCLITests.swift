import Foundation
import SceneFormat
import SceneGraph
import Testing

/// `render-anim scene`, run in-process (`InProcessRun`); through the binary where standard input
/// or output is the point.
@Suite struct SceneFileCLITests {
  let directory = ToolRun.scratchFolder("scene-files")

  static let examples: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Examples").path
  }()

  private func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// `Examples/cats.json` and `cards.json` are the built-in scenes: the same `Scene` values
  /// (a frame is a pure function of the scene, so the same pixels).
  static let cases: [(String, [Tap]?)] = [
    ("cats", [Tap(x: 300, y: 500), Tap(x: 100, y: 200, time: 0.4)]),
    ("cards", [Tap(x: 195, y: 428)]), ("cards", nil),
  ]

  @Test(arguments: cases)
  func exampleFilesAreTheBuiltInScenes(name: String, taps: [Tap]?) throws {
    let settings = SceneSettings(scale: 1, frameRate: 25, taps: taps)
    let builtIn = try SceneFile.load(text: #require(SceneFile.builtIn(name)), settings: settings)
    let file = try SceneFile.load(path: Self.examples + "/\(name).json", settings: settings)
    #expect(builtIn.scene == file.scene)
    #expect(builtIn.notes == file.notes)
  }

  @Test func readsStandardInputAndWritesStandardOutput() throws {
    let scene = """
      {"canvas": {"width": 60, "height": 40, "background": "#FFFFFF"},
       "state": {"x": -20},
       "layers": [{"shape": "circle", "frame": {"width": 10, "height": 10}, "fill": "red",
                   "offset": {"x": "=x", "y": 0}}],
       "events": [{"at": 0, "set": {"x": 20}, "animation": {"type": "linear", "duration": 0.4}}]}
      """
    let gif = try ToolRun(["scene", "-", "--scale", "1", "--fps", "10", "-o", "-"], input: scene)
    #expect(gif.status == 0, "\(gif.standardError)")
    let summary = try GIFSummary(gif.outputBytes)
    #expect(summary.width == 60 && summary.height == 40)
    let total = summary.delays.reduce(0, +)
    #expect(total == 100)  // frames 0…9: 0.4 s of motion, then 0.5 s held, at 10 cs each
    let png = try ToolRun(
      ["scene", "-", "--scale", "2", "--frame", "2", "-o", "-"], input: scene)
    #expect(png.status == 0, "\(png.standardError)")
    #expect(Array(png.outputBytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  }

  /// `-o f.png` without `--frame` is the last frame: the toggle switched off again.
  @Test func aPNGWithoutFrameIsTheSettledLastFrame() throws {
    let still = directory + "/toggle-still.png"
    let last = directory + "/toggle-last.png"
    let run = InProcessRun(["scene", Self.examples + "/toggle.json", "--scale", "1", "-o", still])
    #expect(run.status == 0, "\(run.standardError)")
    let trace = try ToolRun([  // the trace goes to standard output: a process of its own
      "scene", Self.examples + "/toggle.json", "--scale", "1", "--trace", "-", "-o",
      directory + "/t.gif", "--quiet",
    ])
    let frames = trace.standardOutput.split(separator: "\n").count - 1
    _ = InProcessRun([
      "scene", Self.examples + "/toggle.json", "--scale", "1", "--frame", "\(frames - 1)", "-o",
      last,
    ])
    #expect(try bytes(still) == bytes(last))
  }

  @Test func aBadFileNamesThePathAndWritesNothing() throws {
    let file = directory + "/bad.json"
    try
      #"{"canvas": {"width": 10, "height": 10}, "layers": [{"shape": "circle", "opacity": "half"}]}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let out = directory + "/bad.gif"
    let run = InProcessRun(["scene", file, "-o", out, "--quiet"])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains(
        #"layers[0].opacity: expected a number from 0 to 1 or an "=expression", got "half" (line 1:"#
      ),
      "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let missing = InProcessRun(["scene", directory + "/none.json", "-o", out])
    #expect(missing.status == 1 && missing.standardError.contains("none.json: no such file"))
    let usage = InProcessRun(["scene", "-o", out])
    #expect(usage.status == 64)
  }

  @Test func checkAcceptsASceneFile() throws {
    let golden = directory + "/toggle-goldens"
    let args = [
      "check", Self.examples + "/toggle.json", "--scale", "1", "--fps", "5", "--golden", golden,
    ]
    let record = InProcessRun(args + ["--record", "missing"])
    #expect(record.status == 0, "\(record.standardError)")
    let again = InProcessRun(args + ["--record", "never"])
    #expect(again.status == 0)
    #expect(again.standardOutput.hasSuffix(" passed, 0 failed\n"))
  }
}
