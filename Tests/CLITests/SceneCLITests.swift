import Codecs
import Foundation
import Raster
import Testing

@testable import CLI

/// The blocks of a GIF file that the scene tests check.
struct GIFSummary {
  var width = 0
  var height = 0
  var loopCount: Int?
  var delays: [Int] = []
  var images = 0
  var globalTable = 0

  init(_ d: [UInt8]) throws {
    guard d.count > 13, String(decoding: d[0..<6], as: UTF8.self) == "GIF89a" else {
      throw CocoaError(.fileReadCorruptFile)
    }
    width = Int(d[6]) | Int(d[7]) << 8
    height = Int(d[8]) | Int(d[9]) << 8
    var i = 13
    if d[10] & 0x80 != 0 {
      globalTable = 2 << Int(d[10] & 7)
      i += 3 * globalTable
    }
    func skipBlocks() { while d[i] != 0 { i += Int(d[i]) + 1 }; i += 1 }
    while i < d.count {
      switch d[i] {
      case 0x21:
        let label = d[i + 1]
        if label == 0xF9 { delays.append(Int(d[i + 4]) | Int(d[i + 5]) << 8) }
        if label == 0xFF, String(decoding: d[(i + 3)..<(i + 14)], as: UTF8.self) == "NETSCAPE2.0" {
          loopCount = Int(d[i + 16]) | Int(d[i + 17]) << 8
        }
        i += 2
        skipBlocks()
      case 0x2C:
        images += 1
        let flags = d[i + 9]
        i += 10
        if flags & 0x80 != 0 { i += 3 * (2 << Int(flags & 7)) }
        i += 1
        skipBlocks()
      case 0x3B: return
      default: throw CocoaError(.fileReadCorruptFile)
      }
    }
  }
}

@Suite struct SceneCLITests {
  let directory = ToolRun.scratchFolder("scenes")

