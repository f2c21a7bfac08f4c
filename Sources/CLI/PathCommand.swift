import Codecs
import FileIO
import Raster

/// `render-anim path`: fills and strokes SVG path data into a PNG.
enum PathCommand: Command {
  static let spec = CommandSpec(
    name: "path",
    abstract: "Fill or stroke SVG path data into a PNG image.",
    discussion: """
      The view box is stretched onto the whole image (x scale W/vbW, y scale H/vbH). Stroke \
      widths, dashes and offsets are in the path's user units, scaled with it. With --stroke and \
      no --fill nothing is filled; with both, the fill is drawn and the stroke on top; the stroke \
      options need --stroke. Invalid \
      path data is refused with its line:column; no output is written.
      """,
    options: [
      OptionSpec(
        "file", kind: .positional, valueName: "file",
        help: "A file holding SVG path data (the d attribute); - reads standard input.",
        isRequired: true),
      OptionSpec(
        "viewbox", value: .viewBox, valueName: "x,y,w,h",
        help: "The user-space rectangle mapped onto the image.", isRequired: true),
      OptionSpec(
        "size", value: .size(allowSquare: false), valueName: "WxH", help: "Image size in pixels.",
        isRequired: true),
      OptionSpec(
        "fill", value: .paint, valueName: "colour|none", help: "Fill colour; none fills nothing.",
        defaultDescription: "#000000, or none with a --stroke colour"),
      OptionSpec(
        "stroke", value: .paint, valueName: "colour|none",
        help: "Stroke colour; none (SVG's default) strokes nothing."),
      OptionSpec(
        "stroke-width", value: .number(0...1e6), valueName: "w",
        help: "Stroke width in user units.", defaultValue: "1"),
      OptionSpec(
        "line-cap", value: .choice(of: LineCap.self), valueName: "butt|round|square",
        help: "How open ends and dashes end.", defaultValue: "butt"),
      OptionSpec(
        "line-join", value: .choice(of: LineJoin.self), valueName: "miter|round|bevel",
        help: "How segments meet.", defaultValue: "miter"),
      OptionSpec(
        "miter-limit", value: .number(1...1e6), valueName: "m",
        help: "Longest miter, as a multiple of the width; longer ones are bevelled.",
        defaultValue: "4"),
      OptionSpec(
        "dash", value: .numbers(0...1e6, maximumCount: 64), valueName: "a,b,…",
        help: "Dash and gap lengths in user units (an odd list repeats)."),
      OptionSpec(
        "dash-offset", value: .number(-1e9...1e9), valueName: "p",
        help: "How far into the dash pattern the path starts.", defaultValue: "0"),
      OptionSpec(
        "background", value: .color, valueName: "colour",
        help: "Background colour; #RRGGBBAA for translucent.", defaultValue: "#FFFFFF"),
      OptionSpec(
        "fill-rule", value: .choice(of: FillRule.self), valueName: "nonzero|evenodd",
        help: "Which points are inside.", defaultValue: "nonzero"),
      ImageOptions.pngCompression,
      OptionSpec(
        "output", short: "o", valueName: "out.png", help: "The PNG file to write (- for stdout).",
        isRequired: true),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    // Validate everything before reading or writing anything.
    let file = arguments.positional(0) ?? "-"
    let viewBox = try ValueParsers.viewBox(arguments.required("viewbox"))
    let size = try ValueParsers.size(arguments.required("size"))
    let stroke = try arguments.value("stroke").flatMap { (text) throws(UsageError) in
      try ValueParsers.paint(text, option: "stroke")
    }
    if stroke == nil {
      // The stroke's style alone (or with `--stroke none`) draws nothing: say so rather than
      // ignore it.
      for option in strokeOptions where arguments.isGiven(option) {
        throw UsageError("'--\(option)' applies to a stroke: give '--stroke COLOUR' too")
      }
    }
    let style = try strokeStyle(arguments)
    // `--stroke none` is SVG's default stroke: no stroke, and the fill as without one.
    let fill: Color? =
      if let text = arguments.value("fill") {
        try ValueParsers.paint(text, option: "fill")
      } else {
        stroke == nil ? Color.black : nil
      }
    let background = try arguments.requiredColor("background")
    let rule: FillRule = try arguments.requiredChoice("fill-rule")
    let compression: PNGCompression = try arguments.requiredChoice("png-compression")
    let output = try arguments.required("output")
    try OutputOptions.checkPNG(output, option: "-o")
    if file != "-" {
      try OutputOptions.checkNotRead(
        output, option: "-o", files: [file], what: "the path data file read")
    }

    let path = try PathInput.load(file)
    guard
      var pixmap = Pixmap(
        width: size.width, height: size.height,
        filledWith: background.premultiplied)
    else { throw RuntimeError("cannot allocate a \(size.width)×\(size.height) image") }
    let transform = Transform.mapping(
      viewBox, stretchedTo: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
    )
    var rasterizer = Rasterizer()
    if let fill {
      rasterizer.fill(
        path, transform: transform, rule: rule, color: fill.premultiplied, into: &pixmap)
    }
    if let stroke {
      let stroker = Stroker(transform: transform)
      let dashes = stroker.dashCount(of: path, style: style)
      guard dashes <= Double(Dasher.maximumDashes) else {
        throw ValueParsers.invalid(
          "dash", arguments.value("dash") ?? "",
          "the pattern would cut the path into about \(Int(min(dashes, 1e15))) dashes; at most "
            + "\(Dasher.maximumDashes)")
      }
      let points = stroker.estimatedPoints(of: path, style: style)
      guard points <= Double(Stroker.maximumPoints) else {
        throw RuntimeError(
          "the stroke's outline would have about \(Int(min(points, 1e15))) points; at most "
            + "\(Stroker.maximumPoints): use a narrower stroke, fewer round joins or a smaller size"
        )
      }
      rasterizer.stroke(
        path, style: style, transform: transform, color: stroke.premultiplied, into: &pixmap)
    }
    try PNGCodec.write(pixmap, to: output, compression: compression)
    return 0
  }

  /// The options that shape a stroke (meaningless without `--stroke`).
  static let strokeOptions = [
    "stroke-width", "line-cap", "line-join", "miter-limit", "dash", "dash-offset",
  ]

  /// The stroke options as a style, in user units.
  static func strokeStyle(_ arguments: ParsedArguments) throws(UsageError) -> StrokeStyle {
    StrokeStyle(
      width: try arguments.requiredNumber("stroke-width"),
      cap: try arguments.requiredChoice("line-cap"),
      join: try arguments.requiredChoice("line-join"),
      miterLimit: try arguments.requiredNumber("miter-limit"),
      dash: try arguments.value("dash").map { (text) throws(UsageError) in
        try ValueParsers.numbers(text, option: "dash", in: 0...1e6, maximumCount: 64)
      } ?? [],
      dashPhase: try arguments.requiredNumber("dash-offset"))
  }
}

/// Reading path data from a file or standard input (at most `PathDataParser.maximumLength`
/// bytes are read), with errors that name the file.
enum PathInput {
  static func load(_ file: String) throws -> Path {
    let bytes = try FileReader.read(
      file, limit: PathDataParser.maximumLength, kind: "path data")
    do {
      return try PathDataParser.parse(utf8: bytes)
    } catch {
      let name = file == "-" ? "standard input" : file
      throw RuntimeError("\(name): \(error)")
    }
  }
}
