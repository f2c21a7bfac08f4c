/// Why a scene file was refused: where (the JSON path, e.g. `layers[2].shadow.radius`, and the
/// line:column in the file when known) and what was wrong.
public struct SceneFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `layers[2].shadow.radius`; empty for the document itself or a syntax error.
  public var path: String
  public var message: String
  public var line: Int?
  public var column: Int?
  /// The scene file as the user named it (`-` is standard input); nil for a scene given as text.
  public var file: String?

  public init(path: String, _ message: String, line: Int? = nil, column: Int? = nil) {
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  /// `bad.json: layers[2].shadow.radius: expected a number ≥ 0, got "4" (line 12:21)`.
  public var description: String {
    let position = line.map { " (line \($0):\(column ?? 1))" } ?? ""
    let name = file.map { ($0 == "-" ? "standard input" : $0) + ": " } ?? ""
    return name + (path.isEmpty ? "" : path + ": ") + message + position
  }

  /// The same error, said of the scene file `file`.
  func inFile(_ file: String) -> SceneFileError {
    var error = self
    error.file = error.file ?? file
    return error
  }
}
