import Codecs
import Dispatch
import FileIO
import Raster
import RenderAnimKit
import SceneFormat
import SceneGraph
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The options `cats` and `cards` share, and how they render a scene to GIF, PNG frames or one
/// PNG.
enum SceneOptions {
  static let maximumTaps = SceneLimits.taps
  static let maximumTime = SceneLimits.time
  /// `--threads` above this is refused; within it, the count is clamped to the cores.
  static let maximumThreads = 1024
  /// The highest frame rate: 50 for a GIF (whose delays are whole centiseconds, at least 2).
  static let maximumFrameRate = 120
  static let maximumGIFFrameRate = SceneExporter.maximumGIFFrameRate

  static func options(sceneHelp: String) -> [OptionSpec] {
    [
      OptionSpec(
        "tap", kind: .repeated, valueName: "x,y[@t]",
        help:
          "A tap at screen point x,y (from the top left of the display) at t seconds (default 0). Repeatable. \(sceneHelp)"
      ),
      OptionSpec(
        "device", value: .choice(Device.presets.map(\.name)), valueName: "name",
        help: "The iPhone: " + Device.presets.map(\.name).joined(separator: ", ") + ".",
        defaultDescription: "the scene's; 14 (390×844 pt) for cats and cards"),
      OptionSpec(
        "scale", value: .integer(1...3), valueName: "1|2|3", help: "Pixels per point.",
        defaultDescription: "the scene's, or 2"),
      OptionSpec(
        "swiftui", value: .choice(of: SwiftUIVersion.self), valueName: "17|legacy",
        help:
          "SDK defaults: 17 = .spring() response 0.5, ζ 1, continuous corners; legacy = 0.55, ζ 0.825, circular corners.",
        defaultValue: "17"),
      OptionSpec(
        "color-scheme", value: .choice(of: ColorScheme.self), valueName: "light|dark",
        help: "The appearance: the value of every system colour (systemBlue, label, …).",
        defaultDescription: "the scene's canvas.colorScheme, or light"),
      OptionSpec(
        "fps", value: .integer(1...maximumFrameRate), valueName: "n",
        help: "Frames per second (at most \(maximumGIFFrameRate) for a GIF).", defaultValue: "50"),
      OptionSpec(
        "hold", value: .number(0...maximumTime), valueName: "seconds",
        help: "Still frames after the animation ends.", defaultValue: "0.5"),
      OptionSpec(
        "duration", value: .number(0.01...maximumTime), valueName: "seconds",
        help:
          "Render this long (frames 0 ..< seconds × fps, rounded up to a whole frame; --hold is ignored), whatever the animations do: what a scene that repeats for ever needs.",
        defaultDescription: "the scene's duration, or until the last animation ends"),
      OptionSpec(
        "loop", value: .integer(SceneExporter.loopCounts), valueName: "n",
        help: "How many times a GIF, APNG or WebP plays; 0 loops forever.", defaultValue: "0"),
      OptionSpec(
        "format", value: .choice(of: OutputFormat.self), valueName: "gif|apng|webp|png-frames",
        help:
          "What -o (or scene's --out-dir) writes, when its name does not say: gif; apng (animated PNG, lossless, full alpha: .apng, or .png with --format apng); webp (animated WebP, lossless unless --quality); png-frames (a folder of frame-NNNN.png). A name whose extension says another format is refused.",
        defaultDescription: "from -o's extension; gif for - and devices"),
      OptionSpec(
        "quality", value: .number(0...100), valueName: "0-100",
        help:
          "WebP only: lossy WebP at this quality (libwebp's, 0 smallest … 100 best; 4:2:0 chroma blurs fine coloured detail such as text). Without it WebP is lossless, pixel-exact. GIF has its own palette and APNG is always lossless: they refuse it.",
        defaultDescription: "lossless"),
      OptionSpec(
        "max-bytes", value: .integer(1...maximumBudget), valueName: "n",
        help:
          "GIF and WebP only: the best quality that fits in n bytes, found deterministically. GIF: lossless if it fits, else lossy LZW with the loss chosen per frame by measured error, then fewer palette colours, then fewer frames a second; WebP: lossless if it fits, else the highest lossy quality that fits, then fewer frames a second. Says what it chose on stderr; exits 1, naming the smallest size reached, when nothing fits.",
        defaultDescription: "no budget"),
      OptionSpec(
        "matte", value: .color, valueName: "colour",
        help:
          "A GIF of a scene whose background is clear is transparent: pixels less than half opaque become transparent, and the rest (shadow edges, anti-aliasing) are composited over this opaque colour — the page the GIF will sit on (#RRGGBB, or a colour name in its light value).",
        defaultValue: "white"),
      OptionSpec(
        "frame", value: .integer(0...1_000_000), valueName: "n",
        help: "Write only frame n (time n / fps) as one PNG."),
      OptionSpec(
        "frames", valueName: "list",
        help:
          "Only these frames: indices and ranges, 0,10,20-30 (frame-NNNN.png keeps the index)."),
      OptionSpec(
        "times", valueName: "list",
        help:
          "Only the frames at these times: seconds or settled, 0,0.25,settled (the first frame at or after each; settled: the first at which every animation has ended)."
      ),
      OptionSpec(
        "trace", valueName: "file.csv",
        help:
          "Write every frame's animated values, in points (- for stdout). With it, -o may be left out."
      ),
      OptionSpec(
        "threads", value: .integer(1...maximumThreads), valueName: "n",
        help: "Frames rendered at once (at most the number of cores).",
        defaultDescription: "the number of cores"),
      OptionSpec(
        "allow-files-outside", kind: .flag,
        help:
          "Let the scene read files outside its own folder (pathFile, image); refused by default, since scene files may come from untrusted sources."
      ),
      ImageOptions.font,
      ImageOptions.pngCompression,
      OptionSpec("quiet", kind: .flag, help: "No progress bar and no closing line."),
      OptionSpec(
        "output", short: "o", valueName: "out.gif|out.apng|out.webp|dir/|frame.png",
        help:
          "An animated GIF, APNG (.apng) or WebP (.webp); a folder (ending in /) for PNG frames frame-0000.png … (replaced as a whole; an existing one may hold only frames); or one PNG: frame --frame, else the last (settled) frame (with --format apng, a .png name gets the APNG). - writes a GIF (or what --format names; with --frame, a PNG) to stdout; a device such as /dev/null gets the same. Required unless --trace is given."
      ),
    ]
  }

