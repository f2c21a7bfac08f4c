import CLI
import Codecs
import Foundation
import Raster
import RenderAnimKit
import Testing

/// A tiny animated scene: 3 frames at 10 fps without hold, 13 with `--hold 1`.
let tinyScene = """
  {"canvas": {"width": 40, "height": 30, "scale": 1}, "state": {"on": false},
   "layers": [{"shape": "circle", "frame": {"width": 10, "height": 10}, "fill": "orange",
               "offset": {"x": "=on ? 10 : -10", "y": 0}}],
   "events": [{"at": 0, "set": {"on": true}, "animation": {"type": "linear", "duration": 0.2}}]}
  """

/// Each test is named after a defect a hostile tester found (issue #11) and fails without its fix.
@Suite struct GoldenCheckHardeningTests {
  let scratch = Scratch("hardening-check")

  private func check(_ golden: String, _ more: [String]) throws -> InProcessRun {
    let scene = try scratch.write(tinyScene, "tiny.json")
    return InProcessRun(
      ["check", scene, "--fps", "10", "--golden", scratch.path + "/" + golden] + more)
  }

  /// Control characters a scene file echoes into an error (a NUL, a terminal escape, a line
  /// break inside a name) are printed as `\u{…}`, never raw: a message cannot drive the
  /// terminal.
  @Test func errorsPrintControlCharactersEscaped() throws {
    let scratch = Scratch("control-characters")
    let scene = try scratch.write(
      #"{"canvas": {"width": 50, "height": 50}, "layers": [{"symbol": "heart\u0000\u001b[31mX\r"}]}"#,
      "scene.json")
    let run = InProcessRun(["scene", scene, "--frame", "0", "-o", scratch.path + "/out.png"])
    #expect(run.status == 1)
    #expect(run.standardError.contains(#"heart\u{0}\u{1B}[31mX\u{D}"#), "\(run.standardError)")
    #expect(
      !run.standardError.unicodeScalars.contains {
        $0.value < 0x20 && $0 != "\n"
      })
  }

  @Test func goldensWithoutARenderedFrameFailAndAreRemovedWhenReRecording() throws {
    #expect(try check("g", ["--hold", "1", "--record", "all"]).status == 0)
    #expect(scratch.list("g").count == 13)
    let run = try check("g", ["--hold", "0", "--record", "never"])
    #expect(run.status == 1)
    #expect(
      run.standardOutput.contains(
        "frame-0003.png … frame-0012.png: no such frame in the render (it has 3 frames, 0 to 2)"),
      "\(run.standardOutput)")
    #expect(run.standardOutput.hasSuffix("3 passed, 10 failed\n"))
    for mode in ["failed", "all"] {
      #expect(try check("g", ["--hold", "1", "--record", "all"]).status == 0)
      let rerecord = try check("g", ["--hold", "0", "--record", mode])
      #expect(rerecord.status == 0, "\(rerecord.standardOutput)")
      #expect(rerecord.standardOutput.contains("removed 10 golden frames"))
      #expect(scratch.list("g") == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
    }
  }

  @Test func anUnreadableGoldenFailsItsFrameAndTheRunGoesOn() throws {
    #expect(try check("u", ["--hold", "0", "--record", "all"]).status == 0)
    let one = scratch.path + "/u/frame-0001.png"
    let two = scratch.path + "/u/frame-0002.png"
    try FileManager.default.removeItem(atPath: one)
    try FileManager.default.createDirectory(atPath: one, withIntermediateDirectories: false)
    let truncated = try #require(scratch.bytes("u/frame-0002.png")).prefix(40)
    FileManager.default.createFile(atPath: two, contents: Data(truncated))
    let run = try check("u", ["--hold", "0", "--record", "never"])
    #expect(run.status == 1)
    // Two failing frames in a row, unreadable for different reasons: a line each, so that
    // neither cause hides behind the other.
    #expect(
      run.standardOutput.contains("frame-0001.png: unreadable golden:")
        && run.standardOutput.contains("is a folder"), "\(run.standardOutput)")
    #expect(
      run.standardOutput.contains("frame-0002.png: unreadable golden:")
        && run.standardOutput.contains("truncated"), "\(run.standardOutput)")
    #expect(run.standardOutput.hasSuffix("1 passed, 2 failed\n"))
    // Frames that failed the same way still share a line: two with no golden.
    try FileManager.default.removeItem(atPath: one)
    try FileManager.default.removeItem(atPath: two)
    let missing = try check("u", ["--hold", "0", "--record", "never"])
    #expect(
      missing.standardOutput.contains(
        "frame-0001.png … frame-0002.png (2 frames fail); worst frame-0001.png: no golden at"),
      "\(missing.standardOutput)")
  }

  /// A named pipe where a golden should be (nobody writes it): the frame fails as unreadable
  /// instead of the check waiting for a writer for ever.
  @Test func aPipeAmongTheGoldensFailsItsFrameWithoutWaiting() throws {
    #expect(try check("p", ["--hold", "0", "--record", "all"]).status == 0)
    let one = scratch.path + "/p/frame-0001.png"
    try FileManager.default.removeItem(atPath: one)
    #expect(mkfifo(one, 0o600) == 0)
    let run = try check("p", ["--hold", "0", "--record", "never"])
    #expect(run.status == 1)
    #expect(
      run.standardOutput.contains("frame-0001.png: unreadable golden")
        && run.standardOutput.contains("is not a regular file"), "\(run.standardOutput)")
    #expect(run.standardOutput.hasSuffix("2 passed, 1 failed\n"))
    // Re-recording replaces the pipe with a golden instead of waiting to write into it.
    for mode in ["failed", "all"] {
      try? FileManager.default.removeItem(atPath: one)
      #expect(mkfifo(one, 0o600) == 0)
      let rerecord = try check("p", ["--hold", "0", "--record", mode])
      #expect(rerecord.status == 0, "\(mode): \(rerecord.standardOutput)")
      #expect(scratch.bytes("p/frame-0001.png")?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }
  }

  /// Scene files named `.json`, `..json` and `...json` would be named "", "." and "..": their
  /// goldens would go to the golden root itself or to its parent, where re-recording removes
  /// frame files. They are refused (exit 64), and nothing outside the root is touched.
  @Test func sceneNamesThatNameNoFolderOfTheirOwnAreRefused() throws {
    for file in [".json", "..json", "...json"] {
      let folder = scratch.path + "/names-" + file.replacingOccurrences(of: ".", with: "d")
      try FileManager.default.createDirectory(
        atPath: folder + "/scenes", withIntermediateDirectories: true)
      FileManager.default.createFile(
        atPath: folder + "/scenes/" + file, contents: Data(tinyScene.utf8))
      FileManager.default.createFile(atPath: folder + "/frame-0100.png", contents: Data([1]))
      for command in [
        ["check", folder + "/scenes/", "--golden-root", folder + "/gold/root", "--record", "all"],
        ["scene", folder + "/scenes/", "--out-dir", folder + "/out", "--format", "png-frames"],
      ] {
        let run = InProcessRun(command + ["--fps", "10", "--hold", "0"])
        #expect(run.status == 64, "\(file): \(run.standardError)")
        #expect(
          run.standardError.contains("cannot name a folder of its own"), "\(run.standardError)")
      }
      #expect(FileManager.default.fileExists(atPath: folder + "/frame-0100.png"))
      #expect(!FileManager.default.fileExists(atPath: folder + "/gold"))
    }
  }

  /// A scene that shows an image from the folder its frames would go to, or from its golden
  /// folder: writing the folder would replace or remove the image, so it is refused (exit 64)
  /// and the image is left as it was.
  @Test func anOutputFolderHoldingAFileTheSceneReadsIsRefused() throws {
    let folder = scratch.path + "/reads"
    try FileManager.default.createDirectory(
      atPath: folder + "/shots", withIntermediateDirectories: true)
    let image = try PNGCodec.encode(straightRGBA: [255, 0, 0, 255], width: 1, height: 1)
    FileManager.default.createFile(
      atPath: folder + "/shots/frame-0000.png", contents: Data(image))
    let scene = try scratch.write(
      #"{"canvas": {"width": 20, "height": 20, "scale": 1}, "layers": [{"image": "shots/frame-0000.png"}]}"#,
      "reads/scene.json")
    for (command, option) in [
      (["scene", scene, "-o", folder + "/shots/"], "'-o'"),
      (["scene", scene, "-o", folder + "/"], "'-o'"),
      (["check", scene, "--golden", folder + "/shots", "--record", "all"], "'--golden'"),
    ] {
      let run = InProcessRun(command)
      #expect(run.status == 64, "\(command): \(run.standardError)")
      #expect(
        run.standardError.contains(option) && run.standardError.contains("a file the scene reads"),
        "\(run.standardError)")
      #expect(scratch.bytes("reads/shots/frame-0000.png") == image)
    }
    // A folder beside it is fine.
    #expect(InProcessRun(["scene", scene, "-o", scratch.path + "/reads-out/"]).status == 0)
  }

  /// A golden to be written where a folder stands: the frame fails with the reason, the others
  /// are written, and the run exits 2 (an output it could not write), not 1.
  @Test func aGoldenThatCannotBeWrittenMakesTheRunExitTwo() throws {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/w/frame-0001.png", withIntermediateDirectories: true)
    let run = try check("w", ["--hold", "0", "--record", "all"])
    #expect(run.status == 2, "\(run.standardOutput)")
    #expect(run.standardOutput.contains("frame-0001.png: cannot write the golden"))
    #expect(scratch.list("w") == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
  }

  @Test func missingGoldenFoldersAreCreated() throws {
    // The mode is named: without it, a CI environment (where `CI` is set) would record nothing.
    #expect(try check("a/b/c", ["--hold", "0", "--record", "missing"]).status == 0)
    #expect(scratch.list("a/b/c").count == 3)
  }

  @Test func theDefaultRecordModeIsNeverInCI() {
    #expect(GoldenComparison.RecordMode.default(environment: ["CI": "true"]) == .never)
    #expect(GoldenComparison.RecordMode.default(environment: ["CI": ""]) == .never)
    // What a developer exports to say "not CI".
    #expect(GoldenComparison.RecordMode.default(environment: ["CI": "false"]) == .missing)
    #expect(GoldenComparison.RecordMode.default(environment: ["CI": "0"]) == .missing)
    #expect(GoldenComparison.RecordMode.default(environment: ["HOME": "/root"]) == .missing)
  }
}

