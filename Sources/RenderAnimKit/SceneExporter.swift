@_exported import Codecs
@_exported import FileIO
@_exported import Motion
@_exported import Raster
@_exported import SceneFormat
@_exported import SceneGraph

#if canImport(Glibc)
import Glibc
#endif

/// This library's version (`render-anim --version` prints it).
public let version = "0.10.0"

/// The embedding API: renders a `Scene` to what the command line writes — single frames, PNG
/// frames, an animated GIF, the trace — in memory or to files, with progress callbacks.
///
/// ```swift
/// import RenderAnimKit
///
/// let exporter = try SceneExporter(
///   file: "Examples/toggle.json", settings: SceneSettings(scale: 2, frameRate: 50))
/// let frame = try exporter.frame(10)        // premultiplied pixels
/// let gif = try exporter.gif { done, total in print(done, "of", total) }
/// ```
///
/// Frames render on `threads` threads (at most the cores); the output is the same bytes whatever
/// the count, and memory holds `threads + 2` frames whatever the number of frames.
public struct SceneExporter: Sendable {
  public var scene: Scene
  public var threads: Int
  /// What the command line prints as warnings: a font family that fell back to another, taps
  /// that hit no handler. Empty for a scene given as a value.
  public var notes: [String] = []

  /// Called after each frame with (frames done, frames in all).
  public typealias Progress = (Int, Int) -> Void

  public init(scene: Scene, threads: Int = SceneExporter.processorCount) {
    self.scene = scene
    self.threads = max(1, threads)
    checksFrameCount = true
  }

  /// Whether `checkScene` bounds the frame count by `maximumFrames`: for a scene given as a
  /// value; a scene file's length is bounded when it loads (its times, its render work).
  private var checksFrameCount: Bool

  /// Loads a scene file (`-` reads standard input); see `SceneFile`.
  public init(
    file path: String, settings: SceneSettings = SceneSettings(),
    threads: Int = SceneExporter.processorCount
  ) throws(SceneFileError) {
    self.init(loaded: try SceneFile.load(path: path, settings: settings), threads: threads)
  }

  /// A scene loaded from a file or text, with its notes.
  public init(loaded: LoadedScene, threads: Int = SceneExporter.processorCount) {
    self.init(scene: loaded.scene, threads: threads)
    notes = loaded.notes
    checksFrameCount = false
  }

  /// A scene file's text, e.g. one built by the program; the files it names (`image`,
  /// `pathFile`) are looked up in `folder` (the working directory when empty) and must stay
  /// inside it unless `settings.allowsFilesOutside`.
  public init(
    json text: String, folder: String = "", settings: SceneSettings = SceneSettings(),
    threads: Int = SceneExporter.processorCount
  ) throws(SceneFileError) {
    self.init(
      loaded: try SceneFile.load(text: text, folder: folder, settings: settings), threads: threads)
  }

  /// A built-in scene: `cats` or `cards`.
  public init(
    builtIn name: String, settings: SceneSettings = SceneSettings(),
    threads: Int = SceneExporter.processorCount
  ) throws(SceneFileError) {
    guard let text = SceneFile.builtIn(name) else {
      throw SceneFileError(
        path: "",
        "no built-in scene '\(name)' (" + SceneFile.builtInNames.joined(separator: ", ") + ")")
    }
    try self.init(json: text, settings: settings, threads: threads)
  }

  /// The cores this process may use.
  public static var processorCount: Int { FrameRenderer.processorCount }

  /// The highest frame rate of a GIF: its delays are whole centiseconds, and browsers play
  /// delays under 2 as 10.
  public static let maximumGIFFrameRate = 50

  /// The plays a GIF, APNG or WebP can say (0: for ever): the 16 bits of the GIF's and WebP's
  /// loop count.
  public static let loopCounts = 0...65_535

  /// Refuses a loop count the formats cannot hold, rather than writing another one.
  static func checkLoopCount(_ loopCount: Int) throws {
    guard loopCounts.contains(loopCount) else {
      throw RenderError(
        "loopCount is \(loopCount): expected 0 (for ever) to \(loopCounts.upperBound) plays")
    }
  }