  /// Validated common settings.
  struct Settings {
    var taps: [Tap]?
    var device: Device?
    var scale: Double?
    var swiftUI: SwiftUIVersion
    var colorScheme: ColorScheme?
    var fps: Double
    var hold: Double
    var duration: Double?
    var loop: Int
    /// What a transparent GIF's partly transparent pixels are composited over.
    var matte: GIFMatte
    /// `--quality`: lossy WebP at this quality (nil: lossless).
    var quality: Double?
    /// `--max-bytes`: the GIF's or WebP's byte budget.
    var maxBytes: Int?
    var frame: Int?
    /// `--frames` / `--times`, resolved against the scene when it is built.
    var selection: FrameSelection?
    var trace: String?
    var threads: Int
    var font: String?
    var compression: PNGCompression
    var quiet: Bool
    /// In a batch (`--out-dir`), the scene's name: its byte budget's choice is reported under
    /// it even though the batch is otherwise quiet.
    var batchName: String? = nil
    var allowsFilesOutside: Bool
    var output: Output
    /// The golden folder a `check` that records writes into (nil otherwise): like an output
    /// folder, it may not hold a file the scene reads.
    var goldens: String? = nil

    enum Output {
      /// An animated GIF, APNG or WebP.
      case animation(AnimatedFormat, String)
      case frames(String)
      case frame(String)
      /// Only the trace.
      case none
    }
  }

