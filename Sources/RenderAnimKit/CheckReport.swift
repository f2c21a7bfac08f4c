import Codecs
import FileIO

#if canImport(Glibc)
import Glibc
#endif

/// What a golden check found, scene by scene, and the forms it is reported in: the grouped
/// lines `render-anim check` prints, JUnit XML for CI, and a static HTML page.
public struct CheckReport: Sendable {
  /// One compared frame.
  public struct Frame: Sendable {
    public enum Result: String, Sendable {
      case passed, recorded, rerecorded, failed
    }
    public var index: Int
    public var result: Result
    /// Why it failed, with its figures and artifact paths.
    public var reason: String
    public var figures: GoldenComparison.Figures?
    /// The golden, and the failing frame's actual and diff images (when written).
    public var golden: String
    public var artifacts: GoldenComparison.Artifacts?
    /// Whether it failed because its golden could not be written: an output the check could
    /// not write, so the run's exit status is 2.
    public var unwritten = false

    public init(
      index: Int, result: Result, reason: String = "", figures: GoldenComparison.Figures? = nil,
      golden: String, artifacts: GoldenComparison.Artifacts? = nil
    ) {
      self.index = index
      self.result = result
      self.reason = reason
      self.figures = figures
      self.golden = golden
      self.artifacts = artifacts
    }
    /// The frame as a comparison's outcome left it.
    public init(
      index: Int, golden: String,
      checked: (outcome: GoldenComparison.Outcome, figures: GoldenComparison.Figures?)
    ) {
      self.init(index: index, result: .passed, golden: golden)
      switch checked.outcome {
      case .passed: break
      case .recorded: result = .recorded
      case .rerecorded: result = .rerecorded
      case .failed(let reason, let written):
        (result, self.reason, figures, artifacts) = (.failed, reason, checked.figures, written)
      case .unwritable(let reason):
        (result, self.reason, unwritten) = (.failed, reason, true)
      }
    }

    /// Where frame `index`'s actual and diff images go in the artifacts folder `folder`
    /// (ending in `/`): `frame-NNNN-actual.png`, `frame-NNNN-diff.png`.
    public static func artifacts(
      in folder: String, frame index: Int
    )
      -> GoldenComparison.Artifacts
    {
      let stem = folder + SceneExporter.frameName(index).dropLast(4)
      return GoldenComparison.Artifacts(actual: stem + "-actual.png", diff: stem + "-diff.png")
    }

    /// Removes the artifacts an earlier check left for `frames` in `folder`, and the folder
    /// once empty, so that what remains after a check is what it found.
    public static func removeArtifacts(of frames: [Int], in folder: String) {
      guard FileStatus.exists(folder) else { return }
      for index in frames {
        let paths = artifacts(in: folder, frame: index)
        unlink(paths.actual)
        if let diff = paths.diff { unlink(diff) }
      }
      rmdir(folder)  // fails, harmlessly, unless empty
    }
  }

  /// One scene's check.
  public struct Scene: Sendable {
    public var name: String
    public var golden: String
    /// The command that re-records the failing frames.
    public var rerecord: String
    /// In the order they were checked.
    public var frames: [Frame]
    /// Problems that are not a frame's comparison (goldens without a frame), a line each, and
    /// the failures they count for (a golden each).
    public var problems: [String]
    public var problemFailures: Int
    public var seconds: Double
    /// Why the scene could not be checked at all (it could not be built: a file that is not a
    /// scene, a bad value); nil when it was. Such a scene counts one failure, is a JUnit
    /// `error`, and makes the run's exit status 2.
    public var error: String?

    public init(
      name: String, golden: String, rerecord: String, frames: [Frame], problems: [String] = [],
      problemFailures: Int = 0, seconds: Double, error: String? = nil
    ) {
      self.name = name
      self.golden = golden
      self.rerecord = rerecord
      self.frames = frames
      self.problems = problems
      self.problemFailures = problemFailures
      self.seconds = seconds
      self.error = error
    }

    public var failures: Int { frames.filter { $0.result == .failed }.count + problemFailures }
    public var passed: Int {
      frames.filter { $0.result == .passed || $0.result == .recorded }.count
    }
    public var rerecorded: Int { frames.filter { $0.result == .rerecorded }.count }
    public var recorded: Int { frames.filter { $0.result == .recorded }.count }

    /// Runs of failing frames next to each other in the checked order that failed the same
    /// way, each with its worst frame (most differing pixels). Frames whose pixels differ share
    /// a run; a frame that could not be compared (no golden, another size, an unreadable one)
    /// shares one only with neighbours that failed for the same reason, so that no line hides a
    /// cause of another kind behind its worst frame.
    public var failingRuns: [(first: Frame, last: Frame, count: Int, worst: Frame)] {
      var runs: [(first: Frame, last: Frame, count: Int, worst: Frame)] = []
      var current: (first: Frame, last: Frame, count: Int, worst: Frame)?
      for frame in frames {
        guard frame.result == .failed else {
          if let run = current { runs.append(run) }
          current = nil
          continue
        }
        if let run = current, Self.cause(of: frame) != Self.cause(of: run.first) {
          runs.append(run)
          current = nil
        }
        if var run = current {
          run.last = frame
          run.count += 1
          if (frame.figures?.severity ?? Int.max) > (run.worst.figures?.severity ?? Int.max) {
            run.worst = frame
          }
          current = run
        } else {
          current = (frame, frame, 1, frame)
        }
      }
      if let run = current { runs.append(run) }
      return runs
    }

