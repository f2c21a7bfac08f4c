import Codecs
import Foundation
import Raster
import Testing

@testable import CLI

/// Runs the built `render-anim` binary (beside the test bundle) and captures its output.
struct ToolRun {
  let status: Int32
  let standardOutput: String
  /// Standard output as bytes, for images written to `-`.
  let outputBytes: [UInt8]
  let standardError: String

  static let binary: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/"
      && !FileManager.default.fileExists(atPath: url.appendingPathComponent("render-anim").path)
    {
      url.deleteLastPathComponent()
    }
    return url.appendingPathComponent("render-anim")
  }()

  /// A new folder under the temporary directory, for one suite's files.
  static func scratchFolder(_ name: String) -> String {
    let url = URL(fileURLWithPath: ScratchRoot.path).appendingPathComponent(
      "\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  /// Runs the binary with `arguments`; in `folder` (the working directory) when given.
  init(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
    in folder: String? = nil
  ) throws {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    let inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
    try inp.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    status = process.terminationStatus
    standardOutput = String(decoding: outData, as: UTF8.self)
    outputBytes = Array(outData)
    standardError = String(decoding: errData, as: UTF8.self)
  }
}

@Suite struct CLITests {
  let directory = ToolRun.scratchFolder("cli")

  private func write(_ text: String, _ name: String) throws -> String {
    let path = directory + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func pathRendersAPNG() throws {
    let data = try write("M10 10H90V90H10Z", "square.svgpath")
    let out = directory + "/square.png"
    let run = InProcessRun([
      "path", data, "--viewbox", "0,0,100,100", "--size", "50x40", "--fill", "#FF9500", "-o", out,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let image = try PNGCodec.read(out)
    #expect(image.width == 50 && image.height == 40)
    #expect(image[25, 20] == PremultipliedRGBA8(r: 255, g: 149, b: 0, a: 255))
    #expect(image[1, 1] == PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
  }

  /// `--stroke` without `--fill` fills nothing; with both, the stroke lies over the fill; the
  /// width is in user units; the stroke options are checked like every other.
  @Test func pathStrokes() throws {
    let data = try write("M20 20H80V80H20Z", "stroked.svgpath")
    let out = directory + "/stroked.png"
    func render(_ more: [String]) throws -> Pixmap {
      let run = InProcessRun(
        ["path", data, "--viewbox", "0,0,100,100", "--size", "50x50", "-o", out] + more)
      #expect(run.status == 0, "\(run.standardError)")
      return try PNGCodec.read(out)
    }
    let blue = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)
    let white = PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255)
    let outline = try render(["--stroke", "#0000FF", "--stroke-width", "8"])
    // The edge x = 20 user units is pixel column 10; 8 units wide is 4 pixels, 2 each side.
    #expect(outline[9, 25] == blue && outline[10, 25] == blue)
    #expect(outline[7, 25] == white && outline[12, 25] == white && outline[25, 25] == white)
    let both = try render(["--stroke", "#0000FF", "--stroke-width", "8", "--fill", "#FF0000"])
    #expect(both[25, 25] == PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    #expect(both[10, 25] == blue)
    // Round joins cut the outer corner that a miter keeps.
    let round = try render(["--stroke", "#0000FF", "--stroke-width", "8", "--line-join", "round"])
    #expect(outline[8, 8] == blue && round[8, 8] != blue)
    for (option, value, message) in [
      ("--dash", "4,x", "'x' is not a number from 0.0 to 1000000.0"),
      ("--line-cap", "flat", "expected one of butt, round, square"),
      ("--line-join", "sharp", "expected one of miter, round, bevel"),
      ("--miter-limit", "0.5", "expected a number from 1.0 to 1000000.0"),
      ("--stroke", "bleu", "or a colour name"),
    ] {
      let stroked = option == "--stroke" ? [] : ["--stroke", "#0000FF"]
      let run = InProcessRun(
        ["path", data, "--viewbox", "0,0,100,100", "--size", "50x50", "-o", out, option, value]
          + stroked)
      #expect(run.status == 64, "\(option) \(value)")
      #expect(run.standardError.contains(message), "\(run.standardError)")
    }
    // A stroke's options without a stroke would draw nothing of theirs: a usage error.
    for option in PathCommand.strokeOptions {
      let value = option.hasPrefix("line-") ? "round" : "2"
      let run = InProcessRun(
        [
          "path", data, "--viewbox", "0,0,100,100", "--size", "50x50", "-o", out, "--\(option)",
          value,
        ])
      #expect(run.status == 64, "\(option)")
      #expect(
        run.standardError.contains("'--\(option)' applies to a stroke: give '--stroke COLOUR' too"),
        "\(run.standardError)")
    }
    let none = InProcessRun(
      [
        "path", data, "--viewbox", "0,0,100,100", "--size", "50x50", "-o", out, "--stroke", "none",
        "--stroke-width", "3",
      ])
    #expect(
      none.status == 64 && none.standardError.contains("'--stroke-width' applies to a stroke"))
    // A colour that is no name is not called a bad hex colour.
    let bleu = InProcessRun(
      ["path", data, "--viewbox", "0,0,100,100", "--size", "50x50", "-o", out, "--fill", "bleu"])
    #expect(bleu.standardError.contains("'bleu' for '--fill': no colour has that name"))
    // `--stroke none` is SVG's default: no stroke, and the default black fill.
    let unstroked = try render(["--stroke", "none"])
    #expect(unstroked[25, 25] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
  }

  /// A stroke whose outline would need more points than `Stroker.maximumPoints` is refused
  /// before anything is drawn, saying why; so is a dash pattern cutting it too finely.
  @Test func strokesTooCostlyAreRefused() throws {
    let zigzag = "M0 0" + (1...100_000).map { " L\($0) \($0 % 2)" }.joined()
    let data = try write(zigzag, "zigzag.svgpath")
    let out = directory + "/zigzag.png"
    let base = ["path", data, "--viewbox", "0,0,100,100", "--size", "100x100", "-o", out]
    let joins = InProcessRun(
      base + ["--stroke", "#000", "--stroke-width", "5000", "--line-join", "round"])
    #expect(joins.status == 1)
    #expect(joins.standardError.contains("the stroke's outline would have about"))
    // The smallest dash there is: the estimate is infinite, and says so without trapping.
    for dash in ["0.0001", "5e-324"] {
      let dashes = InProcessRun(base + ["--stroke", "#000", "--dash", dash])
      // A usage error naming '--dash': the value is too fine for this path.
      #expect(dashes.status == 64)
      #expect(dashes.standardError.contains("for '--dash'"))
      #expect(dashes.standardError.contains("dashes; at most 1048576"), "\(dashes.standardError)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func negativeViewBoxAsSeparateArgumentAndWithEquals() throws {
    let data = try write("M-103 338h2048v1680h-2048z", "neg.svgpath")
    for form in [["--viewbox", "-103,338,2048,1680"], ["--viewbox=-103,338,2048,1680"]] {
      let out = directory + "/neg.png"
      let run = InProcessRun(["path", data] + form + ["--size", "20x20", "-o", out])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(try PNGCodec.read(out)[10, 10] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
    }
  }

  @Test func standardInputAndEvenOdd() throws {
    let out = directory + "/ring.png"
    let run = try ToolRun(
      [
        "path", "-", "--viewbox", "0,0,40,40", "--size", "40x40", "--fill-rule", "evenodd", "-o",
        out,
      ],
      input: "M0 0H40V40H0ZM10 10H30V30H10Z")
    #expect(run.status == 0, "\(run.standardError)")
    let image = try PNGCodec.read(out)
    #expect(image[20, 20] == PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
    #expect(image[5, 5] == PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
  }

  @Test func invalidPathDataFailsWithPositionAndWritesNothing() throws {
    let data = try write("M 10 20 L 30 x", "bad.svgpath")
    let out = directory + "/bad.png"
    let run = InProcessRun(["path", data, "--viewbox", "0,0,100,100", "--size", "10x10", "-o", out])
    #expect(run.status == 1)
    #expect(run.standardError.contains("expected a number at 1:14"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func failedRunKeepsAnExistingGoodFile() throws {
    let good = try write("M0 0H10V10H0Z", "good.svgpath")
    let bad = try write("M0 0H10V", "bad2.svgpath")
    let out = directory + "/keep.png"
    #expect(
      InProcessRun(["path", good, "--viewbox", "0,0,10,10", "--size", "10x10", "-o", out]).status
        == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: out))
    #expect(
      InProcessRun(["path", bad, "--viewbox", "0,0,10,10", "--size", "10x10", "-o", out]).status
        == 1
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy {
        !$0.hasSuffix(".tmp")
      })
  }

  static let usageErrors: [([String], String)] = [
    (
      ["path", "f", "--size", "10x10", "-o", "x.png"],
      "Missing expected argument '--viewbox <x,y,w,h>'"
    ),
    (
      ["path", "f", "--viewbox", "0,0,1", "--size", "10x10", "-o", "x.png"],
      "Invalid value '0,0,1' for '--viewbox'"
    ),
    (
      ["path", "f", "--viewbox", "0,0,0,1", "--size", "10x10", "-o", "x.png"],
      "width and height must be greater than 0"
    ),
    (
      ["path", "f", "--viewbox", "0,0,1,1", "--size", "10", "-o", "x.png"],
      "Invalid value '10' for '--size'"
    ),
    (
      ["path", "f", "--viewbox", "0,0,1,1", "--size", "99999x10", "-o", "x.png"],
      "Invalid value '99999x10' for '--size'"
    ),
    (
      ["path", "f", "--viewbox", "0,0,1,1", "--size", "10x10", "--fill", "orangey", "-o", "x.png"],
      "Invalid value 'orangey' for '--fill'"
    ),
    (
      [
        "path", "f", "--viewbox", "0,0,1,1", "--size", "10x10", "--fill-rule", "odd", "-o", "x.png",
      ], "expected one of nonzero, evenodd"
    ),
    (
      ["path", "f", "--viewbox", "0,0,1,1", "--size", "10x10", "--bogus", "-o", "x.png"],
      "Unknown option '--bogus'"
    ),
    (["path", "f", "--viewbox"], "Missing value for '--viewbox <x,y,w,h>'"),
    (["cats", "--matte", "pale", "-o", "x.gif"], "Invalid value 'pale' for '--matte'"),
    (["cats", "--matte", "#FFFFFF80", "-o", "x.gif"], "a matte is opaque"),
    (["cats", "--matte", "black", "-o", "x.webp"], "'--matte' is the page a GIF's one-bit alpha"),
    (["cats", "--matte", "black", "-o", "frames/"], "APNG, WebP and PNG keep full alpha"),
    (["frobnicate"], "Unknown subcommand 'frobnicate'"),
  ]

  @Test(arguments: usageErrors)
  func usageErrorsExit64WithReasonAndUsage(arguments: [String], message: String) throws {
    let run = InProcessRun(arguments)
    #expect(run.status == 64)
    #expect(run.standardError.contains(message), "\(run.standardError)")
    #expect(run.standardError.contains("Usage: render-anim"))
    #expect(run.standardOutput.isEmpty)
  }

  @Test func helpForTheToolAndEachSubcommand() throws {
    let top = InProcessRun(["--help"])
    #expect(top.status == 0)
    #expect(top.standardOutput.contains("SUBCOMMANDS:"))
    let path = InProcessRun(["path", "--help"])
    #expect(path.status == 0)
    #expect(
      path.standardOutput.hasPrefix("OVERVIEW: Fill or stroke SVG path data into a PNG image."))
    #expect(
      path.standardOutput.contains(
        "  --viewbox <x,y,w,h>     The user-space rectangle mapped onto the image.\n"))
    #expect(InProcessRun(["bench", "fill", "--help"]).standardOutput.contains("--iters <K>"))
  }

  @Test func benchProtocol() throws {
    let data = try write("M10 10H90V90H10Z", "bench.svgpath")
    let out = directory + "/bench.png"
    let fill = InProcessRun([
      "bench", "fill", "--path-file", data, "--viewbox", "0,0,100,100", "--size", "64", "--iters",
      "3", "--out", out,
    ])
    #expect(fill.status == 0, "\(fill.standardError)")
    #expect(fill.standardOutput.hasPrefix("{\"sec_per_iter\": "))
    #expect(try PNGCodec.read(out).width == 64)
    let blur = InProcessRun([
      "bench", "blur", "--path-file", data, "--viewbox", "0,0,100,100", "--size", "100", "--pad",
      "24", "--sigma", "6", "--iters", "3", "--out", out,
    ])
    #expect(blur.status == 0, "\(blur.standardError)")
    #expect(blur.standardOutput.hasPrefix("{\"sec_per_iter\": "))
    let blurred = try PNGCodec.read(out)
    #expect(blurred[50, 50].a == 255)
    #expect(blurred[29, 50].a > 80 && blurred[29, 50].a < 180)
    let sharp = InProcessRun([
      "bench", "blur", "--path-file", data, "--viewbox", "0,0,100,100", "--size", "100", "--pad",
      "24", "--sigma", "0", "--iters", "1", "--out", out,
    ])
    #expect(sharp.status == 0)
    #expect(try PNGCodec.read(out)[20, 50].a == 0)
    #expect(InProcessRun(["bench", "warp", "--iters", "1"]).status == 2)
    let rgbaPath = directory + "/frame.rgba"
    try Data(repeating: 200, count: 16 * 8 * 4).write(to: URL(fileURLWithPath: rgbaPath))
    let png = InProcessRun([
      "bench", "png", "--rgba", rgbaPath, "--width", "16", "--height", "8", "--iters", "2", "--out",
      out,
    ])
    #expect(png.status == 0, "\(png.standardError)")
    #expect(png.standardOutput.contains("\"bytes\": "))
    #expect(try PNGCodec.read(out).height == 8)
  }
}

/// The one folder under the temporary directory that holds every scratch folder of this test
/// process, removed when the process exits (a suite makes one folder per test, thousands a
/// run); `RENDER_ANIM_KEEP_SCRATCH=1` keeps it to look at.
enum ScratchRoot {
  static let path: String = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "render-anim-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    if ProcessInfo.processInfo.environment["RENDER_ANIM_KEEP_SCRATCH"] != "1" {
      atexit { try? FileManager.default.removeItem(atPath: ScratchRoot.path) }
    }
    return url.path
  }()
}