  static func settings(_ arguments: ParsedArguments, needsOutput: Bool = true) throws -> Settings {
    let device = arguments.value("device").flatMap(Device.named)
    let tapTexts = arguments.allValues("tap")
    guard tapTexts.count <= maximumTaps else {
      throw UsageError("At most \(maximumTaps) '--tap' options")
    }
    let taps = try tapTexts.map { try tap($0) }
    let frame = try arguments.integer("frame")
    let selection = try selection(arguments)
    if frame != nil, selection != nil {
      throw UsageError(
        "'--frame' writes one frame; '--frames' and '--times' select several: give one")
    }
    let trace = arguments.value("trace")
    let kind: Settings.Output
    if !needsOutput {
      kind = .none
    } else if let output = arguments.value("output") {
      kind = try outputKind(
        output, frame: frame, format: try arguments.choice("format") as OutputFormat?)
    } else if trace != nil {
      guard frame == nil else { throw UsageError("'--frame' writes a PNG: give '-o' a .png file") }
      kind = .none
    } else {
      throw UsageError(
        "Missing expected argument '-o <out.gif|out.apng|out.webp|dir/|frame.png>' (or --trace)")
    }
    let quality = needsOutput ? try arguments.number("quality") : nil
    if quality != nil {
      try checkQuality(for: kind)
    }
    let maxBytes = needsOutput ? try arguments.integer("max-bytes") : nil
    if maxBytes != nil {
      try checkBudget(for: kind, quality: quality)
    }
    if let trace { try OutputOptions.checkApart(trace: trace, from: kind) }
    if needsOutput, arguments.isGiven("matte") {
      guard case .animation(.gif, _) = kind else {
        throw UsageError(
          "'--matte' is the page a GIF's one-bit alpha is composited over: APNG, WebP and PNG "
            + "keep full alpha, so it would change nothing (give -o out.gif)")
      }
    }
    let fps = try arguments.requiredInteger("fps")
    if case .animation(.gif, _) = kind, fps > maximumGIFFrameRate {
      throw ValueParsers.invalid(
        "fps", String(fps),
        "a GIF plays at most \(maximumGIFFrameRate) frames per second (delays are whole centiseconds)"
      )
    }
    return Settings(
      taps: tapTexts.isEmpty ? nil : taps, device: device,
      scale: try arguments.integer("scale").map(Double.init),
      swiftUI: try arguments.requiredChoice("swiftui"),
      colorScheme: try arguments.choice("color-scheme"), fps: Double(fps),
      hold: try arguments.requiredNumber("hold"), duration: try arguments.number("duration"),
      // `check` has no GIF or PNG output, hence no --loop or --png-compression.
      loop: needsOutput ? try arguments.requiredInteger("loop") : 0,
      matte: needsOutput ? try matte(arguments.required("matte")) : .white, quality: quality,
      maxBytes: maxBytes, frame: frame, selection: selection, trace: trace,
      threads: try arguments.integer("threads") ?? FrameRenderer.processorCount,
      font: arguments.value("font"),
      compression: needsOutput ? try arguments.requiredChoice("png-compression") : .default,
      quiet: arguments.flag("quiet"), allowsFilesOutside: arguments.flag("allow-files-outside"),
      output: kind)
  }

  /// `--matte`: an opaque colour (the page a GIF sits on); names take their light values.
  static func matte(_ text: String) throws -> GIFMatte {
    let color = try ValueParsers.color(text, option: "matte")
    guard color.alpha >= 1 else {
      throw ValueParsers.invalid(
        "matte", text, "a matte is opaque (the colour of the page): give one without alpha")
    }
    return GIFMatte(color)
  }

  /// `--frames` and `--times` parsed (nil when neither is given).
  static func selection(_ arguments: ParsedArguments) throws -> FrameSelection? {
    let frames = arguments.value("frames")
    let times = arguments.value("times")
    guard frames != nil || times != nil else { return nil }
    var selection = FrameSelection()
    do {
      if let frames { selection.frames = try FrameSelection.frames(frames) }
    } catch { throw ValueParsers.invalid("frames", frames ?? "", error.description) }
    do {
      if let times { selection.times = try FrameSelection.times(times) }
    } catch { throw ValueParsers.invalid("times", times ?? "", error.description) }
    return selection
  }

  /// The frames `selection` picks in `scene` (every frame without one), or a usage error naming
  /// the option.
  static func indices(_ selection: FrameSelection?, in scene: Scene) throws -> [Int] {
    guard let selection else { return Array(0..<scene.frameCount) }
    do { return try selection.indices(in: scene) } catch {
      let option =
        selection.times.isEmpty
        ? "--frames" : selection.frames.isEmpty ? "--times" : "--frames/--times"
      throw UsageError("'\(option)': \(error.description)")
    }
  }

  /// What `-o` asks for: by its form (`-`, a folder ending in `/`, a device), its extension
  /// and `--format`, which must agree.
  static func outputKind(
    _ output: String, frame: Int?, format: OutputFormat? = nil
  ) throws(UsageError) -> Settings.Output {
    let lowered = output.lowercased()
    if frame != nil {
      if let format {
        throw UsageError(
          "'--frame' writes one PNG; '--format \(format.rawValue)' names an animation: give one")
      }
      guard
        OutputFile.isStandardOutput(output) || lowered.hasSuffix(".png")
          || OutputOptions.isDevice(output)
      else {
        throw UsageError(
          "Invalid value '\(output)' for '-o': '--frame' writes one PNG; give a .png file or -")
      }
      return .frame(output)
    }
    if output.hasSuffix("/") {
      guard format == nil || format == .pngFrames else {
        throw contradiction(output, "a folder of PNG frames", format)
      }
      return .frames(output)
    }
    if format == .pngFrames {
      throw UsageError(
        "Invalid value '\(output)' for '-o': '--format png-frames' writes a folder; end it with /")
    }
    let named: AnimatedFormat? = AnimatedFormat.allCases.first {
      lowered.hasSuffix("." + $0.rawValue)
    }
    if let named {
      if let format, format.animated != named {
        throw contradiction(output, "an animated \(named.name)", format)
      }
      return .animation(named, output)
    }
    if lowered.hasSuffix(".png") {
      switch format {
      case nil: return .frame(output)  // the last frame: everything settled
      case .apng: return .animation(.apng, output)
      default: throw contradiction(output, "one PNG (or an APNG with --format apng)", format)
      }
    }
    if let animated = format?.animated { return .animation(animated, output) }
    if OutputFile.isStandardOutput(output) || OutputOptions.isDevice(output) {
      return .animation(.gif, output)
    }
    throw UsageError(
      "Invalid value '\(output)' for '-o': expected a .gif, .apng or .webp file, a folder ending in /, or a .png file"
    )
  }

