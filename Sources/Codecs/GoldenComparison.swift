import FileIO
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// Comparing a rendered image with a golden PNG, and (re)recording goldens: the one
/// implementation `render-anim check` and the test suites' golden support share.
///
/// Both images are compared as straight RGBA8 (so PNG colour types and optimisers never
/// matter): equal bytes first, then the method (a per-channel tolerance, or the perceptual
/// comparison) with a budget of differing pixels (swift-snapshot-testing's strategy-as-value).
public struct GoldenComparison: Hashable, Sendable {
  public var method: ComparisonMethod
  /// How many pixels may differ (by the method) …
  public var maxDifferingPixels: Int
  /// … and what share of the image (0…1; nil: no share, only the count).
  public var maxDifferingRatio: Double?

  /// The largest difference of any channel that is ignored by an exact comparison, in 1/255.
  public var tolerance: UInt8 {
    if case .exact(let tolerance) = method { tolerance } else { 0 }
  }

  public init(tolerance: UInt8 = 0, maxDifferingPixels: Int = 0) {
    self.init(method: .exact(tolerance: tolerance), maxDifferingPixels: maxDifferingPixels)
  }

  public init(
    method: ComparisonMethod, maxDifferingPixels: Int = 0, maxDifferingRatio: Double? = nil
  ) {
    self.method = method
    self.maxDifferingPixels = maxDifferingPixels
    self.maxDifferingRatio = maxDifferingRatio
  }

  /// What is wrong with the comparison's figures, or nil: a perceptual threshold outside 0…1
  /// (NaN compared false with everything and passed any change), a negative count of pixels, a
  /// share outside 0…1. The command line's options cannot give these; a program can.
  public var problem: String? {
    if case .perceptual(let threshold) = method, !(0...1).contains(threshold) {
      return "the perceptual threshold is \(threshold): expected 0 to 1"
    }
    if maxDifferingPixels < 0 {
      return "maxDifferingPixels is \(maxDifferingPixels): expected 0 or more"
    }
    if let ratio = maxDifferingRatio, !(0...1).contains(ratio) {
      return "maxDifferingRatio is \(ratio): expected 0 to 1"
    }
    return nil
  }

  /// Whether `difference` of an image of `pixels` pixels is within the budget: the count when
  /// only a count is given, the share when only a share is, either when both are.
  public func allows(_ difference: ImageDifference, pixels: Int) -> Bool {
    let count = difference.differingPixels
    guard let ratio = maxDifferingRatio else { return count <= maxDifferingPixels }
    let withinShare = Double(count) <= ratio * Double(pixels)
    return maxDifferingPixels > 0 ? withinShare || count <= maxDifferingPixels : withinShare
  }

  /// When goldens are written (swift-snapshot-testing's record modes).
  public enum RecordMode: String, Hashable, Sendable, CaseIterable {
    /// Write goldens that do not exist; compare the rest.
    case missing
    /// Write missing goldens and rewrite failing (or unreadable) ones.
    case failed
    /// Rewrite every golden.
    case all
    /// Write nothing: a missing golden fails.
    case never

    /// The mode when none is asked for: `never` where the environment says it is CI (a CI run
    /// must not pass by recording what it renders), `missing` elsewhere.
    public static func `default`(environment: [String: String]) -> RecordMode {
      isCI(environment) ? .never : .missing
    }

    /// Whether the environment variable `CI` says this is a CI run: set to anything but `0` or
    /// `false` (GitHub Actions, GitLab, Jenkins' plugins and others set `CI=true`; `CI=false`,
    /// which a developer may export, means no; set but empty still counts, the safe side).
    public static func isCI(_ environment: [String: String]) -> Bool {
      guard let value = environment["CI"] else { return false }
      return !["0", "false"].contains(value.lowercased())
    }
  }

  /// Where a failing comparison's images go: the actual image, and a diff image (expected |
  /// actual | overlay). In an outcome, `diff` is nil when there was no golden to draw it
  /// from (missing, unreadable, another size): then only the actual image was written.
  public struct Artifacts: Hashable, Sendable {
    public var actual: String
    public var diff: String?

    public init(actual: String, diff: String?) {
      self.actual = actual
      self.diff = diff
    }
  }

  /// What came of one comparison.
  public enum Outcome: Hashable, Sendable {
    case passed
    /// The golden was written: it was missing (or the mode rewrites every golden).
    case recorded
    /// The golden failed (or could not be read) and was written again (`--record failed`).
    case rerecorded
    /// Why it failed, and the artifacts written (nil when none could be).
    case failed(String, artifacts: Artifacts?)
    /// The golden was to be written and could not be (a folder in its place, no permission):
    /// the check could not run for this frame. Why.
    case unwritable(String)
  }

  /// The figures of the last failing comparison's difference, for reports: the differing
  /// pixels (nil when the images could not be compared: missing, unreadable, another size) and
  /// the largest channel delta.
  public struct Figures: Hashable, Sendable {
    public var differingPixels: Int?
    public var maximumDelta: Int
    public var pixels: Int

    public init(differingPixels: Int?, maximumDelta: Int, pixels: Int) {
      self.differingPixels = differingPixels
      self.maximumDelta = maximumDelta
      self.pixels = pixels
    }

    /// How bad a failure is, to pick a run's worst: unreadable or another size first, then
    /// by differing pixels.
    public var severity: Int { differingPixels ?? Int.max }
  }

  /// Compares `image` (premultiplied) with the PNG at `golden`, recording as `mode` says. Any
  /// trouble with the golden (missing, unreadable, truncated, a folder) or with writing is this
  /// comparison's failure, with its reason — never a thrown error — so a run of many goes on.
  /// On failure the artifacts are written when `artifacts` is given.
  public func check(
    _ image: Pixmap, golden: String, mode: RecordMode, artifacts: Artifacts?
  ) -> Outcome {
    checkWithFigures(image, golden: golden, mode: mode, artifacts: artifacts).outcome
  }

