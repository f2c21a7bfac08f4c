import Codecs

/// Options that several drawing commands share (`--png-compression`, `--font`): one definition
/// of each and of its parsing.
enum ImageOptions {
  static let pngCompression = OptionSpec(
    "png-compression", valueName: "fast|default|small", help: "PNG compression effort.",
    defaultText: "default")

  static let font = OptionSpec(
    "font", valueName: "file", help: "A font file to use for all text instead of Inter.")

  /// `--png-compression`, default `default`.
  static func pngCompression(_ arguments: ParsedArguments) throws -> PNGCompression {
    try ValueParsers.choice(
      arguments.value("png-compression") ?? "default", option: "png-compression")
  }
}