  /// `-o`'s name says one format and `--format` another.
  static func contradiction(
    _ output: String, _ named: String, _ format: OutputFormat?
  ) -> UsageError {
    UsageError(
      "'-o \(output)' writes \(named), but '--format \(format?.rawValue ?? "")' asks for "
        + (format?.description ?? "another format") + ": give one, or make them agree")
  }

  /// The largest `--max-bytes` (1 TiB).
  static let maximumBudget = 1 << 40

  /// `--max-bytes` is for GIF and WebP, and WebP's quality is then its to choose.
  static func checkBudget(for output: Settings.Output, quality: Double?) throws(UsageError) {
    switch output {
    case .animation(.gif, _): return
    case .animation(.webp, _):
      if quality != nil {
        throw UsageError(
          "'--max-bytes' chooses WebP's quality itself; '--quality' sets it: give one")
      }
    case .animation(let format, _):
      throw UsageError(
        "'--max-bytes' is a byte budget for GIF and WebP; \(format.name) is always lossless")
    default:
      throw UsageError(
        "'--max-bytes' is a byte budget for GIF and WebP; it needs -o out.gif or out.webp")
    }
  }

  /// `--quality` is for lossy WebP only.
  static func checkQuality(for output: Settings.Output) throws(UsageError) {
    switch output {
    case .animation(.webp, _): return
    case .animation(let format, _):
      throw UsageError(
        "'--quality' sets lossy WebP's quality; \(format.name) "
          + (format == .apng ? "is always lossless" : "has no such setting"))
    default:
      throw UsageError("'--quality' sets lossy WebP's quality; it needs -o out.webp")
    }
  }

  /// `x,y` or `x,y@t`, t in 0...60 s (whether it is inside the screen is checked once the
  /// scene's size is known).
  static func tap(_ text: String) throws -> Tap {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    // Spaces around the numbers are allowed, as in every list option (`--frames 0, 10`).
    let xy = parts[0].split(separator: ",", omittingEmptySubsequences: false).map {
      ValueParsers.decimal($0)
    }
    guard parts.count <= 2, xy.count == 2, let x = xy[0], let y = xy[1], x.isFinite, y.isFinite
    else {
      throw ValueParsers.invalid("tap", text, "expected x,y or x,y@t in points and seconds")
    }
    var time = 0.0
    if parts.count == 2 {
      guard let t = ValueParsers.decimal(parts[1]), t.isFinite else {
        throw ValueParsers.invalid(
          "tap", text, "the time after @ must be a decimal number of seconds, as 300,500@0.5")
      }
      guard (0...maximumTime).contains(t) else {
        throw ValueParsers.invalid(
          "tap", text, "the time after @ must be 0 to \(Int(maximumTime)) seconds")
      }
      time = t
    }
    return Tap(x: x, y: y, time: time)
  }

  /// Runs a scene command: parses the settings, builds the scene and renders it.
  static func run(
    _ source: SceneSource, _ arguments: ParsedArguments, console: inout Console
  ) throws
    -> Int32
  {
    let settings = try settings(arguments)
    return try run(scene(source, settings, console: &console), settings, console: &console)
  }