  /// `check`, with the failure's figures (nil unless it failed).
  public func checkWithFigures(
    _ image: Pixmap, golden: String, mode: RecordMode, artifacts: Artifacts?
  ) -> (outcome: Outcome, figures: Figures?) {
    var figures: Figures?
    let outcome = compare(
      image, golden: golden, mode: mode, artifacts: artifacts, figures: &figures)
    if case .failed = outcome {
      return (outcome, figures ?? Figures(differingPixels: nil, maximumDelta: 0, pixels: 0))
    }
    return (outcome, nil)
  }

  private func compare(
    _ image: Pixmap, golden: String, mode: RecordMode, artifacts: Artifacts?,
    figures: inout Figures?
  ) -> Outcome {
    do {
      let exists = FileStatus.exists(golden)
      if mode == .all || (!exists && (mode == .missing || mode == .failed)) {
        return recording(image, to: golden) ?? .recorded
      }
      guard exists else {
        return failedAlone("no golden at \(golden)", image: image, artifacts: artifacts)
      }
      let expected: (rgba: [UInt8], width: Int, height: Int)
      do {
        let data = try PNGCodec.readData(golden, regularFileOnly: true)
        // A golden whose rows decode to the frame's pixels passes without being unfiltered.
        if let rows = InflatedPNG(data) {
          if rows.decodes(to: image) == true { return .passed }
          expected = try rows.decoded(path: golden)
        } else {
          expected = try PNGCodec.decodeStraightRGBA(data, path: golden)
        }
      } catch {
        guard mode == .failed else {
          return failedAlone("unreadable golden: \(error)", image: image, artifacts: artifacts)
        }
        return recording(image, to: golden) ?? .rerecorded
      }
      let actual = PNGCodec.straightBytes(of: image)
      let sameSize = expected.width == image.width && expected.height == image.height
      let pixels = image.width * image.height
      let difference =
        sameSize
        ? ImageDifference(
          expected: expected.rgba, actual: actual, width: image.width, height: image.height,
          method: method)
        : nil
      if let difference, allows(difference, pixels: pixels) { return .passed }
      if mode == .failed {
        return recording(image, to: golden) ?? .rerecorded
      }
      figures = Figures(
        differingPixels: difference?.differingPixels, maximumDelta: difference?.maximumDelta ?? 0,
        pixels: pixels)
      guard let difference else {
        return failedAlone(
          "size \(image.width)×\(image.height), golden \(expected.width)×\(expected.height)",
          image: image, artifacts: artifacts)
      }
      guard let artifacts, let diff = artifacts.diff else {
        return .failed("\(difference)", artifacts: nil)
      }
      try write(artifacts, image: image, expected: expected.rgba, actual: actual)
      return .failed("\(difference); see \(artifacts.actual) and \(diff)", artifacts: artifacts)
    } catch {
      return .failed("\(error)", artifacts: nil)
    }
  }

  /// A failure with no golden to compare with (missing, unreadable, another size): the actual
  /// image alone goes to the artifacts, so what the frame shows can be looked at (and copied
  /// in as the golden).
  private func failedAlone(_ reason: String, image: Pixmap, artifacts: Artifacts?) -> Outcome {
    guard let artifacts else { return .failed(reason, artifacts: nil) }
    do {
      try Folders.create(OutputPathText.folder(of: artifacts.actual))
      try PNGCodec.write(image, to: artifacts.actual)
    } catch {
      return .failed(
        "\(reason) (and the actual image could not be written: \(error))", artifacts: nil)
    }
    return .failed(
      "\(reason); see \(artifacts.actual)",
      artifacts: Artifacts(actual: artifacts.actual, diff: nil))
  }

  /// `record`, its failure as an outcome (nil when the golden was written).
  private func recording(_ image: Pixmap, to golden: String) -> Outcome? {
    do {
      try record(image, to: golden)
      return nil
    } catch {
      return .unwritable("cannot write the golden: \(error)")
    }
  }

  /// Writes `image` as a golden (the smallest PNG), creating its folder.
  /// A golden that is not a regular file (a named pipe, a socket, a device, left where a frame's
  /// golden goes) is removed first: written to, a pipe would wait for a reader for ever, and a
  /// golden is a file the check owns.
  public func record(_ image: Pixmap, to golden: String) throws {
    try Folders.create(OutputPathText.folder(of: golden))
    var info = stat()
    if stat(golden, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind != S_IFREG && kind != S_IFDIR { unlink(golden) }
    }
    try PNGCodec.write(image, to: golden, compression: .small)
  }

  private func write(
    _ artifacts: Artifacts, image: Pixmap, expected: [UInt8], actual: [UInt8]
  ) throws {
    for path in [artifacts.actual, artifacts.diff].compactMap({ $0 }) {
      try Folders.create(OutputPathText.folder(of: path))
    }
    guard let diffPath = artifacts.diff else { return }
    try PNGCodec.write(image, to: artifacts.actual)
    let diff = ImageDifference.image(
      expected: expected, actual: actual, width: image.width, height: image.height,
      method: method, style: .triptych)
    try OutputFile.write(
      PNGCodec.encode(straightRGBA: diff.rgba, width: diff.width, height: image.height),
      to: diffPath)
  }
}

/// The folder part of a path as text (`a/b/c.png` → `a/b`, `c.png` → `.`).
enum OutputPathText {
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let folder = String(path[..<slash])
    return folder.isEmpty ? "/" : folder
  }
}