@Suite struct OutputHardeningTests {
  let scratch = Scratch("hardening-output")

  private func render(_ more: [String]) throws -> InProcessRun {
    let scene = try scratch.write(tinyScene, "tiny.json")
    return InProcessRun(["scene", scene, "--fps", "10", "--quiet"] + more)
  }

  /// Hidden temporaries left in the scratch folder.
  private var leftovers: [String] { scratch.list().filter { $0.hasPrefix(".") } }

  @Test func aFramesFolderHoldsExactlyTheFramesOfTheLastRender() throws {
    #expect(try render(["--hold", "1", "-o", scratch.path + "/out/"]).status == 0)
    #expect(scratch.list("out").count == 13)
    #expect(try render(["--hold", "0", "-o", scratch.path + "/out/"]).status == 0)
    #expect(scratch.list("out") == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// Temporaries a killed run left (SIGKILL cannot be caught) are removed by the next run that
  /// writes the same output, when their process is gone; a live process's and names of another
  /// form are kept (found by a walkthrough: half-written GIFs and frame folders piled up).
  @Test func abandonedTemporariesAreSweptByTheNextRun() throws {
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let dead = finished.processIdentifier
    let alive = getppid()
    try scratch.write("half a GIF", ".out.gif.\(dead).k3x9q.tmp")
    try scratch.write("someone else's", ".out.gif.\(alive).k3x9q.tmp")
    try scratch.write("mine", ".out.gif.notes.tmp")
    try scratch.write("not ours", ".out.gif.+\(dead).k3x9q.tmp")
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/.frames.\(dead).zz1.tmp", withIntermediateDirectories: false)
    try scratch.write("frame", ".frames.\(dead).zz1.tmp/frame-0000.png")
    #expect(try render(["-o", scratch.path + "/out.gif"]).status == 0)
    #expect(try render(["-o", scratch.path + "/frames/"]).status == 0)
    #expect(
      Set(leftovers)
        == [".out.gif.\(alive).k3x9q.tmp", ".out.gif.notes.tmp", ".out.gif.+\(dead).k3x9q.tmp"],
      "\(leftovers)")
  }

