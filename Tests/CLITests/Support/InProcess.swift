import CLI
import Foundation
import Synchronization

/// The tool run in this process through `RenderAnim.main(_:console:)`: what it printed and its
/// exit status. For tests of parsing, messages and exit codes, where starting a process adds
/// nothing (signals and standard-output pipes still use `ToolRun`).
struct InProcessRun {
  let status: Int32
  let standardOutput: String
  let standardError: String

  init(_ arguments: [String]) {
    let output = Mutex("")
    let error = Mutex("")
    let console = Console(
      standardOutput: { text in output.withLock { $0 += text } },
      standardError: { text in error.withLock { $0 += text } })
    status = RenderAnim.main(arguments, console: console)
    standardOutput = output.withLock { $0 }
    standardError = error.withLock { $0 }
  }
}

/// A fresh folder for one test's files, and small helpers to fill it.
struct Scratch {
  let path: String

  init(_ name: String) {
    path = ToolRun.scratchFolder(name)
  }

  /// Writes `text` to `name` in the folder and returns its path.
  @discardableResult
  func write(_ text: String, _ name: String) throws -> String {
    let file = path + "/" + name
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + name) }

  /// The names in the folder `name` (the scratch folder itself for ""), sorted.
  func list(_ name: String = "") -> [String] {
    let folder = name.isEmpty ? path : path + "/" + name
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  func bytes(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path + "/" + name).map(Array.init)
  }
}
