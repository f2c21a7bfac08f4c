import Foundation
import RenderAnimKit
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Suites split across machines: shards picked by `--shard i/n` or by the variables of
/// Kubernetes Indexed Jobs, Bazel and AWS Batch, run as separate processes, merged by
/// `merge-results` into what one unsharded run reports; `scene --out-dir` for many scenes.
@Suite struct ShardingCLITests {
  let directory = ToolRun.scratchFolder("sharding")
  static let options = ["--scale", "1", "--fps", "10", "--times", "0,settled"]

  /// Seven small scenes; one (`s3`) is changed after recording, so it fails.
  func suite() throws -> (scenes: String, root: String) {
    let scenes = directory + "/scenes"
    try FileManager.default.createDirectory(atPath: scenes, withIntermediateDirectories: true)
    for k in 0..<7 {
      let scene = """
        {"canvas": {"width": 80, "height": 60}, "state": {"on": false},
         "layers": [{"shape": "roundedRectangle", "cornerRadius": \(4 + k), "fill": "systemBlue",
           "frame": {"width": 40, "height": 30}, "offset": {"x": "=on ? 10 : -10"}}],
         "events": [{"at": 0, "set": {"on": true}, "animation": {"type": "easeOut", "duration": 0.3}}]}
        """
      try scene.write(toFile: scenes + "/s\(k).json", atomically: true, encoding: .utf8)
    }
    let root = directory + "/goldens"
    let record = InProcessRun(
      ["check", scenes, "--golden-root", root, "--record", "all"] + Self.options)
    #expect(record.status == 0, "\(record.standardError)")
    let changed = try String(contentsOfFile: scenes + "/s3.json", encoding: .utf8)
      .replacingOccurrences(of: "systemBlue", with: "systemRed")
    try changed.write(toFile: scenes + "/s3.json", atomically: true, encoding: .utf8)
    return (scenes, root)
  }

  /// Per scene: its name, passed and failed counts, from a results file's JUnit twin.
  func outcome(_ junit: String) throws -> [String: Bool] {
    let document = try XMLDocument(xmlString: try String(contentsOfFile: junit, encoding: .utf8))
    var found: [String: Bool] = [:]
    for node in try document.nodes(forXPath: "//testcase") {
      guard let element = node as? XMLElement,
        let name = element.attribute(forName: "name")?.stringValue
      else { continue }
      found[name] = element.elements(forName: "failure").isEmpty
    }
    return found
  }

