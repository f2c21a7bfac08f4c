import Codecs
import Foundation
import Raster
import RenderAnimKit
import SceneFormat
import SceneGraph
import Testing

/// APNG and animated WebP: decoded by Pillow frame by frame against our own frames, the same
/// bytes on any thread count, and the command line's choice of format.
@Suite struct AnimatedFormatTests {
  let directory = ToolRun.scratchFolder("formats")

  /// A switch on a clear canvas: translucent shadow edges move over transparent pixels, so
  /// frames need full alpha (and SOURCE blending where a translucent pixel changes).
  static let clearToggle = """
    {
      "canvas": { "width": 120, "height": 60, "scale": 1, "background": "clear" },
      "state": { "on": false },
      "layers": [
        {
          "zstack": [
            { "shape": "capsule", "frame": { "width": 51, "height": 31 },
              "fill": "=on ? #34C759 : #E9E9EA" },
            { "shape": "circle", "frame": { "width": 27, "height": 27 }, "fill": "white",
              "shadow": { "color": "black", "opacity": 0.3, "radius": 3, "y": 2 },
              "offset": { "x": "=on ? 10 : -10", "y": 0 } }
          ]
        }
      ],
      "events": [ { "at": 0.1, "set": { "on": true }, "animation": "snappy" } ]
    }
    """

  /// The scenes checked: the clear switch at 30 fps (a rate whose frames last 33⅓ ms) and a
  /// small cats run (opaque) at 25 fps.
  static func exporter(_ name: String) throws -> SceneExporter {
    switch name {
    case "clear":
      var settings = SceneSettings(frameRate: 30, hold: 0.3)
      settings.duration = nil
      return try SceneExporter(json: clearToggle, settings: settings, threads: 2)
    default:
      return try SceneExporter(
        builtIn: "cats",
        settings: SceneSettings(
          device: try #require(Device.named("se")), scale: 1, frameRate: 25, hold: 0.2,
          taps: [Tap(x: 80, y: 500)]), threads: 2)
    }
  }

  /// Every frame of the file, as Pillow composes it at that frame's time, equals the frame we
  /// rendered (fully transparent pixels compared as transparent).
  private func expectDecodesToOurFrames(
    _ bytes: [UInt8], format: String, _ exporter: SceneExporter
  ) throws {
    let path = directory + "/out." + format.lowercased()
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    guard let decoded = try PillowDecoded.decode(path) else { return }
    let scene = exporter.scene
    #expect(decoded.format == format)
    #expect(decoded.width == scene.pixelWidth && decoded.height == scene.pixelHeight)
    #expect(decoded.loop == 0)
    #expect(decoded.frames.count <= scene.frameCount)
    let total = decoded.frames.reduce(0) { $0 + $1.milliseconds }
    #expect(abs(total - 1000 * Double(scene.frameCount) / scene.frameRate) < 1)
    var mismatched: [Int] = []
    for index in 0..<scene.frameCount {
      let ours = visible(PNGCodec.straightBytes(of: try exporter.frame(index)))
      let time = 1000 * Double(index) / scene.frameRate
      if decoded.frame(at: time).map(visible) != ours { mismatched.append(index) }
    }
    #expect(mismatched.isEmpty, "frames that decode differently: \(mismatched)")
  }

  @Test(arguments: ["clear", "cats"])
  func apngDecodesInPillowToEveryFrame(_ name: String) throws {
    let exporter = try Self.exporter(name)
    let bytes = try exporter.apng()
    #expect(Array(bytes.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10])
    try expectDecodesToOurFrames(bytes, format: "PNG", exporter)
  }

  @Test(arguments: ["clear", "cats"])
  func losslessWebPDecodesInPillowToEveryFrame(_ name: String) throws {
    let exporter = try Self.exporter(name)
    let bytes = try exporter.webp()
    #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8))
    #expect(Array(bytes[8..<12]) == Array("WEBP".utf8))
    try expectDecodesToOurFrames(bytes, format: "WEBP", exporter)
  }