  /// Renders `scene` as the settings ask, and writes the trace. The output and the trace are
  /// written to temporaries and land together, or neither does; a line on stderr says what was
  /// written (unless `--quiet`).
  static func run(_ scene: Scene, _ settings: Settings, console: inout Console) throws -> Int32 {
    let started = BenchClock.now()
    let exporter = SceneExporter(scene: scene, threads: settings.threads)
    let count = scene.frameCount
    let bar = ProgressBar(enabled: !settings.quiet && isatty(STDERR_FILENO) != 0)
    let progress: SceneExporter.Progress = { done, total in bar.step(done, of: total) }
    var outputs: [any PendingOutput] = []
    var written: [String] = []
    // Open everything first, so a bad destination fails before any rendering.
    let trace = try settings.trace.map { (path) throws(FileError) in try OutputFile(path) }
    switch settings.output {
    case .none: break
    case .frame(let path):
      var chosen = settings.frame
      if let selection = settings.selection {
        let picked = try indices(selection, in: scene)
        guard picked.count == 1 else {
          throw UsageError(
            "'--frames'/'--times' pick \(picked.count) frames: give -o a folder ending in / for them"
          )
        }
        chosen = picked[0]
      }
      let index = chosen ?? count - 1
      guard index < count else {
        throw UsageError("'--frame' \(index) is past the last frame, \(count - 1)")
      }
      let file = try OutputFile(path)
      let bytes = try exporter.png(frame: index, compression: settings.compression)
      try file.write(bytes)
      outputs.append(file)
      written.append("\(Self.name(path)) (frame \(index), \(Self.bytes(bytes.count)))")
    case .frames(let folder):
      let picked = try settings.selection.map { try indices($0, in: scene) }
      let output = try SceneExporter.framesFolder(folder)
      try exporter.writePNGFrames(
        into: output, compression: settings.compression, frames: picked, progress: progress)
      outputs.append(output)
      let framesText =
        picked.map { "\($0.count) of \(count) frame\(count == 1 ? "" : "s")" }
        ?? "\(count) frame\(count == 1 ? "" : "s")"
      written.append("\(folder) (\(framesText))")
    case .animation(let format, let path):
      if settings.selection != nil {
        throw UsageError(
          "'--frames'/'--times' select PNG frames: give -o a folder ending in / (or a .png for one frame)"
        )
      }
      let file = try OutputFile(path)
      let counted = CountingSink(file)
      // The frames written: fewer where a byte budget lowered the frame rate.
      var framesWritten = count
      switch format {
      case .gif where settings.maxBytes != nil, .webp where settings.maxBytes != nil:
        let budget = settings.maxBytes ?? 0
        let choice =
          format == .gif
          ? try exporter.gif(maxBytes: budget, loopCount: settings.loop, matte: settings.matte)
          : try exporter.webp(maxBytes: budget, loopCount: settings.loop)
        try counted.write(choice.bytes)
        framesWritten = choice.frames
        if !settings.quiet || settings.batchName != nil {
          let label = settings.batchName.map { "\($0): " } ?? ""
          console.standardError(
            "render-anim: \(label)--max-bytes \(budget): \(choice.settings), "
              + "\(Self.bytes(choice.bytes.count))\n")
        }
      case .gif:
        try exporter.writeGIF(
          to: counted, loopCount: settings.loop, matte: settings.matte, progress: progress)
      case .apng:
        try exporter.writeAPNG(to: counted, loopCount: settings.loop, progress: progress)
      case .webp:
        try exporter.writeWebP(
          to: counted, quality: settings.quality, loopCount: settings.loop, progress: progress)
      }
      outputs.append(file)
      written.append(
        "\(Self.name(path)) (\(framesWritten) frame\(framesWritten == 1 ? "" : "s"), "
          + "\(Self.bytes(counted.count)))")
    }
    if let trace {
      try trace.write(Array(exporter.trace().utf8))
      outputs.append(trace)
      written.append("\(Self.name(trace.path)) (trace, \(count) rows)")
    }
    try Outputs.commit(outputs)
    bar.finish()
    if !settings.quiet {
      let seconds = (BenchClock.now() - started).formatted(decimals: 2)
      console.standardError(
        "render-anim: wrote \(written.joined(separator: " and ")) in \(seconds) s\n")
    }
    return 0
  }

  static func name(_ path: String) -> String {
    OutputFile.isStandardOutput(path) ? "standard output" : path
  }

  /// `825,071 bytes`.
  static func bytes(_ count: Int) -> String {
    var digits = String(count)
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + digits.suffix(3) + grouped
      digits.removeLast(3)
    }
    return digits + grouped + (count == 1 ? " byte" : " bytes")
  }

  /// frame-0000.png, frame-0001.png, …
  static func frameName(_ index: Int) -> String { SceneExporter.frameName(index) }
}

/// Passes bytes on and counts them.
final class CountingSink: ByteSink {
  let sink: any ByteSink
  private(set) var count = 0

  init(_ sink: any ByteSink) { self.sink = sink }

  func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    try sink.write(bytes)
    count += bytes.count
  }
}

extension Double {
  /// The number with `decimals` digits after the point: `1.23`.
  func formatted(decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let whole = Int((self * scale).rounded())
    let text = String(whole)
    guard decimals > 0 else { return text }
    let padded = String(repeating: "0", count: max(0, decimals + 1 - text.count)) + text
    return padded.dropLast(decimals) + "." + padded.suffix(decimals)
  }
}

/// A one-line progress bar on stderr, when it is a terminal.
final class ProgressBar: @unchecked Sendable {
  let enabled: Bool
  private var shown = -1

