import FileIO
import Raster
import SceneGraph
import Testing
import Typeset

@testable import SceneFormat

#if canImport(Glibc)
import Glibc
#endif

/// `Schemas/scene.schema.json` lists exactly the keys and names the decoder accepts, so editors
/// and the tool never disagree about what a scene file may hold.
@Suite struct SchemaTests {
  static func schema() throws -> JSONValue {
    var path = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    path.removeLast(3)
    let file = path.joined(separator: "/") + "/Schemas/scene.schema.json"
    return try JSONParser.parse(ExampleSceneTests.readFile(file))
  }

  /// The value at a path of object keys.
  static func at(_ value: JSONValue, _ keys: [String]) -> JSONValue? {
    var current = value
    for key in keys {
      guard case .object(let members) = current.kind,
        let next = members.first(where: { $0.key == key })
      else { return nil }
      current = next.value
    }
    return current
  }

  static func keys(_ value: JSONValue?) -> Set<String> {
    guard let value, case .object(let members) = value.kind else { return [] }
    return Set(members.map(\.key))
  }

  static func strings(_ value: JSONValue?) -> Set<String> {
    guard let value, case .array(let items) = value.kind else { return [] }
    return Set(items.compactMap { if case .string(let s) = $0.kind { s } else { nil } })
  }

  @Test func layerKeysMatchTheDecoder() throws {
    let schema = try Self.schema()
    let layer = Self.keys(Self.at(schema, ["$defs", "layerBody", "properties"]))
    let decoder = Set(
      SceneDecoder.contentKeys + SceneDecoder.modifierKeys
        + SceneDecoder.contentParameters.values.flatMap { $0 } + ["use"])
    #expect(layer == decoder)
  }

