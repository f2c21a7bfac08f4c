import Codecs
import FileIO
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// The benchmark protocol shared with other rasterizers' harnesses: one warm-up call, then
/// `--iters` timed calls; one JSON line on stdout; exit 0 (2 for a mode not supported yet).
enum BenchClock {
  /// Seconds on the monotonic clock.
  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
  }

  /// Runs `body` once untimed and `iterations` times timed; returns seconds per timed call.
  static func measure(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    let start = now()
    for _ in 0..<iterations { try body() }
    return (now() - start) / Double(iterations)
  }

  static func json(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}\n"
  }

  /// The path, its view box and the canvas size, which `bench fill` and `bench blur` share.
  static let pathOptions = [
    OptionSpec("path-file", valueName: "file", help: "SVG path data.", isRequired: true),
    OptionSpec(
      "viewbox", value: .viewBox, valueName: "x,y,w,h", help: "The path's view box.",
      isRequired: true),
    OptionSpec(
      "size", value: .size(allowSquare: true), valueName: "S", help: "Canvas side in pixels.",
      isRequired: true),
  ]

  static let iterationsOption = OptionSpec(
    "iters", value: .integer(1...1_000_000), valueName: "K",
    help: "Timed calls after one warm-up call.", isRequired: true)
}

/// What `bench fill` and `bench stroke` share: the path mapped xMidYMid meet onto an S×S canvas
/// cleared once to opaque white, the timed calls, and one fresh drawing written to `--out`.
struct BenchCanvas {
  let path: Path
  let transform: Transform
  let width: Int
  let height: Int
  let iterations: Int
  let out: String?

  /// Reads and checks the shared options (before the path file is read).
  init(_ arguments: ParsedArguments) throws {
    let viewBox = try ValueParsers.viewBox(arguments.required("viewbox"))
    let side = try ValueParsers.size(arguments.required("size"), allowSquare: true)
    iterations = try arguments.requiredInteger("iters")
    out = arguments.value("out")
    if let out { try OutputOptions.checkPNG(out, option: "--out") }
    path = try PathInput.load(try arguments.required("path-file"))
    (width, height) = (side.width, side.height)
    let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    transform = Transform.mapping(viewBox, fittedInto: frame)
  }

  /// Times `draw` as the protocol asks, writes `--out`, and prints the JSON line.
  func run(console: inout Console, _ draw: (inout Pixmap) -> Void) throws -> Int32 {
    let white = Color.white.premultiplied
    guard var canvas = Pixmap(width: width, height: height, filledWith: white),
      var fresh = Pixmap(width: width, height: height, filledWith: white)
    else { throw RuntimeError("cannot allocate the canvas") }
    let seconds = BenchClock.measure(iterations: iterations) { draw(&canvas) }
    if let out {
      draw(&fresh)
      try PNGCodec.write(fresh, to: out)
    }
    console.standardOutput(BenchClock.json([("sec_per_iter", "\(seconds)")]))
    return 0
  }
}