    /// How a failing frame failed, for grouping: nil for differing pixels (any figures), else
    /// its reason with the frame's own golden path and file name taken out.
    static func cause(of frame: Frame) -> String? {
      guard frame.figures?.differingPixels == nil else { return nil }
      let file = SceneExporter.frameName(frame.index)
      guard !frame.golden.isEmpty else { return frame.reason }
      return frame.reason.replacing(frame.golden, with: "").replacing(file, with: "")
        .replacing(file.dropLast(4), with: "")
    }

    /// The lines `check` prints for the failures: one per run, with its worst frame's figures.
    public var failureLines: [String] {
      failingRuns.map { run in
        let name = SceneExporter.frameName
        if run.count == 1 { return "\(name(run.first.index)): \(run.first.reason)" }
        return
          "\(name(run.first.index)) … \(name(run.last.index)) (\(run.count) frames fail); worst "
          + "\(name(run.worst.index)): \(run.worst.reason)"
      } + problems
    }
  }

  public var scenes: [Scene]
  /// The shard of the scenes the run checked, when it was one (read back from a results file).
  public var shard: Shard?
  /// How the frames were compared (read back from a results file, which records it so that a
  /// merged report draws its diff images the way the check judged them).
  public var comparison: ComparisonMethod?

  public init(scenes: [Scene], shard: Shard? = nil, comparison: ComparisonMethod? = nil) {
    self.scenes = scenes
    self.shard = shard
    self.comparison = comparison
  }

  public var failures: Int { scenes.reduce(0) { $0 + $1.failures } }

  /// The scenes that could not be checked at all (`Scene.error`).
  public var errors: Int { scenes.filter { $0.error != nil }.count }

  /// The exit status of a run with this report: 0 when nothing failed, 1 when frames failed,
  /// 2 when some scene could not be checked at all or a golden could not be written.
  public var exitStatus: Int32 {
    let unwritten = scenes.contains { $0.frames.contains(where: \.unwritten) }
    return errors > 0 || unwritten ? 2 : failures > 0 ? 1 : 0
  }

  // MARK: - JUnit

  /// JUnit XML as GitHub Actions reporters, GitLab and Jenkins read it: a test suite of a test
  /// case per scene; a failing scene's failure holds the grouped lines, the artifact paths and
  /// the command that re-records it.
  public func junitXML() -> String {
    let tests = scenes.count
    let failed = scenes.filter { $0.failures > 0 && $0.error == nil }.count
    let seconds = scenes.reduce(0) { $0 + $1.seconds }
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"render-anim check\" tests=\"\(tests)\" failures=\"\(failed)\" "
      + "errors=\"\(errors)\" time=\"\(Self.seconds(seconds))\">\n"
    xml +=
      "  <testsuite name=\"render-anim check\" tests=\"\(tests)\" failures=\"\(failed)\" "
      + "errors=\"\(errors)\" skipped=\"0\" time=\"\(Self.seconds(seconds))\">\n"
    for scene in scenes {
      xml +=
        "    <testcase classname=\"render-anim.check\" name=\"\(Self.escape(scene.name))\" "
        + "file=\"\(Self.escape(scene.golden))\" time=\"\(Self.seconds(scene.seconds))\""
      guard scene.failures > 0 else {
        xml += " />\n"
        continue
      }
      if let error = scene.error {
        xml += ">\n      <error message=\"\(Self.escape(error))\" type=\"scene error\">"
        xml += Self.escape(error) + "</error>\n    </testcase>\n"
        continue
      }
      let message =
        "\(scene.failures) of \(scene.frames.count + scene.problemFailures) frames failed "
        + "against \(scene.golden)"
      var body = scene.failureLines.joined(separator: "\n")
      let paths = scene.frames.compactMap(\.artifacts).flatMap {
        [$0.actual, $0.diff].compactMap { $0 }
      }
      if !paths.isEmpty { body += "\n\nArtifacts:\n" + paths.joined(separator: "\n") }
      body += "\n\nRe-record: \(scene.rerecord)"
      xml += ">\n      <failure message=\"\(Self.escape(message))\" type=\"golden mismatch\">"
      xml += Self.escape(body) + "</failure>\n"
      xml += "      <system-out>\(Self.escape(body))</system-out>\n    </testcase>\n"
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  static func seconds(_ value: Double) -> String {
    let ms = (value * 1000).rounded()
    return "\(Int(ms) / 1000).\(String(Int(ms) % 1000 + 1000).dropFirst())"
  }

  /// Text for XML and HTML: the five special characters escaped, and control characters
  /// (which XML 1.0 does not allow) dropped.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\n", "\t": out.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }
}