  /// Refuses a scene no scene file could give — one built in code, or changed through `scene`
  /// — with an error naming the field, before anything renders: a frame rate of 1 to 120
  /// (`SceneSettings.frameRates`), a hold and a duration within `SceneLimits.time` seconds, a
  /// size of more than 0 and at most `SceneLimits.canvasSide` points, a scale of more than 0
  /// and at most 3, pixels (size × scale) within `SceneLimits.frameSidePixels` a side and
  /// `SceneLimits.framePixels` in all, and — for a scene given as a value — at most
  /// `maximumFrames` frames. Every render method
  /// checks it (a frame rate of 0 or NaN used to trap in the frame count; a scale of 0 said only
  /// "cannot allocate").
  public func checkScene() throws {
    func refuse(_ field: String, _ value: Double, _ expected: String) -> RenderError {
      RenderError("Scene.\(field) is \(value): expected \(expected)")
    }
    if let problem = SceneSettings.timingProblem(
      frameRate: scene.frameRate, hold: scene.hold, duration: scene.duration)
    {
      throw refuse(problem.field, problem.value, problem.expected)
    }
    for (field, value) in [("width", scene.width), ("height", scene.height)] {
      guard value > 0, value <= SceneLimits.canvasSide else {
        throw refuse(
          field, value, "more than 0 and at most \(Int(SceneLimits.canvasSide)) points")
      }
    }
    guard scene.scale > 0, scene.scale <= 3 else {
      throw refuse("scale", scene.scale, "more than 0 and at most 3 pixels per point")
    }
    let (w, h) = (scene.pixelWidth, scene.pixelHeight)
    guard w >= 1, h >= 1, w <= SceneLimits.frameSidePixels, h <= SceneLimits.frameSidePixels,
      w * h <= SceneLimits.framePixels
    else {
      throw RenderError(
        "the scene's frames would be \(w)×\(h) pixels (Scene.width and height × scale): "
          + "expected 1 to \(SceneLimits.frameSidePixels) a side and at most "
          + "\(SceneLimits.framePixels) in all")
    }
    guard !checksFrameCount || scene.frameCount <= Self.maximumFrames else {
      throw RenderError(
        "the scene has \(scene.frameCount) frames: at most \(Self.maximumFrames) are rendered "
          + "(its animations end too late; give it a duration)")
    }
  }

  /// The most frames a scene given as a value renders: a million, over two hours at 120 frames
  /// a second (a scene whose changes come at absurd times would otherwise ask for an array of
  /// trillions of frame indices).
  public static let maximumFrames = 1_000_000

  /// Refuses what a GIF cannot say: a loop count past 16 bits, a frame rate past
  /// `maximumGIFFrameRate`.
  func checkGIF(loopCount: Int) throws {
    try checkScene()
    try Self.checkLoopCount(loopCount)
    guard scene.frameRate <= Double(Self.maximumGIFFrameRate) else {
      throw RenderError(
        "a GIF plays at most \(Self.maximumGIFFrameRate) frames a second (its delays are whole "
          + "centiseconds, at least 2), not \(scene.frameRate)")
    }
  }

  /// Refuses frame indices the scene does not have.
  func checkFrames(_ indices: [Int]) throws {
    try checkScene()
    let count = scene.frameCount
    for index in indices where !(0..<count).contains(index) {
      throw RenderError(
        count == 0
          ? "frame \(index) does not exist: the scene has no frames"
          : "frame \(index) does not exist: the scene has frames 0 to \(count - 1)")
    }
  }

  /// How long the render plays, in seconds: its frames at its frame rate (the last frame shows
  /// until then). Throws what `checkScene` refuses.
  public func duration() throws -> Double {
    try checkScene()
    return Double(scene.frameCount) / scene.frameRate
  }

  /// The frame for `seconds` into the render: the first that starts at or after it, as
  /// `--times` and `expectGoldenFrames(times:)` choose (0.25 s at 20 fps is frame 5). A time
  /// before 0, not finite or past the last frame is refused, naming it.
  public func frameIndex(at seconds: Double) throws -> Int {
    try checkScene()
    return try FrameSelection(times: [.seconds(seconds)]).indices(in: scene)[0]
  }

