import Codecs

/// Options that several drawing commands share (`--png-compression`, `--font`): one definition
/// of each.
enum ImageOptions {
  static let pngCompression = OptionSpec(
    "png-compression", value: .choice(of: PNGCompression.self), valueName: "fast|default|small",
    help: "PNG compression effort.", defaultValue: "default")

  static let font = OptionSpec(
    "font", valueName: "file", help: "A font file to use for all text instead of Inter.")

}
