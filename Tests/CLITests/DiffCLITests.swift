import Codecs
import Foundation
import Raster
import Testing

@Suite struct DiffCLITests {
  let directory = ToolRun.scratchFolder("diff")

  private func image(
    _ name: String, width: Int = 8, height: Int = 6, change: ((inout Pixmap) -> Void)? = nil,
    compression: PNGCompression = .default
  ) throws -> String {
    var pixmap = try #require(
      Pixmap(width: width, height: height, filledWith: Color(r: 228, g: 246, b: 255).premultiplied))
    pixmap[1, 1] = PremultipliedRGBA8(r: 255, g: 149, b: 0, a: 255)
    change?(&pixmap)
    let path = directory + "/" + name
    try PNGCodec.write(pixmap, to: path, compression: compression)
    return path
  }

  @Test func identicalFilesAndEncodingsAreTheSame() throws {
    let a = try image("a.png")
    let same = InProcessRun(["diff", a, a])
    #expect(same.status == 0)
    #expect(same.standardOutput == "same: the image data is identical\n")
    let b = try image("b.png", compression: .small)
    let reencoded = InProcessRun(["diff", a, b])
    #expect(reencoded.status == 0, "\(reencoded.standardOutput)")
    #expect(reencoded.standardOutput == "same: identical\n")
  }

  @Test func differencesAreCountedAndLocated() throws {
    let a = try image("a.png")
    let b = try image("c.png") { $0[5, 3] = PremultipliedRGBA8(r: 200, g: 246, b: 255, a: 255) }
    let out = directory + "/diff.png"
    let run = InProcessRun(["diff", a, b, "--diff-out", out])
    #expect(run.status == 1)
    #expect(
      run.standardOutput
        == "different: 1 pixels differ, largest channel delta 28, first at (5, 3), all within (5, 3)–(5, 3)\n"
    )
    let diff = try PNGCodec.read(out)
    #expect(diff[5, 3] == PremultipliedRGBA8(r: 255, g: 0, b: 255, a: 255))
    #expect(InProcessRun(["diff", a, b, "--tolerance", "28"]).status == 0)
    // Within the budget the difference image is still written, with the pixel shown.
    let within = directory + "/within.png"
    #expect(InProcessRun(["diff", a, b, "--max-pixels", "1", "--diff-out", within]).status == 0)
    #expect(try PNGCodec.read(within)[5, 3] == PremultipliedRGBA8(r: 255, g: 0, b: 255, a: 255))
    #expect(InProcessRun(["diff", a, b, "--tolerance", "27"]).status == 1)
    let triptych = directory + "/triptych.png"
    #expect(
      InProcessRun(["diff", a, b, "--diff-out", triptych, "--diff-style", "triptych"]).status == 1)
    #expect(try PNGCodec.read(triptych).width == 24)
  }

  @Test func sizeMismatchIsADifference() throws {
    let a = try image("a.png")
    let b = try image("wide.png", width: 9)
    let run = InProcessRun(["diff", a, b])
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("sizes differ, expected 8×6, actual 9×6"))
    // The difference image shows the two side by side, top-aligned.
    let tall = try image("tall.png", width: 3, height: 9)
    let out = directory + "/sizes.png"
    #expect(InProcessRun(["diff", a, tall, "--diff-out", out]).status == 1)
    let pair = try PNGCodec.read(out)
    #expect(pair.width == 11 && pair.height == 9)
    #expect(pair[1, 1] == PremultipliedRGBA8(r: 255, g: 149, b: 0, a: 255))
    #expect(pair[9, 1] == PremultipliedRGBA8(r: 255, g: 149, b: 0, a: 255))
    #expect(pair[1, 7].a == 0)
  }

  /// `--diff-out` writes the image whatever the verdict, equal images too, so that a diff from
  /// an earlier run is never left in place beside a "same" (found by a walkthrough).
  @Test func equalImagesStillWriteTheDifferenceImage() throws {
    let a = try image("a.png")
    let b = try image("b.png", compression: .small)
    let out = directory + "/equal.png"
    try Data("stale".utf8).write(to: URL(fileURLWithPath: out))
    for other in [a, b] {
      let run = InProcessRun(["diff", a, other, "--diff-out", out])
      #expect(run.status == 0, "\(run.standardOutput)")
      #expect(run.standardOutput.hasPrefix("same"))
      let diff = try PNGCodec.read(out)
      #expect(diff.width == 8 && diff.height == 6)
      #expect(diff[1, 1] != PremultipliedRGBA8(r: 255, g: 0, b: 255, a: 255))
    }
  }

  @Test func badInputExitsTwoWithoutCrashing() throws {
    let a = try image("a.png")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: a))
    let truncated = directory + "/truncated.png"
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
    let notPNG = directory + "/text.png"
    try Data("hello".utf8).write(to: URL(fileURLWithPath: notPNG))
    var corrupt = bytes
    corrupt[bytes.count / 2] ^= 0xFF
    let corrupted = directory + "/corrupt.png"
    try corrupt.write(to: URL(fileURLWithPath: corrupted))
    for other in [directory + "/missing.png", truncated, notPNG, corrupted] {
      let run = InProcessRun(["diff", a, other])
      #expect(run.status == 2, "\(other): \(run.standardError)")
      #expect(run.standardError.contains(URL(fileURLWithPath: other).lastPathComponent))
    }
  }
}

@Suite struct CheckCLITests {
  let directory = ToolRun.scratchFolder("check")

  @Test func recordsThenPassesThenCatchesAChange() throws {
    let golden = directory + "/golden"
    let scene = ["--scale", "1", "--fps", "4", "--device", "se"]
    let first = InProcessRun(["check", "cards", "--golden", golden, "--record", "missing"] + scene)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.hasSuffix("7 passed, 0 failed\n"))
    let again = InProcessRun(["check", "cards", "--golden", golden, "--record", "never"] + scene)
    #expect(again.status == 0)
    #expect(again.standardOutput == "7 passed, 0 failed\n")
    // The legacy SDK draws circular corners: every frame differs a little.
    let changed = InProcessRun(
      ["check", "cards", "--golden", golden, "--record", "never", "--swiftui", "legacy"] + scene)
    #expect(changed.status == 1)
    #expect(changed.standardOutput.hasSuffix("0 passed, 7 failed\n"))
    // One line for the run of seven failing frames, with the worst frame's figures.
    #expect(
      changed.standardOutput.hasPrefix("frame-0000.png … frame-0006.png (7 frames fail); worst "),
      "\(changed.standardOutput)")
    #expect(changed.standardOutput.split(separator: "\n").count == 2)
    // Artifacts beside the golden folder, not inside it.
    #expect(
      FileManager.default.fileExists(
        atPath: directory + "/.render-anim-artifacts/golden/frame-0000-diff.png"))
    #expect(!FileManager.default.fileExists(atPath: golden + "/frame-0000-diff.png"))
    // A tolerance large enough lets the corners pass.
    let tolerant = InProcessRun(
      [
        "check", "cards", "--golden", golden, "--record", "never", "--swiftui", "legacy",
        "--tolerance", "255",
      ] + scene)
    #expect(tolerant.status == 0)
  }

  @Test func neverRecordingMakesMissingGoldensFail() throws {
    let run = InProcessRun([
      "check", "cats", "--golden", directory + "/none", "--record", "never", "--scale", "1",
      "--fps", "2",
    ])
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("no golden at"))
  }
}