  /// The frame for `seconds` into the render (`frameIndex(at:)`) as premultiplied pixels.
  public func frame(at seconds: Double) throws -> Pixmap {
    try frame(frameIndex(at: seconds))
  }

  /// Frame `index` (time index / frame rate) as premultiplied pixels.
  /// One frame is drawn directly: a `FrameRenderer` would first look at every frame's values
  /// to find runs of equal frames, work only a whole sequence repays.
  public func frame(_ index: Int) throws -> Pixmap {
    try checkFrames([index])
    var compositor = Compositor()
    guard let frame = scene.render(frame: index, compositor: &compositor) else {
      throw RenderError("cannot render frame \(index)")
    }
    return frame
  }

  /// Frame `index` as PNG bytes.
  public func png(frame index: Int, compression: PNGCompression = .default) throws -> [UInt8] {
    try PNGCodec.encode(frame(index), compression: compression)
  }

  /// Every frame as PNG bytes, encoded on the worker threads and handed over in order.
  public func pngFrames(
    compression: PNGCompression = .default, frames: [Int]? = nil, progress: Progress? = nil,
    consume: (Int, [UInt8]) throws -> Void
  ) throws {
    try checkScene()
    let indices = frames ?? Array(0..<scene.frameCount)
    try checkFrames(indices)
    var done = 0
    try FrameRenderer(scene: scene, threads: threads).render(
      indices,
      prepare: { _, frame, _ in try PNGCodec.encode(frame, compression: compression) }
    ) { index, bytes in
      try consume(index, bytes)
      done += 1
      progress?(done, indices.count)
    }
  }

  /// Writes `frame-0000.png` … into `folder`, replacing what it held as a whole (see
  /// `OutputFolder`): on any failure the folder keeps its old frames.
  public func writePNGFrames(
    to folder: String, compression: PNGCompression = .default, frames: [Int]? = nil,
    progress: Progress? = nil
  ) throws {
    let output = try Self.framesFolder(folder)
    try writePNGFrames(into: output, compression: compression, frames: frames, progress: progress)
    try output.commit()
  }

  /// Writes the frames into an output folder, without committing it (so that it can land
  /// together with other outputs).
  public func writePNGFrames(
    into folder: OutputFolder, compression: PNGCompression = .default, frames: [Int]? = nil,
    progress: Progress? = nil
  ) throws {
    try pngFrames(compression: compression, frames: frames, progress: progress) { index, bytes in
      try folder.write(bytes, name: Self.frameName(index))
    }
  }

  /// An output folder for PNG frames: an existing one may hold only frames (`frame-NNNN.png`).
  public static func framesFolder(_ path: String) throws(FileError) -> OutputFolder {
    try OutputFolder(path) { frameIndex(of: $0) != nil }
  }

  /// The animated GIF's bytes; `loopCount` 0 loops forever. A scene whose background is not
  /// opaque makes a transparent GIF, its partly transparent pixels composited over `matte`.
  public func gif(
    loopCount: Int = 0, matte: GIFMatte = .white, progress: Progress? = nil
  ) throws -> [UInt8] {
    let sink = MemorySink()
    try writeGIF(to: sink, loopCount: loopCount, matte: matte, progress: progress)
    return sink.bytes
  }

  /// Whether the GIF is transparent: the scene's background is not opaque.
  public var makesTransparentGIF: Bool { scene.background.alpha < 1 }

  /// Writes the animated GIF to `output` as its frames are encoded, so memory does not grow with
  /// the number of frames. A scene whose background is not opaque makes a transparent GIF: a
  /// pixel with alpha below one half is transparent, the rest composited over `matte`
  /// (`GIFMatte`).
  public func writeGIF(
    to output: any ByteSink, loopCount: Int = 0, matte: GIFMatte = .white,
    progress: Progress? = nil
  ) throws {
    try checkGIF(loopCount: loopCount)
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let count = scene.frameCount
    let transparent = makesTransparentGIF
    let matting = transparent ? matte : nil
    let palettes = try Self.palettes(renderer, frameCount: count, matte: matting)
    let encoder = try GIFEncoder(
      width: scene.pixelWidth, height: scene.pixelHeight, palette: palettes.global,
      loopCount: loopCount, transparent: transparent, output: output)
    let fps = scene.frameRate
    try renderer.render(
      Array(0..<count), reusing: palettes.drawings,
      preparing: { frame in
        GIFEncoder.prepare(
          matting?.apply(frame.pixels) ?? frame.pixels,
          previous: frame.previous.map { matting?.apply($0) ?? $0 },
          palette: palettes.global, firstPalette: palettes.first, transparent: transparent,
          changed: frame.changed)
      }
    ) { index, frame in
      try encoder.add(frame, delay: Self.delay(frame: index, fps: fps))
      progress?(index + 1, count)
    }
    try encoder.finish()
  }