  /// Lossy WebP is smaller and close: each frame within a few levels of ours on average.
  @Test func lossyWebPIsSmallerAndClose() throws {
    let exporter = try Self.exporter("cats")
    let lossless = try exporter.webp()
    let lossy = try exporter.webp(quality: 80)
    #expect(lossy.count < lossless.count)
    let path = directory + "/lossy.webp"
    try Data(lossy).write(to: URL(fileURLWithPath: path))
    guard let decoded = try PillowDecoded.decode(path) else { return }
    let scene = exporter.scene
    for index in stride(from: 0, to: scene.frameCount, by: 7) {
      let ours = PNGCodec.straightBytes(of: try exporter.frame(index))
      let theirs = try #require(decoded.frame(at: 1000 * Double(index) / scene.frameRate))
      let error = zip(ours, theirs).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) }
      #expect(error / Double(ours.count) < 4, "frame \(index)")
    }
  }

  @Test(arguments: ["apng", "webp"])
  func sameBytesOnOneOrTwoThreadsAndRunAfterRun(_ format: String) throws {
    var exporter = try Self.exporter("clear")
    func encode() throws -> [UInt8] { format == "apng" ? try exporter.apng() : try exporter.webp() }
    exporter.threads = 1
    let one = try encode()
    exporter.threads = 2
    let two = try encode()
    let again = try encode()
    #expect(one == two)
    #expect(two == again)
  }

  // MARK: - Command line

  /// Browsers show a frame of 10 ms or less for 100 ms, counting whole milliseconds: above 90
  /// frames a second (95 makes WebP frames of 10 and 11 ms) an APNG or a WebP is written with a
  /// note saying so (found by walkthroughs); at 90 none.
  @Test func framesTooShortForBrowsersAreNoted() throws {
    let common = ["--device", "se", "--scale", "1", "--duration", "0.05", "--quiet"]
    for (fps, noted) in [("100", true), ("120", true), ("95", true), ("91", true), ("90", false)] {
      let run = InProcessRun(["cats", "-o", directory + "/fast.apng", "--fps", fps] + common)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardError.contains("play at 100 ms in web browsers") == noted, "\(fps)")
    }
  }

  @Test func theExtensionOrFormatChoosesWhatIsWritten() throws {
    let common = ["--device", "se", "--scale", "1", "--fps", "10", "--hold", "0", "--quiet"]
    for (output, format, magic) in [
      ("a.apng", nil, "\u{89}PNG"), ("b.png", "apng", "\u{89}PNG"), ("c.webp", nil, "RIFF"),
      ("d", "webp", "RIFF"), ("e.gif", "gif", "GIF8"),
    ] as [(String, String?, String)] {
      let path = directory + "/" + output
      let run = InProcessRun(
        ["cats", "-o", path] + common + (format.map { ["--format", $0] } ?? []))
      #expect(run.status == 0, "\(output): \(run.standardError)")
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(Array(bytes.prefix(4)) == Array(magic.unicodeScalars.map { UInt8($0.value) }))
      if magic.hasSuffix("PNG") {
        #expect(bytes.range(of: Data("acTL".utf8)) != nil, "\(output) is animated")
      }
    }
  }

  static let usageErrors: [([String], String)] = [
    (["-o", "x.apng", "--format", "webp"], "'--format webp'"),
    (["-o", "x.webp", "--format", "apng"], "'-o"),
    (["-o", "x.gif", "--format", "png-frames"], "png-frames"),
    (["-o", "x.png", "--format", "webp"], "'--format webp'"),
    (["-o", "dir/", "--format", "apng"], "folder"),
    (["-o", "x.webp", "--quality", "101"], "'--quality'"),
    (["-o", "x.webp", "--quality", "best"], "'--quality'"),
    (["-o", "x.gif", "--quality", "80"], "'--quality'"),
    (["-o", "x.apng", "--quality", "80"], "lossless"),
    (["-o", "x.png", "--frame", "3", "--format", "apng"], "'--frame'"),
  ]

  @Test(arguments: usageErrors)
  func contradictionsAreUsageErrors(_ arguments: [String], _ words: String) {
    let run = InProcessRun(
      ["cats"] + arguments.map { $0.hasPrefix("x.") ? directory + "/" + $0 : $0 })
    #expect(run.status == 64, "\(arguments): \(run.standardError)")
    #expect(run.standardError.contains(words), "\(arguments): \(run.standardError)")
  }

  /// APNG and WebP are not held to GIF's 50 frames a second.
  @Test func apngPlaysSixtyFramesASecond() throws {
    let path = directory + "/sixty.apng"
    let scene = directory + "/clear.json"
    try Self.clearToggle.write(toFile: scene, atomically: true, encoding: .utf8)
    let written = InProcessRun(["scene", scene, "-o", path, "--fps", "60", "--quiet"])
    #expect(written.status == 0, "\(written.standardError)")
    guard let decoded = try PillowDecoded.decode(path) else { return }
    // Each frame lasts a whole number of 60ths of a second.
    let sixtieths = decoded.frames.map { $0.milliseconds * 60 / 1000 }
    #expect(sixtieths.allSatisfy { abs($0 - $0.rounded()) < 1e-6 && $0 >= 1 }, "\(sixtieths)")
  }

  @Test func sceneOutDirWritesAPNGs() throws {
    let scene = directory + "/clear.json"
    try Self.clearToggle.write(toFile: scene, atomically: true, encoding: .utf8)
    let out = directory + "/many"
    let run = InProcessRun([
      "scene", scene, "cats", "--out-dir", out, "--format", "apng", "--quiet", "--device", "se",
      "--scale", "1", "--fps", "10",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(FileManager.default.fileExists(atPath: out + "/clear.apng"))
    #expect(FileManager.default.fileExists(atPath: out + "/cats.apng"))
  }

  /// In a batch each scene's notes name the scene, as its errors do (a tap that missed said
  /// nothing of which scene; found by a walkthrough); `--trace` there says there are no traces.
  @Test func aBatchsNotesNameTheirScene() throws {
    let scene = directory + "/still.json"
    try #"{"canvas": {"width": 40, "height": 40}, "layers": [{"shape": "circle"}]}"#.write(
      toFile: scene, atomically: true, encoding: .utf8)
    let run = InProcessRun([
      "scene", scene, "cats", "--out-dir", directory + "/notes", "--quiet", "--device", "se",
      "--scale", "1", "--fps", "10", "--tap", "10,10",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("render-anim: still: tap at 10,10"), "\(run.standardError)")
    let trace = InProcessRun([
      "scene", scene, "cats", "--out-dir", directory + "/notes", "--trace", directory + "/t.csv",
    ])
    #expect(trace.status == 64)
    #expect(trace.standardError.contains("no traces"), "\(trace.standardError)")
  }
}
