/// Why a scene file was refused: where (the JSON path, e.g. `layers[2].shadow.radius`, and the
/// line:column in the file when known) and what was wrong.
public struct SceneFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `layers[2].shadow.radius`; empty for the document itself or a syntax error.
  public var path: String
  public var message: String
  public var line: Int?
  public var column: Int?

  public init(path: String, _ message: String, line: Int? = nil, column: Int? = nil) {
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  /// `layers[2].shadow.radius: expected a number ≥ 0, got "4" (line 12:21)`.
  public var description: String {
    let position = line.map { " (line \($0):\(column ?? 1))" } ?? ""
    return (path.isEmpty ? "" : path + ": ") + message + position
  }
}
