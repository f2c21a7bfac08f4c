import Codecs
import FileIO
import Raster

/// `render-anim path`: fills SVG path data into a PNG.
enum PathCommand: Command {
  static let spec = CommandSpec(
    name: "path",
    abstract: "Fill SVG path data into a PNG image.",
    discussion: """
      The view box is stretched onto the whole image (x scale W/vbW, y scale H/vbH). Invalid path \
      data is refused with its line:column; no output is written.
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
        "fill", value: .color, valueName: "colour", help: "Fill colour.", defaultValue: "#000000"),
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
    let fill = try arguments.requiredColor("fill")
    let background = try arguments.requiredColor("background")
    let rule: FillRule = try arguments.requiredChoice("fill-rule")
    let compression: PNGCompression = try arguments.requiredChoice("png-compression")
    let output = try arguments.required("output")
    try OutputOptions.checkPNG(output, option: "-o")

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
    rasterizer.fill(
      path, transform: transform, rule: rule, color: fill.premultiplied, into: &pixmap)
    try PNGCodec.write(pixmap, to: output, compression: compression)
    return 0
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
