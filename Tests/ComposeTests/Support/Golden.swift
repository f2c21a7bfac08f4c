import Codecs
import Foundation
import Raster
import Testing

/// How two images are compared: equal bytes first, then a per-channel tolerance with a budget
/// of differing pixels (after swift-snapshot-testing's strategy-as-value).
struct GoldenComparison: Sendable {
  /// Largest allowed difference of any channel, in 1/255.
  var channelTolerance: UInt8
  /// How many pixels may exceed the tolerance.
  var maxDifferingPixels: Int

  /// Pure geometry: fills with exact-area coverage.
  static let exact = GoldenComparison(channelTolerance: 0, maxDifferingPixels: 0)
  /// Anti-aliased edges of glyph outlines (FreeType or libm versions may move a unit).
  static let antialiasing = GoldenComparison(channelTolerance: 1, maxDifferingPixels: 0)
  /// Blurred shadows: a float recursive filter, rounded once.
  static let blur = GoldenComparison(channelTolerance: 2, maxDifferingPixels: 0)
}

/// When goldens are (re)written: `GOLDEN_RECORD=missing|failed|all|never`. The default is
/// `never` when the environment variable `CI` is set (a CI run can never pass by recording) and
/// `missing` otherwise.
enum GoldenRecordMode: String {
  case missing, failed, all, never

  static var current: GoldenRecordMode {
    let environment = ProcessInfo.processInfo.environment
    if let value = environment["GOLDEN_RECORD"], let mode = GoldenRecordMode(rawValue: value) {
      return mode
    }
    return environment["CI"] == nil ? .missing : .never
  }
}

/// Compares `pixmap` with `Goldens/<suite>/<name>.png` beside this test target; on failure writes
/// expected, actual and diff PNGs to `.build/golden-artifacts/<suite>/<name>/` and attaches them.
func assertGolden(
  _ pixmap: Pixmap, named name: String, suite: String, _ comparison: GoldenComparison,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  let golden = root.appendingPathComponent("Goldens/\(suite)/\(name).png")
  let mode = GoldenRecordMode.current
  let actual = PNGCodec.straightBytes(of: pixmap)
  func record() throws {
    try FileManager.default.createDirectory(
      at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
    try PNGCodec.write(pixmap, to: golden.path, compression: .small)
  }
  guard FileManager.default.fileExists(atPath: golden.path) else {
    if mode == .never {
      Issue.record(
        "missing golden \(golden.path) (GOLDEN_RECORD=never)", sourceLocation: sourceLocation)
    } else {
      try record()
      print("recorded golden \(golden.path)")
    }
    return
  }
  if mode == .all { return try record() }
  let expected = try PNGCodec.readStraightRGBA(golden.path)
  guard expected.width == pixmap.width, expected.height == pixmap.height else {
    Issue.record(
      "\(name): size \(pixmap.width)×\(pixmap.height), golden \(expected.width)×\(expected.height)",
      sourceLocation: sourceLocation)
    return
  }
  let difference = ImageDifference(
    expected: expected.rgba, actual: actual, width: pixmap.width,
    tolerance: comparison.channelTolerance)
  guard difference.differingPixels > comparison.maxDifferingPixels else { return }
  if mode == .failed { return try record() }
  let artifacts = root.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/golden-artifacts/\(suite)/\(name)")
  try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
  let diff = ImageDifference.image(
    expected: expected.rgba, actual: actual, width: pixmap.width, height: pixmap.height,
    tolerance: comparison.channelTolerance, style: .overlay
  ).rgba
  for (file, bytes) in [
    ("expected.png", Array(try Data(contentsOf: golden))),
    ("actual.png", try PNGCodec.encode(pixmap)),
    (
      "diff.png",
      try PNGCodec.encode(straightRGBA: diff, width: pixmap.width, height: pixmap.height)
    ),
  ] {
    try Data(bytes).write(to: artifacts.appendingPathComponent(file))
    Attachment.record(bytes, named: "\(name)-\(file)")
  }
  Issue.record(
    "\(suite)/\(name): \(difference) (tolerance \(comparison.channelTolerance)); artifacts in \(artifacts.path)",
    sourceLocation: sourceLocation)
}
