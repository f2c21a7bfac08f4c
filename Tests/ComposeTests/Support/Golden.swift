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

/// The outcome of comparing two straight RGBA8 images of one size.
struct ImageDifference: CustomStringConvertible {
  var differingPixels = 0
  var maximumDelta = 0
  var first: (x: Int, y: Int)?
  var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?

  init(expected: [UInt8], actual: [UInt8], width: Int, tolerance: UInt8) {
    guard expected != actual else { return }
    for i in stride(from: 0, to: min(expected.count, actual.count), by: 4) {
      var delta = 0
      for c in 0..<4 { delta = max(delta, abs(Int(expected[i + c]) - Int(actual[i + c]))) }
      maximumDelta = max(maximumDelta, delta)
      guard delta > Int(tolerance) else { continue }
      differingPixels += 1
      let (x, y) = ((i / 4) % width, (i / 4) / width)
      if first == nil { first = (x, y) }
      box = (
        min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x),
        max(box?.maxY ?? y, y)
      )
    }
  }

  var description: String {
    guard let first, let box else {
      return "identical within tolerance (max delta \(maximumDelta))"
    }
    return
      "\(differingPixels) pixels differ, max channel delta \(maximumDelta), first at (\(first.x), "
      + "\(first.y)), within (\(box.minX), \(box.minY))–(\(box.maxX), \(box.maxY))"
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
  let expected = try PNGCodec.decodeStraightRGBA(AtomicFile.read(golden.path), path: golden.path)
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
  let diff = diffImage(
    expected: expected.rgba, actual: actual, width: pixmap.width,
    height: pixmap.height, tolerance: comparison.channelTolerance)
  for (file, bytes) in [
    ("expected.png", try AtomicFile.read(golden.path)), ("actual.png", try PNGCodec.encode(pixmap)),
    (
      "diff.png",
      try PNGCodec.encode(straightRGBA: diff, width: pixmap.width, height: pixmap.height)
    ),
  ] {
    try AtomicFile.write(bytes, to: artifacts.appendingPathComponent(file).path)
    Attachment.record(bytes, named: "\(name)-\(file)")
  }
  Issue.record(
    "\(suite)/\(name): \(difference) (tolerance \(comparison.channelTolerance)); artifacts in \(artifacts.path)",
    sourceLocation: sourceLocation)
}

/// Differing pixels in magenta over a faded copy of the expected image.
func diffImage(
  expected: [UInt8], actual: [UInt8], width: Int, height: Int, tolerance: UInt8
) -> [UInt8] {
  var out = [UInt8](repeating: 255, count: width * height * 4)
  for i in stride(from: 0, to: out.count, by: 4) {
    var delta = 0
    for c in 0..<4 { delta = max(delta, abs(Int(expected[i + c]) - Int(actual[i + c]))) }
    if delta > Int(tolerance) {
      (out[i], out[i + 1], out[i + 2]) = (255, 0, 255)
    } else {
      for c in 0..<3 { out[i + c] = UInt8(255 - (255 - Int(expected[i + c])) / 4) }
    }
  }
  return out
}
