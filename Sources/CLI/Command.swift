import FileIO

/// A subcommand: its option table, and how it runs once its arguments are split.
protocol Command {
  static var spec: CommandSpec { get }
  /// Validates `arguments` (throwing `UsageError`) and does the work (throwing `RuntimeError` or
  /// another error); returns the exit status.
  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32
}

/// Where a command's text goes: data to standard output, messages to standard error.
public struct Console: Sendable {
  /// `text` with its control characters (but its line breaks) shown escaped (`\u{1b}`): for
  /// lines that carry names taken from file names, which must not reach a terminal raw.
  static func terminalSafe(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { FileError.escaped(String($0)) }.joined(separator: "\n")
  }

  public var standardOutput: @Sendable (String) -> Void
  public var standardError: @Sendable (String) -> Void
  /// Why a write to standard output failed, if one did (`RenderAnim.main` asks once the command
  /// has run, so that a lost result is an error, not a silent success); nil when none did or
  /// the console cannot tell.
  public var standardOutputFailure: @Sendable () -> String?

  public init(
    standardOutput: @escaping @Sendable (String) -> Void,
    standardError: @escaping @Sendable (String) -> Void,
    standardOutputFailure: @escaping @Sendable () -> String? = { nil }
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.standardOutputFailure = standardOutputFailure
  }
}
