import FileIO
import SceneFormat
import SceneGraph

#if canImport(Glibc)
import Glibc
#endif

/// `render-anim layout`: the laid-out layer tree of a scene at one time, as JSON.
enum LayoutCommand: Command {
  /// The scene options that bear on layout (no frames are rendered).
  static let sceneOptions = [
    "tap", "device", "scale", "swiftui", "color-scheme", "duration", "allow-files-outside",
    "font",
  ]

  static let spec = CommandSpec(
    name: "layout",
    abstract: "Write a scene's laid-out layers at one time as JSON.",
    discussion: """
      Prints {"layers": [{"id", "path", "frame": {"x", "y", "width", "height"}, "children": […], \
      "lines": [{"text", "baseline", "width"}]}]}: every layer with its JSON path in the scene file \
      (and its id when it has one), its frame in screen points from the display's top left \
      (padding included; before offset, rotation and scale, which change no layout), its children \
      (stack children, background and overlay content, a mask), and for text its lines with each \
      baseline's height on the screen. Numbers are rounded to 1/1000 pt.
      """,
    options: [
      OptionSpec(
        "file", kind: .positional, valueName: "file.json",
        help: "The scene file, cats or cards; - reads standard input.", isRequired: true),
      OptionSpec(
        "at", value: .number(0...SceneLimits.time), valueName: "seconds",
        help: "The time whose layout is written (a .position may move with state).",
        defaultValue: "0"),
      OptionSpec(
        "output", short: "o", valueName: "layout.json|-", help: "Where the JSON goes.",
        defaultValue: "-"),
    ] + SceneOptions.options(sceneHelp: "").filter { sceneOptions.contains($0.name) })

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    guard let file = arguments.positional(0) else { throw UsageError("Missing <file.json>") }
    let time = try arguments.requiredNumber("at")
    let output = try arguments.required("output")
    try OutputOptions.checkNotInput(output, option: "-o", input: file)
    var info = stat()
    if output.hasSuffix("/") || (stat(output, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
      throw ValueParsers.invalid("output", output, "a folder; the layout is one JSON file")
    }
    if let dot = output.lastIndex(of: "."), !output[dot...].contains("/"),
      ["gif", "png", "apng", "webp", "jpg", "jpeg"].contains(
        output[output.index(after: dot)...].lowercased())
    {
      throw ValueParsers.invalid(
        "output", output, "the layout is JSON, not an image: give a .json file")
    }
    let tapTexts = arguments.allValues("tap")
    guard tapTexts.count <= SceneOptions.maximumTaps else {
      throw UsageError("At most \(SceneOptions.maximumTaps) '--tap' options")
    }
    let settings = SceneOptions.Settings(
      taps: tapTexts.isEmpty ? nil : try tapTexts.map { try SceneOptions.tap($0) },
      device: arguments.value("device").flatMap(Device.named),
      scale: try arguments.integer("scale").map(Double.init),
      swiftUI: try arguments.requiredChoice("swiftui"),
      colorScheme: try arguments.choice("color-scheme"), fps: 50, hold: 0,
      duration: try arguments.number("duration"), loop: 0, matte: .white, frame: nil, trace: nil,
      threads: 1, font: arguments.value("font"), compression: .default, quiet: true,
      allowsFilesOutside: arguments.flag("allow-files-outside"), output: .none)
    let scene = try SceneOptions.scene(SceneSource(argument: file), settings, console: &console)
    let json = scene.layoutJSON(at: time)
    if OutputFile.isStandardOutput(output) {
      console.standardOutput(json)
    } else {
      try OutputFile.write(Array(json.utf8), to: output)
    }
    return 0
  }
}
