/// Why a font could not be found, opened or used.
public struct TypesetError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The font file concerned, if the problem is with one.
  public let file: String?
  /// What is wrong (without the file's name).
  public let reason: String

  public init(_ reason: String) {
    self.file = nil
    self.reason = reason
  }

  public init(file: String, _ reason: String) {
    self.file = file
    self.reason = reason
  }

  /// `font file x.ttf: is not a font file FreeType knows (unknown file format)`.
  public var message: String { file.map { "font file \($0) \(reason)" } ?? reason }

  public var description: String { message }
}
