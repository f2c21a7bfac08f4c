import Codecs
import Raster
import SceneFormat

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
      title and shadow, on white. They are the layers of Examples/cats.json and cards.json, \
      without the modifiers that place them. Sizes are in points times --scale.
      """,
    options: [
      OptionSpec(
        "element", kind: .positional, value: .choice(of: Element.self),
        valueName: "cat|cats|walmart|target|card", help: "What to draw.", isRequired: true),
      OptionSpec(
        "scale", value: .integer(1...3), valueName: "1|2|3", help: "Pixels per point.",
        defaultValue: "3"),
      OptionSpec(
        "corner-style", value: .choice(of: CornerStyle.self), valueName: "continuous|circular",
        help: "Card corners: iOS 17 SDK continuous, or Xcode 11's circular.",
        defaultValue: "continuous"),
      ImageOptions.font,
      ImageOptions.pngCompression,
      OptionSpec(
        "output", short: "o", valueName: "out.png", help: "The PNG to write (- for stdout).",
        isRequired: true),
    ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let element: Element = try ValueParsers.choice(
      arguments.positional(0) ?? "", option: "<element>")
    let scale = Double(try arguments.requiredInteger("scale"))
    let corners: CornerStyle = try arguments.requiredChoice("corner-style")
    let compression: PNGCompression = try arguments.requiredChoice("png-compression")
    let output = try arguments.required("output")
    try OutputOptions.checkPNG(output, option: "-o")

    let (scene, size): (String, (Double, Double)) =
      switch element {
      case .cat, .cats: ("cats", (260, 260))
      default: ("cards", (360, 250))
      }
    let loaded: LoadedScene
    do {
      loaded = try SceneFile.element(
        element.rawValue, of: SceneFile.builtIn(scene) ?? "", width: size.0, height: size.1,
        settings: SceneSettings(
          scale: scale, swiftUI: corners == .continuous ? .ios17 : .legacy,
          fontFile: arguments.value("font")))
    } catch {
      throw RuntimeError(error.description)
    }
    for note in loaded.notes { console.standardError("render-anim: \(note)\n") }
    var compositor = Compositor()
    guard let pixmap = loaded.scene.render(frame: 0, compositor: &compositor) else {
      throw RuntimeError("cannot allocate the image")
    }
    try PNGCodec.write(pixmap, to: output, compression: compression)
    return 0
  }
}
