import Codecs

/// The comparison options `diff` and `check` share — `--compare`, `--tolerance`, `--threshold`,
/// `--max-pixels`, `--max-ratio` — and their parsing.
enum ComparisonOptions {
  enum Mode: String, CaseIterable {
    case exact
    case perceptual
  }

  /// The option specs; `unit` names what the pixel budget is counted over ("image", "frame").
  static func specs(budgetPer unit: String) -> [OptionSpec] {
    [
      OptionSpec(
        "compare", value: .choice(of: Mode.self), valueName: "exact|perceptual",
        help:
          "exact: every channel within --tolerance. perceptual: OKLab distance within --threshold, anti-aliased edge pixels excused (see the README's calibration).",
        defaultValue: "exact"),
      OptionSpec(
        "tolerance", value: .integer(0...255), valueName: "n",
        help: "exact: the largest channel difference ignored, 0 to 255.", defaultValue: "0"),
      OptionSpec(
        "threshold", value: .number(0...1), valueName: "ΔE",
        help:
          "perceptual: the largest OKLab distance ignored, 0 to 1 (0.006: above two-level rounding noise, below a 2 % colour change).",
        defaultValue: "0.006"),
      OptionSpec(
        "max-pixels", value: .integer(0...Int(Int32.max)), valueName: "m",
        help: "Differing pixels allowed per \(unit).", defaultValue: "0"),
      OptionSpec(
        "max-ratio", value: .number(0...1), valueName: "r",
        help:
          "Or a share of the \(unit)'s pixels allowed to differ, 0 to 1 (with --max-pixels: either suffices)."
      ),
    ]
  }

  /// The comparison the options ask for; `--tolerance` belongs to exact and `--threshold` to
  /// perceptual comparisons.
  static func parse(_ arguments: ParsedArguments) throws -> GoldenComparison {
    let mode: Mode = try arguments.requiredChoice("compare")
    let method: ComparisonMethod
    switch mode {
    case .exact:
      if arguments.isGiven("threshold") {
        throw UsageError(
          "'--threshold' is for '--compare perceptual'; exact comparisons take '--tolerance'")
      }
      method = .exact(tolerance: UInt8(try arguments.requiredInteger("tolerance")))
    case .perceptual:
      if arguments.isGiven("tolerance") {
        throw UsageError(
          "'--tolerance' is for '--compare exact'; perceptual comparisons take '--threshold'")
      }
      method = .perceptual(threshold: try arguments.requiredNumber("threshold"))
    }
    return GoldenComparison(
      method: method, maxDifferingPixels: try arguments.requiredInteger("max-pixels"),
      maxDifferingRatio: try arguments.number("max-ratio"))
  }
}
