/// What a byte budget chose: the file's bytes and the settings, said in words.
public struct BudgetChoice: Sendable {
  public var bytes: [UInt8]
  /// E.g. "255 colours, lossy LZW per frame (loss 0–800, mean 212), 50 fps".
  public var settings: String
  /// The frames rendered into it: every `stride`-th of the scene's, where a lower frame rate
  /// was needed.
  public var frames: Int
}

/// No setting fits the byte budget; `smallest` is the fewest bytes reached.
public struct BudgetError: Error, CustomStringConvertible, Sendable {
  public var budget: Int
  public var smallest: Int
  public var settings: String
  public var description: String {
    "no setting fits in \(budget) bytes: the smallest reached is \(smallest) bytes (\(settings))"
  }
}

extension SceneExporter {
  /// Squared errors (R, G, B summed) a GIF frame's pixels may take for a longer LZW string:
  /// level 0 is lossless.
  static let gifLossLevels = [0, 60, 150, 400, 1_000, 2_500, 6_400]
  /// Palette sizes tried when even the lossiest LZW does not fit, in order.
  static let gifPaletteSizes = [255, 128, 64, 32]
  /// Frame strides tried last (every frame, every other one, …).
  static let frameStrides = [1, 2, 3, 4, 6, 8, 12, 16]

  /// The best GIF that fits in `maxBytes`, found deterministically (the same on any thread
  /// count): losslessly if it fits; else lossy LZW with the loss chosen per frame — each frame
  /// takes the level that minimises its shown squared error (weighted by how long it is shown)
  /// plus λ times its bytes, λ the smallest whose file fits; when even the lossiest does not fit,
  /// fewer palette colours; then fewer frames a second. Throws `BudgetError` when nothing fits.
  public func gif(
    maxBytes: Int, loopCount: Int = 0, matte: GIFMatte = .white
  ) throws -> BudgetChoice {
    try checkGIF(loopCount: loopCount)
    var smallest: (bytes: Int, settings: String)?
    for stride in Self.frameStrides where stride == 1 || scene.frameCount > stride {
      for colors in Self.gifPaletteSizes {
        let levels = Self.gifLossLevels
        let probe = try gifRun(
          stride: stride, colors: colors, levels: [], uniform: levels,
          loopCount: loopCount, matte: matte)
        let fps = Self.fpsText(scene.frameRate / Double(stride))
        let lossiest = probe[levels.count - 1]
        if lossiest.bytes.count < smallest?.bytes ?? Int.max {
          smallest = (
            lossiest.bytes.count, "\(colors) colours, loss \(levels[levels.count - 1]), \(fps)"
          )
        }
        if probe[0].bytes.count <= maxBytes {
          return BudgetChoice(
            bytes: probe[0].bytes, settings: "\(colors) colours, lossless, \(fps)",
            frames: frameCount(stride: stride))
        }
        guard lossiest.bytes.count <= maxBytes else { continue }
        // Per frame: bytes and weighted error at each level, from the uniform runs.
        let frames = probe[0].frameBytes.count
        var best = lossiest
        var bestLevels = [Int](repeating: levels.count - 1, count: frames)
        var margin = 1.0
        for _ in 0..<3 {
          // Four targets at once, tighter and tighter, in one pass.
          let targets = [1.0, 0.97, 0.94, 0.9].map { $0 * margin * Double(maxBytes) }
          let choices = targets.map { Self.levels(probe, fitting: $0) }
          let runs = try gifRun(
            stride: stride, colors: colors, levels: choices, uniform: [], loopCount: loopCount,
            matte: matte)
          // The least error among those that fit (the loosest target usually).
          var found = false
          for (run, choice) in zip(runs, choices) where run.bytes.count <= maxBytes {
            found = true
            if run.error < best.error { (best, bestLevels) = (run, choice) }
          }
          if found { break }
          margin *= 0.85
        }
        let used = bestLevels.map { levels[$0] }
        let mean = used.reduce(0, +) / max(1, used.count)
        return BudgetChoice(
          bytes: best.bytes,
          settings:
            "\(colors) colours, lossy LZW per frame (loss \(used.min() ?? 0)–\(used.max() ?? 0), mean \(mean)), \(fps)",
          frames: frameCount(stride: stride))
      }
    }
    throw BudgetError(
      budget: maxBytes, smallest: smallest?.bytes ?? 0, settings: smallest?.settings ?? "")
  }

