import Foundation
import Testing

@testable import CLI

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `check` as a golden suite: key frames (`--frames`, `--times`), perceptual comparison,
/// grouped output, `--record failed`'s count, JUnit XML and the HTML report; `scene` writing
/// only selected frames.
@Suite struct CheckSuiteCLITests {
  let directory = ToolRun.scratchFolder("check-suite")
  static let scene = ["--scale", "1", "--fps", "20", "--device", "se"]

  func files(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  @Test func keyFramesAreTheGoldens() throws {
    let golden = directory + "/keys/cards"
    let run = InProcessRun(
      [
        "check", "cards", "--golden", golden, "--record", "missing", "--times", "0,0.25,settled",
        "--frames", "2",
      ] + Self.scene)
    #expect(run.status == 0, "\(run.standardError)")
    // 0.25 s at 20 fps is frame 5; the cards settle at frame 19 (0.95 s, their settle time
    // rounded up to a frame).
    let names = files(golden)
    #expect(names.count == 4, "\(names)")
    #expect(names.first == "frame-0000.png" && names.contains("frame-0002.png"))
    #expect(names.contains("frame-0005.png"))
    #expect(run.standardOutput.hasSuffix("4 passed, 0 failed\n"))
    // Checking fewer frames than the folder holds: the others fail, then go when re-recorded.
    let fewer = InProcessRun(
      ["check", "cards", "--golden", golden, "--record", "never", "--times", "0"] + Self.scene)
    #expect(fewer.status == 1)
    #expect(fewer.standardOutput.contains("3 golden frames are not among the selected frames"))
    #expect(fewer.standardOutput.hasSuffix("1 passed, 3 failed\n"))
    let trimmed = InProcessRun(
      ["check", "cards", "--golden", golden, "--record", "failed", "--times", "0"] + Self.scene)
    #expect(trimmed.status == 0)
    #expect(files(golden) == ["frame-0000.png"])
  }

  @Test func badSelectionsAreUsageErrors() {
    let cases: [([String], String)] = [
      (["--frames", "3-1"], "runs upwards"),
      (["--frames", "a"], "not a frame index"),
      (["--frames", "100000"], "past the last frame"),
      (["--times", "soon"], "not a time"),
      (["--times", "99"], "past the last frame"),
    ]
    for (options, message) in cases {
      let run = InProcessRun(
        ["check", "cards", "--golden", directory + "/bad", "--record", "never"] + options
          + Self.scene)
      #expect(run.status == 64, "\(options): \(run.standardError)")
      #expect(run.standardError.contains(message), "\(options): \(run.standardError)")
    }
    let both = InProcessRun(["cards", "--frame", "1", "--frames", "2", "-o", directory + "/x.png"])
    #expect(both.status == 64)
    let exactWithThreshold = InProcessRun(
      ["check", "cards", "--golden", directory + "/bad", "--threshold", "0.1"] + Self.scene)
    #expect(exactWithThreshold.status == 64)
    #expect(exactWithThreshold.standardError.contains("--compare perceptual"))
  }

  @Test func sceneWritesOnlyTheSelectedFrames() {
    let out = directory + "/deep/frames/"
    let run = InProcessRun(["cards", "--frames", "0,3-4", "--quiet", "-o", out] + Self.scene)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(files(out) == ["frame-0000.png", "frame-0003.png", "frame-0004.png"])
    let gif = InProcessRun(["cards", "--frames", "0", "-o", directory + "/a.gif"] + Self.scene)
    #expect(gif.status == 64)
    #expect(gif.standardError.contains("folder ending in /"))
  }

  /// A real change fails under the perceptual comparison too, one line for the run; `--record
  /// failed` says how many it rewrote; JUnit and the HTML report say the same.
  @Test func failuresAreReported() throws {
    let golden = directory + "/report/cards"
    let keys = ["--times", "0,0.25,0.5,settled"]
    #expect(
      InProcessRun(["check", "cards", "--golden", golden, "--record", "all"] + keys + Self.scene)
        .status == 0)
    let junit = directory + "/report/out/junit.xml"
    let report = directory + "/report/out/html"
    let changed = InProcessRun(
      [
        "check", "cards", "--golden", golden, "--record", "never", "--swiftui", "legacy",
        "--compare", "perceptual", "--junit", junit, "--report", report,
      ] + keys + Self.scene)
    #expect(changed.status == 1)
    let lines = changed.standardOutput.split(separator: "\n")
    #expect(lines.first?.contains("(4 frames fail); worst") == true, "\(changed.standardOutput)")
    #expect(lines.last == "0 passed, 4 failed")
    // JUnit: one test case, failing, naming the artifacts and the command that re-records.
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    let document = try XMLDocument(xmlString: xml)
    let cases = try document.nodes(forXPath: "//testcase")
    #expect(cases.count == 1)
    let failure = try document.nodes(forXPath: "//testcase/failure").first?.stringValue ?? ""
    #expect(failure.contains(".render-anim-artifacts/cards/frame-0000-actual.png"))
    #expect(failure.contains("--record failed"))
    // The report: a page and each failing frame's three images, all there.
    let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
    #expect(html.contains("0 passed, 4 failed"), "the counts check printed")
    let images = files(report).filter { $0.hasSuffix(".png") }
    #expect(images.count == 12)
    for image in images { #expect(html.contains(image)) }
    #expect(html.contains("type=\"range\""))
    // Re-recording says how many, and then everything passes.
    let rerecord = InProcessRun(
      ["check", "cards", "--golden", golden, "--record", "failed", "--swiftui", "legacy"] + keys
        + Self.scene)
    #expect(rerecord.status == 0)
    #expect(rerecord.standardOutput.contains("4 re-recorded"))
    #expect(rerecord.standardOutput.hasSuffix("0 passed, 0 failed\n"))
    // The failures' artifacts went with them: the folder holds this run's failures only.
    #expect(files(directory + "/report/.render-anim-artifacts/cards").isEmpty)
  }

  /// `diff --compare perceptual` passes the same image re-rendered 1/8 px to the side, which
  /// the exact comparison fails.
  @Test func diffComparesPerceptually() throws {
    let a = directory + "/diff/a/"
    let b = directory + "/diff/b/"
    #expect(InProcessRun(["cards", "--frames", "0", "--quiet", "-o", a] + Self.scene).status == 0)
    #expect(
      InProcessRun(
        ["cards", "--frames", "0", "--quiet", "--swiftui", "legacy", "-o", b] + Self.scene
      )
      .status == 0)
    let exact = InProcessRun(["diff", a + "frame-0000.png", b + "frame-0000.png"])
    #expect(exact.status == 1)
    let perceptual = InProcessRun(
      ["diff", a + "frame-0000.png", b + "frame-0000.png", "--compare", "perceptual"])
    // Circular corners instead of continuous ones are a real change.
    #expect(perceptual.status == 1)
    #expect(perceptual.standardOutput.contains("anti-aliased pixels excused"))
    let same = InProcessRun(
      ["diff", a + "frame-0000.png", a + "frame-0000.png", "--compare", "perceptual"])
    #expect(same.status == 0)
  }