  /// A scene named with control characters (from its file name) is reported with them escaped:
  /// an escape sequence in a file name never reaches the terminal (found by a walkthrough).
  @Test func controlCharactersInSceneNamesAreEscaped() throws {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/named", withIntermediateDirectories: false)
    _ = try scratch.write(tinyScene, "named/good.json")
    _ = try scratch.write("{not json", "named/a\u{1B}[31mb.json")
    let run = InProcessRun([
      "scene", scratch.path + "/named", "--out-dir", scratch.path + "/named-out", "--quiet",
    ])
    #expect(run.status != 0)
    #expect(!run.standardError.contains("\u{1B}"), "\(run.standardError)")
    #expect(run.standardError.contains("a\\u{1b}[31mb"), "\(run.standardError)")
  }

  @Test func aFramesFolderWithOtherFilesIsNotReplaced() throws {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/mine", withIntermediateDirectories: false)
    try scratch.write("keep me", "mine/notes.txt")
    let run = try render(["-o", scratch.path + "/mine/"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("holds files that are not frames ('notes.txt')"))
    #expect(scratch.list("mine") == ["notes.txt"])
    #expect(leftovers.isEmpty)
  }

  @Test func missingOutputFoldersAreCreated() throws {
    #expect(try render(["--hold", "0", "-o", scratch.path + "/deep/er/frames/"]).status == 0)
    #expect(scratch.list("deep/er/frames").count == 3)
    #expect(try render(["-o", scratch.path + "/new/folder/a.gif"]).status == 0)
    #expect(scratch.exists("new/folder/a.gif"))
  }

  @Test(arguments: [
    (["--trace", "same.gif", "-o", "same.gif"], "'--trace' and '-o' name the same file"),
    (["--trace", "-", "-o", "-"], "'--trace -' and '-o -' would both write to standard output"),
    (["--trace", "out/trace.csv", "-o", "out/"], "is inside the frames folder"),
    (["--trace", "link.gif", "-o", "same.gif"], "'--trace' and '-o' name the same file"),
  ])
  func aTraceThatWouldLandOnTheOutputIsAUsageError(arguments: [String], message: String) throws {
    let absolute = arguments.map {
      $0 == "-" || $0.hasPrefix("--") || $0 == "-o" ? $0 : scratch.path + "/" + $0
    }
    FileManager.default.createFile(atPath: scratch.path + "/same.gif", contents: Data([1, 2, 3]))
    try? FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/link.gif", withDestinationPath: "same.gif")
    let run = try render(absolute)
    #expect(run.status == 64)
    #expect(run.standardError.contains(message), "\(run.standardError)")
    #expect(scratch.bytes("same.gif") == [1, 2, 3])
  }

  @Test func aTraceThatCannotBeWrittenKeepsTheGIFFromLanding() throws {
    // A file where the trace's folder should be.
    try scratch.write("not a folder", "blocker")
    let run = try render([
      "--trace", scratch.path + "/blocker/t.csv", "-o", scratch.path + "/a.gif",
    ])
    #expect(run.status == 1)
    #expect(run.standardError.contains("is not a folder"), "\(run.standardError)")
    #expect(!scratch.exists("a.gif"))
    #expect(leftovers.isEmpty)
  }

  @Test func theTraceAndTheOutputLandTogether() throws {
    let run = try render(["--trace", scratch.path + "/t.csv", "-o", scratch.path + "/t.gif"])
    #expect(run.status == 0)
    #expect(scratch.exists("t.csv") && scratch.exists("t.gif"))
  }

  @Test func aTraceAloneAndDevNullAreLegitimateRuns() throws {
    let alone = try render(["--trace", scratch.path + "/alone.csv"])
    #expect(alone.status == 0, "\(alone.standardError)")
    let text = String(decoding: try #require(scratch.bytes("alone.csv")), as: UTF8.self)
    #expect(text.hasPrefix("frame,time,"))
    #expect(try render(["-o", "/dev/null"]).status == 0)
    #expect(try render(["-o", "/dev/null", "--trace", "/dev/null"]).status == 0)
  }

  @Test func aSymbolicLinkIsWrittenThrough() throws {
    FileManager.default.createFile(atPath: scratch.path + "/target.gif", contents: Data([0]))
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/link.gif", withDestinationPath: "target.gif")
    #expect(try render(["-o", scratch.path + "/link.gif"]).status == 0)
    let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path + "/link.gif")
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    #expect(scratch.bytes("target.gif")?.prefix(6) == Array("GIF89a".utf8)[...])
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/dangling.gif", withDestinationPath: "missing.gif")
    let dangling = try render(["-o", scratch.path + "/dangling.gif"])
    #expect(dangling.status == 1)
    #expect(
      dangling.standardError.contains("is a symbolic link to 'missing.gif', which does not exist"))
    #expect(!scratch.exists("missing.gif"))
  }

