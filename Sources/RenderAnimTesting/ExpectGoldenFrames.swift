import Codecs
import FileIO
import Raster
import RenderAnimKit
import SceneFormat
import SceneGraph
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// When `expectGoldenFrames` writes goldens: the argument, else the environment variable
/// `RENDER_ANIM_RECORD` (`missing`, `failed`, `all`, `never`), else `missing` — and `never`
/// whenever the variable `CI` is set and no argument is given, so a CI run cannot pass by
/// recording what it renders.
public enum GoldenRecordMode {
  public static func current(
    _ argument: GoldenComparison.RecordMode?, environment: [String: String]
  ) throws -> GoldenComparison.RecordMode {
    if let argument { return argument }
    if GoldenComparison.RecordMode.isCI(environment) { return .never }
    guard let text = environment["RENDER_ANIM_RECORD"] else { return .missing }
    guard let mode = GoldenComparison.RecordMode(rawValue: text) else {
      throw GoldenSetupError(
        "RENDER_ANIM_RECORD=\(text): expected missing, failed, all or never")
    }
    return mode
  }

  static var environment: [String: String] {
    var found: [String: String] = [:]
    for name in ["CI", "RENDER_ANIM_RECORD"] {
      if let value = getenv(name) { found[name] = String(cString: value) }
    }
    return found
  }
}

/// Where a golden folder and its artifacts are.
enum GoldenFolders {
  /// The golden folder `golden` (absolute, or relative to `base`) with `.` and `..` resolved
  /// by name, ending in `/`, and its artifacts folder `.render-anim-artifacts/<name>/` beside
  /// it — never inside it, whatever `golden` says (`.`, `a/..`, a trailing slash).
  static func resolve(_ golden: String, base: String) -> (folder: String, artifacts: String) {
    let path = golden.hasPrefix("/") ? golden : base + "/" + golden
    var parts: [Substring] = []
    for part in path.split(separator: "/") where part != "." {
      if part == ".." {
        if !parts.isEmpty && parts.last != ".." {
          parts.removeLast()
        } else if !path.hasPrefix("/") {
          parts.append(part)
        }
      } else {
        parts.append(part)
      }
    }
    let root = path.hasPrefix("/") ? "/" : ""
    let name = parts.last.map(String.init) ?? "golden"
    let parent = root + parts.dropLast().map { $0 + "/" }.joined()
    return (root + parts.map { $0 + "/" }.joined(), parent + ".render-anim-artifacts/" + name + "/")
  }
}

