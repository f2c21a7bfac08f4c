import Codecs
import Foundation
import Raster
import Testing

/// The tolerances the test suites' goldens are compared with, named by what they cover.
extension GoldenComparison {
  /// Pure geometry: fills with exact-area coverage.
  static let exact = GoldenComparison(tolerance: 0, maxDifferingPixels: 0)
  /// Anti-aliased edges of glyph outlines (FreeType or libm versions may move a unit).
  static let antialiasing = GoldenComparison(tolerance: 1, maxDifferingPixels: 0)
  /// Blurred shadows: a float recursive filter, rounded once.
  static let blur = GoldenComparison(tolerance: 2, maxDifferingPixels: 0)
}

extension GoldenComparison.RecordMode {
  /// `GOLDEN_RECORD=missing|failed|all|never`; by default `never` when the environment variable
  /// `CI` is set (a CI run can never pass by recording) and `missing` otherwise.
  static var current: GoldenComparison.RecordMode {
    let environment = ProcessInfo.processInfo.environment
    if let value = environment["GOLDEN_RECORD"],
      let mode = GoldenComparison.RecordMode(rawValue: value)
    {
      return mode
    }
    return .default(environment: environment)
  }
}

/// Compares `pixmap` with `Goldens/<suite>/<name>.png` beside this test target, through the same
/// `GoldenComparison` as `render-anim check`; on failure its actual and diff images go to
/// `.build/golden-artifacts/<suite>/<name>-*.png` and are attached to the test.
func assertGolden(
  _ pixmap: Pixmap, named name: String, suite: String, _ comparison: GoldenComparison,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  let golden = root.appendingPathComponent("Goldens/\(suite)/\(name).png").path
  let stem = root.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/golden-artifacts/\(suite)/\(name)").path
  let artifacts = GoldenComparison.Artifacts(actual: stem + "-actual.png", diff: stem + "-diff.png")
  switch comparison.check(pixmap, golden: golden, mode: .current, artifacts: artifacts) {
  case .passed: return
  case .recorded, .rerecorded: print("recorded golden \(golden)")
  case .unwritable(let reason):
    Issue.record("\(suite)/\(name): \(reason)", sourceLocation: sourceLocation)
  case .failed(let reason, let written):
    for path in [written?.actual, written?.diff].compactMap({ $0 }) {
      if let bytes = FileManager.default.contents(atPath: path) {
        Attachment.record(Array(bytes), named: URL(fileURLWithPath: path).lastPathComponent)
      }
    }
    Issue.record(
      "\(suite)/\(name): \(reason) (tolerance \(comparison.tolerance))",
      sourceLocation: sourceLocation)
  }
}
