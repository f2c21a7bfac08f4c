import Codecs
import Motion
import Raster
import Typeset

/// `render-anim still`: one element of the demos as a still image.
enum StillCommand: Command {
  enum Element: String, CaseIterable {
    case cat, cats, walmart, target, card
  }

  static let spec = CommandSpec(
    name: "still",
    abstract: "Render one element of the demos as a still PNG.",
    discussion: """
      cat: one cat glyph with its shadow on the cats' background; cats: the three layered cats \
      (scales 0.9/0.95/1, opacities 0.3/0.5/1); walmart, target, card: one wallet card with its \
      title and shadow, on white. Sizes are in points times --scale.
      """,
    options: [
      OptionSpec(
        "element", kind: .positional, valueName: "cat|cats|walmart|target|card",
        help: "What to draw.", isRequired: true),
      OptionSpec("scale", valueName: "1|2|3", help: "Pixels per point.", defaultText: "3"),
      OptionSpec(
        "corner-style", valueName: "continuous|circular",
        help: "Card corners: iOS 17 SDK continuous, or Xcode 11's circular.",
        defaultText: "continuous"),
      OptionSpec(
        "font", valueName: "file", help: "A font file to use for all text instead of Inter."),
      OptionSpec(
        "png-compression", valueName: "fast|default|small", help: "PNG compression effort.",
        defaultText: "default"),
      OptionSpec(
        "output", short: "o", valueName: "out.png", help: "The PNG to write (- for stdout).",
        isRequired: true),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let element: Element = try ValueParsers.choice(arguments.positional(0) ?? "", option: "element")
    let scale = Double(
      try ValueParsers.integer(arguments.value("scale") ?? "3", option: "scale", in: 1...3))
    let corners: CornerStyle = try ValueParsers.choice(
      arguments.value("corner-style") ?? "continuous", option: "corner-style")
    let compression: PNGCompression = try ValueParsers.choice(
      arguments.value("png-compression") ?? "default", option: "png-compression")
    let output = try arguments.required("output")

    let (layer, size, background) = try content(
      element, corners: corners, font: arguments.value("font"), console: &console)
    guard
      var pixmap = Pixmap(
        width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()),
        filledWith: background.premultiplied)
    else { throw RuntimeError("cannot allocate the image") }
    let toPixels = Transform.translation(size.width / 2, size.height / 2).concatenating(
      .scale(scale, scale))
    var compositor = Compositor()
    compositor.render(layer, into: &pixmap, transform: toPixels)
    try PNGCodec.write(pixmap, to: output, compression: compression)
    return 0
  }

  /// The element's layer (centred on the origin, points), canvas size in points and background.
  private static func content(
    _ element: Element, corners: CornerStyle, font: String?, console: inout Console
  ) throws -> (Layer, (width: Double, height: Double), Color) {
    switch element {
    case .cat:
      return (CatGlyph.view(scale: 1, opacity: 1).layer, (260, 260), DemoPalette.sky)
    case .cats:
      let cats = [(0.9, 0.3), (0.95, 0.5), (1.0, 1.0)].map {
        CatGlyph.view(scale: $0.0, opacity: $0.1).layer
      }
      return (.group(cats), (260, 260), DemoPalette.sky)
    case .walmart, .target, .card:
      let fonts: DemoFonts
      do {
        fonts = try DemoFonts(override: font)
      } catch {
        throw RuntimeError(error.message)
      }
      for warning in fonts.warnings { console.standardError(warning + "\n") }
      let (title, color): (String, Color) =
        switch element {
        case .walmart: ("Walmart", DemoPalette.blue)
        case .target: ("Target", DemoPalette.red)
        default: ("\u{F8FF} Card", .black)
        }
      let card = CardView(title: fonts.largeTitleLayout(title), color: color, cornerStyle: corners)
      return (card.layer, (360, 250), .white)
    }
  }
}
