/// Why a font could not be found, opened or used.
public struct TypesetError: Error, Hashable, Sendable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
