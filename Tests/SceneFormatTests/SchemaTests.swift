import Raster
import SceneGraph
import Testing
import Typeset

@testable import SceneFormat

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
    let layer = Self.keys(Self.at(schema, ["$defs", "layer", "properties"]))
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
      Self.strings(Self.at(schema, ["$defs", "layer", "properties", "shape", "enum"]))
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
      Self.strings(Self.at(schema, ["$defs", "layer", "properties", "symbol", "enum"]))
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
          ["$defs", "layer", "properties", "phases", "properties", "values", "items", "properties"])
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
}