/// `render-anim bench fill`.
enum BenchFillCommand: Command {
  static let spec = CommandSpec(
    name: "bench fill",
    abstract: "Time anti-aliased nonzero fills of a path in opaque black.",
    discussion: """
      An S×S canvas is cleared once to opaque white; each call fills the path source-over with \
      the view box mapped xMidYMid meet; there is no clear between calls. Prints \
      {"sec_per_iter": t}.
      """,
    options: BenchClock.pathOptions + [
      BenchClock.iterationsOption,
      OptionSpec("out", valueName: "file.png", help: "Also write one fresh fill as a PNG."),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let bench = try BenchCanvas(arguments)
    let black = Color.black.premultiplied
    var rasterizer = Rasterizer()
    return try bench.run(console: &console) { canvas in
      rasterizer.fill(bench.path, transform: bench.transform, color: black, into: &canvas)
    }
  }
}

/// `render-anim bench stroke`.
enum BenchStrokeCommand: Command {
  static let spec = CommandSpec(
    name: "bench stroke",
    abstract: "Time anti-aliased strokes of a path in opaque black.",
    discussion: """
      As bench fill, but each call strokes the path: --width pixels wide (after the view box is \
      mapped xMidYMid meet), butt caps, miter joins with a limit of 4; the outline is made and \
      filled in every call. Prints {"sec_per_iter": t}.
      """,
    options: BenchClock.pathOptions + [
      OptionSpec(
        "width", value: .number(0.001...10_000), valueName: "W",
        help: "Stroke width in device pixels.", isRequired: true),
      BenchClock.iterationsOption,
      OptionSpec("out", valueName: "file.png", help: "Also write one fresh stroke as a PNG."),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let width = try arguments.requiredNumber("width")
    let bench = try BenchCanvas(arguments)
    let style = StrokeStyle(width: width / bench.transform.maxScale, miterLimit: 4)
    let black = Color.black.premultiplied
    var rasterizer = Rasterizer()
    return try bench.run(console: &console) { canvas in
      rasterizer.stroke(
        bench.path, style: style, transform: bench.transform, color: black, into: &canvas)
    }
  }
}

/// `render-anim bench blur`.
enum BenchBlurCommand: Command {
  static let spec = CommandSpec(
    name: "bench blur",
    abstract: "Time filling a path into a mask and blurring it with a Gaussian.",
    discussion: """
      The path is filled (nonzero, view box fitted xMidYMid meet) into an S×S coverage mask inside \
      a margin of --pad pixels, then blurred with standard deviation --sigma pixels; each timed \
      call does both. --out writes the result as black with the blurred coverage as alpha; with \
      --sigma 0 it writes the unblurred fill. Prints {"sec_per_iter": t}.
      """,
    options: BenchClock.pathOptions + [
      OptionSpec(
        "pad", value: .integer(0...4096), valueName: "px",
        help: "Margin around the path in pixels.",
        defaultValue: "24"),
      OptionSpec(
        "sigma", value: .number(0...1000), valueName: "px",
        help: "Gaussian standard deviation in pixels.", defaultValue: "6"),
      BenchClock.iterationsOption,
      OptionSpec("out", valueName: "file.png", help: "Also write the blurred canvas."),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let viewBox = try ValueParsers.viewBox(arguments.required("viewbox"))
    let side = try ValueParsers.size(arguments.required("size"), allowSquare: true)
    let pad = try arguments.requiredInteger("pad")
    let sigma = try arguments.requiredNumber("sigma")
    let iterations = try arguments.requiredInteger("iters")
    guard 2 * pad < min(side.width, side.height) else {
      throw UsageError(
        "Invalid value '\(pad)' for '--pad': the margins leave no room in the canvas")
    }
    if let out = arguments.value("out") { try OutputOptions.checkPNG(out, option: "--out") }
    let path = try PathInput.load(try arguments.required("path-file"))
    let frame = Rect(
      x: Double(pad), y: Double(pad), width: Double(side.width - 2 * pad),
      height: Double(side.height - 2 * pad))
    let transform = Transform.mapping(viewBox, fittedInto: frame)
    var rasterizer = Rasterizer()
    var blurrer = GaussianBlurrer()
    var result: Mask?
    let seconds = BenchClock.measure(iterations: iterations) {
      guard
        var mask = rasterizer.mask(
          of: path, transform: transform, width: side.width, height: side.height)
      else { return }
      blurrer.blur(&mask, sigma: sigma)
      result = mask
    }
    if let out = arguments.value("out"), let mask = result {
      let pixels = mask.values.map { PremultipliedRGBA8(r: 0, g: 0, b: 0, a: $0).packed }
      guard let pixmap = Pixmap(width: mask.width, height: mask.height, pixels: pixels) else {
        throw RuntimeError("cannot allocate the canvas")
      }
      try PNGCodec.write(pixmap, to: out)
    }
    console.standardOutput(BenchClock.json([("sec_per_iter", "\(seconds)")]))
    return 0
  }
}

/// `render-anim bench png`.
enum BenchPNGCommand: Command {
  static let spec = CommandSpec(
    name: "bench png",
    abstract: "Time PNG encodes of raw straight RGBA to memory at the default setting.",
    discussion: "Prints {\"sec_per_iter\": t, \"bytes\": n}.",
    options: [
      OptionSpec(
        "rgba", valueName: "file.rgba", help: "Raw straight RGBA, W×H×4 bytes.",
        isRequired: true),
      OptionSpec(
        "width", value: .integer(1...ValueParsers.maximumImageSide), valueName: "W",
        help: "Image width in pixels.", isRequired: true),
      OptionSpec(
        "height", value: .integer(1...ValueParsers.maximumImageSide), valueName: "H",
        help: "Image height in pixels.", isRequired: true),
      BenchClock.iterationsOption,
      OptionSpec("out", valueName: "file.png", help: "Also write the encoded PNG."),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let width = try arguments.requiredInteger("width")
    let height = try arguments.requiredInteger("height")
    let iterations = try arguments.requiredInteger("iters")
    let file = try arguments.required("rgba")
    guard Pixmap.isValidSize(width: width, height: height) else {
      throw UsageError(
        "\(width)×\(height) is over the limit of \(Pixmap.maximumPixels) pixels")
    }
    if let out = arguments.value("out") { try OutputOptions.checkPNG(out, option: "--out") }
    let needed = width * height * 4
    guard let rgba = try FileReader.read(file, atMost: needed), rgba.count == needed else {
      throw RuntimeError(
        "\(file): \(width)×\(height) RGBA is exactly \(needed) bytes; the file is not")
    }
    guard rgba.count == width * height * 4 else {
      throw RuntimeError(
        "\(file): \(rgba.count) bytes, but \(width)×\(height) RGBA needs \(width * height * 4)")
    }
    var bytes: [UInt8] = []
    let seconds = try BenchClock.measure(iterations: iterations) {
      bytes = try PNGCodec.encode(straightRGBA: rgba, width: width, height: height)
    }
    if let out = arguments.value("out") { try OutputFile.write(bytes, to: out) }
    console.standardOutput(
      BenchClock.json([("sec_per_iter", "\(seconds)"), ("bytes", "\(bytes.count)")]))
    return 0
  }
}
