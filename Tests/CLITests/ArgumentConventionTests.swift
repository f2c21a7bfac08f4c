import Foundation
import Testing

@testable import CLI

/// Conventions a script relies on (found by a hostile walkthrough, 2026-12-05): `help X` is
/// `X --help`; standard input is read once; a file name the file system takes is written.
@Suite struct ArgumentConventionTests {
  let scratch = Scratch("conventions")

  @Test func helpNamesASubcommand() {
    let help = InProcessRun(["help", "scene"])
    #expect(help.status == 0)
    #expect(
      help.standardOutput.hasPrefix("OVERVIEW: Render a scene file"), "\(help.standardOutput)")
    let bench = InProcessRun(["help", "bench", "fill"])
    #expect(bench.status == 0)
    #expect(bench.standardOutput.contains("bench fill"))
    let unknown = InProcessRun(["help", "bogus"])
    #expect(unknown.status == 64)
    #expect(unknown.standardError.contains("Unknown subcommand 'bogus'"))
  }

  /// No subcommand is a request for help, as swift-argument-parser's default `run()` makes it:
  /// the overview on standard output, exit 0.
  @Test func noSubcommandShowsTheOverview() {
    for arguments in [[], ["bench"]] {
      let run = InProcessRun(arguments)
      #expect(run.status == 0, "\(arguments)")
      #expect(run.standardOutput.hasPrefix("OVERVIEW: "), "\(arguments)")
      #expect(run.standardError.isEmpty, "\(arguments)")
    }
  }

  @Test func standardInputIsOnlyOneOfTheImagesCompared() {
    let run = InProcessRun(["diff", "-", "-"])
    #expect(run.status == 64)
    #expect(run.standardError.contains("standard input can be only one of the two images"))
  }

  /// A value that cannot be read says so, and a value too fine for the path names its option.
  @Test func badValuesNameTheirProblem() throws {
    let tap = InProcessRun(["cats", "--tap", "100,50@abc", "-o", scratch.path + "/c.gif"])
    #expect(tap.status == 64)
    #expect(
      tap.standardError.contains("must be a decimal number of seconds"), "\(tap.standardError)")
    let square = try scratch.write("M10 10H90V90H10Z", "square.svgpath")
    let dash = InProcessRun([
      "path", square, "--viewbox", "0,0,100,100", "--size", "50x40", "--stroke", "black",
      "--dash", "1e-30", "-o", scratch.path + "/d.png",
    ])
    #expect(dash.status == 64)
    #expect(
      dash.standardError.contains("Invalid value '1e-30' for '--dash'"), "\(dash.standardError)")
    #expect(!scratch.exists("d.png"))
  }

  /// A name of 247 bytes (the limit is 255) is written, through a shorter temporary.
  @Test func aLongFileNameIsWritten() throws {
    let scene = try scratch.write(tinyScene, "tiny.json")
    let name = String(repeating: "é", count: 121) + "x.gif"
    #expect(name.utf8.count == 247)
    let run = InProcessRun(["scene", scene, "-o", scratch.path + "/" + name, "--quiet"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(scratch.exists(name))
    #expect(scratch.list().count == 2)
  }
}
