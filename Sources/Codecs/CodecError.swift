/// Why an image could not be encoded, decoded, read or written.
public struct CodecError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Operation: String, Hashable, Sendable {
    case encodePNG = "encode PNG"
    case decodePNG = "decode PNG"
    case encodeGIF = "encode GIF"
    case read = "read"
    case write = "write"
  }

  public let operation: Operation
  /// The file involved, when there is one.
  public let path: String?
  /// The library's or the system's own message.
  public let message: String

  public init(_ operation: Operation, path: String? = nil, message: String) {
    self.operation = operation
    self.path = path
    self.message = message
  }

  public var description: String {
    if let path { return "cannot \(operation.rawValue) \(path): \(message)" }
    return "cannot \(operation.rawValue): \(message)"
  }
}