  init(enabled: Bool) { self.enabled = enabled }

  func step(_ done: Int, of total: Int) {
    guard enabled else { return }
    let width = 30
    let filled = done * width / max(1, total)
    guard filled != shown || done == total else { return }
    shown = filled
    let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    Console.standard.standardError("\r[\(bar)] \(done)/\(total) frames")
  }

  func finish() {
    if enabled { Console.standard.standardError("\n") }
  }
}

/// Where a scene comes from: a built-in scene's compiled-in file, or a scene file (`-` is
/// standard input).
enum SceneSource {
  case builtIn(String)
  case file(String)

  /// `cats` or `cards`, always the built-in scenes — a file or folder of that name in the
  /// working folder is `./cats` (once a file there took over, so `cards -o cards/` made a later
  /// `check cards` find a folder of frames); anything else is a path.
  init(argument: String) {
    self = SceneFile.builtIn(argument) != nil ? .builtIn(argument) : .file(argument)
  }

  /// The argument as given.
  var argument: String {
    switch self {
    case .builtIn(let name): name
    case .file(let path): path
    }
  }
}

extension SceneOptions {
  /// The scene with these settings. Notes (font fallbacks, taps that hit nothing) go to stderr;
  /// a `--tap` outside the screen is a usage error.
  static func scene(
    _ source: SceneSource, _ settings: Settings, console: inout Console
  ) throws
    -> Scene
  {
    var options = SceneSettings(
      device: settings.device, scale: settings.scale, swiftUI: settings.swiftUI,
      frameRate: settings.fps, hold: settings.hold, taps: settings.taps, fontFile: settings.font,
      allowsFilesOutside: settings.allowsFilesOutside)
    options.colorScheme = settings.colorScheme
    options.duration = settings.duration
    func load(_ options: SceneSettings) throws(SceneFileError) -> LoadedScene {
      switch source {
      case .builtIn(let name):
        return try SceneFile.load(text: SceneFile.builtIn(name) ?? "", settings: options)
      case .file(let path):
        return try SceneFile.load(path: path, settings: options)
      }
    }
    // A tap outside the screen is the option's fault, even where the scene's own checks would
    // meet it first (a tap handler that sets a state the scene bounds).
    func checkTaps(on scene: Scene) throws {
      for tap in settings.taps ?? []
      where !(0...scene.width).contains(tap.x) || !(0...scene.height).contains(tap.y) {
        let time = tap.time == 0 ? "" : "@" + plainNumber(tap.time)
        throw ValueParsers.invalid(
          "tap", plainNumber(tap.x) + "," + plainNumber(tap.y) + time,
          "outside the \(plainNumber(scene.width))×\(plainNumber(scene.height)) pt screen")
      }
    }
    let loaded: LoadedScene
    do {
      loaded = try load(options)
    } catch {
      if settings.taps != nil {
        var untapped = options
        untapped.taps = []
        if let scene = try? load(untapped).scene { try checkTaps(on: scene) }
      }
      throw RuntimeError(error.description)
    }
    let scene = loaded.scene
    try checkTaps(on: scene)
    // No output replaces a file the scene is drawn from (the scene file itself is checked
    // before it is read).
    switch settings.output {
    case .frame(let path), .animation(_, let path):
      try OutputOptions.checkNotRead(path, option: "-o", files: loaded.files)
    case .frames(let folder):
      try OutputOptions.checkNotInside(folder, what: "-o", files: loaded.files)
    case .none: break
    }
    if let goldens = settings.goldens {
      try OutputOptions.checkNotInside(goldens, what: "--golden", files: loaded.files)
    }
    if let trace = settings.trace {
      try OutputOptions.checkNotRead(trace, option: "--trace", files: loaded.files)
    }
    // In a batch (`--out-dir`) each note names its scene, as its error and budget lines do.
    let prefix = settings.batchName.map { "\($0): " } ?? ""
    for note in loaded.notes { console.standardError("render-anim: \(prefix)\(note)\n") }
    if case .animation(let format, _) = settings.output, format == .apng || format == .webp,
      settings.fps > 90
    {
      // Chromium, Firefox and Safari show a frame of 10 ms or less for 100 ms (a rule they
      // share for every animated format, after ads that flashed at 0 ms), counting whole
      // milliseconds: above 90 frames a second some frames are 10 ms (a WebP's delays are
      // whole milliseconds; an APNG's 1/95 s is read as 10).
      console.standardError(
        "render-anim: frames of \(plainNumber((10_000 / settings.fps).rounded() / 10)) ms play "
          + "at 100 ms in web browsers, which count whole milliseconds and slow frames of 10 ms "
          + "or less: give --fps 90 or less for the web\n")
    }
    return scene
  }
}

