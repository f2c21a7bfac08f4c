import RenderAnimKit
import SceneFormat
import SceneGraph
import Testing

/// The embedding API refuses what the command line's options cannot give — settings out of
/// range or not finite, frames the scene lacks, loop counts past 16 bits, GIFs faster than 50
/// frames a second — with an error naming the setting, instead of crashing or writing something
/// else (an embedding program's walkthrough found each of these).
@Suite struct LibraryRefusalTests {
  static let text = #"""
    {"canvas": {"width": 40, "height": 40}, "state": {"on": false},
     "layers": [{"shape": "circle", "fill": "red", "frame": {"width": 10, "height": 10},
                 "scaleEffect": "=on ? 2 : 1"}],
     "events": [{"at": 0, "set": {"on": true}, "animation": {"type": "linear", "duration": 0.2}}]}
    """#

  static func message(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// A setting out of range: its name in the message, and the change.
  struct BadSetting: CustomTestStringConvertible, Sendable {
    let name: String
    let value: Double
    var testDescription: String { "\(name) = \(value)" }

    func apply(to s: inout SceneSettings) {
      switch name {
      case "scale": s.scale = value
      case "frameRate": s.frameRate = value
      case "hold": s.hold = value
      case "duration": s.duration = value
      case "taps[0]": s.taps = [Tap(x: value, y: 1)]
      case "device.width", "device.height", "device.safeTop", "device.safeBottom":
        var device = Device.presets[0]
        switch name {
        case "device.width": device.width = value
        case "device.height": device.height = value
        case "device.safeTop": device.safeTop = value
        default: device.safeBottom = value
        }
        s.device = device
      default: s.taps = [Tap(x: 1, y: 1), Tap(x: 1, y: 1, time: value)]  // taps[1]
      }
    }
  }

  static let badSettings: [BadSetting] = [
    ("scale", .nan), ("scale", 0), ("scale", 100), ("scale", 1.5), ("frameRate", 0),
    ("frameRate", -5), ("frameRate", .nan), ("frameRate", 1e9), ("hold", -1),
    ("hold", .infinity), ("duration", .nan), ("duration", 0), ("taps[0]", .nan),
    ("taps[1]", -1),
    // A device of no size or a NaN one trapped while the scene was built; a tap off the screen
    // was taken where `--tap` refuses it (found by an embedding walkthrough).
    ("device.width", .nan), ("device.width", 0), ("device.width", -5),
    ("device.height", .infinity), ("device.safeTop", -1), ("device.safeBottom", .nan),
    ("device.safeTop", 700), ("taps[0]", 5000), ("taps[0]", -500),
  ].map { BadSetting(name: $0.0, value: $0.1) }

  @Test(arguments: badSettings)
  func badSettingsAreRefused(_ bad: BadSetting) throws {
    var settings = SceneSettings(scale: 1, frameRate: 10, hold: 0)
    bad.apply(to: &settings)
    let error = Self.message { _ = try SceneExporter(json: Self.text, settings: settings) }
    #expect(error?.contains("SceneSettings.\(bad.name)") == true, "\(String(describing: error))")
    // The built-in scenes go the same way.
    #expect(Self.message { _ = try SceneExporter(builtIn: "cats", settings: settings) } != nil)
  }

  @Test func framesOutsideTheSceneAreRefused() throws {
    let exporter = try SceneExporter(
      json: Self.text, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0), threads: 2)
    let count = exporter.scene.frameCount
    for index in [-1, count, 100_000, Int.max, Int.min] {
      #expect(
        Self.message { _ = try exporter.frame(index) }?.contains("frame \(index) does not exist")
          == true)
      #expect(
        Self.message { try exporter.pngFrames(frames: [0, index]) { _, _ in } }?.contains(
          "does not exist") == true)
    }
    #expect(try exporter.frame(count - 1).width == 40)
  }

  @Test func loopCountsPastSixteenBitsAreRefused() throws {
    let exporter = try SceneExporter(
      json: Self.text, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0))
    for loops in [-3, 65_536, 1_000_000] {
      let refusals = [
        Self.message { _ = try exporter.gif(loopCount: loops) },
        Self.message { _ = try exporter.apng(loopCount: loops) },
        Self.message { _ = try exporter.webp(loopCount: loops) },
      ]
      #expect(refusals.allSatisfy { $0?.contains("loopCount is \(loops)") == true }, "\(refusals)")
    }
    #expect(try exporter.gif(loopCount: 65_535).count > 0)
  }

  @Test func aGIFFasterThanFiftyFramesASecondIsRefused() throws {
    let fast = try SceneExporter(
      json: Self.text, settings: SceneSettings(scale: 1, frameRate: 100, hold: 0))
    #expect(Self.message { _ = try fast.gif() }?.contains("at most 50 frames a second") == true)
    #expect(Self.message { _ = try fast.gif(maxBytes: 100_000) }?.contains("at most 50") == true)
    // Other formats keep their timing at that rate.
    #expect(try fast.apng().count > 0)
  }

  /// A scene built in code (or changed through `scene`) is checked as a file's would be, the
  /// field named: a frame rate of 0 or NaN trapped in the frame count, a 12288-pixel frame and
  /// 500 frames a second rendered, a scale of 0 said only "cannot allocate" (found by an
  /// embedding walkthrough).
  @Test func aSceneBuiltInCodeIsChecked() throws {
    let good = try SceneExporter(
      json: Self.text, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0), threads: 1)
    let changes: [(String, (inout Scene) -> Void)] = [
      ("Scene.frameRate is 0.0", { $0.frameRate = 0 }),
      ("Scene.frameRate is nan", { $0.frameRate = .nan }),
      ("Scene.frameRate is 500.0", { $0.frameRate = 500 }),
      ("Scene.hold is -1.0", { $0.hold = -1 }),
      ("Scene.duration is inf", { $0.duration = .infinity }),
      ("Scene.scale is 0.0", { $0.scale = 0 }),
      ("Scene.width is nan", { $0.width = .nan }),
      ("12288×120 pixels", { ($0.width, $0.scale) = (4096, 3) }),
      (
        "frames: at most 1000000",
        {
          $0.channels["late"] = ChannelTimeline(
            initial: [0], changes: [.init(time: 1e9, target: [1], animation: .none)],
            frameRate: 10)
        }
      ),
    ]
    for (message, change) in changes {
      var exporter = SceneExporter(scene: good.scene, threads: 1)
      change(&exporter.scene)
      let refusals = [
        Self.message { _ = try exporter.frame(0) },
        Self.message { _ = try exporter.gif() },
        Self.message { _ = try exporter.apng() },
        Self.message { _ = try exporter.webp() },
        Self.message { try exporter.pngFrames { _, _ in } },
        Self.message { _ = try exporter.webp(maxBytes: 1000) },
      ]
      #expect(refusals.allSatisfy { $0?.contains(message) == true }, "\(refusals)")
      #expect(exporter.trace().split(separator: "\n").count == 1)  // the header, no trap
    }
    #expect(try good.gif().count > 0)
    // A trace column naming a component the channel lacks shows 0 (it trapped).
    var columns = SceneExporter(scene: good.scene, threads: 1)
    columns.scene.traceColumns.append(TraceColumn("none", channel: "nothing", component: 3))
    if let name = columns.scene.channels.keys.sorted().first {
      columns.scene.traceColumns.append(TraceColumn("past", channel: name, component: 99))
    }
    let rows = columns.trace().split(separator: "\n")
    #expect(rows.count == good.scene.frameCount + 1)
    #expect(rows.dropFirst().allSatisfy { $0.hasSuffix(",0.0,0.0") }, "\(rows.prefix(3))")
    // Frame delays at a rate no scene has are 0, not a trap.
    for fps in [0, -1, .nan, .infinity, 1e9] {
      #expect(SceneExporter.delay(frame: 3, fps: fps) == 0)
    }
    #expect(SceneExporter.delay(frame: 2, fps: 30) == 4)
  }

  /// A scene file as long as the format allows renders (its length is bounded when it loads):
  /// an event at 60 s, a 60 s delay and animation, a 60 s hold at 120 frames a second is 28,801
  /// frames, which the code scenes' bound once refused (found by a review).
  @Test func theLongestSceneFileRenders() throws {
    let text = #"""
      {"canvas": {"width": 10, "height": 10}, "state": {"x": 0},
       "layers": [{"shape": "circle", "offset": {"x": "=x", "y": 0}}],
       "events": [{"at": 60, "set": {"x": 1},
                   "animation": {"type": "linear", "duration": 60, "delay": 60}}]}
      """#
    let exporter = try SceneExporter(
      json: text, settings: SceneSettings(scale: 1, frameRate: 120, hold: 60), threads: 1)
    #expect(exporter.scene.frameCount == 28_801)
    #expect(try exporter.frame(28_800).width == 10)
  }

  @Test func selectionsBeforeTheFirstFrameAreRefused() throws {
    let scene = try SceneExporter(
      json: Self.text, settings: SceneSettings(scale: 1, frameRate: 10, hold: 0)
    ).scene
    #expect(throws: FrameSelection.Problem.self) {
      try FrameSelection(frames: [-2...(-2)]).indices(in: scene)
    }
    for t in [-5, .nan, .infinity] as [Double] {
      #expect(throws: FrameSelection.Problem.self) {
        try FrameSelection(times: [.seconds(t)]).indices(in: scene)
      }
    }
    let both = FrameSelection(frames: [0...1], times: [.seconds(0.1)])
    #expect(try both.indices(in: scene) == [0, 1])
  }
}