  /// The frames of every `stride`-th of the scene's.
  func frameCount(stride: Int) -> Int { (scene.frameCount + stride - 1) / stride }

  /// One GIF encoded in one pass.
  struct GIFRun {
    var bytes: [UInt8]
    /// Per frame given: its image bytes and the shown squared error after it times its delay.
    var frameBytes: [Int]
    var frameError: [Double]
    /// The sum of `frameError`.
    var error: Double
  }

  /// Renders every `stride`-th frame once and encodes them with several encoders at once: one
  /// per entry of `levels` (a loss level index per frame), then one per entry of `uniform` (that
  /// loss for every frame). Palettes of `colors` colours.
  func gifRun(
    stride: Int, colors: Int, levels: [[Int]?], uniform: [Int], loopCount: Int, matte: GIFMatte
  ) throws -> [GIFRun] {
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let count = scene.frameCount
    let transparent = makesTransparentGIF
    let matting = transparent ? matte : nil
    let palettes = try Self.palettes(
      renderer, frameCount: count, matte: matting, maximumColors: colors)
    let indices = Swift.stride(from: 0, to: count, by: stride).map { $0 }
    let sinks = (0..<(levels.count + uniform.count)).map { _ in MemorySink() }
    let encoders = try sinks.map { sink in
      try GIFEncoder(
        width: scene.pixelWidth, height: scene.pixelHeight, palette: palettes.global,
        loopCount: loopCount, transparent: transparent, measuresError: true, output: sink)
    }
    var runs = sinks.map { _ in GIFRun(bytes: [], frameBytes: [], frameError: [], error: 0) }
    let fps = scene.frameRate
    var position = 0
    try renderer.render(
      indices, reusing: palettes.drawings,
      preparing: { frame in
        GIFEncoder.prepare(
          matting?.apply(frame.pixels) ?? frame.pixels,
          previous: frame.previous.map { matting?.apply($0) ?? $0 },
          palette: palettes.global, firstPalette: palettes.first, transparent: transparent,
          maximumColors: colors, changed: frame.changed)
      }
    ) { index, frame in
      let end = min(count, index + stride)
      let delay = (index..<end).reduce(0) { $0 + Self.delay(frame: $1, fps: fps) }
      for (e, encoder) in encoders.enumerated() {
        let loss =
          e < levels.count
          ? Self.gifLossLevels[levels[e]?[position] ?? 0] : uniform[e - levels.count]
        try encoder.add(frame, delay: delay, loss: loss)
        let error = Double(encoder.shownSquaredError) * Double(max(2, delay))
        runs[e].frameBytes.append(encoder.lastFrameBytes)
        runs[e].frameError.append(error)
        runs[e].error += error
      }
      position += 1
    }
    for (e, encoder) in encoders.enumerated() {
      try encoder.finish()
      runs[e].bytes = sinks[e].bytes
    }
    return runs
  }

  /// A loss level per frame: each frame the level minimising error + λ·bytes, with λ the
  /// smallest (found by bisection) whose bytes add up to at most `target` from the uniform runs
  /// in `probe` (one per loss level). A frame that writes nothing takes its error to the frame
  /// before, whose picture it keeps showing.
  static func levels(_ probe: [GIFRun], fitting target: Double) -> [Int] {
    let frames = probe[0].frameBytes.count
    // Folded: frames that write nothing lend their error to the last frame that did.
    var error = probe.map { _ in [Double](repeating: 0, count: frames) }
    var bytes = probe.map { _ in [Int](repeating: 0, count: frames) }
    var owner = 0
    for f in 0..<frames {
      if f == 0 || probe.contains(where: { $0.frameBytes[f] > 0 }) { owner = f }
      for (l, run) in probe.enumerated() {
        error[l][owner] += run.frameError[f]
        bytes[l][owner] += run.frameBytes[f]
      }
    }
    let fixed = Double(probe[0].bytes.count - probe[0].frameBytes.reduce(0, +))
    func choose(_ lambda: Double) -> (levels: [Int], bytes: Double) {
      var total = fixed
      var picked = [Int](repeating: 0, count: frames)
      for f in 0..<frames {
        var best = 0
        var bestCost = Double.infinity
        for l in probe.indices {
          let cost = error[l][f] + lambda * Double(bytes[l][f])
          if cost < bestCost { (best, bestCost) = (l, cost) }
        }
        picked[f] = best
        total += Double(bytes[best][f])
      }
      return (picked, total)
    }
    var (low, high) = (0.0, 1.0)
    while choose(high).bytes > target && high < 1e30 { high *= 4 }
    for _ in 0..<60 {
      let mid = (low + high) / 2
      if choose(mid).bytes > target { low = mid } else { high = mid }
    }
    return choose(high).levels
  }