  /// The animated PNG's bytes (lossless, full alpha); `loopCount` 0 loops forever.
  public func apng(loopCount: Int = 0, progress: Progress? = nil) throws -> [UInt8] {
    let sink = MemorySink()
    try writeAPNG(to: sink, loopCount: loopCount, progress: progress)
    return sink.bytes
  }

  /// Writes the animated PNG to `output`. Frames are compressed on the worker threads as they
  /// render and wait in a temporary file until the frame count is known (it heads the file), so
  /// memory does not grow with the number of frames.
  public func writeAPNG(
    to output: any ByteSink, loopCount: Int = 0, progress: Progress? = nil
  ) throws {
    try checkScene()
    try Self.checkLoopCount(loopCount)
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let count = scene.frameCount
    let timing = Self.ticks(fps: scene.frameRate)
    let encoder = try APNGEncoder(
      width: scene.pixelWidth, height: scene.pixelHeight, ticksPerSecond: timing.perSecond,
      loopCount: loopCount, output: output)
    try renderer.render(
      Array(0..<count),
      prepare: { _, frame, previous in try APNGEncoder.prepare(frame, previous: previous) }
    ) { index, frame in
      try encoder.add(frame, ticks: timing.ticks(index))
      progress?(index + 1, count)
    }
    try encoder.finish()
  }

  /// The animated WebP's bytes: lossless unless `quality` (0...100) asks for lossy.
  public func webp(
    quality: Double? = nil, loopCount: Int = 0, progress: Progress? = nil
  ) throws -> [UInt8] {
    let sink = MemorySink()
    try writeWebP(to: sink, quality: quality, loopCount: loopCount, progress: progress)
    return sink.bytes
  }

  /// Writes the animated WebP to `output`: frames are handed to libwebp's animation encoder as
  /// they render (it keeps them compressed), so memory holds no more than a few raw frames.
  public func writeWebP(
    to output: any ByteSink, quality: Double? = nil, loopCount: Int = 0,
    progress: Progress? = nil
  ) throws {
    try checkScene()
    try Self.checkLoopCount(loopCount)
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let count = scene.frameCount
    let fps = scene.frameRate
    let encoder = try WebPEncoder(
      width: scene.pixelWidth, height: scene.pixelHeight, quality: quality, loopCount: loopCount,
      output: output)
    try renderer.render(
      Array(0..<count), prepare: { _, frame, _ in PNGCodec.straightBytes(of: frame) }
    ) { index, rgba in
      let milliseconds =
        Int((1000 * Double(index + 1) / fps + 1e-9).rounded(.down))
        - Int((1000 * Double(index) / fps + 1e-9).rounded(.down))
      try encoder.add(straightRGBA: rgba, milliseconds: milliseconds)
      progress?(index + 1, count)
    }
    try encoder.finish()
  }

  /// Frame durations in whole ticks: one tick a frame at a whole frame rate up to 65 535;
  /// otherwise milliseconds, frame i lasting from ⌊1000·i/fps⌋ to ⌊1000·(i+1)/fps⌋.
  static func ticks(fps: Double) -> (perSecond: Int, ticks: @Sendable (Int) -> Int) {
    if fps == fps.rounded(), fps >= 1, fps <= 65_535 { return (Int(fps), { _ in 1 }) }
    return (
      1000,
      { index in
        Int((1000 * Double(index + 1) / fps + 1e-9).rounded(.down))
          - Int((1000 * Double(index) / fps + 1e-9).rounded(.down))
      }
    )
  }