  @Test func shardsMergeIntoTheUnshardedRun() throws {
    let (scenes, root) = try suite()
    let all = InProcessRun(
      [
        "check", scenes, "--golden-root", root, "--record", "never", "--junit",
        directory + "/all.xml",
      ]
        + Self.options)
    #expect(all.status == 1)
    let whole = try outcome(directory + "/all.xml")
    #expect(whole.count == 7 && whole["s3"] == false && whole.values.filter { !$0 }.count == 1)
    let engines: [(String, (Int) -> ([String], [String: String]))] = [
      ("playwright", { i in (["--shard", "\(i + 1)/3"], [:]) }),
      ("kubernetes", { i in (["--shards", "3"], ["JOB_COMPLETION_INDEX": "\(i)"]) }),
      ("aws", { i in (["--shards", "3"], ["AWS_BATCH_JOB_ARRAY_INDEX": "\(i)"]) }),
      ("bazel", { i in ([], ["TEST_SHARD_INDEX": "\(i)", "TEST_TOTAL_SHARDS": "3"]) }),
    ]
    for (engine, shard) in engines {
      var files: [String] = []
      var seen: [String] = []
      for i in 0..<3 {
        let results = directory + "/\(engine)-\(i).json"
        let (options, environment) = shard(i)
        // A separate process each, as the engines run them.
        let run = try ToolRun(
          ["check", scenes, "--golden-root", root, "--record", "never", "--results", results]
            + options + Self.options, environment: environment)
        #expect([0, 1].contains(run.status), "\(engine) \(i): \(run.standardError)")
        files.append(results)
        let text = try String(contentsOfFile: results, encoding: .utf8)
        seen += (0..<7).map { "s\($0)" }.filter { text.contains("\"name\": \"\($0)\"") }
      }
      #expect(seen.sorted() == whole.keys.sorted(), "\(engine): every scene in exactly one shard")
      let merged = directory + "/\(engine)-merged.xml"
      let merge = InProcessRun(["merge-results"] + files + ["--junit", merged])
      #expect(merge.status == all.status, "\(engine): \(merge.standardOutput)")
      #expect(try outcome(merged) == whole, "\(engine)")
      #expect(
        merge.standardOutput.hasSuffix(all.standardOutput.split(separator: "\n").last! + "\n"))
    }
    // The same file twice: overlapping shards are refused. (A shard of a stable hash of paths
    // under a fresh temporary folder may hold no scene, so take one that holds some.)
    let nonEmpty = try (0..<3).map { directory + "/aws-\($0).json" }.first {
      try String(contentsOfFile: $0, encoding: .utf8).contains("\"name\": \"s")
    }
    let overlapping = try #require(nonEmpty)
    let twice = InProcessRun(["merge-results", overlapping, overlapping])
    #expect(twice.status == 2)
    #expect(twice.standardError.contains("overlap"))
    // Shards 2/3 and 3/3 without 1/3: the missing shard's scenes would pass unseen.
    let partial = InProcessRun(
      ["merge-results", directory + "/aws-1.json", directory + "/aws-2.json"])
    #expect(partial.status == 2)
    #expect(partial.standardError.contains("shard 1/3 missing"), "\(partial.standardError)")
    let bad = InProcessRun(["check", scenes, "--golden-root", root, "--shard", "4/3"])
    #expect(bad.status == 64)
    // A shard checked another way (perceptually) does not merge with exact ones.
    let perceptual = directory + "/perceptual-0.json"
    let other = try ToolRun(
      [
        "check", scenes, "--golden-root", root, "--record", "never", "--results", perceptual,
        "--shard", "1/3", "--compare", "perceptual",
      ] + Self.options)
    #expect([0, 1].contains(other.status), "\(other.standardError)")
    let mixed = InProcessRun(
      [
        "merge-results", perceptual, directory + "/playwright-1.json",
        directory + "/playwright-2.json",
      ])
    #expect(mixed.status == 2)
    #expect(mixed.standardError.contains("different comparisons"), "\(mixed.standardError)")
  }

  /// Environments whose shard cannot be told for sure are errors, not a silent run of every
  /// scene or a pick between two engines' indices.
  @Test func ambiguousEnvironmentShardsAreErrors() throws {
    #expect(throws: Shard.Problem.self) {
      try Shard.fromEnvironment(["TEST_SHARD_INDEX": "1"], shards: nil)
    }
    #expect(throws: Shard.Problem.self) {
      try Shard.fromEnvironment(
        ["JOB_COMPLETION_INDEX": "0", "AWS_BATCH_JOB_ARRAY_INDEX": "1"], shards: 3)
    }
    let agreeing = try Shard.fromEnvironment(
      ["JOB_COMPLETION_INDEX": "1", "AWS_BATCH_JOB_ARRAY_INDEX": "1"], shards: 3)
    #expect(agreeing == Shard(index: 2, count: 3))
    // An index without the count would check every scene in every shard.
    #expect(throws: Shard.Problem.self) {
      try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1"], shards: nil)
    }
    #expect(throws: Shard.Problem.self) {
      try Shard.fromEnvironment(["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "3"], shards: 4)
    }
    // An environment that names another shard than --shard i/n.
    #expect(throws: Shard.Problem.self) {
      try Shard(index: 1, count: 4)?.checkAgrees(
        with: ["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "3"])
    }
    #expect(throws: Shard.Problem.self) {
      try Shard(index: 1, count: 3)?.checkAgrees(with: ["JOB_COMPLETION_INDEX": "1"])
    }
    try Shard(index: 2, count: 3)?.checkAgrees(with: ["JOB_COMPLETION_INDEX": "1"])
    #expect(try Shard.fromEnvironment([:], shards: nil) == nil)
  }

  @Test func manyScenesRenderToAFolder() throws {
    let (scenes, _) = try suite()
    let out = directory + "/out"
    let run = InProcessRun([
      "scene", scenes, "cards", "--out-dir", out, "--scale", "1", "--fps", "10",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted()
    #expect(names == ["cards.gif"] + (0..<7).map { "s\($0).gif" })
    let frames = directory + "/frames"
    let two = InProcessRun(
      ["scene", scenes, "--out-dir", frames, "--format", "png-frames", "--shard", "1/2"]
        + Self.options)
    #expect(two.status == 0, "\(two.standardError)")
    let shardNames = ((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? [])
    #expect(!shardNames.isEmpty && shardNames.count < 7)
    let many = InProcessRun([
      "scene", scenes + "/s0.json", scenes + "/s1.json", "-o", out + "/x.gif",
    ])
    #expect(many.status == 64)
  }
}
