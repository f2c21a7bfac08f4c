import Raster

/// What an option's value is: how it is checked when the arguments are split (so every bad value
/// is a usage error naming its option, before any work) and how `--help` shows it.
public enum OptionValue: Sendable {
  /// Any text (a file name).
  case text
  /// A whole number in the range.
  case integer(ClosedRange<Int>)
  /// A finite number in the range.
  case number(ClosedRange<Double>)
  /// One of these names (an enumeration's raw values).
  case choice([String])
  /// `#RGB`, `#RRGGBB`, `#RRGGBBAA` or `0xRRGGBB`.
  case color
  /// A colour, or `none`.
  case paint
  /// Comma-separated numbers in the range, at most `maximumCount`.
  case numbers(ClosedRange<Double>, maximumCount: Int)
  /// `x,y,w,h`, width and height above zero.
  case viewBox
  /// `WxH` in pixels (or `S` for a square when `allowSquare`).
  case size(allowSquare: Bool)

  /// The names of an enumeration's cases.
  static func choice<T: CaseIterable & RawRepresentable>(of type: T.Type) -> OptionValue
  where T.RawValue == String {
    .choice(T.allCases.map(\.rawValue))
  }

  /// Refuses `text` as a value of this type for option `name` (without dashes).
  public func check(_ text: String, option name: String) throws(UsageError) {
    // No option or argument takes an empty text (a path, a name, a list): `--trace ''` is a
    // slip, not a file.
    guard !text.isEmpty else {
      throw UsageError("'\(ValueParsers.shown(name))' needs a value, not an empty string")
    }
    switch self {
    case .text: return
    case .integer(let range): _ = try ValueParsers.integer(text, option: name, in: range)
    case .number(let range): _ = try ValueParsers.number(text, option: name, in: range)
    case .choice(let names):
      guard names.contains(text) else {
        throw ValueParsers.invalid(name, text, "expected one of " + names.joined(separator: ", "))
      }
    case .color: _ = try ValueParsers.color(text, option: name)
    case .paint: _ = try ValueParsers.paint(text, option: name)
    case .numbers(let range, let count):
      _ = try ValueParsers.numbers(text, option: name, in: range, maximumCount: count)
    case .viewBox: _ = try ValueParsers.viewBox(text, option: name)
    case .size(let square): _ = try ValueParsers.size(text, option: name, allowSquare: square)
    }
  }
}

/// One option or positional argument of a command, declared once: its name, the type of its
/// value, its default and its help. The table drives splitting, checking, defaults and `--help`
/// (swift-argument-parser's convention, without the package).
public struct OptionSpec: Sendable {
  public enum Kind: Sendable {
    /// `--name` alone; present or not.
    case flag
    /// `--name VALUE` or `--name=VALUE`; the last one given wins.
    case value
    /// `--name VALUE`, repeatable; every value kept in order.
    case repeated
    /// A positional argument.
    case positional
  }

  /// Long name without dashes (`viewbox`), or the positional's name.
  public let name: String
  /// A one-letter alias (`o` for `-o`), if any.
  public let short: Character?
  public let kind: Kind
  /// What the value is; checked when the arguments are split.
  public let value: OptionValue
  /// How the value is shown in help: `<x,y,w,h>`.
  public let valueName: String
  public let help: String
  /// The value used when the option is not given (it is checked like a given one, and shown as
  /// "(default: …)"); nil when there is none.
  public let defaultValue: String?
  /// Help's words for a default that is not one fixed value ("the number of cores").
  public let defaultDescription: String?
  /// Whether the command refuses to run without it.
  public let isRequired: Bool
  /// A last positional that takes every remaining argument (`<scene> ...`).
  public let isVariadic: Bool

  public init(
    _ name: String, short: Character? = nil, kind: Kind = .value, value: OptionValue = .text,
    valueName: String = "value", help: String, defaultValue: String? = nil,
    defaultDescription: String? = nil, isRequired: Bool = false, isVariadic: Bool = false
  ) {
    self.isVariadic = isVariadic
    self.name = name
    self.short = short
    self.kind = kind
    self.value = value
    self.valueName = valueName
    self.help = help
    self.defaultValue = defaultValue
    self.defaultDescription = defaultDescription
    self.isRequired = isRequired
  }

  /// `--viewbox <x,y,w,h>`, `-o <file>`, `<file>` or `--quiet`, as usage lines show it.
  var synopsis: String {
    switch kind {
    case .positional: return "<\(valueName)>" + (isVariadic ? " ..." : "")
    case .flag: return switchName
    case .value, .repeated: return "\(switchName) <\(valueName)>"
    }
  }

  var switchName: String { short.map { "-\($0)" } ?? "--\(name)" }

  var helpLabel: String {
    switch kind {
    case .positional: return "<\(valueName)>" + (isVariadic ? " ..." : "")
    case .flag: return short.map { "-\($0), --\(name)" } ?? "--\(name)"
    case .value, .repeated:
      let names = short.map { "-\($0), --\(name)" } ?? "--\(name)"
      return "\(names) <\(valueName)>"
    }
  }
}

/// A command's name, summary and options.
public struct CommandSpec: Sendable {
  /// The words after `render-anim` that select it (`path`, `bench fill`).
  public let name: String
  public let abstract: String
  public let discussion: String?
  public let options: [OptionSpec]

  public init(name: String, abstract: String, discussion: String? = nil, options: [OptionSpec]) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options
  }

  /// The option named `name` (long name, without dashes).
  public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

  public var usage: String {
    var parts = ["render-anim", name]
    for option in options {
      parts.append(
        option.isRequired || option.kind == .positional
          ? option.synopsis : "[\(option.synopsis)]")
    }
    return parts.joined(separator: " ")
  }

  /// The `--help` text.
  public var helpText: String {
    var text = "OVERVIEW: \(abstract)\n"
    if let discussion {
      text += "\n" + Self.wrap(discussion, width: 100).joined(separator: "\n") + "\n"
    }
    text += "\nUSAGE: \(usage)\n"
    let positionals = options.filter { $0.kind == .positional }
    let named = options.filter { $0.kind != .positional }
    if !positionals.isEmpty {
      text += "\nARGUMENTS:\n" + positionals.map(Self.helpRow).joined()
    }
    text += "\nOPTIONS:\n" + named.map(Self.helpRow).joined()
    text += Self.helpRow(label: "-h, --help", help: "Show help information.")
    return text
  }

  private static func helpRow(_ option: OptionSpec) -> String {
    var help = option.help
    if let shown = option.defaultDescription ?? option.defaultValue {
      help += " (default: \(shown))"
    }
    return helpRow(label: option.helpLabel, help: help)
  }

  static func helpRow(label: String, help: String) -> String {
    let column = 26
    let wrapped = wrap(help, width: 100 - column)
    var lines: [String] = []
    if label.count + 2 < column {
      lines.append("  " + label.padding(toLength: column - 2) + (wrapped.first ?? ""))
    } else {
      lines.append("  " + label)
      lines.append(String(repeating: " ", count: column) + (wrapped.first ?? ""))
    }
    for rest in wrapped.dropFirst() { lines.append(String(repeating: " ", count: column) + rest) }
    return lines.joined(separator: "\n") + "\n"
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += current.isEmpty ? String(word) : " " + word
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}

extension String {
  func padding(toLength length: Int) -> String {
    count >= length ? self : self + String(repeating: " ", count: length - count)
  }
}
