import Codecs
import Dispatch
import FileIO
import Raster

/// `render-anim diff`: compares two PNGs for golden-image tests.
enum DiffCommand: Command {
  static let spec = CommandSpec(
    name: "diff",
    abstract: "Compare two PNG images pixel by pixel.",
    discussion: """
      Both images are decoded to straight RGBA8 first, so colour types, bit depths and PNG \
      optimisers never matter. Files whose image data is identical are the same without decoding; \
      otherwise a pixel differs when some channel differs by more than --tolerance (or, with \
      --compare perceptual, when its OKLab distance is over --threshold and it is not an anti-aliased \
      edge pixel), and the images count as the same while at most --max-pixels pixels (or --max-ratio \
      of them) differ. Exit 0: the same within tolerance; 1: \
      different (a size mismatch too); 2: bad input (missing, not a PNG, truncated or corrupt).
      """,
    options: [
      OptionSpec(
        "expected", kind: .positional, valueName: "expected.png", help: "The reference image.",
        isRequired: true),
      OptionSpec(
        "actual", kind: .positional, valueName: "actual.png", help: "The image to check.",
        isRequired: true),
    ]
      + ComparisonOptions.specs(budgetPer: "image")
      + [
        OptionSpec(
          "diff-out", valueName: "diff.png",
          help:
            "Write the difference image, whatever the verdict (-: to stdout; the verdict then "
            + "goes to stderr); images of different sizes are shown side by side."),
        OptionSpec(
          "diff-style", value: .choice(of: ImageDifference.Style.self),
          valueName: "overlay|triptych",
          help:
            "overlay: differing pixels in magenta over the faded expected image; triptych: expected | actual | overlay.",
          defaultValue: "overlay"),
      ])

