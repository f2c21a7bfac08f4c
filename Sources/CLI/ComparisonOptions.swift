/// The `--tolerance` and `--max-pixels` options that `diff` and `check` share, and their parsing.
enum ComparisonOptions {
  /// The option specs; `unit` names what the pixel budget is counted over ("image", "frame").
  static func specs(budgetPer unit: String) -> [OptionSpec] {
    [
      OptionSpec(
        "tolerance", valueName: "n", help: "Largest channel difference ignored, 0 to 255.",
        defaultText: "0"),
      OptionSpec(
        "max-pixels", valueName: "m", help: "Differing pixels allowed per \(unit).",
        defaultText: "0"),
    ]
  }

  /// The parsed values: `tolerance` in 8-bit channel steps, `budget` in pixels.
  static func parse(_ arguments: ParsedArguments) throws -> (tolerance: UInt8, budget: Int) {
    let tolerance = try ValueParsers.integer(
      arguments.value("tolerance") ?? "0", option: "tolerance", in: 0...255)
    let budget = try ValueParsers.integer(
      arguments.value("max-pixels") ?? "0", option: "max-pixels", in: 0...Int(Int32.max))
    return (UInt8(tolerance), budget)
  }
}
