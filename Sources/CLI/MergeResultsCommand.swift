import Codecs
import FileIO
import RenderAnimKit

/// `render-anim merge-results`: one report and exit status from the results files of a suite's
/// shards (`check --results`).
enum MergeResultsCommand: Command {
  /// The most results files one merge reads.
  static let maximumFiles = Shard.maximumCount

  static let spec = CommandSpec(
    name: "merge-results",
    abstract: "Combine the results files of a sharded check into one report.",
    discussion: """
      Reads the files 'render-anim check --results FILE.json' wrote (one per shard), prints each \\
      failing scene's lines and the totals as check does, and writes --junit and --report for \\
      all of them. Scenes are listed by name; a scene in two files (shards that overlap) is an \\
      error, and so is an incomplete set of shards (2/3 and 3/3 without 1/3). Exit 0 when \\
      nothing failed, 1 when frames failed, 2 when a scene could not be checked or the files \\
      cannot be merged.
      """,
    options: [
      OptionSpec(
        "results", kind: .positional, valueName: "results.json",
        help: "The shards' results files.", isRequired: true, isVariadic: true),
      OptionSpec(
        "junit", valueName: "file.xml", help: "Write the merged result as JUnit XML."),
      OptionSpec(
        "report", valueName: "dir",
        help: "Write the merged static HTML report (DIR/index.html)."),
      OptionSpec(
        "compare", value: .choice(of: ComparisonOptions.Mode.self), valueName: "exact|perceptual",
        help: "How the report's diff images mark pixels.", defaultValue: "exact"),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let files = arguments.positionals
    guard files.count <= maximumFiles else {
      throw UsageError("At most \(maximumFiles) results files")
    }
    var scenes: [CheckReport.Scene] = []
    var from: [String: String] = [:]
    var shards: [(shard: Shard, file: String)] = []
    for file in files {
      let bytes = try FileReader.read(
        file, limit: CheckReport.maximumResultsBytes, kind: "results files")
      let report: CheckReport
      do {
        report = try CheckReport.results(String(decoding: bytes, as: UTF8.self), source: file)
      } catch { throw RuntimeError(error.description, code: 2) }
      for scene in report.scenes {
        if let other = from[scene.name] {
          throw RuntimeError(
            "scene '\(scene.name)' is in both \(other) and \(file): the shards overlap", code: 2)
        }
        from[scene.name] = file
        scenes.append(scene)
      }
      if let shard = report.shard { shards.append((shard, file)) }
    }
    try checkComplete(shards, files: files.count)
    scenes.sort { $0.name < $1.name }
    let report = CheckReport(scenes: scenes)
    var outputs: [any PendingOutput] = []
    if let junit = arguments.value("junit") {
      let file = try OutputFile(junit)
      try file.write(Array(report.junitXML().utf8))
      outputs.append(file)
    }
    if let folder = arguments.value("report") {
      let output = try OutputFolder(
        folder, contents: "a report's files", isReplaceable: CheckCommand.isReportFile)
      let mode: ComparisonOptions.Mode = try arguments.requiredChoice("compare")
      try CheckCommand.writeHTML(
        report,
        comparison: mode == .exact
          ? .exact(tolerance: 0) : .perceptual(threshold: PerceptualDifference.defaultThreshold),
        into: output)
      outputs.append(output)
    }
    try Outputs.commit(outputs)
    for scene in scenes {
      for line in scene.failureLines { console.standardOutput(scene.name + ": " + line + "\n") }
    }
    let failing = scenes.filter { $0.failures > 0 }.count
    let passed = scenes.reduce(0) { $0 + $1.passed }
    console.standardOutput(
      "\(scenes.count) scenes from \(files.count) results files, \(failing) failing\n")
    console.standardOutput("\(passed) passed, \(report.failures) failed\n")
    return report.exitStatus
  }

  /// Results files of shards must be the whole set: every shard of one count, each once (a
  /// missing shard would pass for its scenes unseen). Files of unsharded runs may not be mixed
  /// with them.
  static func checkComplete(_ shards: [(shard: Shard, file: String)], files: Int) throws {
    guard let first = shards.first else { return }
    guard shards.count == files else {
      throw RuntimeError(
        "\(first.file) is shard \(first.shard) but \(files - shards.count) of the files are not "
          + "from a sharded run: merge one run's shards", code: 2)
    }
    var seen: [Int: String] = [:]
    for (shard, file) in shards {
      guard shard.count == first.shard.count else {
        throw RuntimeError(
          "\(file) is shard \(shard) and \(first.file) shard \(first.shard): merge one run's shards",
          code: 2)
      }
      if let other = seen[shard.index] {
        throw RuntimeError("\(other) and \(file) are both shard \(shard)", code: 2)
      }
      seen[shard.index] = file
    }
    let missing = (1...first.shard.count).filter { seen[$0] == nil }
    guard missing.isEmpty else {
      let list = missing.prefix(10).map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
      throw RuntimeError(
        "shard\(missing.count == 1 ? "" : "s") \(list)\(missing.count > 10 ? ", …" : "") "
          + "missing: merge the results of every shard", code: 2)
    }
  }
}