  static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
    let comparison = try ComparisonOptions.parse(arguments)
    let style: ImageDifference.Style = try arguments.requiredChoice("diff-style")
    let paths = (arguments.positional(0) ?? "", arguments.positional(1) ?? "")
    if paths.0 == "-", paths.1 == "-" {
      throw UsageError(
        "standard input can be only one of the two images: give a file for the other")
    }
    let diffOut = arguments.value("diff-out")
    // With the difference image on standard output, the verdict goes to standard error, so the
    // PNG stays whole.
    if let diffOut, OutputFile.isStandardOutput(diffOut) {
      let verdicts = console.standardError
      console.standardOutput = verdicts
    }
    if let diffOut {
      try OutputOptions.checkPNG(diffOut, option: "--diff-out")
      let same = [paths.0, paths.1].contains { path in
        path == diffOut
          || OutputOptions.identity(path).map { $0 == OutputOptions.identity(diffOut) } == true
      }
      if same { throw UsageError("'--diff-out' \(diffOut) is one of the images compared") }
    }
    // Reading follows each file's chunk structure, so a non-PNG stops after its first bytes.
    let files: (PNGData, PNGData)
    do {
      files = (try PNGCodec.readData(paths.0), try PNGCodec.readData(paths.1))
    } catch {
      throw RuntimeError(error.description, code: 2)
    }
    // The shortcuts for equal images skip decoding; a difference image needs the pixels.
    let shortcuts = diffOut == nil
    if shortcuts, files.0 == files.1 {
      console.standardOutput("same: the image data is identical\n")
      return 0
    }
    // Both files' rows are inflated at once, one on each core, and the expected image's are
    // unfiltered where they lie; when the actual rows decode to those pixels (a re-encoded
    // copy) they are never unfiltered (`InflatedPNG.decodes(to:)`). Files the fast path does not
    // take are decoded whole.
    typealias Decoded = Result<(rgba: [UInt8], width: Int, height: Int), CodecError>
    let decoded = Slots<Decoded>(count: 2)
    let inflated = Slots<InflatedPNG>(count: 2)
    let inputs = [(files.0, paths.0), (files.1, paths.1)]
    DispatchQueue.concurrentPerform(iterations: 2) { k in
      if var rows = InflatedPNG(inputs[k].0) {
        if k == 0 { _ = rows.unfilterInPlace() }
        inflated.store(rows, at: k)
        return
      }
      decoded.store(
        Result { () throws(CodecError) in
          try PNGCodec.decodeStraightRGBA(inputs[k].0, path: inputs[k].1)
        },
        at: k)
    }
    let expected: (rgba: [UInt8], width: Int, height: Int)
    let actual: (rgba: [UInt8], width: Int, height: Int)
    do {
      let missing = Decoded.failure(CodecError(.decodePNG, message: "not decoded"))
      // Removed from their slots and taken from these variables, so each decode below holds
      // the only reference to its rows and unfilters them without copying 12 MB.
      var expectedRows = inflated.remove(0)
      var actualRows = inflated.remove(1)
      if shortcuts, let e = expectedRows, let a = actualRows, a.decodes(to: e) == true {
        console.standardOutput("same: \(ImageDifference.identical)\n")
        return 0
      }
      let expectedWasInflated = expectedRows != nil
      expected =
        try expectedRows.take()?.decoded(path: paths.0) ?? (decoded.take(0) ?? missing).get()
      if let rows = actualRows.take() {
        if shortcuts, !expectedWasInflated, rows.width == expected.width,
          rows.height == expected.height, rows.decodes(to: expected.rgba) == true
        {
          console.standardOutput("same: \(ImageDifference.identical)\n")
          return 0
        }
        actual = try rows.decoded(path: paths.1)
      } else {
        actual = try (decoded.take(1) ?? missing).get()
      }
    } catch {
      throw RuntimeError("\(error)", code: 2)
    }
    guard expected.width == actual.width, expected.height == actual.height else {
      console.standardOutput(
        "different: sizes differ, expected \(expected.width)×\(expected.height), actual \(actual.width)×\(actual.height)\n"
      )
      // No pixel-by-pixel difference: the image shows expected | actual, top-aligned on a
      // transparent ground.
      if let out = diffOut {
        let width = expected.width + actual.width
        let height = max(expected.height, actual.height)
        guard Pixmap.isValidSize(width: width, height: height) else {
          throw RuntimeError(
            "cannot write the diff image of images of different sizes: expected | actual "
              + "would be \(width)×\(height) pixels, over the PNG writer's limit")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for (image, left) in [(expected, 0), (actual, expected.width)] {
          for y in 0..<image.height {
            let from = y * image.width * 4
            let to = (y * width + left) * 4
            rgba[to..<(to + image.width * 4)] = image.rgba[from..<(from + image.width * 4)]
          }
        }
        try OutputFile.write(
          PNGCodec.encode(straightRGBA: rgba, width: width, height: height), to: out)
      }
      return 1
    }
    let difference = ImageDifference(
      expected: expected.rgba, actual: actual.rgba, width: expected.width,
      height: expected.height, method: comparison.method)
    let same = comparison.allows(difference, pixels: expected.width * expected.height)
    console.standardOutput("\(same ? "same" : "different"): \(difference)\n")
    // Written whatever the verdict: differences within the budget are shown too, and a diff
    // image from an earlier run is not left in place to mislead.
    if let out = diffOut {
      let width = style == .triptych ? expected.width * 3 : expected.width
      guard Pixmap.isValidSize(width: width, height: expected.height) else {
        throw RuntimeError(
          "cannot write the \(style.rawValue) diff image: it would be \(width)×\(expected.height) "
            + "pixels, over the PNG writer's limit of \(Pixmap.maximumSide) a side and "
            + "\(Pixmap.maximumPixels) pixels"
            + (style == .triptych ? "; use --diff-style overlay" : ""))
      }
      let image = ImageDifference.image(
        expected: expected.rgba, actual: actual.rgba, width: expected.width,
        height: expected.height,
        method: comparison.method, style: style)
      try OutputFile.write(
        PNGCodec.encode(straightRGBA: image.rgba, width: image.width, height: expected.height),
        to: out)
    }
    return same ? 0 : 1
  }
}
