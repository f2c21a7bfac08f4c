/// The `--tolerance` and `--max-pixels` options that `diff` and `check` share, and their parsing.
enum ComparisonOptions {
  /// The option specs; `unit` names what the pixel budget is counted over ("image", "frame").
  static func specs(budgetPer unit: String) -> [OptionSpec] {
    [
      OptionSpec(
        "tolerance", value: .integer(0...255), valueName: "n",
        help: "Largest channel difference ignored, 0 to 255.", defaultValue: "0"),
      OptionSpec(
        "max-pixels", value: .integer(0...Int(Int32.max)), valueName: "m",
        help: "Differing pixels allowed per \(unit).", defaultValue: "0"),
    ]
  }

  /// The parsed values: `tolerance` in 8-bit channel steps, `budget` in pixels.
  static func parse(_ arguments: ParsedArguments) throws -> (tolerance: UInt8, budget: Int) {
    let tolerance = try arguments.requiredInteger("tolerance")
    let budget = try arguments.requiredInteger("max-pixels")
    return (UInt8(tolerance), budget)
  }
}
