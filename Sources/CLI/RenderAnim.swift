import Codecs
import FileIO
import Raster
import RenderAnimKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The `render-anim` command line: picks the subcommand, parses, validates and runs it, and maps
/// failures to exit codes (64 usage, 1 failure, or what a command documents).
public enum RenderAnim {
  /// Exit status for a usage error (BSD `EX_USAGE`).
  public static let usageExitCode: Int32 = 64

  static var commands: [any Command.Type] {
    [
      CatsCommand.self, CardsCommand.self, SceneCommand.self, LayoutCommand.self, CheckCommand.self,
      MergeResultsCommand.self, DiffCommand.self,
      PathCommand.self, StillCommand.self,
      BenchFillCommand.self, BenchStrokeCommand.self, BenchBlurCommand.self, BenchPNGCommand.self,
    ]
  }

  /// The top-level help, made from the commands' own specs.
  public static var overview: String {
    var subcommands = ""
    for command in commands where !command.spec.name.hasPrefix("bench ") {
      subcommands += CommandSpec.helpRow(label: command.spec.name, help: command.spec.abstract)
    }
    let modes = benchCommands.map { String($0.spec.name.dropFirst(6)) }
    subcommands += CommandSpec.helpRow(
      label: "bench",
      help: "Time the rasterizer and codecs (" + modes.joined(separator: ", ") + "); prints JSON.")
    return
      "OVERVIEW: Render UI animations to PNG frames and animated GIFs with a CPU rasterizer.\n\n"
      + "USAGE: render-anim <subcommand>\n\n"
      + "OPTIONS:\n"
      + CommandSpec.helpRow(label: "--version", help: "Show the version.")
      + CommandSpec.helpRow(label: "-h, --help", help: "Show help information.")
      + "\nSUBCOMMANDS:\n" + subcommands
      + "\n  See 'render-anim <subcommand> --help' for detailed help.\n\n"
  }

  /// Every command's spec, for tests and documentation.
  public static var commandSpecs: [CommandSpec] { commands.map { $0.spec } }

  static var benchCommands: [any Command.Type] {
    commands.filter { $0.spec.name.hasPrefix("bench ") }
  }

  /// Runs the tool on `arguments` (without the program name) and returns the exit status: 1
  /// when the command succeeded but what it wrote to standard output was lost.
  public static func main(_ arguments: [String], console: Console = .standard) -> Int32 {
    let status = run(arguments, console: console)
    guard status == 0, let failure = console.standardOutputFailure() else { return status }
    console.standardError("render-anim: error: \(failure)\n")
    return 1
  }

  private static func run(_ arguments: [String], console: Console) -> Int32 {
    var console = console
    // `help scene` is `scene --help`, as swift-argument-parser takes it (`help bogus`: an
    // unknown subcommand).
    if arguments.first == "help", arguments.count > 1 {
      return run(Array(arguments.dropFirst()) + ["--help"], console: console)
    }
    // No subcommand: the overview on standard output and success, as swift-argument-parser's
    // default `run()` does for a command with subcommands (`CleanExit.helpRequest`).
    guard let first = arguments.first, first != "-h", first != "--help", first != "help" else {
      console.standardOutput(overview)
      return 0
    }
    if first == "--version" || first == "version" {
      console.standardOutput("render-anim \(RenderAnimKit.version)\n")
      return 0
    }
    let (command, rest) = select(arguments)
    guard let command else {
      if first == "bench" {
        let mode = arguments.dropFirst().first ?? ""
        if mode.isEmpty || mode == "-h" || mode == "--help" {
          console.standardOutput(benchOverview)
          return 0
        }
        console.standardError("render-anim: bench mode '\(mode)' is not supported\n")
        return 2
      }
      console.standardError(
        "Error: Unknown subcommand '\(first)'\nUsage: render-anim <subcommand>\n"
          + "  See 'render-anim --help' for more information.\n")
      return usageExitCode
    }
    let spec = command.spec
    do {
      let parsed = try ParsedArguments(rest, spec: spec)
      if parsed.wantsHelp {
        console.standardOutput(spec.helpText)
        return 0
      }
      return try command.run(parsed, console: &console)
    } catch let error as UsageError {
      console.standardError(
        "Error: \(error.message)\nUsage: \(spec.usage)\n"
          + "  See 'render-anim \(spec.name) --help' for more information.\n")
      return usageExitCode
    } catch let error as RuntimeError {
      Temporaries.waitIfInterrupted()
      console.standardError("render-anim: error: \(Self.printable(error.message))\n")
      return error.code
    } catch {
      Temporaries.waitIfInterrupted()
      console.standardError("render-anim: error: \(Self.printable("\(error)"))\n")
      return 1
    }
  }

  /// An error message as it is printed: control characters other than line breaks and tabs
  /// (which a scene file or a name from outside may hold: a NUL, a terminal escape) written as
  /// `\u{…}`, so a message cannot drive the terminal.
  static func printable(_ message: String) -> String {
    var out = ""
    for scalar in message.unicodeScalars {
      let v = scalar.value
      if (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v) {
        out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `render-anim bench`'s help, made from the bench commands' specs.
  static var benchOverview: String {
    var modes = ""
    for command in benchCommands {
      modes += CommandSpec.helpRow(
        label: String(command.spec.name.dropFirst(6)), help: command.spec.abstract)
    }
    return
      "OVERVIEW: Time the rasterizer and codecs: one warm-up call, then K timed calls; prints one"
      + " JSON\nline and exits 0 (2 for a mode not supported yet).\n\n"
      + "USAGE: render-anim bench <mode>\n\nMODES:\n" + modes
      + "\n  See 'render-anim bench <mode> --help' for detailed help.\n\n"
  }

  private static func select(_ arguments: [String]) -> ((any Command.Type)?, [String]) {
    for command in commands {
      let words = command.spec.name.split(separator: " ").map(String.init)
      if arguments.count >= words.count, Array(arguments.prefix(words.count)) == words {
        return (command, Array(arguments.dropFirst(words.count)))
      }
    }
    return (nil, [])
  }
}

extension Console {
  /// Writes to the process's standard output and standard error; the first failed write to
  /// standard output (a full disk, a closed pipe) is kept for `standardOutputFailure`.
  public static let standard = Console(
    standardOutput: { text in
      let failure = writeAll(text, to: STDOUT_FILENO)
      if failure != 0 {
        _ = standardOutputErrno.compareExchange(
          expected: 0, desired: failure, ordering: .relaxed)
      }
    },
    standardError: { text in _ = writeAll(text, to: STDERR_FILENO) },
    standardOutputFailure: {
      let code = standardOutputErrno.load(ordering: .relaxed)
      guard code != 0 else { return nil }
      let text = String(cString: strerror(code))
      return "standard output: " + text.prefix(1).lowercased() + text.dropFirst()
    })

  /// The errno of the first failed write to standard output (0: none).
  private static let standardOutputErrno = Atomic<Int32>(0)

  /// Writes all of `text`; returns the errno of a failed write (EIO for a write of nothing), or 0.
  private static func writeAll(_ text: String, to fd: Int32) -> Int32 {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      if n < 0 { return errno }
      if n == 0 { return EIO }
      bytes = bytes.dropFirst(n)
    }
    return 0
  }
}
