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
    abstract: "Render a scene and compare every frame with its golden PNG.",
    discussion: """
      Each frame is compared with GOLDEN/frame-NNNN.png (the names -o DIR/ writes) after both are \
      decoded to straight RGBA8. A golden that cannot be read, or that has no frame in the render \
      (a longer earlier recording), is a failure too. Failures write actual.png and diff.png under \
      --artifacts and say where. --record defaults to never when the environment variable CI is \
      set, so a CI run can never pass by recording, and to missing otherwise; failed and all also \
      remove goldens beyond the render. The last line is 'N passed, M failed'; exit 0 when \
      nothing failed, 1 otherwise.
      """,
    options: [
      OptionSpec(
        "scene", kind: .positional, valueName: "cats|cards|file.json",
        help: "A built-in scene or a scene file.", isRequired: true),
      OptionSpec(
        "golden", valueName: "dir", help: "The folder of golden frames.", isRequired: true),
      OptionSpec(
        "record", value: .choice(of: RecordMode.self), valueName: "missing|failed|all|never",
        help: "When to write goldens.", defaultDescription: "never with CI set, else missing"),
    ]
      + ComparisonOptions.specs(budgetPer: "frame")
      + [
        OptionSpec(
          "artifacts", valueName: "dir", help: "Where failing frames' actual and diff images go.",
          defaultDescription: "GOLDEN-artifacts")
      ]
      + SceneOptions.options(sceneHelp: "").filter {
        !["output", "frame", "trace", "loop", "png-compression"].contains($0.name)
      })

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    guard let name = arguments.positional(0) else {
      throw UsageError("Missing <cats|cards|file.json>")
    }
    let golden = try arguments.required("golden")
    let folder = golden.hasSuffix("/") ? golden : golden + "/"
    let mode: RecordMode =
      try arguments.choice("record")
      ?? .default(environment: getenv("CI").map { ["CI": String(cString: $0)] } ?? [:])
    let (tolerance, budget) = try ComparisonOptions.parse(arguments)
    let artifacts = (arguments.value("artifacts") ?? String(folder.dropLast()) + "-artifacts") + "/"
    let settings = try SceneOptions.settings(arguments, needsOutput: false)
    let scene = try SceneOptions.scene(SceneSource(argument: name), settings, console: &console)
    if mode != .never { try Folders.create(folder) }
    var passed = 0
    var failed = 0
    var recorded = 0
    let count = scene.frameCount
    let renderer = FrameRenderer(scene: scene, threads: settings.threads)
    let comparison = GoldenComparison(tolerance: tolerance, maxDifferingPixels: budget)
    try renderer.render(
      Array(0..<count),
      prepare: { index, frame, _ in
        let name = SceneExporter.frameName(index)
        let stem = artifacts + name.dropLast(4)
        return comparison.check(
          frame, golden: folder + name, mode: mode,
          artifacts: .init(actual: stem + "-actual.png", diff: stem + "-diff.png"))
      }
    ) { index, outcome in
      switch outcome {
      case .passed: passed += 1
      case .recorded: recorded += 1
      case .failed(let reason, _):
        failed += 1
        console.standardOutput("\(SceneExporter.frameName(index)): \(reason)\n")
      }
    }
    // Goldens the render has no frame for: failures, or removed when re-recording.
    let stale = (Folders.names(in: folder) ?? []).compactMap(SceneExporter.frameIndex(of:))
      .filter { $0 >= count }.sorted()
    if let first = stale.first, let last = stale.last {
      let span =
        first == last
        ? SceneExporter.frameName(first)
        : "\(SceneExporter.frameName(first)) … \(SceneExporter.frameName(last))"
      if mode == .all || mode == .failed {
        for index in stale { unlink(folder + SceneExporter.frameName(index)) }
        console.standardOutput(
          "removed \(stale.count) golden frame\(stale.count == 1 ? "" : "s") the render has no "
            + "frame for (\(span))\n")
      } else {
        failed += stale.count
        console.standardOutput(
          "\(span): no such frame in the render (it has \(count) frames, 0 to \(count - 1))\n")
      }
    }
    if recorded > 0 { console.standardOutput("recorded \(recorded) golden frames in \(folder)\n") }
    console.standardOutput("\(passed + recorded) passed, \(failed) failed\n")
    return failed == 0 ? 0 : 1
  }
}
