import Foundation
import Testing

/// Package.swift declares exactly the modules each target imports (issue #12: Motion once
/// declared Typeset and never imported it), and data flows one way between the modules.
@Suite struct PackageTests {
  static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
  }()

  /// Each target's name, folder and declared dependencies, read from Package.swift.
  static func targets() throws -> [(name: String, folder: String, dependencies: Set<String>)] {
    let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var found: [(String, String, Set<String>)] = []
    let pattern = try NSRegularExpression(
      pattern:
        #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?(?:,\s*path:\s*"([^"]+)")?"#
    )
    let range = NSRange(text.startIndex..., in: text)
    for match in pattern.matches(in: text, range: range) {
      func group(_ i: Int) -> String? {
        Range(match.range(at: i), in: text).map { String(text[$0]) }
      }
      guard let kind = group(1), let name = group(2) else { continue }
      let dependencies = Set(
        (group(3) ?? "").split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: ["\""])
        }.filter { !$0.isEmpty })
      let folder = group(4) ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
      found.append((name, folder, dependencies))
    }
    return found
  }

  /// The package's modules a folder's Swift files import.
  static func imports(in folder: String, among modules: Set<String>) throws -> Set<String> {
    let url = root.appendingPathComponent(folder)
    var result: Set<String> = []
    let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      if file.pathExtension == "c" {
        // A C target's system libraries appear as `#include <jpeglib.h>`: count the module whose
        // shim includes that header.
        let text = try String(contentsOf: file, encoding: .utf8)
        for module in modules where module.hasPrefix("C") {
          let shim = root.appendingPathComponent("Sources/\(module)/shim.h")
          guard let shimText = try? String(contentsOf: shim, encoding: .utf8) else { continue }
          let headers = shimText.split(separator: "\n").filter { $0.hasPrefix("#include <") }
            .filter { !$0.contains("stdio.h") }
          if headers.contains(where: { text.contains($0) }) { result.insert(module) }
        }
        continue
      }
      guard file.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
          words[..<i].allSatisfy({ $0 == "@_exported" || $0 == "@testable" })
        else { continue }
        let module = String(words[i + 1])
        if modules.contains(module) { result.insert(module) }
      }
    }
    return result
  }

  @Test func everyTargetDeclaresExactlyWhatItImports() throws {
    let targets = try Self.targets()
    #expect(targets.count > 10)
    let modules = Set(targets.map(\.name))
    for target in targets {
      let used = try Self.imports(in: target.folder, among: modules)
      #expect(
        used == target.dependencies.intersection(modules),
        "\(target.name): imports \(used.sorted()), declares \(target.dependencies.sorted())")
    }
  }

  /// Raster ← {Typeset, Codecs, Motion → SceneGraph} ← SceneFormat ← RenderAnimKit ← CLI, with
  /// FileIO beneath the modules that read and write files: a module never imports one to its right.
  @Test func dataFlowsOneWay() throws {
    let order = [
      "CFileSystem", "FileIO", "Raster", "Motion", "Typeset", "Codecs", "SceneGraph", "SceneFormat",
      "RenderAnimKit", "CLI",
    ]
    let targets = try Self.targets()
    for target in targets where order.contains(target.name) {
      let rank = order.firstIndex(of: target.name) ?? 0
      for dependency in target.dependencies {
        guard let other = order.firstIndex(of: dependency) else { continue }
        #expect(other < rank, "\(target.name) depends on \(dependency)")
      }
    }
    #expect(
      targets.first { $0.name == "Motion" }?.dependencies.isEmpty == true,
      "Motion keeps only time")
  }
}
