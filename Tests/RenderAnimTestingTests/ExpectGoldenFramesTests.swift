import Codecs
import Foundation
import RenderAnimKit
import SceneFormat
import SceneGraph
import Testing

@testable import RenderAnimTesting

/// `RenderAnimTesting` as a user's suite uses it: key frames of a scene against goldens kept
/// beside this file (`Goldens/cards`, recorded by the first run, checked in), a change caught as
/// an issue naming the frame and the artifacts, record modes from the environment.
@Suite(.serialized) struct ExpectGoldenFramesTests {
  static let settings = SceneSettings(device: Device.named("se"), scale: 1, frameRate: 20, hold: 0)

  static func cards(_ version: SwiftUIVersion = .ios17) throws -> Scene {
    var settings = Self.settings
    settings.swiftUI = version
    return try SceneFile.load(text: try #require(SceneFile.builtIn("cards")), settings: settings)
      .scene
  }

  @Test func keyFramesMatchTheirGoldens() throws {
    let scene = try Self.cards()
    let report = try expectGoldenFrames(
      of: scene, times: [0, 0.25, .settled], golden: "Goldens/cards",
      compare: .perceptual(threshold: PerceptualDifference.defaultThreshold))
    // 0.25 s at 20 fps is frame 5; settled is the first frame at or after the settle time.
    let settled = Int((scene.settleTime * 20 - 1e-9).rounded(.up))
    #expect(report.frames.map(\.index) == [0, 5, settled])
    #expect(report.failures == 0)
  }

  /// Circular corners instead of continuous ones: every key frame fails, each an issue with its
  /// figures and artifact paths; the artifacts are beside the golden folder.
  @Test func aChangeIsAnIssueWithArtifacts() throws {
    var report: CheckReport.Scene?
    let issues = IssueCount()
    try withKnownIssue {
      report = try expectGoldenFrames(
        of: try Self.cards(.legacy), times: [0, .settled], golden: "Goldens/cards",
        record: .never)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      issues.add()
      return text.contains("Goldens/cards/frame-00") && text.contains("-diff.png")
    }
    let failures = try #require(report).frames.filter { $0.result == .failed }
    #expect(failures.count == 2)
    // The two frames, failing alike next to each other, are one issue naming the run (each
    // frame was an issue of its own; found by an embedding walkthrough).
    #expect(issues.count == 1)
    let diff = try #require(failures.first?.artifacts?.diff)
    #expect(diff.contains("/.render-anim-artifacts/cards/"))
    #expect(FileManager.default.fileExists(atPath: diff))
    // A passing check of the same frames removes what the failing one left.
    try expectGoldenFrames(
      of: try Self.cards(), times: [0, .settled], golden: "Goldens/cards",
      compare: .perceptual(threshold: PerceptualDifference.defaultThreshold), record: .never)
    #expect(!FileManager.default.fileExists(atPath: diff))
  }

  /// Frames before the first and times that are not times are refused, not recorded under odd
  /// names.
  @Test func framesBeforeTheFirstAreRefused() throws {
    let scene = try Self.cards()
    #expect(throws: GoldenSetupError.self) {
      try expectGoldenFrames(of: scene, frames: [-2], golden: "Goldens/cards", record: .never)
    }
    #expect(throws: GoldenSetupError.self) {
      try expectGoldenFrames(
        of: scene, times: [.seconds(-5)], golden: "Goldens/cards", record: .never)
    }
  }

  /// Comparison figures a program can give but the command line cannot are refused: a NaN
  /// threshold compared false with everything and passed any change (found by a walkthrough).
  @Test func impossibleComparisonsAreRefused() throws {
    let scene = try Self.cards()
    for method in [ComparisonMethod.perceptual(threshold: .nan), .perceptual(threshold: -1)] {
      #expect(throws: GoldenSetupError.self) {
        try expectGoldenFrames(
          of: scene, frames: [0], golden: "Goldens/cards", compare: method, record: .never)
      }
    }
    #expect(throws: GoldenSetupError.self) {
      try expectGoldenFrames(
        of: scene, frames: [0], golden: "Goldens/cards", maxDifferingPixels: -5, record: .never)
    }
    var stopped = scene
    stopped.frameRate = 0
    #expect(throws: GoldenSetupError.self) {
      try expectGoldenFrames(of: stopped, frames: [0], golden: "Goldens/cards", record: .never)
    }
  }

  /// A scene text's files are looked up in `folder`, relative to the test file's folder as
  /// `golden` is (they were looked up in the working directory, which `golden` never is), and a
  /// scene file is found the same way; a scene that does not load names the golden.
  @Test func sceneFilesAreFoundBesideTheTest() throws {
    let folder = NSTemporaryDirectory() + "render-anim-golden-files-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "M0 0H10V10Z".write(toFile: folder + "/tri.svgpath", atomically: true, encoding: .utf8)
    let text = #"""
      {"canvas": {"width": 20, "height": 20}, "layers": [{"pathFile": "tri.svgpath",
        "viewBox": [0, 0, 10, 10], "fill": "red", "frame": {"width": 10, "height": 10}}]}
      """#
    try text.write(toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
    let goldens = folder + "/goldens"
    let recorded = try expectGoldenFrames(
      ofSceneText: text, settings: Self.settings, folder: folder, frames: [0], golden: goldens,
      record: .missing)
    #expect(recorded.frames.map(\.result) == [.recorded])
    let checked = try expectGoldenFrames(
      ofSceneFile: folder + "/scene.json", settings: Self.settings, frames: [0],
      golden: goldens, record: .never)
    #expect(checked.failures == 0)
    // Relative to this file's folder, where there is no tri.svgpath.
    let error = try #require(
      throws: GoldenSetupError.self,
      performing: {
        try expectGoldenFrames(
          ofSceneText: text, settings: Self.settings, frames: [0], golden: goldens,
          record: .never)
      })
    #expect(error.description.contains("golden \(goldens)"), "\(error)")
  }

  /// Goldens past the render's last frame (the animation got shorter) fail the check, as
  /// `render-anim check` fails them, instead of passing unseen; re-recording removes them.
  @Test func goldensPastTheLastFrameFail() throws {
    let folder = NSTemporaryDirectory() + "render-anim-golden-past-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let text = try #require(SceneFile.builtIn("cards"))
    // 5 frames a second keeps the recording's warnings few.
    var long = Self.settings
    long.frameRate = 5
    long.hold = 0.5
    let recorded = try expectGoldenFrames(
      ofSceneText: text, settings: long, golden: folder, record: .missing)
    var short = long
    short.hold = 0
    let count = try SceneFile.load(text: text, settings: short).scene.frameCount
    let stale = recorded.frames.count - count
    #expect(stale == 3)
    var report: CheckReport.Scene?
    try withKnownIssue {
      report = try expectGoldenFrames(
        ofSceneText: text, settings: short, golden: folder,
        compare: .perceptual(threshold: PerceptualDifference.defaultThreshold), record: .never)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no such frame in the render")
    }
    #expect(try #require(report).failures == stale)
    #expect(report?.problems.count == 1)
    // Re-recording the failed removes them; the check then passes.
    try expectGoldenFrames(ofSceneText: text, settings: short, golden: folder, record: .failed)
    #expect((try FileManager.default.contentsOfDirectory(atPath: folder)).count == count)
    let again = try expectGoldenFrames(
      ofSceneText: text, settings: short, golden: folder,
      compare: .perceptual(threshold: PerceptualDifference.defaultThreshold), record: .never)
    #expect(again.failures == 0)
  }

  /// The artifacts go beside the golden folder under its real name, never inside it, however
  /// the folder is written.
  @Test func artifactsAreBesideTheGoldenFolder() {
    let cases: [(String, String, String)] = [
      (
        "Goldens/cards", "/p/Tests/T/Goldens/cards/",
        "/p/Tests/T/Goldens/.render-anim-artifacts/cards/"
      ),
      (
        "Goldens/cards/", "/p/Tests/T/Goldens/cards/",
        "/p/Tests/T/Goldens/.render-anim-artifacts/cards/"
      ),
      (".", "/p/Tests/T/", "/p/Tests/.render-anim-artifacts/T/"),
      ("./", "/p/Tests/T/", "/p/Tests/.render-anim-artifacts/T/"),
      ("Goldens/..", "/p/Tests/T/", "/p/Tests/.render-anim-artifacts/T/"),
      ("../Shared/./g", "/p/Tests/Shared/g/", "/p/Tests/Shared/.render-anim-artifacts/g/"),
      ("/abs/g", "/abs/g/", "/abs/.render-anim-artifacts/g/"),
    ]
    for (golden, folder, artifacts) in cases {
      let resolved = GoldenFolders.resolve(golden, base: "/p/Tests/T")
      #expect(resolved.folder == folder, "\(golden)")
      #expect(resolved.artifacts == artifacts, "\(golden)")
      #expect(!resolved.artifacts.hasPrefix(resolved.folder), "\(golden)")
    }
  }

  @Test func recordModeComesFromTheEnvironment() throws {
    #expect(try GoldenRecordMode.current(nil, environment: [:]) == .missing)
    #expect(try GoldenRecordMode.current(nil, environment: ["RENDER_ANIM_RECORD": "all"]) == .all)
    #expect(
      try GoldenRecordMode.current(nil, environment: ["CI": "1", "RENDER_ANIM_RECORD": "all"])
        == .never)
    #expect(try GoldenRecordMode.current(.failed, environment: ["CI": "1"]) == .failed)
    #expect(throws: GoldenSetupError.self) {
      try GoldenRecordMode.current(nil, environment: ["RENDER_ANIM_RECORD": "sometimes"])
    }
  }
}

/// How many issues a `withKnownIssue` matcher saw.
final class IssueCount: @unchecked Sendable {
  private let lock = NSLock()
  private var seen = 0
  func add() { lock.withLock { seen += 1 } }
  var count: Int { lock.withLock { seen } }
}
