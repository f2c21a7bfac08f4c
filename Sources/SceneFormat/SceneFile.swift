import FileIO
import Raster
import SceneGraph
import Typeset

/// Scene files: animated SwiftUI-like scenes described as JSON (see README, "Scene files", and
/// `Schemas/scene.schema.json`).
///
/// ```swift
/// let loaded = try SceneFile.load(path: "Examples/toggle.json", settings: SceneSettings())
/// let gif = try SceneExporter(scene: loaded.scene).gif()
/// ```
public enum SceneFile {
  /// Reads and builds the scene in `path` (`-` reads standard input); at most
  /// `JSONParser.maximumLength` bytes are read. `pathFile` names inside are relative to the
  /// file's folder (to the working directory for standard input) and must stay inside it unless
  /// `settings.allowsFilesOutside`. Errors name the file.
  public static func load(
    path: String, settings: SceneSettings
  ) throws(SceneFileError)
    -> LoadedScene
  {
    do throws(SceneFileError) {
      let bytes: [UInt8]
      do {
        bytes = try FileReader.read(path, limit: JSONParser.maximumLength, kind: "scene files")
      } catch {
        throw SceneFileError(path: "", error.reason)
      }
      let text = try Self.text(bytes)
      let folder =
        path == "-"
        ? ""
        : String(
          path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/"))
      return try load(
        text: text, folder: path.hasPrefix("/") && folder.isEmpty ? "/" : folder,
        settings: settings)
    } catch {
      throw error.inFile(path)
    }
  }

  /// The bytes as UTF-8 text, or an error at the first byte that is not.
  static func text(_ bytes: [UInt8]) throws(SceneFileError) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    // Find the first bad byte for the message.
    var offset = 0
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: break loop
      case .error: break loop
      }
    }
    throw SceneFileError(path: "", "not UTF-8 text (an invalid byte at byte offset \(offset))")
  }

  /// Builds the scene described by `text`; `folder` is where `pathFile` names are looked up.
  public static func load(
    text: String, folder: String = "", settings: SceneSettings
  )
    throws(SceneFileError) -> LoadedScene
  {
    try build(JSONParser.parse(text), folder: folder, settings: settings)
  }

  /// Reads the parsed document, opens its fonts and builds the scene.
  static func build(
    _ json: JSONValue, folder: String, settings: SceneSettings
  )
    throws(SceneFileError) -> LoadedScene
  {
    try settings.validate()
    var decoder = SceneDecoder(
      files: FileConfinement(folder: folder, allowsOutside: settings.allowsFilesOutside),
      colorScheme: settings.colorScheme)
    let description = try decoder.decode(json)
    let fonts: FontCatalog
    do { fonts = try FontCatalog(fontFile: settings.fontFile) } catch {
      // About the font file (`--font`), not the scene: name the font file, not the scene.
      var failure = SceneFileError(path: "", error.reason)
      failure.file = error.file.map { "font file " + $0 }
      throw failure
    }
    var assembler = SceneAssembler(description, settings: settings, fonts: fonts)
    var loaded = try assembler.assemble()
    try settings.refuseTapsOutside(width: loaded.scene.width, height: loaded.scene.height)
    loaded.files = decoder.readFiles
    loaded.notes = decoder.notes + loaded.notes
    return loaded
  }

  /// The built-in scenes by name (`cats`, `cards`): the texts of `Examples/cats.json` and
  /// `Examples/cards.json`, compiled in.
  public static func builtIn(_ name: String) -> String? { BuiltInScenes.texts[name] }

  public static var builtInNames: [String] { BuiltInScenes.texts.keys.sorted() }
}
