import Foundation
import Testing

@testable import CLI

/// Standard output and the outputs around it, as a pipeline sees them: a lost write is an error,
/// the other outputs of the run land only when standard output took its bytes, `/dev/stdout` is
/// standard output whatever is behind it, a diff image on standard output stays a whole PNG, no
/// output replaces the scene being read, and an empty value is a usage error. Each test fails
/// without its fix (found by a hostile walkthrough, 2026-12-05).
@Suite struct StandardOutputTests {
  let scratch = Scratch("standard-output")

  /// The binary with standard output to `/dev/full` (every write fails: no space left).
  static func runToFullDisk(_ arguments: [String]) throws -> (status: Int32, error: String) {
    let process = Process()
    process.executableURL = ToolRun.binary
    process.arguments = arguments
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let err = Pipe()
    process.standardOutput = full
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: errData, as: UTF8.self))
  }

  /// `check --junit -` and `--results -` put the file alone on standard output (the lines for
  /// people go to standard error), so that a pipe reads XML or JSON that parses; both there at
  /// once are refused. `merge-results --junit -` likewise.
  @Test func aReportOnStandardOutputIsAloneThere() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    let golden = scratch.path + "/golden"
    let common = ["check", scene, "--fps", "10", "--hold", "0", "--golden", golden]
    #expect(try ToolRun(common + ["--record", "all"]).status == 0)
    // One golden changed, so that there are failure lines to keep apart.
    let one = golden + "/frame-0001.png"
    try FileManager.default.removeItem(atPath: one)
    try FileManager.default.copyItem(atPath: golden + "/frame-0000.png", toPath: one)
    let junit = try ToolRun(common + ["--record", "never", "--junit", "-"])
    #expect(junit.status == 1)
    // The JUnit file and nothing else: its declaration first, its root closed last.
    #expect(junit.standardOutput.hasPrefix("<?xml"), "\(junit.standardOutput)")
    #expect(junit.standardOutput.hasSuffix("</testsuites>\n"), "\(junit.standardOutput)")
    #expect(!junit.standardOutput.contains("passed,"))
    #expect(junit.standardError.contains("frame-0001.png"), "\(junit.standardError)")
    let results = try ToolRun(common + ["--record", "never", "--results", "-"])
    #expect(results.status == 1)
    #expect(try JSONSerialization.jsonObject(with: Data(results.outputBytes)) is [String: Any])
    let file = try scratch.write(results.standardOutput, "results.json")
    let merged = try ToolRun(["merge-results", file, "--junit", "/dev/stdout"])
    #expect(merged.status == 1, "\(merged.standardError)")
    #expect(
      merged.standardOutput.hasPrefix("<?xml")
        && merged.standardOutput.hasSuffix("</testsuites>\n"), "\(merged.standardOutput)")
    // Standard output is in no folder: with the goldens in the working directory too.
    let here = try ToolRun(
      [
        "check", scene, "--fps", "10", "--hold", "0", "--golden", ".", "--record", "never",
        "--junit", "-",
      ], in: golden)
    #expect(here.status == 1, "\(here.standardError)")
    #expect(here.standardOutput.hasPrefix("<?xml"), "\(here.standardError)")
    let both = try ToolRun(common + ["--record", "never", "--junit", "-", "--results", "-"])
    #expect(both.status == 64)
    #expect(both.standardError.contains("both go to standard output"))
  }

  /// A frames folder named with `.` or `..` (`-o ./`, `-o new/sub/../`, `--golden .`) is
  /// written under its own name: a rename onto `.` failed ("device or resource busy") and left
  /// `new/sub` behind. The working directory itself has its files replaced one by one, so the
  /// caller's shell is not left in a deleted folder.
  @Test func aFolderNamedWithDotsIsWrittenWhereItLeads() throws {
    let here = scratch.path + "/dots/here"
    try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: true)
    let scene = try scratch.write(tinyScene, "dots/tiny.json")
    FileManager.default.createFile(atPath: here + "/frame-0099.png", contents: Data([1]))
    let before = try #require(
      try FileManager.default.attributesOfItem(atPath: here)[.systemFileNumber])
    let frames = ["frame-0000.png", "frame-0001.png", "frame-0002.png"]
    let intoHere = try ToolRun(
      ["scene", scene, "--fps", "10", "--hold", "0", "-o", "./"], in: here)
    #expect(intoHere.status == 0, "\(intoHere.standardError)")
    #expect(scratch.list("dots/here") == frames)
    // The same folder (not one put in its place).
    #expect(
      try FileManager.default.attributesOfItem(atPath: here)[.systemFileNumber] as? Int == before
        as? Int)
    let up = try ToolRun(
      ["scene", scene, "--fps", "10", "--hold", "0", "-o", "new/sub/../"],
      in: scratch.path + "/dots")
    #expect(up.status == 0, "\(up.standardError)")
    #expect(scratch.list("dots/new") == frames)
    let golden = try ToolRun(
      ["check", "../tiny.json", "--fps", "10", "--hold", "0", "--golden", ".", "--record", "all"],
      in: here)
    #expect(golden.status == 0, "\(golden.standardError)")
    #expect(scratch.list("dots/here") == frames)
  }

  /// An output of the wrong kind is a usage error (64), found before anything runs: a file as
  /// `--out-dir` or `--report`, a folder or an image name as `layout -o`.
  @Test func anOutputOfTheWrongKindIsAUsageError() throws {
    let scene = try scratch.write(tinyScene, "kinds.json")
    let results = try scratch.write("{}", "kinds-results.json")
    let runs: [([String], String)] = [
      (["scene", scene, "--out-dir", scene], "is a file, not a folder"),
      (["layout", scene, "-o", scratch.path + "/lay/"], "the layout is one JSON file"),
      (["layout", scene, "-o", scratch.path], "the layout is one JSON file"),
      (["layout", scene, "-o", scratch.path + "/lay.gif"], "not an image"),
      (["merge-results", results, "--report", results], "is a file, not a folder"),
      (
        ["check", scene, "--golden", scratch.path + "/g", "--report", scene],
        "is a file, not a folder"
      ),
    ]
    for (arguments, message) in runs {
      let run = InProcessRun(arguments)
      #expect(run.status == 64, "\(arguments): \(run.standardError)")
      #expect(run.standardError.contains(message), "\(arguments): \(run.standardError)")
    }
    #expect(!scratch.exists("lay.gif") && !scratch.exists("g"))
  }

  @Test func aLostWriteToStandardOutputIsAnError() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    for arguments in [["layout", scene], ["layout", scene, "-o", "-"], ["--help"]] {
      let run = try Self.runToFullDisk(arguments)
      #expect(run.status == 1, "\(arguments)")
      #expect(run.error.contains("standard output: no space left on device"), "\(run.error)")
    }
    // In process: a console that reports a failed write turns success into failure.
    let console = Console(
      standardOutput: { _ in }, standardError: { _ in },
      standardOutputFailure: { "standard output: broken pipe" })
    #expect(RenderAnim.main(["layout", scene], console: console) == 1)
  }

  @Test func aTraceLostOnStandardOutputLeavesNoImage() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    let gif = scratch.path + "/out.gif"
    let run = try Self.runToFullDisk(["scene", scene, "-o", gif, "--trace", "-", "--quiet"])
    #expect(run.status == 1, "\(run.error)")
    #expect(!scratch.exists("out.gif"))
    #expect(scratch.list() == ["tiny.json"])
  }

  @Test func devStdoutIsStandardOutputInAPipe() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
      let run = try ToolRun(["scene", scene, "-o", name, "--format", "gif", "--quiet"])
      #expect(run.status == 0, "\(name): \(run.standardError)")
      #expect(run.outputBytes.starts(with: Array("GIF89a".utf8)), "\(name)")
    }
  }

  /// Standard input's names are refused as outputs, saying so (a pipe behind them was called
  /// a symbolic link to something that does not exist; found by a walkthrough).
  @Test func devStdinIsNoOutput() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    for name in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
      let run = try ToolRun(["scene", scene, "-o", name, "--format", "gif", "--quiet"])
      #expect(run.status != 0, "\(name)")
      #expect(
        run.standardError.contains("is standard input, not an output"), "\(run.standardError)")
    }
  }

  /// With standard output redirected to a regular file, its device names still mean standard
  /// output: no extension is asked for, and the bytes land in the file (they were refused with
  /// "expected a .gif, .apng or .webp file"; found by a hostile walkthrough, 2026-12-05).
  @Test func devStdoutIsStandardOutputIntoAFile() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    for (k, name) in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].enumerated() {
      for (arguments, magic) in [
        (["-o", name], Array("GIF89a".utf8)),
        (["--frame", "1", "-o", name], [0x89, 0x50, 0x4E, 0x47]),
      ] {
        let file = scratch.path + "/redirected-\(k).bin"
        FileManager.default.createFile(atPath: file, contents: nil)
        let process = Process()
        process.executableURL = ToolRun.binary
        process.arguments = ["scene", scene, "--quiet"] + arguments
        process.standardOutput = try #require(FileHandle(forWritingAtPath: file))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(
          decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name) \(arguments): \(message)")
        let bytes = try #require(FileManager.default.contents(atPath: file))
        #expect(Array(bytes).starts(with: magic), "\(name) \(arguments)")
      }
    }
  }

  @Test func aDiffImageOnStandardOutputStaysAWholePNG() throws {
    let a = scratch.path + "/a.png"
    let b = scratch.path + "/b.png"
    let square = try scratch.write("M10 10H90V90H10Z", "square.svgpath")
    for (fill, out) in [("#FF9500", a), ("#007AFF", b)] {
      let drawn = InProcessRun([
        "path", square, "--viewbox", "0,0,100,100", "--size", "50x40", "--fill", fill, "-o", out,
      ])
      #expect(drawn.status == 0, "\(drawn.standardError)")
    }
    let run = try ToolRun(["diff", a, b, "--diff-out", "-", "--diff-style", "overlay"])
    #expect(run.status == 1)
    #expect(run.outputBytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(run.standardError.contains("different: "), "\(run.standardError)")
  }

  @Test func noOutputReplacesTheSceneBeingRead() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    let link = scratch.path + "/link.json"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scene)
    for arguments in [
      ["scene", scene, "-o", scratch.path + "/x.gif", "--trace", scene],
      ["scene", scene, "-o", scene],
      ["scene", scene, "-o", link],
      ["layout", scene, "-o", scratch.path + "/./tiny.json"],
    ] {
      let run = InProcessRun(arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.standardError.contains("is the scene file"), "\(run.standardError)")
    }
    #expect(try String(contentsOfFile: scene, encoding: .utf8) == tinyScene)
    // The built-in scenes are names, not files.
    let builtIn = InProcessRun(["scene", "cats", "-o", scratch.path + "/cats", "--frame", "0"])
    #expect(!builtIn.standardError.contains("is the scene file"), "\(builtIn.standardError)")
  }

  /// Nor a file the scene draws from (its path data here, by name, through a link or for the
  /// trace), nor the path data `path` reads: found by a walkthrough, which lost an image so.
  @Test func noOutputReplacesAFileTheSceneReads() throws {
    let data = "M 10 10 L 90 10 L 50 90 Z"
    let file = try scratch.write(data, "shape.png")
    let scene = try scratch.write(
      #"{"canvas": {"width": 20, "height": 20}, "layers": [{"pathFile": "shape.png"}]}"#,
      "drawn.json")
    let link = scratch.path + "/link.png"
    try? FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    for (arguments, option) in [
      (["scene", scene, "--frame", "0", "-o", file], "'-o'"),
      (["scene", scene, "--frame", "0", "-o", link], "'-o'"),
      (
        ["scene", scene, "-o", scratch.path + "/y.gif", "--trace", scratch.path + "/link.png"],
        "'--trace'"
      ),
      (["path", file, "--viewbox", "0,0,100,100", "--size", "10x10", "-o", link], "'-o'"),
    ] {
      let run = InProcessRun(arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.standardError.contains(option), "\(run.standardError)")
      #expect(run.standardError.contains("give another file"), "\(run.standardError)")
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == data)
  }

  @Test func emptyValuesAndBadArgumentsNameTheirPlace() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    let cases: [([String], String)] = [
      (["scene", scene, "-o", scratch.path + "/x.gif", "--trace", ""], "'--trace' needs a value"),
      (["scene", "", "-o", scratch.path + "/x.gif"], "'<file.json>' needs a value"),
      (["layout", scene, "-o", ""], "'--output' needs a value"),
      (["still", "dog", "-o", scratch.path + "/x.png"], "Invalid value 'dog' for '<element>'"),
    ]
    for (arguments, message) in cases {
      let run = InProcessRun(arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.standardError.contains(message), "\(run.standardError)")
    }
  }
}
