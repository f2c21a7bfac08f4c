/// A mistake in how the tool was called: reported on stderr with the usage line, exit 64.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The one-line reason, naming the option or argument at fault.
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// A failure while doing the work (unreadable input, invalid path data, an unwritable output):
/// reported on stderr, exit `code` (1 unless the command documents otherwise).
public struct RuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
  public let message: String
  public let code: Int32

  public init(_ message: String, code: Int32 = 1) {
    self.message = message
    self.code = code
  }

  public var description: String { message }
}
