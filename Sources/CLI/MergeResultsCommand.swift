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
      Reads the files 'render-anim check --results FILE.json' wrote (one per shard), prints each \
      failing scene's lines and the totals as check does, and writes --junit and --report for \
      all of them. Scenes are listed by name; a scene in two files (shards that overlap) is an \
      error, and so is an incomplete set of shards (2/3 and 3/3 without 1/3). The report's diff \
      images mark pixels as the shards compared them (the files record it), unless --compare \
      says otherwise. Exit 0 when nothing failed, 1 when frames failed, 2 when a scene could \
      not be checked or the files cannot be read, merged or written.
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
        help:
          "How the report's diff images mark pixels (perceptual at the default threshold).",
        defaultDescription: "as the shards compared, else exact"),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    // Anything but a usage error means the merge could not be made: exit 2, never the 1 of
    // failed frames (a lost results file must not read as a failing suite).
    try CheckCommand.exitingBroken { () throws in try merge(arguments, console: &console) }
  }

  static func merge(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    try CheckCommand.keepStandardOutput(for: ["junit"], arguments, console: &console)
    let files = arguments.positionals
    let place = CheckCommand.place
    if let junit = arguments.value("junit"),
      let input = files.first(where: { place($0) == place(junit) })
    {
      throw UsageError("'--junit' \(junit) is the results file \(input): give another file")
    }
    try OutputOptions.checkFolder("report", arguments.value("report"))
    if let report = arguments.value("report"),
      let input = files.first(where: { place($0).hasPrefix(place(report) + "/") })
    {
      throw UsageError(
        "'--report' \(report) holds the results file \(input): give the report its own folder")
    }
    guard files.count <= maximumFiles else {
      throw UsageError("At most \(maximumFiles) results files")
    }
    var given: Set<String> = []
    for file in files where !given.insert(place(file)).inserted {
      throw RuntimeError("\(file) is given twice: the shards would overlap", code: 2)
    }
    var reports: [(report: CheckReport, file: String)] = []
    for file in files {
      let bytes = try FileReader.read(
        file, limit: CheckReport.maximumResultsBytes, kind: "results files")
      do {
        reports.append(
          (try CheckReport.results(String(decoding: bytes, as: UTF8.self), source: file), file))
      } catch { throw RuntimeError(error.description, code: 2) }
    }
    // A mixed or incomplete set of shards is named as such before the scenes are merged.
    try checkComplete(
      reports.compactMap { read in read.report.shard.map { ($0, read.file) } }, files: files.count)
    var scenes: [CheckReport.Scene] = []
    var from: [String: String] = [:]
    for (report, file) in reports {
      for scene in report.scenes {
        if let other = from[scene.name] {
          throw RuntimeError(
            "scene '\(scene.name)' is in both \(other) and \(file): the shards overlap", code: 2)
        }
        from[scene.name] = file
        scenes.append(scene)
      }
    }
    scenes.sort { $0.name < $1.name }
    // The shards' own comparison, which they must agree on: shards of one run compare alike,
    // and a verdict merged from two ways of comparing would mean neither.
    let compared = Set(reports.compactMap(\.report.comparison))
    if compared.count > 1, let first = reports.first(where: { $0.report.comparison != nil }),
      let other = reports.first(where: {
        $0.report.comparison != nil && $0.report.comparison != first.report.comparison
      })
    {
      throw RuntimeError(
        "\(first.file) and \(other.file) were checked with different comparisons (--compare, "
          + "--tolerance): merge one run's shards", code: 2)
    }
    let report = CheckReport(scenes: scenes, comparison: compared.count == 1 ? compared.first : nil)
    var outputs: [any PendingOutput] = []
    if let junit = arguments.value("junit") {
      let file = try OutputFile(junit)
      try file.write(Array(report.junitXML().utf8))
      outputs.append(file)
    }
    if let folder = arguments.value("report") {
      let output = try OutputFolder(
        folder, contents: "a report's files", isReplaceable: CheckCommand.isReportFile)
      let mode: ComparisonOptions.Mode? = try arguments.choice("compare")
      let method: ComparisonMethod =
        switch mode {
        case .exact?: .exact(tolerance: 0)
        case .perceptual?: .perceptual(threshold: PerceptualDifference.defaultThreshold)
        case nil: report.comparison ?? .exact(tolerance: 0)
        }
      let unread = try CheckCommand.writeHTML(report, comparison: method, into: output)
      if unread > 0 {
        console.standardError(
          "render-anim: warning: \(unread) failing frame\(unread == 1 ? "'s" : "s'") images are "
            + "not at the paths the shards recorded, so the report shows their figures alone: "
            + "merge where the goldens and artifacts are (copy them along with the results)\n")
      }
      outputs.append(output)
    }
    try Outputs.commit(outputs)
    if let folder = arguments.value("report") {
      console.standardOutput("report: \(CheckCommand.trimmingSlashes(folder))/index.html\n")
    }
    for scene in scenes {
      for line in scene.failureLines {
        console.standardOutput(Console.terminalSafe(scene.name + ": " + line) + "\n")
      }
    }
    let failing = scenes.filter { $0.failures > 0 }.count
    let passed = scenes.reduce(0) { $0 + $1.passed }
    console.standardOutput(
      "\(scenes.count) scene\(scenes.count == 1 ? "" : "s") from \(files.count) results "
        + "file\(files.count == 1 ? "" : "s"), \(failing) failing\n")
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
