import Codecs
import Motion
import Typeset

/// Scene files: animated SwiftUI-like scenes described as JSON (see README, "Scene files", and
/// `Schemas/scene.schema.json`).
///
/// ```swift
/// let loaded = try SceneFile.load(path: "Examples/toggle.json", settings: SceneSettings())
/// let gif = try SceneExporter(scene: loaded.scene).gif()
/// ```
public enum SceneFile {
  /// Reads and builds the scene in `path` (`-` reads standard input). `pathFile` names inside
  /// are relative to the file's folder (to the working directory for standard input).
  public static func load(
    path: String, settings: SceneSettings
  ) throws(SceneFileError)
    -> LoadedScene
  {
    let bytes: [UInt8]
    do { bytes = try AtomicFile.read(path) } catch {
      throw SceneFileError(
        path: "", "cannot read \(path == "-" ? "standard input" : path): \(error)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw SceneFileError(path: "", "\(path) is not UTF-8 text")
    }
    let folder =
      path == "-"
      ? ""
      : String(
        path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
          separator: "/"))
    return try load(
      text: text, folder: path.hasPrefix("/") && folder.isEmpty ? "/" : folder, settings: settings)
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
    var decoder = SceneDecoder(folder: folder)
    let description = try decoder.decode(json)
    let fonts: FontCatalog
    do { fonts = try FontCatalog(fontFile: settings.fontFile) } catch {
      throw SceneFileError(path: "", error.message)
    }
    var assembler = SceneAssembler(description, settings: settings, fonts: fonts)
    return try assembler.assemble()
  }

  /// The built-in scenes by name (`cats`, `cards`): the texts of `Examples/cats.json` and
  /// `Examples/cards.json`, compiled in.
  public static func builtIn(_ name: String) -> String? { BuiltInScenes.texts[name] }

  public static var builtInNames: [String] { BuiltInScenes.texts.keys.sorted() }
}