  @Test func namesMatchTheDecoder() throws {
    let schema = try Self.schema()
    let animation = Self.at(schema, ["$defs", "animation", "oneOf"])
    guard case .array(let forms)? = animation?.kind, forms.count == 2 else {
      Issue.record("animation.oneOf")
      return
    }
    #expect(
      Self.strings(Self.at(forms[1], ["properties", "type", "enum"]))
        == Set(AnimationType.allCases.map(\.rawValue)))
    #expect(
      Self.strings(Self.at(schema, ["$defs", "textStyle", "enum"]))
        == Set(TextStyle.allCases.map(\.rawValue)))
    #expect(
      Self.strings(Self.at(schema, ["$defs", "layerBody", "properties", "shape", "enum"]))
        == Set(LayerDescription.ShapeKind.allCases.map(\.rawValue)))
    let strokeForms = Self.at(schema, ["$defs", "stroke", "oneOf"])
    guard case .array(let stroke)? = strokeForms?.kind, stroke.count == 3 else {
      Issue.record("stroke.oneOf")
      return
    }
    #expect(
      Self.keys(Self.at(stroke[2], ["properties"]))
        == Set(SceneDecoder.strokeKeys))
    #expect(
      Self.strings(Self.at(stroke[2], ["properties", "lineCap", "enum"]))
        == Set(LineCap.allCases.map(\.rawValue)))
    #expect(
      Self.strings(Self.at(stroke[2], ["properties", "lineJoin", "enum"]))
        == Set(LineJoin.allCases.map(\.rawValue)))
    let colorForms = Self.at(schema, ["$defs", "color", "anyOf"])
    if case .array(let forms)? = colorForms?.kind, forms.count == 3 {
      #expect(Self.strings(Self.at(forms[1], ["enum"])) == Set(NamedColors.names))
    } else {
      Issue.record("color.anyOf")
    }
    #expect(
      Self.strings(Self.at(schema, ["$defs", "canvas", "properties", "colorScheme", "enum"]))
        == Set(ColorScheme.allCases.map(\.rawValue)))
    #expect(
      Self.strings(Self.at(schema, ["$defs", "layerBody", "properties", "symbol", "enum"]))
        == Set(SymbolFont.names + SceneDecoder.catSymbols))
    let gradients = Self.at(schema, ["$defs", "gradient", "properties"])
    #expect(Self.keys(gradients) == Set(SceneDecoder.gradientKeys))
    for (kind, parameters) in SceneDecoder.gradientParameters {
      #expect(
        Self.keys(Self.at(gradients!, [kind, "properties"]))
          == Set(SceneDecoder.gradientCommonKeys + parameters), "\(kind)")
    }
    #expect(
      Self.strings(
        Self.at(schema, ["$defs", "transition", "oneOf"]).flatMap { v in
          guard case .array(let forms) = v.kind else { return nil }
          return Self.at(forms[0], ["enum"])
        }) == Set(SceneDecoder.transitionNames))
    #expect(
      Self.strings(Self.at(schema, ["$defs", "edge", "enum"]))
        == Set(SceneDecoder.edgeNames.keys))
    #expect(
      Self.keys(Self.at(schema, ["$defs", "keyframes", "properties", "tracks", "properties"]))
        == Set(SceneDecoder.keyframeTracks))
    #expect(
      Self.keys(
        Self.at(
          schema,
          [
            "$defs", "layerBody", "properties", "phases", "properties", "values", "items",
            "properties",
          ])
      )
        == Set(SceneDecoder.keyframeTracks))
    // Gradients' unit points and effects' anchors take SwiftUI's `UnitPoint` names.
    for definition in ["unitPoint", "anchor"] {
      #expect(
        Self.strings(
          Self.at(schema, ["$defs", definition, "anyOf"]).flatMap { v in
            guard case .array(let forms) = v.kind else { return nil }
            return Self.at(forms[0], ["enum"])
          }) == Set(SceneDecoder.unitPoints.keys), "\(definition)")
    }
    #expect(
      Self.strings(Self.at(schema, ["$defs", "canvas", "properties", "device", "enum"]))
        == Set(Device.presets.map(\.name)))
    #expect(
      Self.keys(Self.at(schema, ["properties"]))
        == [
          "$schema", "description", "canvas", "state", "definitions", "layers", "taps", "onTap",
          "events", "duration",
        ])
  }

  /// The names of the scene files in `Examples/`.
  static func exampleNames() -> [String] {
    guard let folder = opendir(ExampleSceneTests.examples) else { return [] }
    defer { closedir(folder) }
    var names: [String] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".json") { names.append(name) }
    }
    return names.sorted()
  }

  /// Every example is valid under the schema (by `SchemaValidator`, which knows every keyword
  /// the schema uses).
  @Test func examplesAreValidUnderTheSchema() throws {
    let validator = SchemaValidator(root: try Self.schema())
    let names = Self.exampleNames()
    #expect(names.count >= 26)
    for name in names {
      let scene = try JSONParser.parse(try ExampleSceneTests.read(name))
      let failures = validator.failures(of: scene)
      #expect(failures.isEmpty, "\(name): \(failures.prefix(3))")
    }
  }

  /// Whether the decoder takes `scene` (its layers, kinds and keys; fonts are not needed).
  static func decoderTakes(_ scene: JSONValue) -> Bool {
    var decoder = SceneDecoder(
      files: FileConfinement(folder: "", allowsOutside: false), colorScheme: .light)
    do {
      _ = try decoder.decode(scene)
      return true
    } catch { return false }
  }

  /// What the decoder refuses about a layer's kind, keys and frame, the schema refuses too, and
  /// what it takes the schema takes.
  @Test(arguments: [
    // Exactly one content (or a definition's).
    (#"{"opacity": 0.5}"#, false), (#"{"text": "a", "shape": "circle"}"#, false),
    (#"{"use": "t", "opacity": 0.5}"#, true),
    // Keys of another kind of layer.
    (#"{"shape": "circle", "font": "title"}"#, false),
    (#"{"path": "M0 0L9 9", "lineLimit": 2}"#, false),
    (#"{"symbol": "heart", "italic": true}"#, false),
    (#"{"symbol": "heart", "font": "title"}"#, true),
    (#"{"spacer": true, "multilineTextAlignment": "center"}"#, false),
    (#"{"spacer": {"minLength": 20}}"#, true), (#"{"spacer": {"minLength": -1}}"#, false),
    (#"{"shape": "roundedRectangle"}"#, false),
    (#"{"shape": "circle", "trim": [0, 0.5], "strokeBorder": {"lineWidth": 2}}"#, false),
    (#"{"shape": "circle", "trim": [0, 0.5], "stroke": {"lineWidth": 2}}"#, true),
    (#"{"shape": "roundedRectangle", "cornerRadius": 4}"#, true),
    (#"{"shape": "circle", "clipShape": "roundedRectangle"}"#, false),
    (#"{"shape": "circle", "clipShape": {"shape": "roundedRectangle", "cornerRadius": 4}}"#, true),
    (#"{"text": "a", "spacing": 4}"#, false),
    (#"{"text": "a", "cornerStyle": "continuous"}"#, false),
    (#"{"shape": "circle", "lineWidth": 3}"#, false), (#"{"shape": "ring", "lineWidth": 3}"#, true),
    (#"{"shape": "ring", "stroke": "red"}"#, false),
    (#"{"shape": "circle", "cornerStyle": "continuous"}"#, false),
    (#"{"vstack": [], "alignment": "top"}"#, false),
    (#"{"hstack": [], "alignment": "leading"}"#, false),
    (#"{"hstack": [], "alignment": "firstTextBaseline"}"#, true),
    (#"{"zstack": [], "alignment": "firstTextBaseline"}"#, false),
    (#"{"vstack": [], "fill": {"linearGradient": {"colors": ["red", "blue"]}}}"#, false),
    (#"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red", "blue"]}}}"#, true),
    (#"{"vstack": [], "font": "title", "lineLimit": 2}"#, true),
    (#"{"shape": "circle", "stroke": "red", "strokeBorder": "blue"}"#, false),
    (#"{"shape": "circle", "fill": "red", "foregroundColor": "blue"}"#, false),
    (
      #"{"shape": "circle", "fill": "red", "foregroundColor": "blue", "stroke": {"lineWidth": 2}}"#,
      true
    ),
    (#"{"text": "a", "transition": "scale"}"#, false),
    (#"{"text": "a", "matchedGeometryEffect": {"id": "x"}}"#, false),
    // Frames: one form per axis, infinity only as a maximum, lengths in range.
    (#"{"text": "a", "frame": {"width": 10, "maxWidth": 20}}"#, false),
    (#"{"text": "a", "frame": {"height": 10, "minHeight": 5}}"#, false),
    (#"{"text": "a", "frame": {"width": 10, "minHeight": 5, "maxHeight": "infinity"}}"#, true),
    (#"{"text": "a", "frame": {"minWidth": "infinity"}}"#, false),
    (#"{"text": "a", "frame": {"idealWidth": "infinity"}}"#, false),
    (#"{"text": "a", "frame": {"maxWidth": "=open ? 100 : 200"}}"#, true),
    (#"{"text": "a", "frame": {"maxWidth": "wide"}}"#, false),
    (#"{"text": "a", "frame": {"width": -1}}"#, false),
    (#"{"text": "a", "frame": {"width": 5000}}"#, false),
    (#"{"text": "a", "frame": {"minWidth": 10, "idealWidth": 20, "maxWidth": 30}}"#, true),
    // Drawing: one of a pair, values in range.
    (#"{"shape": "capsule", "cornerStyle": "continuous"}"#, true),
    (#"{"shape": "circle", "clipShape": {"shape": "circle", "path": "M0 0L9 9"}}"#, false),
    (#"{"shape": "circle", "clipShape": {"path": "M0 0L9 9", "cornerRadius": 3}}"#, false),
    (#"{"shape": "circle", "clipShape": {"shape": "ellipse", "cornerRadius": 3}}"#, false),
    (#"{"shape": "circle", "clipShape": {"shape": "capsule", "cornerStyle": "circular"}}"#, true),
    (
      #"{"shape": "circle", "clipShape": {"shape": "rectangle", "cornerRadius": "=open ? 9 : 0"}}"#,
      true
    ),
    (#"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"], "stops": []}}}"#, false),
    (
      #"{"shape": "circle", "fill": {"angularGradient": {"colors": ["red"], "angle": 9, "startAngle": 0}}}"#,
      false
    ),
    (
      #"{"shape": "circle", "fill": {"radialGradient": {"colors": ["red"], "endRadius": -1}}}"#,
      false
    ),
    (#"{"shape": "circle", "blur": -1}"#, false),
    (#"{"shape": "circle", "blur": {"radius": 2000}}"#, false),
    (#"{"shape": "circle", "saturation": 200}"#, false),
    (#"{"shape": "circle", "grayscale": 0.5}"#, true),
    (#"{"shape": "circle", "background": {"linearGradient": {"colors": ["red", "blue"]}}}"#, true),
  ])
  func schemaAndDecoderAgree(layer: String, valid: Bool) throws {
    let text =
      #"{"state": {"open": false}, "definitions": {"t": {"text": "a"}}, "layers": ["#
      + layer + "]}"
    let scene = try JSONParser.parse(text)
    let failures = SchemaValidator(root: try Self.schema()).failures(of: scene)
    #expect(failures.isEmpty == valid, "\(failures)")
    #expect(Self.decoderTakes(scene) == valid)
  }

  /// The schema refuses, per kind of layer, exactly the keys of other kinds the decoder refuses:
  /// every content parameter that is neither the kind's own nor a modifier.
  /// Definitions are checked where they are written, used or not, by the schema and the tool
  /// alike, for what no layer using them can undo (a key the format does not know, a key of
  /// another kind of layer, two contents, a use of another); what a using layer may complete
  /// (a corner radius, a stroke beside fill and foregroundColor, an `if`, a value it overrides)
  /// is checked where it is used, and an error in a key taken from the definition names the
  /// definition's path. Each case: the definitions, a layer using `d`, whether the file is valid
  /// with `d` unused, and where the tool's error is with it used ("" when none).
  @Test(arguments: [
    (#"{"d": {"text": "a", "opacity": 0.5}}"#, #"{"use": "d"}"#, true, ""),
    (#"{"d": {"opacity": 0.5, "frame": {"width": 10}}}"#, #"{"use": "d", "text": "b"}"#, true, ""),
    (
      #"{"d": {"shape": "capsule", "transition": "opacity"}}"#, #"{"use": "d", "if": "=1 < 2"}"#,
      true, ""
    ),
    (#"{"d": {"shape": "roundedRectangle"}}"#, #"{"use": "d", "cornerRadius": 4}"#, true, ""),
    (
      #"{"d": {"shape": "circle", "fill": "red", "foregroundColor": "blue"}}"#,
      #"{"use": "d", "stroke": {"lineWidth": 2}}"#, true, ""
    ),
    (#"{"d": {"shape": "roundedRectangle"}}"#, #"{"use": "d"}"#, true, "definitions.d.shape"),
    (#"{"d": {"text": "a", "opacty": 0.5}}"#, #"{"use": "d"}"#, false, "definitions.d.opacty"),
    (#"{"d": {"opacty": 0.5}}"#, #"{"use": "d", "text": "b"}"#, false, "definitions.d.opacty"),
    (
      #"{"d": {"shape": "circle", "lineLimit": 2}}"#, #"{"use": "d"}"#, false,
      "definitions.d.lineLimit"
    ),
    (
      #"{"d": {"zstack": [{"shape": "circle", "opacty": 1}]}}"#, #"{"use": "d"}"#, false,
      "definitions.d.zstack[0].opacty"
    ),
    (#"{"d": {"text": "a", "shape": "circle"}}"#, #"{"use": "d"}"#, false, "definitions.d"),
    (#"{"d": {"use": "t"}}"#, #"{"use": "d"}"#, false, "definitions.d"),
  ])
  func definitionsAreCheckedWhereTheyAreWritten(
    definitions: String, using: String, unusedValid: Bool, usedError: String
  ) throws {
    let validator = SchemaValidator(root: try Self.schema())
    for layer in [#"{"text": "b"}"#, using] {
      let used = layer == using
      let text =
        #"{"state": {"on": true}, "definitions": "# + definitions + #", "layers": ["# + layer + "]}"
      // The schema sees the definition only where it is written: it judges both files alike.
      let failures = validator.failures(of: try JSONParser.parse(text))
      #expect(failures.isEmpty == unusedValid, "\(text): \(failures)")
      let expected = used ? usedError : (unusedValid ? "" : usedError)
      do {
        _ = try SceneFile.load(text: text, settings: SceneSettings(scale: 1))
        #expect(expected.isEmpty, "\(text)")
      } catch {
        #expect(!expected.isEmpty && error.path == expected, "\(text): \(error)")
      }
    }
  }

  @Test func keysPerKindMatchTheDecoder() throws {
    let schema = try Self.schema()
    guard case .array(let rules)? = Self.at(schema, ["$defs", "layerBody", "allOf"])?.kind else {
      Issue.record("layer.allOf")
      return
    }
    let parameters = Set(SceneDecoder.contentParameters.values.joined())
    for kind in SceneDecoder.contentKeys {
      let rule = rules.first { rule in
        Self.strings(Self.at(rule, ["if", "required"])) == [kind]
          && Self.at(rule, ["if", "properties"]) == nil
      }
      let refused = Set(
        (rule.flatMap { Self.at($0, ["then", "properties"]) }.flatMap { v -> [JSONValue.Member]? in
          if case .object(let m) = v.kind { m } else { nil }
        } ?? []).filter { $0.value.kind == .bool(false) }.map(\.key))
      let expected = parameters.subtracting(SceneDecoder.contentParameters[kind] ?? [])
        .subtracting(SceneDecoder.modifierKeys)
      #expect(refused == expected, "\(kind)")
    }
  }
}