/// A number as a person writes it: 390, not 390.0.
func plainNumber(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// A command that renders one of the built-in scenes with the scene options.
protocol BuiltInSceneCommand: Command {
  static var sceneName: String { get }
  static var abstract: String { get }
  /// What a tap does in this scene, for `--tap`'s help.
  static var tapHelp: String { get }
}

extension BuiltInSceneCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: sceneName, abstract: abstract, options: SceneOptions.options(sceneHelp: tapHelp))
  }

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    try SceneOptions.run(.builtIn(sceneName), arguments, console: &console)
  }
}

/// `render-anim cats`.
enum CatsCommand: BuiltInSceneCommand {
  static let sceneName = "cats"
  static let abstract = "Render the cats demo: three layered cats that spring to where you tap."
  static let tapHelp =
    "The cats spring (.spring()) to the tap, y clamped above the home indicator as in the seed."
}

/// `render-anim cards`.
enum CardsCommand: BuiltInSceneCommand {
  static let sceneName = "cards"
  static let abstract =
    "Render the wallet demo: three cards that spring apart when the top card is tapped."
  static let tapHelp =
    "Only a tap on the black card, where it is drawn at that moment, toggles the wallet; without --tap it opens once at t = 0."
}

/// `render-anim scene`.
enum SceneCommand: Command {
  static let spec = CommandSpec(
    name: "scene",
    abstract: "Render a scene file (JSON): layers, state, taps, timed events and animations.",
    discussion: """
      FILE is a scene file (see the README's "Scene files" and Schemas/scene.schema.json), cats or \
      cards for the built-in scenes (always: a file of that name is ./cats), or - for standard \
      input. --device and --scale replace the \
      file's canvas; --tap replaces the file's taps. With --out-dir, several scenes (files, \
      folders of *.json, built-ins) are rendered at once, each to DIR/<scene name>.gif (.apng or \
      .webp with --format apng or webp, DIR/<scene name>/ with --format png-frames); --shard and --shards pick a shard of them as \
      'check' does.
      """,
    options: [
      OptionSpec(
        "file", kind: .positional, valueName: "file.json",
        help: "The scene file; - reads standard input. With --out-dir: several, or folders.",
        isRequired: true, isVariadic: true),
      OptionSpec(
        "out-dir", valueName: "dir",
        help:
          "Render every scene given into DIR/<scene name>.<ext> (the file's name without .json)."),
    ]
      + SceneOptions.options(
        sceneHelp: "A tap runs the file's first onTap handler whose layer it hits.")
      + ShardOptions.specs)

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let files = arguments.positionals
    guard let first = files.first else { throw UsageError("Missing <file.json>") }
    guard let folder = arguments.value("out-dir") else {
      guard files.count == 1 else {
        throw UsageError(
          "\(files.count) scenes given: render several with '--out-dir DIR' (one output each)")
      }
      for option in ["shard", "shards"] where arguments.isGiven(option) {
        throw UsageError("'--\(option)' goes with '--out-dir DIR'")
      }
      for (option, name) in [("-o", "output"), ("--trace", "trace")] {
        guard let path = arguments.value(name) else { continue }
        try OutputOptions.checkNotInput(path, option: option, input: first)
      }
      return try SceneOptions.run(SceneSource(argument: first), arguments, console: &console)
    }
    return try renderMany(files, into: folder, arguments, console: &console)
  }

  /// Every scene into `folder`, several at once (each on its share of the threads), each
  /// scene's output landing whole or not at all; a scene that fails does not stop the others.
  static func renderMany(
    _ files: [String], into folder: String, _ arguments: ParsedArguments,
    console: inout Console
  ) throws -> Int32 {
    for option in ["output", "frame", "trace"] where arguments.isGiven(option) {
      throw UsageError(
        "\(option == "output" ? "'-o'" : "'--\(option)'") is one scene's output; '--out-dir' "
          + "writes DIR/<scene name>.<ext> for each "
          + (option == "trace"
            ? "and no traces (give each scene its own --trace without --out-dir)"
            : "(use --frames/--times with --format png-frames)"))
    }
    guard !files.contains("-") else {
      throw UsageError(
        "'-' (standard input) has no name for its output in '--out-dir': give the scene as a file")
    }
    try OutputOptions.checkFolder("out-dir", folder)
    let format: OutputFormat = try arguments.choice("format") ?? .gif
    var settings = try SceneOptions.settings(arguments, needsOutput: false)
    settings.loop = try arguments.requiredInteger("loop")
    settings.quality = try arguments.number("quality")
    if settings.quality != nil {
      try SceneOptions.checkQuality(
        for: format.animated.map { .animation($0, "") } ?? .frames(""))
    }
    settings.maxBytes = try arguments.integer("max-bytes")
    if settings.maxBytes != nil {
      try SceneOptions.checkBudget(
        for: format.animated.map { .animation($0, "") } ?? .frames(""), quality: settings.quality)
    }
    settings.compression = try arguments.requiredChoice("png-compression")
    if format == .gif, settings.fps > Double(SceneOptions.maximumGIFFrameRate) {
      throw ValueParsers.invalid(
        "fps", String(Int(settings.fps)),
        "a GIF plays at most \(SceneOptions.maximumGIFFrameRate) frames per second")
    }
    if format != .pngFrames, settings.selection != nil {
      throw UsageError("'--frames'/'--times' select PNG frames: add '--format png-frames'")
    }
    let shard = try CheckCommand.shard(arguments, environment: CheckCommand.environment())
    let sources = try CheckCommand.scenes(files, clash: "their outputs would share a name").filter {
      shard?.contains($0.source.argument) ?? true
    }
    try Folders.create(folder)
    let base = CheckCommand.trimmingSlashes(folder)
    // Scenes side by side, the threads shared among them.
    let lanes = max(1, min(settings.threads, sources.count))
    settings.threads = max(1, settings.threads / lanes)
    settings.quiet = true
    // Each scene's messages and error.
    let outcomes = Slots<(notes: String, error: String?)>(count: sources.count)
    let started = BenchClock.now()
    let shared = settings
    DispatchQueue.concurrentPerform(iterations: lanes) { lane in
      for k in stride(from: lane, to: sources.count, by: lanes) {
        let (name, source) = sources[k]
        var own = shared
        own.batchName = name
        own.output =
          format.animated.map { .animation($0, base + "/" + name + "." + $0.rawValue) }
          ?? .frames(base + "/" + name + "/")
        let notes = Notes()
        var quiet = Console(standardOutput: { notes.add($0) }, standardError: { notes.add($0) })
        do {
          let scene = try SceneOptions.scene(source, own, console: &quiet)
          _ = try SceneOptions.run(scene, own, console: &quiet)
          outcomes.store((notes.text, nil), at: k)
        } catch {
          outcomes.store((notes.text, "\(error)"), at: k)
        }
      }
    }
    var failed = 0
    for (k, (name, _)) in sources.enumerated() {
      let (notes, error) = outcomes.take(k) ?? ("", "not rendered")
      if !notes.isEmpty { console.standardError(notes) }
      if let error {
        failed += 1
        console.standardError(Console.terminalSafe("render-anim: \(name): error: \(error)") + "\n")
      }
    }
    if !arguments.flag("quiet") {
      let ext = format.animated.map { "." + $0.rawValue } ?? "/"
      let seconds = (BenchClock.now() - started).formatted(decimals: 2)
      let shardText = shard.map { " (shard \($0))" } ?? ""
      console.standardError(
        "render-anim: wrote \(sources.count - failed) of \(sources.count) scenes\(shardText) to "
          + "\(base)/<name>\(ext) in \(seconds) s\n")
    }
    return failed == 0 ? 0 : 1
  }
}