  /// Usage errors say what is wrong in the user's words: `-o` (not `--o`), both golden options,
  /// standard input where its output needs a name.
  @Test func usageErrorsNameTheOption() {
    let cases: [([String], String)] = [
      (["scene", "cards", "--out-dir", directory + "/u", "-o", "x.gif"], "'-o' is one scene's"),
      (["check", "cards", "--golden", "a", "--golden-root", "b"], "not both"),
      (["check", "-", "--golden-root", directory + "/u"], "standard input"),
      (["scene", "-", "--out-dir", directory + "/u"], "standard input"),
    ]
    for (arguments, message) in cases {
      let run = InProcessRun(arguments)
      #expect(run.status == 64, "\(arguments): \(run.standardError)")
      #expect(run.standardError.contains(message), "\(arguments): \(run.standardError)")
    }
  }

  /// Writes `folder/dot.json`, a red circle on a 100 × 60 pt canvas, and returns its text.
  static func writeDot(in folder: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let dot =
      #"{"canvas": {"width": 100, "height": 60}, "layers": [{"shape": "circle", "fill": "red"}]}"#
    try dot.write(toFile: folder + "/dot.json", atomically: true, encoding: .utf8)
    return dot
  }

  /// No output of a check may replace what it reads: a scene file, a results file being merged;
  /// nor may a results file go where it would be read as a scene next time, or an output into
  /// the artifacts folder a check uses by default. A scene alone that cannot be built is still
  /// an error in the JUnit file. A results file that cannot be read makes merge-results exit 2.
  @Test func outputsNeverReplaceInputs() throws {
    let scenes = directory + "/inputs/scenes"
    let dot = try Self.writeDot(in: scenes)
    let golden = directory + "/inputs/g/dot"
    let refused: [([String], String)] = [
      (["--junit", scenes + "/dot.json"], "is the scene file"),
      (["--results", scenes + "/./dot.json"], "is the scene file"),
      (["--junit", directory + "/inputs/g/.render-anim-artifacts/dot/j.xml"], "artifacts folder"),
    ]
    for (options, message) in refused {
      let run = InProcessRun(
        ["check", scenes + "/dot.json", "--golden", golden, "--times", "0"] + options)
      #expect(run.status == 64, "\(options): \(run.standardError)")
      #expect(run.standardError.contains(message), "\(options): \(run.standardError)")
    }
    let inFolder = InProcessRun(
      ["check", scenes, "--golden-root", directory + "/inputs/g", "--results", scenes + "/r.json"])
    #expect(inFolder.status == 64)
    #expect(inFolder.standardError.contains("where it would be read as a scene"))
    #expect(try String(contentsOfFile: scenes + "/dot.json", encoding: .utf8) == dot)
    // merge-results: its JUnit file may not be one it reads; an unreadable input is exit 2.
    let results = directory + "/inputs/r.json"
    #expect(
      InProcessRun(
        [
          "check", scenes + "/dot.json", "--golden", golden, "--times", "0", "--record", "missing",
          "--results", results,
        ]
      ).status == 0)
    let merged = InProcessRun(["merge-results", results, "--junit", results])
    #expect(merged.status == 64, "\(merged.standardError)")
    #expect(merged.standardError.contains("is the results file"))
    let lost = InProcessRun(["merge-results", results, directory + "/inputs/none.json"])
    #expect(lost.status == 2, "\(lost.standardError)")
    // A lone scene that cannot be built: exit 2, and an error in the JUnit file.
    try "{ broken".write(toFile: scenes + "/dot.json", atomically: true, encoding: .utf8)
    let junit = directory + "/inputs/j.xml"
    let broken = InProcessRun(
      ["check", scenes + "/dot.json", "--golden", golden, "--times", "0", "--junit", junit])
    #expect(broken.status == 2)
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<error"), "\(xml)")
  }

  /// Many scenes in one run: files, a folder of them and a built-in, goldens in
  /// ROOT/<scene name>/, one JUnit file with a test case each; a scene that cannot be built fails
  /// alone.
  @Test func manyScenesShareOneReport() throws {
    let scenes = directory + "/many/scenes"
    let card = try Self.writeDot(in: scenes)
    try card.replacingOccurrences(of: "red", with: "blue")
      .write(toFile: scenes + "/blue.json", atomically: true, encoding: .utf8)
    let root = directory + "/many/goldens"
    let first = InProcessRun(
      ["check", scenes, "cards", "--golden-root", root, "--record", "missing", "--times", "0"]
        + Self.scene)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(files(root) == ["blue", "cards", "dot"])
    #expect(first.standardOutput.hasSuffix("3 scenes, 0 failing\n3 passed, 0 failed\n"))
    try "{ broken".write(toFile: scenes + "/dot.json", atomically: true, encoding: .utf8)
    let junit = directory + "/many/junit.xml"
    let second = InProcessRun(
      [
        "check", scenes, "cards", "--golden-root", root, "--record", "never", "--times", "0",
        "--junit", junit,
      ] + Self.scene)
    // The others are checked, and the run says it could not check one: exit 2, a JUnit error.
    #expect(second.status == 2)
    #expect(second.standardOutput.contains("dot: "), "\(second.standardOutput)")
    #expect(!second.standardOutput.contains("dot.json: " + scenes), "the path said once")
    #expect(second.standardOutput.hasSuffix("3 scenes, 1 failing\n2 passed, 1 failed\n"))
    let document = try XMLDocument(xmlString: try String(contentsOfFile: junit, encoding: .utf8))
    #expect(try document.nodes(forXPath: "//testcase").count == 3)
    #expect(try document.nodes(forXPath: "//testcase/failure").count == 0)
    #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
    #expect(try document.nodes(forXPath: "//testsuite[@errors='1']").count == 1)
    // --golden is one scene's folder.
    let both = InProcessRun(["check", scenes, "--golden", root + "/x"] + Self.scene)
    #expect(both.status == 64)
    #expect(both.standardError.contains("--golden-root"))
  }

  /// From a hostile try: outputs that would replace or delete goldens, artifacts or inputs are
  /// usage errors, and nothing is written.
  /// The command a report gives for re-recording one scene: that scene, `--record failed`, and
  /// none of the run-wide outputs or the shard, which pasting it would overwrite or miss.
  @Test func rerecordCommandsLeaveTheRunsOutputsAlone() {
    let raw = [
      "Examples/", "cats", "--golden-root", "g", "--junit", "j.xml", "--report=rep",
      "--results", "res/s1.json", "--shards", "3", "--record", "never", "--times", "0,settled",
    ]
    #expect(
      CheckCommand.rerecordCommand(raw, scene: "Examples/toggle.json")
        == "render-anim check Examples/toggle.json --golden-root g --times 0,settled "
        + "--record failed")
    #expect(
      CheckCommand.rerecordCommand(["cats", "--golden", "g", "--shard", "1/2", "--record=all"])
        == "render-anim check cats --golden g --record failed")
  }

  @Test func outputsNeverOverlapTheGoldens() throws {
    let golden = directory + "/apart/G"
    let keys = ["--frames", "0,1"] + Self.scene
    #expect(
      InProcessRun(["check", "cards", "--golden", golden, "--record", "missing"] + keys).status == 0
    )
    let cases: [([String], String)] = [
      (["--report", golden], "overlap"),
      (["--report", directory + "/apart/R", "--artifacts", directory + "/apart/R"], "overlap"),
      (["--junit", golden + "/frame-0001.png"], "inside the golden folder"),
      (["--report", directory + "/apart/R", "--junit", directory + "/apart/R/j.xml"], "inside"),
      (["--artifacts", golden + "/a"], "inside the golden folder"),
      (["--artifacts", ""], "empty"),
      (["--results", golden + "/r.json"], "inside the golden folder"),
      (["--results", directory + "/apart/o", "--junit", directory + "/apart/o"], "both"),
      (["--report", directory + "/apart/R", "--results", directory + "/apart/R/r.json"], "inside"),
      (
        ["--artifacts", directory + "/apart/A", "--results", directory + "/apart/A/r.json"],
        "inside"
      ),
      (["--artifacts", directory + "/apart/A", "--junit", directory + "/apart/A/j.xml"], "inside"),
    ]
    for (options, message) in cases {
      let run = InProcessRun(
        ["check", "cards", "--golden", golden, "--record", "never"] + options + keys)
      #expect(run.status == 64, "\(options): \(run.standardError)")
      #expect(run.standardError.contains(message), "\(options): \(run.standardError)")
    }
    #expect(files(golden) == ["frame-0000.png", "frame-0001.png"])
    let empty = InProcessRun(["check", "cards", "--golden", ""] + keys)
    #expect(empty.status == 64)
    let diff = InProcessRun([
      "diff", golden + "/frame-0000.png", golden + "/frame-0001.png", "--diff-out",
      golden + "/frame-0000.png",
    ])
    #expect(diff.status == 64)
    #expect(files(golden) == ["frame-0000.png", "frame-0001.png"])
    // A report folder holding other files is refused as one, naming what it may hold.
    let notes = directory + "/apart/notes"
    try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: notes + "/todo.txt", contents: Data("keep".utf8))
    let report = InProcessRun(["check", "cards", "--golden", golden, "--report", notes] + keys)
    #expect(report.status == 2)
    #expect(
      report.standardError.contains("holds files that are not a report's files ('todo.txt')"),
      "\(report.standardError)")
    #expect(files(notes) == ["todo.txt"])
  }
}