/// A golden check that could not be set up (a bad selection, a bad record mode).
public struct GoldenSetupError: Error, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Compares the frames of `scene` at `times` (seconds, or `.settled`) and `frames` (indices)
/// with the goldens in `golden` — a folder relative to the test file's folder (`#filePath`), as
/// swift-snapshot-testing keeps its `__Snapshots__` — recording as `record` (or the environment)
/// says. Each run of frames next to each other that failed alike is one issue at the caller's
/// line naming the run and its worst frame, with that frame's figures and the artifacts written
/// (`.render-anim-artifacts/<golden>/` beside the golden folder; every failing frame's), its
/// actual and diff images attached to the test. Returns the report of the check.
@discardableResult
public func expectGoldenFrames(
  of scene: Scene, times: [FrameSelection.Time] = [], frames: [Int] = [],
  golden: String, compare method: ComparisonMethod = .exact(tolerance: 0),
  maxDifferingPixels: Int = 0, record: GoldenComparison.RecordMode? = nil,
  filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) throws -> CheckReport.Scene {
  let mode = try GoldenRecordMode.current(record, environment: GoldenRecordMode.environment)
  let base = testFolder(filePath)
  let (folder, artifacts) = GoldenFolders.resolve(golden, base: base)
  do { try SceneExporter(scene: scene).checkScene() } catch {
    throw GoldenSetupError("golden \(golden): \(error)")
  }
  let selection = FrameSelection(frames: frames.map { $0...$0 }, times: times)
  let indices: [Int]
  do {
    indices =
      frames.isEmpty && times.isEmpty
      ? Array(0..<scene.frameCount) : try selection.indices(in: scene)
  } catch { throw GoldenSetupError("golden \(golden): \(error)") }
  let comparison = GoldenComparison(method: method, maxDifferingPixels: maxDifferingPixels)
  if let problem = comparison.problem { throw GoldenSetupError("golden \(golden): \(problem)") }
  let exporter = SceneExporter(scene: scene)
  // What an earlier run left for these frames goes first, as `render-anim check` does.
  CheckReport.Frame.removeArtifacts(of: indices, in: artifacts)
  var results: [CheckReport.Frame] = []
  let started = monotonicSeconds()
  for index in indices {
    let frameName = SceneExporter.frameName(index)
    let checked = comparison.checkWithFigures(
      try exporter.frame(index), golden: folder + frameName, mode: mode,
      artifacts: CheckReport.Frame.artifacts(in: artifacts, frame: index))
    let frame = CheckReport.Frame(index: index, golden: folder + frameName, checked: checked)
    if frame.result == .recorded || frame.result == .rerecorded {
      // Recording passes, as the command line's does, but says where it wrote — printed, and
      // a warning at the call, so that a golden recorded by a typo in `golden:` is seen.
      let line = "\(frame.result.rawValue) golden \(folder + frameName)"
      print(line)
      Issue.record(Comment(rawValue: line), severity: .warning, sourceLocation: sourceLocation)
    }
    results.append(frame)
  }
  // One issue for each run of frames that failed alike, as `render-anim check` prints one line,
  // naming its worst frame, whose actual and diff images are attached (a changed scene made an
  // issue and two attachments for every frame; found by an embedding walkthrough).
  let checked = CheckReport.Scene(
    name: golden, golden: folder, rerecord: "", frames: results, seconds: 0)
  for run in checked.failingRuns {
    let worst = run.worst
    let at =
      "\(golden)/\(SceneExporter.frameName(worst.index)) (t = \(scene.time(ofFrame: worst.index)) s)"
    let text =
      run.count == 1
      ? "\(at): \(worst.reason)"
      : "\(golden)/\(SceneExporter.frameName(run.first.index)) … "
        + "\(SceneExporter.frameName(run.last.index)) (\(run.count) frames fail); worst \(at): "
        + worst.reason
    Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    for path in [worst.artifacts?.actual, worst.artifacts?.diff].compactMap({ $0 }) {
      if let bytes = try? FileReader.read(path, limit: 1 << 28, kind: "artifacts") {
        // Named with the golden folder's name, so that two goldens' frame 5 are told apart.
        let file = String(path.split(separator: "/").last ?? "artifact")
        let goldenName = folder.dropLast().split(separator: "/").last ?? "golden"
        Attachment.record(bytes, named: "\(goldenName)-\(file)", sourceLocation: sourceLocation)
      }
    }
  }
  // Goldens past the render's last frame (the animation got shorter): failures, as for
  // `render-anim check`, or removed when re-recording. Goldens of frames the render has but
  // this call did not select may belong to another call's selection, and are left alone.
  var problems: [String] = []
  var problemFailures = 0
  let count = scene.frameCount
  let beyond = (Folders.names(in: folder) ?? []).compactMap(SceneExporter.frameIndex(of:))
    .filter { $0 >= count }.sorted()
  if let first = beyond.first, let last = beyond.last {
    let span =
      SceneExporter.frameName(first) + (first == last ? "" : " … " + SceneExporter.frameName(last))
    if mode == .all || mode == .failed {
      for index in beyond { unlink(folder + SceneExporter.frameName(index)) }
      let line =
        "removed \(beyond.count) golden frame\(beyond.count == 1 ? "" : "s") past the render's "
        + "last frame from \(folder) (\(span))"
      print(line)
      Issue.record(Comment(rawValue: line), severity: .warning, sourceLocation: sourceLocation)
    } else {
      let problem =
        "\(golden)/\(span): no such frame in the render (it has \(count) frames, 0 to "
        + "\(count - 1)); re-record with RENDER_ANIM_RECORD=failed to remove "
        + (beyond.count == 1 ? "it" : "them")
      problems.append(problem)
      problemFailures = beyond.count
      Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
  }
  return CheckReport.Scene(
    name: String(folder.dropLast().split(separator: "/").last ?? "golden"), golden: folder,
    rerecord: "RENDER_ANIM_RECORD=failed swift test", frames: results, problems: problems,
    problemFailures: problemFailures, seconds: monotonicSeconds() - started)
}

/// `expectGoldenFrames` for a scene file's text (with its settings). The files it names
/// (`image`, `pathFile`) are looked up in `folder` — relative to the test file's folder, as
/// `golden` is; the test file's folder itself by default — and the scene's notes (a font that
/// fell back, an image's ICC profile ignored) are warnings at the call, since they can make a
/// golden depend on the machine.
@discardableResult
public func expectGoldenFrames(
  ofSceneText text: String, settings: SceneSettings = SceneSettings(), folder: String = ".",
  times: [FrameSelection.Time] = [], frames: [Int] = [], golden: String,
  compare method: ComparisonMethod = .exact(tolerance: 0), maxDifferingPixels: Int = 0,
  record: GoldenComparison.RecordMode? = nil, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> CheckReport.Scene {
  let files = testRelative(folder, filePath)
  return try expectGoldenFrames(
    loading: { try SceneFile.load(text: text, folder: files, settings: settings) }, times: times,
    frames: frames, golden: golden, compare: method, maxDifferingPixels: maxDifferingPixels,
    record: record, filePath: filePath, sourceLocation: sourceLocation)
}

/// `expectGoldenFrames` for a scene file (`path` relative to the test file's folder, as
/// `golden` is), its notes warnings at the call as for `ofSceneText`.
@discardableResult
public func expectGoldenFrames(
  ofSceneFile path: String, settings: SceneSettings = SceneSettings(),
  times: [FrameSelection.Time] = [], frames: [Int] = [], golden: String,
  compare method: ComparisonMethod = .exact(tolerance: 0), maxDifferingPixels: Int = 0,
  record: GoldenComparison.RecordMode? = nil, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> CheckReport.Scene {
  let file = testRelative(path, filePath)
  return try expectGoldenFrames(
    loading: { try SceneFile.load(path: file, settings: settings) }, times: times,
    frames: frames, golden: golden, compare: method, maxDifferingPixels: maxDifferingPixels,
    record: record, filePath: filePath, sourceLocation: sourceLocation)
}

/// A scene that `load` gives, checked: a scene that does not load names the golden; its notes
/// are warnings at the call.
private func expectGoldenFrames(
  loading load: () throws -> LoadedScene, times: [FrameSelection.Time], frames: [Int],
  golden: String, compare method: ComparisonMethod, maxDifferingPixels: Int,
  record: GoldenComparison.RecordMode?, filePath: String, sourceLocation: SourceLocation
) throws -> CheckReport.Scene {
  let loaded: LoadedScene
  do { loaded = try load() } catch { throw GoldenSetupError("golden \(golden): \(error)") }
  recordNotes(loaded.notes, at: sourceLocation)
  return try expectGoldenFrames(
    of: loaded.scene, times: times, frames: frames, golden: golden, compare: method,
    maxDifferingPixels: maxDifferingPixels, record: record, filePath: filePath,
    sourceLocation: sourceLocation)
}

/// The folder of the test file `filePath` (`#filePath`), which golden folders and scene files
/// are relative to.
private func testFolder(_ filePath: String) -> String {
  filePath.lastIndex(of: "/").map { String(filePath[..<$0]) } ?? "."
}

/// `path` as given when absolute, else relative to the test file's folder.
private func testRelative(_ path: String, _ filePath: String) -> String {
  path.hasPrefix("/") ? path : testFolder(filePath) + "/" + path
}

/// The scene's notes as warnings at the call: a font that fell back or an ignored ICC profile
/// can make a golden depend on the machine.
private func recordNotes(_ notes: [String], at sourceLocation: SourceLocation) {
  for note in notes {
    Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: sourceLocation)
  }
}

/// Seconds on the monotonic clock.
private func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