/// Messages of one scene, gathered while it renders beside others.
private final class Notes: Sendable {
  private let lines = Mutex("")
  func add(_ text: String) { lines.withLock { $0 += text } }
  var text: String { lines.withLock { $0 } }
}

/// `--shard` and `--shards`, which `check` and `scene --out-dir` share.
enum ShardOptions {
  static let specs: [OptionSpec] = [
    OptionSpec(
      "shard", valueName: "i/n",
      help: "Only shard i of n (1-based): the scenes whose path's stable hash picks it."),
    OptionSpec(
      "shards", value: .integer(1...Shard.maximumCount), valueName: "n",
      help:
        "The shard count when the index comes from the environment: JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch), 0-based. Bazel's TEST_SHARD_INDEX and TEST_TOTAL_SHARDS need neither option."
    ),
  ]
}

/// What a scene command writes (`--format`).
enum OutputFormat: String, CaseIterable, CustomStringConvertible {
  case gif
  case apng
  case webp
  case pngFrames = "png-frames"

  /// The animation it is; nil for PNG frames.
  var animated: AnimatedFormat? { AnimatedFormat(rawValue: rawValue) }

  var description: String { animated.map { "an animated \($0.name)" } ?? "a folder of PNG frames" }
}

/// An animation written to one file: its extension is its raw value.
enum AnimatedFormat: String, CaseIterable {
  case gif
  case apng
  case webp

  /// As people write it.
  var name: String {
    switch self {
    case .gif: "GIF"
    case .apng: "PNG (APNG)"
    case .webp: "WebP"
    }
  }
}
