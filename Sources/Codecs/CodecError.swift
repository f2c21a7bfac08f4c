import FileIO

/// Why an image could not be encoded, decoded, read or written.
public struct CodecError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Operation: String, Hashable, Sendable {
    case encodePNG = "encode PNG"
    case decodePNG = "decode PNG"
    case decodeJPEG = "decode JPEG"
    case encodeGIF = "encode GIF"
    case encodeAPNG = "encode APNG"
    case encodeWebP = "encode WebP"
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

  /// A file's trouble reading or writing it.
  public init(_ error: FileError) {
    self.init(
      error.isOutput ? .write : .read,
      path: FileError.displayName(error.path, isOutput: error.isOutput),
      message: error.reason)
  }

  /// The same error about the file `path` (when it names none yet).
  public func at(_ path: String?) -> CodecError {
    guard self.path == nil, let path else { return self }
    return CodecError(operation, path: FileError.displayName(path), message: message)
  }

  /// `file: what is wrong` when a file is involved; otherwise `cannot encode PNG: why`.
  public var description: String {
    if let path { return "\(path): \(message)" }
    return "cannot \(operation.rawValue): \(message)"
  }
}
