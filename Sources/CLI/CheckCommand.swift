import Codecs
import FileIO
import Raster
import RenderAnimKit
import SceneGraph

#if canImport(Glibc)
import Glibc
#endif

/// `render-anim check`: renders a scene's frames and compares each with a golden PNG.
enum CheckCommand: Command {
  /// When goldens are written; `failed` and `all` also remove goldens the render has no frame
  /// for.
  typealias RecordMode = GoldenComparison.RecordMode

  static let spec = CommandSpec(
    name: "check",
    abstract: "Render a scene and compare its frames with golden PNGs.",
    discussion: """
      Each frame (every frame, or those --frames/--times select) is compared with \
      GOLDEN/frame-NNNN.png (the names -o DIR/ writes) after both are decoded to straight RGBA8, \
      by --compare (exact by default). A golden that cannot be read, or that has no selected frame \
      in the render (a longer earlier recording, a frame no longer selected), is a failure too. \
      Failures print one line per run of consecutive failing frames with the worst frame's \
      figures, and write actual.png and diff.png (expected | actual | diff) under --artifacts. \
      --record defaults to never when the environment variable CI is set, so a CI run can never \
      pass by recording, and to missing otherwise; failed and all also remove goldens that have \
      no selected frame. The last line is 'N passed, M failed'; exit 0 when nothing failed, 1 \
      when something did, 2 when the check could not run (a bad scene, an output that cannot be \
      written), 64 for a usage error.
      """,
    options: [
      OptionSpec(
        "scene", kind: .positional, valueName: "cats|cards|file.json|folder",
        help: "Built-in scenes, scene files, or folders of *.json scene files.", isRequired: true,
        isVariadic: true),
      OptionSpec(
        "golden", valueName: "dir",
        help: "The folder of one scene's golden frames (created when missing)."),
      OptionSpec(
        "golden-root", valueName: "dir",
        help:
          "For one or many scenes: each scene's goldens in DIR/<scene name>/ (a file's name without .json)."
      ),
      OptionSpec(
        "record", value: .choice(of: RecordMode.self), valueName: "missing|failed|all|never",
        help: "When to write goldens.", defaultDescription: "never with CI set, else missing"),
    ]
      + ComparisonOptions.specs(budgetPer: "frame")
      + [
        OptionSpec(
          "artifacts", valueName: "dir", help: "Where failing frames' actual and diff images go.",
          defaultDescription: ".render-anim-artifacts/NAME beside the golden folder NAME"),
        OptionSpec(
          "junit", valueName: "file.xml",
          help:
            "Also write the result as JUnit XML (a test case per scene); - is standard output, the lines for people then going to standard error."
        ),
        OptionSpec(
          "results", valueName: "file.json",
          help:
            "Also write the results as JSON, for 'render-anim merge-results' to combine the shards of a suite."
        ),
        OptionSpec(
          "report", valueName: "dir",
          help:
            "Also write a static HTML report (DIR/index.html: each failing frame's expected, actual and diff with a slider, its figures and the command that re-records it)."
        ),
      ]
      + SceneOptions.options(sceneHelp: "").filter {
        ![
          "output", "frame", "trace", "loop", "matte", "png-compression", "format", "quality",
          "quiet",
          "max-bytes",
        ]
        .contains($0.name)
      } + [
        OptionSpec(
          "quiet", kind: .flag,
          help:
            "No progress bar. The failures and the closing 'N passed, M failed' line are the check's result, and always printed."
        )
      ] + ShardOptions.specs)

  /// The most scenes one run checks.
  static let maximumScenes = 1000