  @Test(arguments: [
    ["still", "cat", "-o", "x.gif"], ["cats", "--frame", "2", "-o", "x.gif"],
    ["path", "-", "--viewbox", "0,0,1,1", "--size", "4x4", "-o", "x.gif"],
    ["diff", "a.png", "b.png", "--diff-out", "d.gif"],
    [
      "bench", "fill", "--path-file", "p", "--viewbox", "0,0,1,1", "--size", "4", "--iters", "1",
      "--out", "o.gif",
    ],
  ])
  func anOutputWhoseExtensionDoesNotMatchItsFormatIsAUsageError(arguments: [String]) {
    let run = InProcessRun(arguments)
    #expect(run.status == 64, "\(run.standardError)")
    #expect(run.standardError.contains("writes a PNG") || run.standardError.contains("one PNG"))
  }
}

@Suite struct InputHardeningTests {
  let scratch = Scratch("hardening-input")

  @Test func readingStopsAtTheLimitAndSaysSoOnce() throws {
    let path = InProcessRun([
      "path", "/dev/zero", "--viewbox", "0,0,1,1", "--size", "4x4", "-o", scratch.path + "/z.png",
    ])
    #expect(path.status == 1)
    #expect(
      path.standardError
        == "render-anim: error: /dev/zero: larger than 16 MiB, the limit for path data\n")
    let scene = InProcessRun(["scene", "/dev/zero", "-o", scratch.path + "/z.gif"])
    #expect(
      scene.standardError
        == "render-anim: error: /dev/zero: larger than 4 MiB, the limit for scene files\n")
    let png = try PNGCodec.encode(#require(Pixmap(width: 1, height: 1)))
    _ = FileManager.default.createFile(atPath: scratch.path + "/a.png", contents: Data(png))
    let diff = InProcessRun(["diff", scratch.path + "/a.png", "/dev/zero"])
    #expect(diff.status == 2)
    #expect(diff.standardError.contains("/dev/zero: not a PNG file"), "\(diff.standardError)")
    let pathFile = try scratch.write(
      #"{"canvas": {"width": 10, "height": 10}, "layers": [{"pathFile": "/dev/zero"}]}"#, "z.json")
    let outside = InProcessRun([
      "scene", pathFile, "--allow-files-outside", "-o", scratch.path + "/z.gif",
    ])
    #expect(outside.status == 1)
    #expect(
      outside.standardError.contains(
        "layers[0].pathFile: the scene's path data adds up to more than 16 MiB"),
      "\(outside.standardError)")
    #expect(outside.standardError.components(separatedBy: "z.json").count == 2)
  }

  @Test func aPNGWhoseChunkClaimsGigabytesFailsAtOnce() throws {
    let png = try PNGCodec.encode(#require(Pixmap(width: 1, height: 1)))
    var hostile = Array(png.prefix(33))
    hostile += [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + [0, 0, 0]
    FileManager.default.createFile(atPath: scratch.path + "/bomb.png", contents: Data(hostile))
    _ = FileManager.default.createFile(atPath: scratch.path + "/a.png", contents: Data(png))
    let run = InProcessRun(["diff", scratch.path + "/a.png", scratch.path + "/bomb.png"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("bomb.png: truncated: the tEXt chunk at byte 33"))
    FileManager.default.createFile(atPath: scratch.path + "/empty.png", contents: Data())
    let empty = InProcessRun(["diff", scratch.path + "/a.png", scratch.path + "/empty.png"])
    #expect(empty.standardError.contains("empty.png: empty file, not a PNG"))
  }

  @Test func aMissingOptionValueIsNamed() {
    let run = InProcessRun(["cats", "--fps", "-o", "a.gif"])
    #expect(run.status == 64)
    #expect(run.standardError.hasPrefix("Error: Missing value for '--fps <n>'"))
    // A value that only looks like an option is still a value.
    let viewBox = InProcessRun([
      "path", "/nonexistent", "--viewbox", "-103,338,2048,1680", "--size", "2x2", "-o", "x.png",
    ])
    #expect(viewBox.status == 1 && viewBox.standardError.contains("no such file"))
  }

  @Test func fontFileProblemsNameTheFontNotTheScene() throws {
    let scene = try scratch.write(
      #"{"canvas": {"width": 50, "height": 20}, "layers": [{"text": "Hi"}]}"#, "text.json")
    let missing = InProcessRun(["scene", scene, "--font", "/no/such.ttf", "-o", "/dev/null"])
    #expect(missing.status == 1)
    #expect(
      missing.standardError
        == "render-anim: error: font file /no/such.ttf: cannot be opened (no such file, or not readable)\n"
    )
    let fake = try scratch.write("not a font", "fake.ttf")
    let notAFont = InProcessRun(["scene", scene, "--font", fake, "-o", "/dev/null"])
    #expect(
      notAFont.standardError.contains(
        "font file \(fake): is not a font file FreeType knows (unknown file format)"))
    #expect(!notAFont.standardError.contains("text.json"))
    let family = try scratch.write(
      #"{"canvas": {"width": 50, "height": 20}, "layers": [{"text": "Hi", "font": {"family": "No Such Family"}}]}"#,
      "family.json")
    let fallback = InProcessRun(["scene", family, "-o", "/dev/null"])
    #expect(fallback.status == 0)
    #expect(fallback.standardError.contains("font family 'No Such Family' is not installed"))
    #expect(!fallback.standardError.contains("fonts-inter"))
  }
}

@Suite struct SceneFileTrustTests {
  let scratch = Scratch("hardening-trust")

  private func scene(_ pathFile: String, _ extra: [String] = []) throws -> InProcessRun {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/docs", withIntermediateDirectories: true)
    let file = try scratch.write(
      #"{"canvas": {"width": 10, "height": 10}, "layers": [{"pathFile": "\#(pathFile)"}]}"#,
      "docs/scene.json")
    return InProcessRun(["scene", file, "-o", scratch.path + "/out.png", "--quiet"] + extra)
  }

  @Test func filesASceneNamesStayInsideItsFolder() throws {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/docs", withIntermediateDirectories: true)
    try scratch.write("top secret\nroot:x:0:0", "secret.txt")
    try scratch.write("M0 0H5V5Z", "docs/ok.svgpath")
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/docs/link.svgpath", withDestinationPath: "../secret.txt")
    #expect(try scene("ok.svgpath").status == 0)
    #expect(try scene("./sub/../ok.svgpath").status == 1)  // no such folder "sub"
    // Whether what a name climbs out to exists or not, it is "outside" (not "no such file" for
    // some names, which would tell what is out there).
    for name in [
      "../secret.txt", "link.svgpath", scratch.path + "/secret.txt", "/etc/passwd",
      "../no-such-folder/x.svgpath", "sub/../../secret.txt", "../../../../../../no/such",
    ] {
      let run = try scene(name)
      #expect(run.status == 1, "\(name)")
      #expect(
        run.standardError.contains("must be inside") || run.standardError.contains("absolute path"),
        "\(run.standardError)")
      #expect(!run.standardError.contains("secret") || run.standardError.contains(name))
      #expect(!run.standardError.contains("root:"))
    }
    // Allowed on request; and then a bad file's bytes are still not shown.
    let allowed = try scene("../secret.txt", ["--allow-files-outside"])
    #expect(allowed.status == 1)
    #expect(allowed.standardError.contains("expected a moveto command (M or m) at 1:1"))
    #expect(!allowed.standardError.contains("'t'") && !allowed.standardError.contains("top"))
  }

  /// A named pipe (or a device) a scene names is refused at once: opening a FIFO for reading
  /// would otherwise wait for a writer for ever (with --allow-files-outside the caller may hand
  /// over a pipe: `InputHardeningTests` reads /dev/zero that way, up to the limit). A NUL inside a name is refused too (C would end
  /// the name there) and shown escaped.
  @Test func filesASceneNamesAreRegularFiles() throws {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/docs", withIntermediateDirectories: true)
    try scratch.write("M0 0H5V5Z", "docs/ok.svgpath")
    #expect(mkfifo(scratch.path + "/docs/pipe.svgpath", 0o600) == 0)
    #expect(mkfifo(scratch.path + "/docs/pipe.png", 0o600) == 0)
    let piped = try scene("pipe.svgpath")
    #expect(piped.status == 1)
    #expect(piped.standardError.contains("is not a regular file"), "\(piped.standardError)")
    let image = InProcessRun([
      "scene",
      try scratch.write(
        #"{"canvas": {"width": 10, "height": 10}, "layers": [{"image": "pipe.png"}]}"#,
        "docs/image.json"),
      "-o", scratch.path + "/image.png", "--quiet",
    ])
    #expect(image.status == 1)
    #expect(image.standardError.contains("is not a regular file"), "\(image.standardError)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/image.png"))
    let nul = try scene(#"ok.svgpath\u0000../../x"#)
    #expect(nul.status == 1)
    #expect(
      nul.standardError.contains(#""ok.svgpath\u{0}../../x": holds a NUL character"#),
      "\(nul.standardError)")
    #expect(!nul.standardError.utf8.contains(0))
    // C1 controls and bidirectional overrides are shown escaped too.
    let hidden = try scene(#"a\u009b2J\u202egnp.svgpath"#)
    #expect(
      hidden.standardError.contains(#"a\u{9b}2J\u{202e}gnp.svgpath"#), "\(hidden.standardError)")
    // An empty name, or one that names the folder, says so (not "is a folder").
    for (name, message) in [("", "an empty file name"), ("./", "names a folder, not a file")] {
      let run = try scene(name)
      #expect(run.status == 1)
      #expect(run.standardError.contains(message), "\(run.standardError)")
    }
  }

  /// A tap in the file that lies off the screen is refused naming it, as `--tap` is.
  @Test func aTapOffTheScreenIsRefused() throws {
    for (tap, path, message) in [
      (#"{"x": -1, "y": 5, "at": 0}"#, "taps[0].x", "-1 lies outside the 40×30 pt screen"),
      (#"{"x": 5, "y": "=screen.height + 1", "at": 0}"#, "taps[0].y", "31 lies outside"),
    ] {
      let file = try scratch.write(
        #"{"canvas": {"width": 40, "height": 30, "scale": 1}, "layers": [{"shape": "circle"}], "taps": ["#
          + tap + "]}", "offscreen.json")
      let run = InProcessRun(["scene", file, "-o", "/dev/null"])
      #expect(run.status == 1)
      #expect(run.standardError.contains(path + ": " + message), "\(run.standardError)")
    }
  }

  @Test func unknownNamesAreErrorsThatListTheValidOnes() throws {
    let file = try scratch.write(
      #"{"canvas": {"width": 10, "height": 10}, "state": {"on": false}, "layers": [{"shape": "circle", "opacity": "=on ? 1 : 0"}], "events": [{"at": 0, "set": {"on": true}, "animation": "easeInOutt"}]}"#,
      "anim.json")
    let run = InProcessRun(["scene", file, "-o", "/dev/null"])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains(
        #"events[0].animation: unknown name "easeInOutt" (did you mean "easeInOut"?): expected one of "none", "spring""#
      ), "\(run.standardError)")
  }
}

/// Work within the documented limits must be bounded: a scene whose frames would take minutes
/// is refused before any frame is drawn, with its cost (2000 shadowed full-screen layers took
/// 93 s for one frame).
@Suite struct WorkBoundTests {
  let scratch = Scratch("hardening-work")

  private func layers(_ count: Int, shadow radius: Double) -> String {
    let layer = ##"{"shape": "rectangle", "fill": "#3366ff", "shadow": {"radius": \##(radius)}}"##
    return #"{"canvas": {"device": "14", "scale": 2}, "layers": ["#
      + Array(repeating: layer, count: count).joined(separator: ",") + "]}"
  }

  @Test func aSceneTooCostlyPerFrameIsRefusedUpFront() throws {
    let file = try scratch.write(layers(2000, shadow: 8), "many.json")
    let run = InProcessRun(["scene", file, "-o", scratch.path + "/many.gif"])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains(
        "layers: a frame would cost about 47.7 G pixel operations (2000 layers drawn offscreen, "
          + "the largest 1.4 M pixels; 2000 shadows); at most 4 G are drawn per frame"),
      "\(run.standardError)")
    #expect(!scratch.exists("many.gif"))
  }

  @Test func aShadowWhoseBlurNeedsAHugeOffscreenIsRefused() throws {
    let file = try scratch.write(layers(1, shadow: 1000), "blur.json")
    let run = InProcessRun(["scene", file, "--frame", "0", "-o", scratch.path + "/blur.png"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("would need 173 M pixels"), "\(run.standardError)")
    // The error names the layer that needs it, not the whole list.
    #expect(run.standardError.contains("blur.json: layers[0]: "), "\(run.standardError)")
  }

  /// A blur as wide as the screen, deep in a stack, is named by its layer's path.
  @Test func aHugeBlurIsNamedByItsLayer() throws {
    let text = #"""
      {"canvas": {"width": 400, "height": 400},
       "layers": [{"shape": "circle", "fill": "red"},
                  {"zstack": [{"text": "a"}, {"shape": "circle", "frame": {"width": 100, "height": 100},
                               "blur": 900}]}]}
      """#
    let file = try scratch.write(text, "deep.json")
    let run = InProcessRun(["scene", file, "--frame", "0", "-o", scratch.path + "/deep.png"])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains("deep.json: layers[1].zstack[1]: a layer drawn offscreen"),
      "\(run.standardError)")
    #expect(run.standardError.contains("(line 3:"), "\(run.standardError)")
    #expect(!scratch.exists("deep.png"))
    // In a mask, the mask is named.
    let masked = try scratch.write(
      #"{"canvas": {"width": 300, "height": 300}, "layers": [{"text": "hi", "mask": {"shape": "circle", "blur": 900}}]}"#,
      "masked.json")
    let maskRun = InProcessRun(["scene", masked, "-o", scratch.path + "/masked.png"])
    #expect(maskRun.status == 1)
    #expect(
      maskRun.standardError.contains("masked.json: layers[0].mask: a layer drawn offscreen"),
      "\(maskRun.standardError)")
  }

  /// Fuzz finding (Fuzz/findings/scene-render/shadow-under-scale-1e308-traps.json): an
  /// expression gave `scaleEffect` −1e308 (a literal that large is refused), and the shadow's
  /// infinite σ trapped converting its blur margin to Int. Expression values are now held to the
  /// key's range; the largest scale allowed, with the largest shadow, is refused by its cost.
  @Test(
    arguments: [
      (
        "=on ? 1 : 0.95-1e308",
        "layers[0].scaleEffect: the expression gives -1e+308 here; expected a number from -1000 to 1000"
      ),
      ("=on ? 1 : 1000", "would need"),
      ("=on ? 1 : 1e-300", nil),
    ] as [(String, String?)])
  func aShadowUnderAnExtremeScaleIsRefusedOrDrawn(scale: String, message: String?) throws {
    let text =
      #"{"canvas": {"width": 40, "height": 40, "scale": 1}, "state": {"on": true}, "#
      + #""layers": [{"shape": "circle", "frame": {"width": 10, "height": 10}, "scaleEffect": ""#
      + scale + #"", "shadow": {"radius": 100}}], "#
      + #""events": [{"at": 0.1, "set": {"on": false}}]}"#
    let file = try scratch.write(text, "scale.json")
    let run = InProcessRun(["scene", file, "--frame", "0", "-o", scratch.path + "/scale.png"])
    #expect(run.status == (message == nil ? 0 : 1), "\(run.standardError)")
    if let message {
      #expect(run.standardError.contains(message), "\(run.standardError)")
    }
    #expect(GaussianBlur.margin(for: .infinity) == GaussianBlur.maximumMargin)
    #expect(GaussianBlur.margin(for: .nan) == 0)
  }

  @Test func aLongRenderOfCostlyFramesIsRefused() throws {
    // 100 shadows: about 2.4 G a frame, fine alone; a 60 s animation at 50 fps is 3026 frames.
    let moving =
      #"{"shape": "circle", "frame": {"width": 4, "height": 4}, "offset": {"x": "=x", "y": 0}}"#
    let text = layers(100, shadow: 8)
      .replacingOccurrences(
        of: #""layers": ["#,
        with: #""state": {"x": 0}, "events": [{"at": 0, "set": {"x": 100}, "animation": "#
          + #"{"type": "linear", "duration": 60}}], "layers": ["# + moving + ",")
    let file = try scratch.write(text, "long.json")
    let run = InProcessRun(["scene", file, "-o", scratch.path + "/long.gif"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("or fewer frames (--fps, --hold;"), "\(run.standardError)")
  }
}

/// An interrupted run leaves its outputs as they were and removes its temporaries (the process
/// boundary is the point here, so the binary runs in a process of its own).
@Suite struct InterruptTests {
  let scratch = Scratch("hardening-signal")

  /// A scene of 3000 frames at 800×600: long enough to be interrupted while writing.
  static let longScene = """
    {"canvas": {"width": 400, "height": 300, "scale": 2}, "state": {"x": 0},
     "layers": [{"shape": "circle", "frame": {"width": 40, "height": 40}, "fill": "blue",
                 "offset": {"x": "=x", "y": 0}}],
     "events": [{"at": 0, "set": {"x": 100}, "animation": {"type": "linear", "duration": 60}}]}
    """

  private func interrupt(_ arguments: [String], whenExists marker: () -> Bool) throws -> Process {
    let process = Process()
    process.executableURL = ToolRun.binary
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while !marker(), process.isRunning, Date() < deadline { usleep(20_000) }
    process.interrupt()
    process.waitUntilExit()
    return process
  }

  @Test func sigintLeavesAFramesFolderAsItWas() throws {
    let scene = try scratch.write(Self.longScene, "long.json")
    let tiny = try scratch.write(tinyScene, "tiny.json")
    let out = scratch.path + "/out/"
    #expect(InProcessRun(["scene", tiny, "--fps", "10", "--hold", "0", "-o", out]).status == 0)
    let before = scratch.list("out").map { scratch.bytes("out/" + $0) }
    let process = try interrupt(["scene", scene, "--fps", "50", "-o", out]) {
      // The hidden sibling holds a few frames.
      scratch.list().contains { name in
        name.hasPrefix(".out.") && scratch.list(name).count >= 3
      }
    }
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGINT)
    #expect(scratch.list("out") == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
    #expect(scratch.list("out").map { scratch.bytes("out/" + $0) } == before)
    #expect(scratch.list().filter { $0.hasPrefix(".") }.isEmpty, "\(scratch.list())")
  }

  /// Re-recording writes into a hidden copy of the golden folder, put in place at the end: a
  /// run interrupted half way leaves every golden as it was (found by a walkthrough, which got a
  /// folder half re-recorded), and one that ends keeps the folder's other files.
  @Test func sigintLeavesGoldensAsTheyWere() throws {
    let scene = try scratch.write(Self.longScene, "long.json")
    let golden = scratch.path + "/goldens/"
    let recorded = InProcessRun([
      "check", scene, "--golden", golden, "--record", "all", "--fps", "2", "--hold", "0",
      "--duration", "10",
    ])
    #expect(recorded.status == 0, "\(recorded.standardError)")
    try scratch.write("kept", "goldens/notes.txt")
    let before = scratch.list("goldens").map { scratch.bytes("goldens/" + $0) }
    let process = try interrupt([
      "check", scene, "--golden", golden, "--record", "all", "--fps", "50", "--hold", "0",
      "--duration", "10",
    ]) {
      scratch.list().contains { name in
        name.hasPrefix(".goldens.") && scratch.list(name).filter { $0.hasPrefix(".") }.count >= 1
          && scratch.list(name).count >= 30
      }
    }
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(scratch.list("goldens").map { scratch.bytes("goldens/" + $0) } == before)
    #expect(scratch.list().filter { $0.hasPrefix(".") }.isEmpty, "\(scratch.list())")
    // Run to the end at another rate: the goldens are the new ones, the notes still there.
    let again = InProcessRun([
      "check", scene, "--golden", golden, "--record", "all", "--fps", "1", "--hold", "0",
      "--duration", "10",
    ])
    #expect(again.status == 0, "\(again.standardError)")
    #expect(scratch.list("goldens").count == 11)
    #expect(scratch.bytes("goldens/notes.txt") == Array("kept".utf8))
  }

  @Test func sigintLeavesAGIFAsItWas() throws {
    let scene = try scratch.write(Self.longScene, "long.json")
    FileManager.default.createFile(atPath: scratch.path + "/a.gif", contents: Data([7, 7, 7]))
    let process = try interrupt(["scene", scene, "--fps", "50", "-o", scratch.path + "/a.gif"]) {
      scratch.list().contains { $0.hasPrefix(".a.gif.") }
    }
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(scratch.bytes("a.gif") == [7, 7, 7])
    #expect(scratch.list().filter { $0.hasPrefix(".") }.isEmpty, "\(scratch.list())")
  }
}

/// The option tables drive parsing, defaults and help (issue #12): each option is declared once.
@Suite struct OptionTableTests {
  static let commands = RenderAnim.commandSpecs

  /// Every default in the tables is a valid value of its own option.
  @Test func everyDefaultParsesAsItsOption() throws {
    for spec in Self.commands {
      for option in spec.options {
        guard let value = option.defaultValue else { continue }
        #expect(throws: Never.self, "\(spec.name) --\(option.name) \(value)") {
          try option.value.check(value, option: option.name)
        }
      }
    }
  }

  /// A bad value is refused when the arguments are split, naming the option, before any work.
  @Test func badValuesAreRefusedByTheirType() {
    let run = InProcessRun(["cats", "--hold", "70", "-o", "x.gif"])
    #expect(run.status == 64)
    #expect(
      run.standardError.hasPrefix(
        "Error: Invalid value '70' for '--hold': expected a number from 0"))
    let gif = InProcessRun(["cats", "--fps", "60", "-o", "x.gif"])
    #expect(gif.status == 64)
    #expect(gif.standardError.contains("a GIF plays at most 50 frames per second"))
  }

  @Test func theOverviewListsEveryCommandFromItsSpec() {
    let run = InProcessRun(["--help"])
    #expect(run.status == 0)
    for spec in Self.commands where !spec.name.hasPrefix("bench ") {
      #expect(run.standardOutput.contains("  \(spec.name) "), "\(spec.name)")
      #expect(
        run.standardOutput.contains(String(spec.abstract.prefix(40))), "\(spec.name)'s abstract")
    }
    #expect(
      run.standardOutput.contains("bench") && run.standardOutput.contains("fill, stroke, blur, png")
    )
  }

  @Test func versionIsPrinted() {
    let run = InProcessRun(["--version"])
    #expect(run.status == 0)
    #expect(run.standardOutput == "render-anim \(RenderAnimKit.version)\n")
  }
}
