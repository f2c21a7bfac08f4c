@_exported import Codecs
@_exported import Motion
@_exported import Raster
@_exported import SceneFormat

#if canImport(Glibc)
import Glibc
#endif

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
/// Frames render on `threads` threads; the output is the same bytes whatever the count.
public struct SceneExporter: Sendable {
  public var scene: Scene
  public var threads: Int

  /// Called after each frame with (frames done, frames in all).
  public typealias Progress = (Int, Int) -> Void

  public init(scene: Scene, threads: Int = SceneExporter.processorCount) {
    self.scene = scene
    self.threads = max(1, threads)
  }

  /// Loads a scene file (`-` reads standard input); see `SceneFile`.
  public init(
    file path: String, settings: SceneSettings = SceneSettings(),
    threads: Int = SceneExporter.processorCount
  ) throws(SceneFileError) {
    self.init(scene: try SceneFile.load(path: path, settings: settings).scene, threads: threads)
  }

  /// A scene file's text, e.g. one built by the program.
  public init(
    json text: String, settings: SceneSettings = SceneSettings(),
    threads: Int = SceneExporter.processorCount
  ) throws(SceneFileError) {
    self.init(scene: try SceneFile.load(text: text, settings: settings).scene, threads: threads)
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
  public static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// Frame `index` (time index / frame rate) as premultiplied pixels.
  /// One frame is drawn directly: a `FrameRenderer` would first look at every frame's values
  /// to find runs of equal frames, work only a whole sequence repays.
  public func frame(_ index: Int) throws -> Pixmap {
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
    compression: PNGCompression = .default, progress: Progress? = nil,
    consume: (Int, [UInt8]) throws -> Void
  ) throws {
    let count = scene.frameCount
    try FrameRenderer(scene: scene, threads: threads).render(
      0..<count, prepare: { _, frame, _ in try PNGCodec.encode(frame, compression: compression) }
    ) { index, bytes in
      try consume(index, bytes)
      progress?(index + 1, count)
    }
  }

  /// Writes `frame-0000.png` … into `folder` (created if missing), each file atomically.
  public func writePNGFrames(
    to folder: String, compression: PNGCompression = .default, progress: Progress? = nil
  ) throws {
    if mkdir(folder, 0o755) != 0, errno != EEXIST {
      throw RenderError("cannot create folder \(folder): \(String(cString: strerror(errno)))")
    }
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    try pngFrames(compression: compression, progress: progress) { index, bytes in
      try AtomicFile.write(bytes, to: prefix + Self.frameName(index))
    }
  }

  /// The animated GIF's bytes; `loopCount` 0 loops forever.
  public func gif(loopCount: Int = 0, progress: Progress? = nil) throws -> [UInt8] {
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let count = scene.frameCount
    // The global palette comes from sample frames, denser early on where springs move most.
    let spots = [0.0, 0.05, 0.1, 0.17, 0.25, 0.45, 1.0]
    let samples = try renderer.render(Set(spots.map { Int($0 * Double(count - 1)) }).sorted())
    let palette = GIFPalette.from(samples.map(\.pixels))
    let firstPalette = GIFPalette.forFirstFrame(
      samples.first?.pixels ?? [], last: samples.last?.pixels ?? [], persistence: count)
    let encoder = try GIFEncoder(
      width: scene.pixelWidth, height: scene.pixelHeight, palette: palette, loopCount: loopCount)
    let fps = scene.frameRate
    try renderer.render(
      0..<count,
      prepare: { _, frame, previous in
        GIFEncoder.prepare(frame, previous: previous, palette: palette, firstPalette: firstPalette)
      }
    ) { index, frame in
      try encoder.add(frame, delay: Self.delay(frame: index, fps: fps))
      progress?(index + 1, count)
    }
    return try encoder.finish()
  }

  /// The trace: a CSV row per frame, `frame,time` and the scene's animated values in points.
  public func trace() -> String {
    var text = (["frame", "time"] + scene.traceColumns.map(\.header)).joined(separator: ",") + "\n"
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

  /// Centiseconds for frame `index` so whole-second times stay exact: the frame lasts from
  /// ⌊100·i/fps⌋ to ⌊100·(i+1)/fps⌋ (30 fps → 3, 3, 4, …).
  public static func delay(frame index: Int, fps: Double) -> Int {
    Int((100 * Double(index + 1) / fps + 1e-9).rounded(.down))
      - Int((100 * Double(index) / fps + 1e-9).rounded(.down))
  }
}