  /// Exit status when the check could not run (a bad scene, an unreadable input, an output
  /// that cannot be written): 2, as `diff`'s bad input, so CI tells it from failing frames (1).
  static let brokenExitCode: Int32 = 2

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    try exitingBroken { () throws in try runChecks(arguments, console: &console) }
  }

  /// `body`'s result; any error but a usage error becomes one with `brokenExitCode` (the run
  /// could not be made), never the 1 of failing frames. `check` and `merge-results` share it.
  static func exitingBroken(_ body: () throws -> Int32) throws -> Int32 {
    do { return try body() } catch let error as UsageError {
      throw error
    } catch let error as RuntimeError {
      throw RuntimeError(error.message, code: brokenExitCode)
    } catch {
      throw RuntimeError("\(error)", code: brokenExitCode)
    }
  }

  /// With a machine-readable file on standard output (`--junit -`, `--results -`), the lines
  /// for people go to standard error, so that what a pipe reads parses; two files there would
  /// run together, and are refused.
  static func keepStandardOutput(
    for options: [String], _ arguments: ParsedArguments, console: inout Console
  ) throws(UsageError) {
    let piped = options.filter { arguments.value($0).map(OutputFile.isStandardOutput) ?? false }
    guard !piped.isEmpty else { return }
    guard piped.count == 1 else {
      throw UsageError(
        "'--\(piped[0])' and '--\(piped[1])' both go to standard output: give one of them a file")
    }
    console.standardOutput = console.standardError
  }

  /// Where `path` leads (links followed where it exists), without trailing slashes: what two
  /// paths are compared by to tell whether outputs and inputs overlap.
  static func place(_ path: String) -> String {
    OutputOptions.place(trimmingSlashes(path)) ?? trimmingSlashes(path)
  }

  static func runChecks(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    try keepStandardOutput(for: ["junit", "results"], arguments, console: &console)
    let given = arguments.positionals
    guard !given.isEmpty else { throw UsageError("Missing <cats|cards|file.json|folder>") }
    let golden = arguments.value("golden")
    let root = arguments.value("golden-root")
    guard (golden == nil) != (root == nil) else {
      throw UsageError(
        "Give '--golden DIR' (one scene's goldens) or '--golden-root DIR' (DIR/<scene name>/ for "
          + "each scene)\(golden != nil ? ", not both" : "")")
    }
    if root != nil, given.contains("-") {
      throw UsageError(
        "'-' (standard input) has no name for its goldens under '--golden-root': give the scene "
          + "as a file, or check it alone with '--golden DIR'")
    }
    let shard = try shard(arguments, environment: environment())
    let every = try scenes(given)
    let sources = every.filter { shard?.contains($0.source.argument) ?? true }
    if golden != nil, sources.count > 1 {
      throw UsageError(
        "'--golden' is one scene's folder, and \(sources.count) scenes are given: use '--golden-root DIR'"
      )
    }
    let mode: RecordMode =
      try arguments.choice("record")
      ?? .default(environment: getenv("CI").map { ["CI": String(cString: $0)] } ?? [:])
    let comparison = try ComparisonOptions.parse(arguments)
    let settings = try SceneOptions.settings(arguments, needsOutput: false)
    let reportFolder = arguments.value("report")
    try OutputOptions.checkFolder("report", reportFolder)
    // Open the reports first, so a bad destination fails before any rendering.
    let junitFile = try arguments.value("junit").map { (path) throws(FileError) in
      try OutputFile(path)
    }
    let resultsFile = try arguments.value("results").map { (path) throws(FileError) in
      try OutputFile(path)
    }
    try checkApart(
      golden: golden ?? root ?? ".", artifacts: arguments.value("artifacts"),
      defaultArtifacts: golden.map { defaultArtifacts(for: $0) }
        ?? trimmingSlashes(root ?? ".") + "/.render-anim-artifacts",
      junit: arguments.value("junit"), report: reportFolder, results: arguments.value("results"),
      inputs: SceneInputs(every.map(\.source), given: given))
    let reportOutput = try reportFolder.map { (path) throws(FileError) in
      try OutputFolder(path, contents: "a report's files", isReplaceable: isReportFile)
    }
    // With --golden-root, each scene has its own folders and lines, however many the shard got.
    let several = root != nil
    var results: [CheckReport.Scene] = []
    for (name, source) in sources {
      let folder =
        golden.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? trimmingSlashes(root ?? ".")
        + "/\(name)/"
      let artifacts =
        (arguments.value("artifacts").map { several ? trimmingSlashes($0) + "/" + name : $0 }
          ?? defaultArtifacts(for: folder)) + "/"
      var recording = settings
      if mode != .never { recording.goldens = folder }
      let job = Job(
        name: name, source: source, folder: folder, artifacts: artifacts, mode: mode,
        comparison: comparison, settings: recording,
        rerecord: rerecordCommand(arguments.raw, scene: several ? source.argument : nil))
      let result: CheckReport.Scene
      // One scene that cannot be built fails alone (the others are still checked), and is an
      // error in the JUnit, results and report files, which are written all the same. A usage
      // error of a lone scene (a time past its end) stays one: exit 64, nothing written.
      let reported = junitFile != nil || resultsFile != nil || reportOutput != nil
      if several || reported {
        do { result = try check(job, console: &console) } catch let error as UsageError
          where !several
        {
          throw error
        } catch {
          // Errors about a file name it already.
          let text = "\(error)"
          let problem = text.contains(source.argument) ? text : "\(source.argument): \(text)"
          result = CheckReport.Scene(
            name: name, golden: folder, rerecord: job.rerecord, frames: [],
            problems: [problem], problemFailures: 1, seconds: 0, error: problem)
        }
      } else {
        result = try check(job, console: &console)
      }
      // Names come from file names: their control characters are shown escaped, never sent
      // to the terminal.
      let prefix = several ? name + ": " : ""
      for line in result.failureLines {
        console.standardOutput(Console.terminalSafe(prefix + line) + "\n")
      }
      if result.recorded > 0 {
        console.standardOutput(
          "recorded \(result.recorded) golden frame\(result.recorded == 1 ? "" : "s") in \(folder)\n"
        )
      }
      if result.rerecorded > 0 {
        console.standardOutput(
          "\(result.rerecorded) re-recorded (golden frames rewritten in \(folder))\n")
      }
      results.append(result)
    }
    let report = CheckReport(scenes: results, comparison: comparison.method)
    var outputs: [any PendingOutput] = []
    if let junitFile {
      try junitFile.write(Array(report.junitXML().utf8))
      outputs.append(junitFile)
    }
    if let resultsFile {
      try resultsFile.write(Array(report.resultsJSON(shard: shard).utf8))
      outputs.append(resultsFile)
    }
    if let reportOutput {
      try writeHTML(report, comparison: comparison.method, into: reportOutput)
      outputs.append(reportOutput)
    }
    try Outputs.commit(outputs)
    // Bazel asks a test that shards to say so by touching this file.
    if shard != nil, let status = environment()["TEST_SHARD_STATUS_FILE"], !status.isEmpty {
      try? OutputFile.write([], to: status)
    }
    if let reportFolder {
      console.standardOutput("report: \(trimmingSlashes(reportFolder))/index.html\n")
    }
    if let shard {
      console.standardOutput("shard \(shard): \(results.count) of the scenes\n")
    }
    let passed = results.reduce(0) { $0 + $1.passed }
    let failed = report.failures
    if !arguments.isGiven("record"), mode == .never,
      results.contains(where: { $0.frames.contains { $0.reason.hasPrefix("no golden at") } })
    {
      console.standardError(
        "render-anim: goldens were not recorded: the environment variable CI is set, so --record "
          + "is never (give --record missing to record the missing ones)\n")
    }
    if several {
      let failing = results.filter { $0.failures > 0 }.count
      console.standardOutput(
        "\(results.count) scene\(results.count == 1 ? "" : "s"), \(failing) failing\n")
    }
    console.standardOutput("\(passed) passed, \(failed) failed\n")
    return report.exitStatus
  }

  /// The names a report folder holds (`index.html`, `N-frame-NNNN-expected.png`, …), so an
  /// existing one is replaced but a folder of goldens or artifacts never is.
  static func isReportFile(_ name: String) -> Bool {
    if name == "index.html" { return true }
    let parts = name.split(separator: "-")
    guard parts.count == 4, Int(parts[0]) != nil, parts[1] == "frame", parts[2].count == 4,
      Int(parts[2]) != nil
    else { return false }
    return ["expected.png", "actual.png", "diff.png"].contains(String(parts[3]))
  }

  /// The scene files a check reads, and the folders of scenes it was given: what no output
  /// may replace, and where no results file may go (it would be read as a scene next time).
  struct SceneInputs {
    var files: [String] = []
    var folders: [String] = []

    init(_ sources: [SceneSource], given: [String]) {
      for source in sources {
        if case .file(let path) = source, path != "-" { files.append(path) }
      }
      folders = given.filter { Folders.names(in: $0) != nil && $0 != "-" }
    }

    init() {}
  }

  /// The goldens, the artifacts, the JUnit file, the results file and the report must not
  /// overlap: each would replace or delete what another holds. Nor may the JUnit or results
  /// file be a scene file being checked, or a `.json` file inside a folder of scenes.
  /// `defaultArtifacts` is where artifacts go when `--artifacts` is not given.
  static func checkApart(
    golden: String, artifacts explicitArtifacts: String?, defaultArtifacts: String? = nil,
    junit: String?, report: String?, results: String? = nil, inputs: SceneInputs = SceneInputs()
  )
    throws
  {
    // Standard output (`--junit -`) is in no folder and replaces no file.
    let junit = junit.flatMap { OutputFile.isStandardOutput($0) ? nil : $0 }
    let results = results.flatMap { OutputFile.isStandardOutput($0) ? nil : $0 }
    func inside(_ a: String, _ b: String) -> Bool { a == b || a.hasPrefix(b + "/") }
    let goldens = place(golden)
    for (option, path) in [("junit", junit), ("results", results)] {
      guard let path else { continue }
      let file = place(path)
      if let scene = inputs.files.first(where: { place($0) == file }) {
        throw UsageError("'--\(option)' \(path) is the scene file \(scene): give another file")
      }
      if path.hasSuffix(".json"),
        let folder = inputs.folders.first(where: { inside(file, place($0)) })
      {
        throw UsageError(
          "'--\(option)' \(path) is inside the folder of scenes \(folder), where it would be read "
            + "as a scene: put it elsewhere")
      }
    }
    if let explicitArtifacts, goldens != place(explicitArtifacts),
      inside(goldens, place(explicitArtifacts))
    {
      throw UsageError(
        "'--artifacts' \(explicitArtifacts) holds the golden folder: give the artifacts a folder "
          + "beside it")
    }
    // The outputs may not overlap the artifacts, wherever they go.
    let artifacts = explicitArtifacts ?? defaultArtifacts
    if let report {
      let folder = place(report)
      guard !inside(goldens, folder), !inside(folder, goldens) else {
        throw UsageError(
          "'--report' \(report) and the golden folder overlap: give the report its own folder")
      }
      if let artifacts, inside(place(artifacts), folder) || inside(folder, place(artifacts)) {
        throw UsageError(
          "'--report' \(report) and the artifacts folder \(artifacts) overlap: give each its own "
            + "folder")
      }
      if let junit, inside(place(junit), folder) {
        throw UsageError("'--junit' \(junit) is inside the '--report' folder: put it beside it")
      }
    }
    if let junit, inside(place(junit), goldens) {
      throw UsageError("'--junit' \(junit) is inside the golden folder: put it elsewhere")
    }
    if let explicitArtifacts, inside(place(explicitArtifacts), goldens) {
      throw UsageError(
        "'--artifacts' \(explicitArtifacts) is inside the golden folder: put it beside it")
    }
    if let results {
      let file = place(results)
      if inside(file, goldens) {
        throw UsageError("'--results' \(results) is inside the golden folder: put it elsewhere")
      }
      if let report, inside(file, place(report)) {
        throw UsageError("'--results' \(results) is inside the '--report' folder: put it beside it")
      }
      if let junit, place(junit) == file {
        throw UsageError("'--results' and '--junit' are both \(results): give each its own file")
      }
      if let artifacts, inside(file, place(artifacts)) {
        throw UsageError(
          "'--results' \(results) is inside the artifacts folder \(artifacts): put it beside it")
      }
    }
    if let junit, let artifacts, inside(place(junit), place(artifacts)) {
      throw UsageError(
        "'--junit' \(junit) is inside the artifacts folder \(artifacts): put it beside it")
    }
  }

  /// The process environment (the shard variables, `TEST_SHARD_STATUS_FILE`).
  static func environment() -> [String: String] {
    var found: [String: String] = [:]
    for name in [
      "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS",
      "TEST_SHARD_STATUS_FILE",
    ] {
      if let value = getenv(name) { found[name] = String(cString: value) }
    }
    return found
  }

  /// `--shard i/n`, else the environment's shard (with `--shards n`), else none.
  static func shard(_ arguments: ParsedArguments, environment: [String: String]) throws -> Shard? {
    if let text = arguments.value("shard") {
      if arguments.isGiven("shards") {
        throw UsageError(
          "Give '--shard i/n' or '--shards n' (with the index from the environment), not both")
      }
      let shard: Shard
      do { shard = try Shard.parse(text) } catch {
        throw ValueParsers.invalid("shard", text, error.description)
      }
      do { try shard.checkAgrees(with: environment) } catch {
        throw UsageError("Cannot work out the shard: \(error.description)")
      }
      return shard
    }
    do {
      return try Shard.fromEnvironment(environment, shards: try arguments.integer("shards"))
    } catch let problem as Shard.Problem {
      throw UsageError("Cannot work out the shard: \(problem.description)")
    }
  }

  /// One scene's check: what to render and where its goldens and artifacts are.
  struct Job {
    var name: String
    var source: SceneSource
    var folder: String
    var artifacts: String
    var mode: RecordMode
    var comparison: GoldenComparison
    var settings: SceneOptions.Settings
    var rerecord: String
  }

  /// The scenes the arguments name, with their names: built-ins, files, and the `*.json` files
  /// of folders (sorted); two scenes of one name are refused (`clash` says what they would
  /// share: their goldens' folder, their output files).
  static func scenes(
    _ arguments: [String], clash: String = "their goldens would share a folder"
  ) throws -> [(name: String, source: SceneSource)] {
    var found: [(name: String, source: SceneSource)] = []
    for argument in arguments {
      let source = SceneSource(argument: argument)
      if case .file(let path) = source, path != "-", let names = Folders.names(in: path) {
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else {
          throw UsageError("'\(argument)' is a folder with no .json scene files")
        }
        for file in files {
          let full = trimmingSlashes(path) + "/" + file
          found.append((sceneName(full), .file(full)))
        }
      } else {
        found.append((sceneName(argument), source))
      }
      guard found.count <= maximumScenes else {
        throw UsageError("At most \(maximumScenes) scenes in one check")
      }
    }
    // A scene named twice (a folder and a file in it, `./a.json` and `a.json`) is one scene.
    var paths: Set<String> = []
    found = found.filter { _, source in
      guard case .file(let path) = source, path != "-" else { return true }
      return paths.insert(Shard.normalized(path)).inserted
    }
    var seen: [String: String] = [:]
    for (name, source) in found {
      // A scene's name names its goldens' folder under --golden-root and its outputs under
      // --out-dir: `.json`, `..json` and `...json` would name the root itself or its parent.
      guard !["", ".", ".."].contains(name) else {
        throw UsageError(
          "'\(source.argument)' would be named '\(name)', which cannot name a folder of its own: "
            + "rename the file")
      }
      if let other = seen[name] {
        throw UsageError(
          "'\(other)' and '\(source.argument)' are both named '\(name)': \(clash)"
        )
      }
      seen[name] = source.argument
    }
    return found
  }

  /// Renders the job's scene and compares its selected frames; goldens with no selected frame
  /// fail (or are removed when re-recording).
  static func check(_ job: Job, console: inout Console) throws -> CheckReport.Scene {
    let (folder, artifacts, mode, comparison, settings) = (
      job.folder, job.artifacts, job.mode, job.comparison, job.settings
    )
    let started = BenchClock.now()
    let scene = try SceneOptions.scene(job.source, settings, console: &console)
    let indices = try SceneOptions.indices(settings.selection, in: scene)
    if mode != .never { try Folders.create(folder) }
    // Re-recording writes the goldens into a copy of the folder (its files hard-linked), put in
    // place of it at the end in one exchange: an interrupted run leaves the goldens as they were,
    // not half re-recorded.
    let staged = mode == .all || mode == .failed ? try stagedGoldens(folder) : nil
    let goldens = staged.map { $0.temporary + "/" } ?? folder
    CheckReport.Frame.removeArtifacts(of: indices, in: artifacts)
    var frames: [CheckReport.Frame] = []
    let count = scene.frameCount
    let renderer = FrameRenderer(scene: scene, threads: settings.threads)
    try renderer.render(
      indices,
      prepare: { index, frame, _ in
        comparison.checkWithFigures(
          frame, golden: goldens + SceneExporter.frameName(index), mode: mode,
          artifacts: CheckReport.Frame.artifacts(in: artifacts, frame: index))
      }
    ) { index, checked in
      let frame = CheckReport.Frame(
        index: index, golden: folder + SceneExporter.frameName(index), checked: checked)
      frames.append(frame)
    }
    // Goldens the render has no selected frame for: failures, or removed when re-recording.
    var problems: [String] = []
    var staleFailures = 0
    // Said once the new goldens are in place (an interrupted run removes nothing).
    var removal: String?
    let selected = Set(indices)
    let stale = (Folders.names(in: folder) ?? []).compactMap(SceneExporter.frameIndex(of:))
      .filter { !selected.contains($0) }.sorted()
    if let first = stale.first, let last = stale.last {
      let span = spanText(first, last)
      if mode == .all || mode == .failed {
        for index in stale { unlink(goldens + SceneExporter.frameName(index)) }
        removal =
          "removed \(stale.count) golden frame\(stale.count == 1 ? "" : "s") with no selected "
          + "frame in the render (\(span))\n"
      } else {
        let beyond = stale.filter { $0 >= count }
        let unselected = stale.filter { $0 < count }
        if let a = beyond.first, let b = beyond.last {
          problems.append(
            "\(spanText(a, b)): no such frame in the render (it has \(count) frames, 0 to "
              + "\(count - 1))")
        }
        if let a = unselected.first, let b = unselected.last {
          problems.append(
            "\(spanText(a, b)): \(unselected.count) golden frame"
              + "\(unselected.count == 1 ? " is" : "s are") not among the selected frames "
              + "(re-record with --record failed to remove them)")
        }
        staleFailures = stale.count
      }
    }
    try staged?.commit()
    if let removal { console.standardOutput(removal) }
    return CheckReport.Scene(
      name: job.name, golden: folder, rerecord: job.rerecord, frames: frames,
      problems: problems, problemFailures: staleFailures, seconds: BenchClock.now() - started)
  }

  /// A copy of the golden folder to re-record into: a hidden sibling holding a hard link to each
  /// of its files (a copy where a link cannot be made), which `commit()` exchanges with it. Nil,
  /// so that goldens are written in place, where the folder holds folders of its own.
  static func stagedGoldens(_ folder: String) throws -> OutputFolder? {
    let names = Folders.names(in: folder) ?? []
    for name in names {
      var info = stat()
      guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
        return nil
      }
    }
    let staged = try OutputFolder(folder, contents: "golden files") { _ in true }
    for name in names {
      let (from, to) = (folder + "/" + name, staged.temporary + "/" + name)
      guard link(from, to) != 0 else { continue }
      do {
        try staged.write(
          try FileReader.read(from, limit: 1 << 30, kind: "golden files"), name: name)
      } catch {
        staged.discard()
        throw error
      }
    }
    return staged
  }

  /// Clears the actual and diff images an earlier check left in `folder` (ending in `/`) for
  /// the frames about to be checked, so that what it holds for them is this run's failures;
  /// other files stay, and the folder goes once empty.
  /// `.render-anim-artifacts/NAME` beside the golden folder `…/NAME/`.
  static func defaultArtifacts(for folder: String) -> String {
    var trimmed = trimmingSlashes(folder)
    // `.`, `..` or a path ending in them has no name of its own: use the real one.
    if trimmed == "." || trimmed == ".." || trimmed.hasSuffix("/.") || trimmed.hasSuffix("/..") {
      if let real = realpath(trimmed, nil) {
        trimmed = String(cString: real)
        free(real)
      }
    }
    guard let slash = trimmed.lastIndex(of: "/") else {
      return ".render-anim-artifacts/" + trimmed
    }
    let parent = String(trimmed[..<slash])
    let name = String(trimmed[trimmed.index(after: slash)...])
    return parent + "/.render-anim-artifacts/" + name
  }

  static func trimmingSlashes(_ path: String) -> String {
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    return trimmed
  }

  /// `frame-0003.png`, or `frame-0003.png … frame-0007.png`.
  static func spanText(_ first: Int, _ last: Int) -> String {
    first == last
      ? SceneExporter.frameName(first)
      : "\(SceneExporter.frameName(first)) … \(SceneExporter.frameName(last))"
  }

  /// The scene's name in reports: a built-in's, or the file's without its folder and `.json`.
  static func sceneName(_ argument: String) -> String {
    if argument == "-" { return "standard input" }
    let file = argument.split(separator: "/").last.map(String.init) ?? argument
    return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
  }

  /// The options a re-record command leaves out: the run's own record mode, and what belongs to
  /// the whole run rather than to the failing frames — its reports and results (pasted, the
  /// command would overwrite them with its own part) and its shard (the scenes are named).
  static let runWideOptions = ["record", "junit", "report", "results", "shard", "shards"]

  /// The command line that re-records the failing frames: the same arguments with `--record
  /// failed` and without `runWideOptions`, quoted for a POSIX shell.
  static func rerecordCommand(_ raw: [String], scene: String? = nil) -> String {
    // For one of several scenes: that scene alone, with the other options.
    let raw =
      scene.map { scene in [scene] + optionsOnly(raw) } ?? raw
    var kept: [String] = []
    var skipNext = false
    for argument in raw {
      if skipNext {
        skipNext = false
        continue
      }
      if runWideOptions.contains(where: { argument == "--" + $0 }) {
        skipNext = true
        continue
      }
      if runWideOptions.contains(where: { argument.hasPrefix("--" + $0 + "=") }) { continue }
      kept.append(argument)
    }
    func quoted(_ s: String) -> String {
      let plain = s.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "-_./,=:@%+".unicodeScalars.contains($0)
      }
      return plain && !s.isEmpty ? s : "'" + s.replacingAll("'", with: "'\\''") + "'"
    }
    return (["render-anim", "check"] + kept + ["--record", "failed"]).map(quoted)
      .joined(separator: " ")
  }

  /// The arguments without the positional scene names (an option's value kept with it).
  static func optionsOnly(_ raw: [String]) -> [String] {
    var kept: [String] = []
    var takesValue = false
    for argument in raw {
      if takesValue {
        kept.append(argument)
        takesValue = false
      } else if argument.hasPrefix("-") && argument != "-" {
        kept.append(argument)
        let name = String(argument.drop(while: { $0 == "-" }))
        takesValue =
          !name.contains("=") && spec.options.contains { $0.name == name && $0.kind != .flag }
          || argument == "-o"
      }
    }
    return kept
  }

  /// The HTML report and each failing frame's expected, actual and overlay diff images.
  /// Returns how many failing frames had artifacts that could not be read (the report shows
  /// their figures without images).
  @discardableResult
  static func writeHTML(
    _ report: CheckReport, comparison method: ComparisonMethod, into folder: OutputFolder
  ) throws -> Int {
    var images: [String: CheckReport.FrameImages] = [:]
    var unread = 0
    for (s, scene) in report.scenes.enumerated() {
      for frame in scene.frames where frame.result == .failed {
        guard let written = frame.artifacts else { continue }
        guard let actual = try? PNGCodec.readStraightRGBA(written.actual) else {
          unread += 1
          continue
        }
        let stem = "\(s)-" + SceneExporter.frameName(frame.index).dropLast(4)
        let readable = try? PNGCodec.readStraightRGBA(frame.golden, regularFileOnly: true)
        guard written.diff != nil, let expected = readable, expected.width == actual.width,
          expected.height == actual.height
        else {
          // No diff: the actual image, beside the golden when that is of another size.
          try folder.write(
            PNGCodec.encode(straightRGBA: actual.rgba, width: actual.width, height: actual.height),
            name: stem + "-actual.png")
          var shown: String?
          if let other = readable {
            try folder.write(
              PNGCodec.encode(straightRGBA: other.rgba, width: other.width, height: other.height),
              name: stem + "-expected.png")
            shown = stem + "-expected.png"
          }
          images["\(s)/\(frame.index)"] = CheckReport.FrameImages(
            expected: shown, actual: stem + "-actual.png", diff: nil)
          continue
        }
        let diff = ImageDifference.image(
          expected: expected.rgba, actual: actual.rgba, width: actual.width,
          height: actual.height, method: method, style: .overlay)
        try folder.write(
          PNGCodec.encode(
            straightRGBA: expected.rgba, width: expected.width, height: expected.height),
          name: stem + "-expected.png")
        try folder.write(
          PNGCodec.encode(straightRGBA: actual.rgba, width: actual.width, height: actual.height),
          name: stem + "-actual.png")
        try folder.write(
          PNGCodec.encode(straightRGBA: diff.rgba, width: diff.width, height: actual.height),
          name: stem + "-diff.png")
        images["\(s)/\(frame.index)"] = CheckReport.FrameImages(
          expected: stem + "-expected.png", actual: stem + "-actual.png", diff: stem + "-diff.png")
      }
    }
    let html = report.html { s, frame in images["\(s)/\(frame.index)"] }
    try folder.write(Array(html.utf8), name: "index.html")
    return unread
  }
}

extension String {
  /// Every `target` replaced by `replacement`.
  func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: Character(target), omittingEmptySubsequences: false).joined(
      separator: replacement)
  }
}