  /// The GIF's palettes from sample frames, denser early on where springs move most: the global
  /// one from their colours, and the first frame's own one, which favours the pixels that stay
  /// the same to the last frame. The last frame is rendered first, so the first frame meets it
  /// as its "previous" frame and no frame has to be kept aside. What the sample frames drew over
  /// the base is kept (`drawings`, as long as all of it fits in `keptFrames` frames' pixels), so
  /// the GIF's pass puts them together instead of drawing them again.
  static func palettes(
    _ renderer: FrameRenderer, frameCount count: Int, matte: GIFMatte? = nil,
    maximumColors: Int = 255, keptFrames: Int = 2
  ) throws -> (global: GIFPalette, first: GIFPalette, drawings: [Int: FrameDrawing]) {
    let spots = [0.0, 0.05, 0.1, 0.17, 0.25, 0.45, 1.0]
    let samples = Set(spots.map { Int($0 * Double(count - 1)) }).sorted()
    let last = count - 1
    let order = last > 0 ? [last] + samples.filter { $0 != last } : samples
    var perFrame: [Int: ColorCounts] = [:]
    var first: GIFPalette?
    var drawings: [Int: FrameDrawing] = [:]
    var kept = 0
    let budget = keptFrames * renderer.scene.pixelWidth * renderer.scene.pixelHeight
    try renderer.render(
      order,
      preparing: { rendered -> (ColorCounts, GIFPalette?, FrameDrawing) in
        let drawing = FrameDrawing(rendered)
        let frame = matte?.apply(rendered.pixels.pixels) ?? rendered.pixels.pixels
        let counts = ColorCounts(frame, skippingTransparent: matte != nil)
        guard rendered.index == 0 else { return (counts, nil, drawing) }
        let lastPixels =
          last > 0
          ? rendered.previous.map { matte?.apply($0.pixels) ?? $0.pixels } ?? frame : frame
        return (
          counts,
          GIFPalette.forFirstFrame(
            frame, last: lastPixels, persistence: count, skippingTransparent: matte != nil,
            maximumColors: maximumColors),
          drawing
        )
      }
    ) { index, result in
      perFrame[index] = result.0
      if let palette = result.1 { first = palette }
      let size = result.2.rect.map { $0.width * $0.height } ?? 0
      if kept + size <= budget {
        drawings[index] = result.2
        kept += size
      }
    }
    var counts = ColorCounts()
    for index in samples { if let frame = perFrame[index] { counts.add(frame) } }
    let global = GIFPalette.from(counts, maximumColors: maximumColors)
    return (global, first ?? global, drawings)
  }

  /// The trace: a CSV row per frame, `frame,time` and the scene's animated values in points.
  public func trace() -> String {
    var text = (["frame", "time"] + scene.traceColumns.map(\.header)).joined(separator: ",") + "\n"
    // A scene that `checkScene` refuses renders no frames, so its trace has no rows.
    guard (try? checkScene()) != nil else { return text }
    for index in 0..<scene.frameCount {
      let row = scene.traceRow(frame: index)
      text += "\(index)," + row.dropFirst().map { "\($0)" }.joined(separator: ",") + "\n"
    }
    return text
  }

  /// frame-0000.png, frame-0001.png, …
  public static func frameName(_ index: Int) -> String {
    let digits = String(index)
    return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
  }

  /// The index in a name `frameName` makes (`frame-0012.png` → 12); nil for other names.
  public static func frameIndex(of name: String) -> Int? {
    guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
    let digits = name.dropFirst(6).dropLast(4)
    guard digits.count >= 4, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
      let index = Int(digits), frameName(index) == name
    else { return nil }
    return index
  }

  /// Centiseconds for frame `index` so whole-second times stay exact: the frame lasts from
  /// ⌊100·i/fps⌋ to ⌊100·(i+1)/fps⌋ (30 fps → 3, 3, 4, …). A frame rate outside
  /// `SceneSettings.frameRates` (or a negative index) gives 0: no scene renders at it.
  public static func delay(frame index: Int, fps: Double) -> Int {
    guard SceneSettings.frameRates.contains(fps), index >= 0, index < Int.max / 200 else {
      return 0
    }
    return Int((100 * Double(index + 1) / fps + 1e-9).rounded(.down))
      - Int((100 * Double(index) / fps + 1e-9).rounded(.down))
  }
}
