import Raster

/// The arguments of one command, split by its `CommandSpec` and checked against each option's
/// value type; absent options read as their table defaults.
public struct ParsedArguments: Sendable {
  public let spec: CommandSpec
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  public private(set) var positionals: [String] = []
  /// Whether `-h` or `--help` was given.
  public private(set) var wantsHelp = false
  /// The arguments as given (without the command words), for commands that print a command
  /// line back (`check`'s re-record hint).
  public let raw: [String]

  /// Splits `arguments` (without the command words). A value option takes the next argument as
  /// its value, even one starting with `-` (so `--viewbox -103,338,2048,1680` works) — unless it
  /// is one of the command's options or `--help`: `--fps -o a.gif` is a missing value for
  /// `--fps`, not a frame rate of "-o".
  public init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
    self.spec = spec
    self.raw = arguments
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        wantsHelp = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = Self.option(named: name, in: spec) else {
        throw UsageError("Unknown option '\(name)'")
      }
      switch option.kind {
      case .flag:
        if inlineValue != nil { throw UsageError("'--\(option.name)' does not take a value") }
        flags.insert(option.name)
      case .value, .repeated:
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count, !Self.isOption(arguments[index], in: spec) else {
            throw UsageError("Missing value for '\(option.synopsis)'")
          }
          value = arguments[index]
          index += 1
        }
        try option.value.check(value, option: option.name)
        if option.kind == .value {
          values[option.name] = [value]
        } else {
          values[option.name, default: []].append(value)
        }
      case .positional:
        throw UsageError("Unknown option '\(name)'")
      }
    }
    if wantsHelp { return }
    let positionalSpecs = spec.options.filter { $0.kind == .positional }
    let variadic = positionalSpecs.last?.isVariadic == true
    if positionals.count > positionalSpecs.count, !variadic {
      throw UsageError("Unexpected argument '\(positionals[positionalSpecs.count])'")
    }
    for (i, value) in positionals.enumerated() {
      let option = positionalSpecs[min(i, positionalSpecs.count - 1)]
      // Named as the usage line names it, or by its name where that lists the choices.
      let placeholder = option.valueName.contains("|") ? option.name : option.valueName
      try option.value.check(value, option: "<\(placeholder)>")
    }
    for (i, option) in positionalSpecs.enumerated() where option.isRequired {
      if i >= positionals.count {
        throw UsageError("Missing expected argument '<\(option.valueName)>'")
      }
    }
    for option in spec.options where option.isRequired && option.kind != .positional {
      if values[option.name] == nil {
        throw UsageError("Missing expected argument '\(option.synopsis)'")
      }
    }
  }

  /// The last value given for `--name`, else its default in the table, if any.
  public func value(_ name: String) -> String? {
    values[name]?.last ?? spec.option(name)?.defaultValue
  }

  /// Whether `--name` was given (not merely defaulted).
  public func isGiven(_ name: String) -> Bool { values[name] != nil }

  /// `--name`'s whole number (given or default; its range is the table's), if any.
  public func integer(_ name: String) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard case .integer(let range) = spec.option(name)?.value else {
      throw UsageError("'--\(name)' is not a whole-number option")
    }
    return try ValueParsers.integer(text, option: name, in: range)
  }

  /// `--name`'s number (given or default), if any.
  public func number(_ name: String) throws(UsageError) -> Double? {
    guard let text = value(name) else { return nil }
    guard case .number(let range) = spec.option(name)?.value else {
      throw UsageError("'--\(name)' is not a number option")
    }
    return try ValueParsers.number(text, option: name, in: range)
  }

  /// `--name`'s case of an enumeration (given or default), if any.
  public func choice<T: RawRepresentable & CaseIterable>(
    _ name: String, as type: T.Type = T.self
  ) throws(UsageError) -> T? where T.RawValue == String {
    guard let text = value(name) else { return nil }
    return try ValueParsers.choice(text, option: name)
  }

  /// `--name`'s colour (given or default), if any.
  public func color(_ name: String) throws(UsageError) -> Color? {
    guard let text = value(name) else { return nil }
    return try ValueParsers.color(text, option: name)
  }

  /// Every value given for a repeatable `--name`, in order.
  public func allValues(_ name: String) -> [String] { values[name] ?? [] }

  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The positional argument at `index`, if given.
  public func positional(_ index: Int) -> String? {
    index < positionals.count ? positionals[index] : nil
  }

  /// The value of `--name`, given or default; a usage error when it has neither.
  public func required(_ name: String) throws(UsageError) -> String {
    guard let value = value(name) else { throw UsageError("Missing expected argument '--\(name)'") }
    return value
  }

  // The same, for options that have a value whenever the command runs (given, or the table's
  // default): a usage error naming the option otherwise.

  public func requiredInteger(_ name: String) throws(UsageError) -> Int {
    try present(name, integer(name))
  }

  public func requiredNumber(_ name: String) throws(UsageError) -> Double {
    try present(name, number(name))
  }

  public func requiredChoice<T: RawRepresentable & CaseIterable>(
    _ name: String, as type: T.Type = T.self
  ) throws(UsageError) -> T where T.RawValue == String {
    try present(name, choice(name, as: type))
  }

  public func requiredColor(_ name: String) throws(UsageError) -> Color {
    try present(name, color(name))
  }

  private func present<T>(_ name: String, _ value: T?) throws(UsageError) -> T {
    guard let value else { throw UsageError("Missing expected argument '--\(name)'") }
    return value
  }

  /// Whether `argument` is an option of `spec` (or help) rather than a value.
  private static func isOption(_ argument: String, in spec: CommandSpec) -> Bool {
    guard argument.hasPrefix("-"), argument != "-" else { return false }
    if ["-h", "--help", "--"].contains(argument) { return true }
    let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
    return option(named: name, in: spec) != nil
  }

  private static func option(named name: String, in spec: CommandSpec) -> OptionSpec? {
    if name.hasPrefix("--") {
      let long = name.dropFirst(2)
      return spec.options.first { $0.kind != .positional && $0.name == long }
    }
    guard name.count == 2, let letter = name.last else { return nil }
    return spec.options.first { $0.kind != .positional && $0.short == letter }
  }
}