  /// How many qualities above the bisection's first misfit a WebP budget tries (from the top
  /// down): libwebp's sizes wander by a few qualities, not more.
  static let webpQualityWindow = 6

  static func fpsText(_ fps: Double) -> String {
    fps == fps.rounded() ? "\(Int(fps)) fps" : "\((fps * 100).rounded() / 100) fps"
  }

  /// The best WebP that fits in `maxBytes`: lossless if it fits; else the highest lossy quality
  /// (a whole number) that fits — found by bisection, then by trying the `webpQualityWindow`
  /// qualities above the first that did not fit, since libwebp's size is not quite monotonic
  /// in quality (one a few steps higher can come out smaller); then fewer frames a second at
  /// quality 0.
  public func webp(maxBytes: Int, loopCount: Int = 0) throws -> BudgetChoice {
    try checkScene()
    try Self.checkLoopCount(loopCount)
    var smallest: (bytes: Int, settings: String)?
    for stride in Self.frameStrides where stride == 1 || scene.frameCount > stride {
      let fps = Self.fpsText(scene.frameRate / Double(stride))
      if stride == 1 {
        let lossless = try webpRun(stride: 1, quality: nil, loopCount: loopCount)
        if lossless.count <= maxBytes {
          return BudgetChoice(
            bytes: lossless, settings: "lossless, \(fps)", frames: frameCount(stride: 1))
        }
      }
      let lowest = try webpRun(stride: stride, quality: 0, loopCount: loopCount)
      if lowest.count < smallest?.bytes ?? Int.max {
        smallest = (lowest.count, "quality 0, \(fps)")
      }
      guard lowest.count <= maxBytes else { continue }
      var (good, goodBytes) = (0, lowest)
      var bad = 101
      while bad - good > 1 {
        let mid = (good + bad) / 2
        let bytes = try webpRun(stride: stride, quality: Double(mid), loopCount: loopCount)
        if bytes.count <= maxBytes { (good, goodBytes) = (mid, bytes) } else { bad = mid }
      }
      for quality in Swift.stride(from: min(100, bad + Self.webpQualityWindow), to: bad, by: -1) {
        let bytes = try webpRun(stride: stride, quality: Double(quality), loopCount: loopCount)
        if bytes.count <= maxBytes {
          (good, goodBytes) = (quality, bytes)
          break
        }
      }
      return BudgetChoice(
        bytes: goodBytes, settings: "lossy quality \(good), \(fps)",
        frames: frameCount(stride: stride))
    }
    throw BudgetError(
      budget: maxBytes, smallest: smallest?.bytes ?? 0, settings: smallest?.settings ?? "")
  }

  /// Every `stride`-th frame as a WebP at `quality` (nil: lossless).
  func webpRun(stride: Int, quality: Double?, loopCount: Int) throws -> [UInt8] {
    let sink = MemorySink()
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let count = scene.frameCount
    let fps = scene.frameRate
    let encoder = try WebPEncoder(
      width: scene.pixelWidth, height: scene.pixelHeight, quality: quality, loopCount: loopCount,
      output: sink)
    try renderer.render(
      Swift.stride(from: 0, to: count, by: stride).map { $0 },
      prepare: { _, frame, _ in PNGCodec.straightBytes(of: frame) }
    ) { index, rgba in
      let end = min(count, index + stride)
      let milliseconds =
        Int((1000 * Double(end) / fps + 1e-9).rounded(.down))
        - Int((1000 * Double(index) / fps + 1e-9).rounded(.down))
      try encoder.add(straightRGBA: rgba, milliseconds: milliseconds)
    }
    try encoder.finish()
    return sink.bytes
  }
}