  private func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// `cats` and `cards` always name the built-in scenes: a file or folder of that name in the
  /// working folder is `./cats` (a folder of frames named `cards` once made `check cards` fail,
  /// and a stray file named `cats` took over the demo; found by a walkthrough).
  @Test func builtInNamesWinOverFilesOfTheirName() throws {
    let folder = ToolRun.scratchFolder("names")
    try #"{"layers": [{"text": "a file named cats"}]}"#.write(
      toFile: folder + "/cats", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: folder + "/cards", withIntermediateDirectories: true)
    let builtIn = try ToolRun(["layout", "cats"], in: folder)
    #expect(builtIn.status == 0, "\(builtIn.standardError)")
    #expect(builtIn.standardOutput.contains("Tap anywhere"))
    let file = try ToolRun(["layout", "./cats"], in: folder)
    #expect(file.status == 0, "\(file.standardError)")
    #expect(file.standardOutput.contains("a file named cats"))
    #expect(try ToolRun(["layout", "cards"], in: folder).status == 0)
  }

  @Test func catsGIFLoopsWithCentisecondDelays() throws {
    let out = directory + "/cats.gif"
    let trace = directory + "/cats.csv"
    let run = InProcessRun([
      "cats", "--scale", "1", "--fps", "10", "--tap", "300,500", "-o", out, "--trace", trace,
      "--quiet",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let gif = try GIFSummary(bytes(out))
    #expect(gif.width == 390 && gif.height == 844)
    #expect(gif.loopCount == 0)
    #expect(gif.delays.allSatisfy { $0 >= 2 })
    let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    #expect(rows.first == "frame,time,cats.position.x,cats.position.y")
    // The delays add up to the frames' duration: frameCount × 10 cs at 10 fps.
    #expect(gif.delays.reduce(0, +) == 10 * (rows.count - 1))
    #expect(rows.last?.hasSuffix(",300.0,453.0") == true)
    #expect(run.standardError.isEmpty)
  }
  /// `--loop n` is how many times the GIF plays: browsers play a GIF whose NETSCAPE2.0 count is
  /// n n + 1 times and one without the block once, so one play writes no block and n plays n − 1.
  @Test(arguments: [(0, 0), (1, nil), (2, 1), (3, 2), (65_535, 65_534)] as [(Int, Int?)])
  func loopCountsArePlays(plays: Int, written: Int?) throws {
    let out = directory + "/loop-\(plays).gif"
    let run = InProcessRun([
      "cards", "--scale", "1", "--fps", "5", "--loop", "\(plays)", "-o", out, "--quiet",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try GIFSummary(bytes(out)).loopCount == written)
  }

  @Test func oneOrTwoThreadsAndRepeatedRunsGiveTheSameBytes() throws {
    var outputs: [[UInt8]] = []
    for threads in ["1", "2", "2"] {
      let out = directory + "/cards-\(outputs.count).gif"
      let run = InProcessRun([
        "cards", "--scale", "1", "--fps", "12", "-o", out, "--threads", threads, "--quiet",
      ])
      #expect(run.status == 0, "\(run.standardError)")
      outputs.append(try bytes(out))
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[1] == outputs[2])
  }

  @Test func framesFolderHoldsTheFramesOfTheGIF() throws {
    let folder = directory + "/frames/"
    let run = InProcessRun(["cards", "--scale", "1", "--fps", "10", "-o", folder, "--quiet"])
    #expect(run.status == 0, "\(run.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    // 1.0 s of spring and 0.5 s of hold at 10 fps: frames 0...15.
    #expect(files.count == 16)
    #expect(files.first == "frame-0000.png" && files.last == "frame-0015.png")
    let single = directory + "/seven.png"
    #expect(
      InProcessRun(["cards", "--scale", "1", "--fps", "10", "--frame", "7", "-o", single]).status
        == 0)
    #expect(try PNGCodec.read(single) == PNGCodec.read(folder + "frame-0007.png"))
  }

  @Test func thirtyFramesASecondSpreadTheirDelays() throws {
    let out = directory + "/thirty.gif"
    #expect(
      InProcessRun(["cards", "--scale", "1", "--fps", "30", "--hold", "0", "-o", out, "--quiet"])
        .status == 0)
    let delays = try GIFSummary(bytes(out)).delays
    #expect(delays.allSatisfy { $0 == 3 || $0 == 4 || $0 % 10 == 0 || $0 > 4 })
    #expect(Set(delays.prefix(3)).isSubset(of: [3, 4]))
  }

  @Test func cardsSaysWhenATapMisses() throws {
    let out = directory + "/miss.gif"
    let run = InProcessRun([
      "cards", "--scale", "1", "--fps", "5", "--tap", "20,100", "-o", out, "--quiet",
    ])
    #expect(run.status == 0)
    #expect(run.standardError.contains("misses the tappable layers ('card')"))
  }

  /// Spaces around a list's items are allowed in every list option, `--tap` among them.
  @Test func spacesAroundListItemsAreAllowed() throws {
    func trace(_ tap: String) throws -> [UInt8] {
      let file = directory + "/spaced-\(tap.count).csv"
      let run = InProcessRun(
        ["cats", "--scale", "1", "--fps", "5", "--tap", tap, "--trace", file, "--quiet"])
      #expect(run.status == 0, "\(tap): \(run.standardError)")
      return try bytes(file)
    }
    #expect(try trace(" 300, 500 @ 0.5") == trace("300,500@0.5"))
    let folder = directory + "/spaced-frames/"
    let run = InProcessRun(
      ["cards", "--scale", "1", "--fps", "5", "--frames", " 1, 3 - 4", "-o", folder, "--quiet"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() == [
        "frame-0001.png", "frame-0003.png", "frame-0004.png",
      ])
  }

  static let usageErrors: [([String], String)] = [
    (["cats", "--tap", "500,100", "-o", "x.gif"], "outside the 390×844 pt screen"),
    // Far enough that the cats' own bound on the position they move to would meet it first.
    (["cats", "--tap", "1e7,1e7", "-o", "x.gif"], "for '--tap': outside the 390×844 pt screen"),
    (["cats", "--tap", "10,10@99", "-o", "x.gif"], "the time after @"),
    (["cats", "--tap", "ten,10", "-o", "x.gif"], "expected x,y or x,y@t"),
    (["cats", "--fps", "60", "-o", "x.gif"], "Invalid value '60' for '--fps'"),
    // Numbers are decimal: hexadecimal, inf and nan mean nothing to an option.
    (["cats", "--hold", "0x10", "-o", "x.gif"], "Invalid value '0x10' for '--hold'"),
    (["cats", "--duration", "inf", "-o", "x.gif"], "Invalid value 'inf' for '--duration'"),
    (["cats", "--tap", "0x10,10", "-o", "x.gif"], "expected x,y or x,y@t"),
    (["cats", "--times", "0x1", "-o", "frames/"], "is not a time in seconds"),
    (["cats", "-o", "x.txt"], "expected a .gif, .apng or .webp file"),
    (["cats", "--frame", "3", "-o", "x.gif"], "'--frame' writes one PNG; give a .png file or -"),
    (["cats", "--frame", "100000", "-o", "x.png"], "past the last frame"),
    (["cards", "--device", "nokia", "-o", "x.gif"], "Invalid value 'nokia' for '--device'"),
    (["cards", "--swiftui", "16", "-o", "x.gif"], "expected one of 17, legacy"),
  ]

  @Test(arguments: usageErrors)
  func sceneUsageErrors(arguments: [String], message: String) throws {
    let run = InProcessRun(arguments)
    #expect(run.status == 64)
    #expect(run.standardError.contains(message), "\(run.standardError)")
  }
}

/// The debug and release builds give the same bytes (scripts/test.sh builds both; the tests run
/// in one and compare with the other's binary). Skipped, with a note, when the other is absent.
@Suite struct BuildConfigurationTests {
  @Test func debugAndReleaseBuildsWriteTheSameBytes() throws {
    let own = ToolRun.binary
    let configuration = own.deletingLastPathComponent()
    let other = configuration.deletingLastPathComponent()
      .appendingPathComponent(
        configuration.lastPathComponent == "release" ? "debug" : "release"
      ).appendingPathComponent("render-anim")
    guard FileManager.default.isExecutableFile(atPath: other.path) else {
      print("skipping debug-vs-release comparison: no other build at \(other.path)")
      return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "render-anim-builds-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var outputs: [[UInt8]] = []
    for (name, binary) in [("own", own), ("other", other)] {
      let gif = directory.appendingPathComponent("\(name).gif").path
      let png = directory.appendingPathComponent("\(name).png").path
      let process = Process()
      process.executableURL = binary
      process.arguments = [
        "cats", "--scale", "1", "--fps", "5", "--tap", "100,600", "-o", gif, "--quiet",
      ]
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      let still = Process()
      still.executableURL = binary
      still.arguments = ["still", "card", "--scale", "1", "-o", png]
      try still.run()
      still.waitUntilExit()
      outputs.append(
        Array(try Data(contentsOf: URL(fileURLWithPath: gif)))
          + Array(try Data(contentsOf: URL(fileURLWithPath: png))))
    }
    #expect(outputs[0] == outputs[1])
  }
}

/// Option numbers: decimal only, spaces around them allowed as in the list options.
@Suite struct OptionNumberTests {
  @Test func decimalNumbersOnly() {
    #expect(ValueParsers.decimal("12") == 12)
    #expect(ValueParsers.decimal(" -0.5 ") == -0.5)
    #expect(ValueParsers.decimal("1e3") == 1000)
    #expect(ValueParsers.decimal(".25") == 0.25)
    for bad in ["0x10", "inf", "nan", "", " ", "1,5", "1 2", "+", "0x1p3", "∞"] {
      #expect(ValueParsers.decimal(bad) == nil, "\(bad)")
    }
    #expect(ValueParsers.whole(" 2 ") == 2)
    #expect(ValueParsers.whole("0x2") == nil)
  }
}
