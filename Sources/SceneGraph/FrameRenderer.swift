import Dispatch
import Raster

#if canImport(Glibc)
import Glibc
#endif

/// Renders a scene's frames on several threads and hands them over in order, with a fixed bound
/// on the frames alive at once.
///
/// Each worker claims the next frame, renders it with its own compositor and, still on its
/// thread, prepares it (`prepare(index, frame, previous frame)` — a GIF's changed rectangle and
/// palette indices, a PNG's bytes); the calling thread consumes the prepared frames in order.
/// A frame is released once it is consumed and its successor is prepared, and a new frame is
/// only started while fewer than `threads + 1` are alive, so memory is
/// (`threads` + 1) frames plus the scene's base however many frames there are — and the pixels
/// are the same with one thread or many.
///
/// A frame whose animated values equal the previous frame's (a pause between two events, the
/// hold at the end) is not drawn again: it shares the previous frame's pixels.
public struct FrameRenderer: Sendable {
  public var scene: Scene
  /// Worker threads: at least 1, at most the cores this process may use.
  public let threads: Int

  /// The background and static layers every frame starts from, drawn once.
  private let base: SceneBase?
  /// For each frame, the first frame of its run of frames with equal animated values.
  private let runStart: [Int]

  /// The cores this process may use.
  public static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// A renderer using `threads` workers, clamped to 1...`processorCount` (more threads than
  /// cores only add frames in memory).
  public init(scene: Scene, threads: Int) {
    self.scene = scene
    self.threads = min(max(1, threads), Self.processorCount)
    var compositor = Compositor()
    self.base = scene.renderBase(compositor: &compositor)
    var starts: [Int] = []
    var previous: [String: [Double]]?
    for index in 0..<scene.frameCount {
      let values = scene.values(at: scene.time(ofFrame: index))
      starts.append(values == previous ? starts[index - 1] : index)
      previous = values
    }
    self.runStart = starts
  }

  /// Frames alive at once (rendered and not yet released), besides the base.
  public var framesInFlight: Int { threads + 1 }

  /// Calls `consume` with every frame in `frames`, in order.
  public func render(_ frames: Range<Int>, consume: (Int, Pixmap) throws -> Void) throws {
    try render(Array(frames), prepare: { _, pixmap, _ in pixmap }, consume: consume)
  }

  /// Renders the frames at `indices` and, on the worker threads, turns each into
  /// `prepare(index, frame, frame at the previous position)` (nil for the first); then calls
  /// `consume` with them in order. The first error (from rendering, `prepare` or `consume`)
  /// stops the workers and is rethrown.
  public func render<Prepared>(
    _ indices: [Int], prepare: @Sendable @escaping (Int, Pixmap, Pixmap?) throws -> Prepared,
    consume: (Int, Prepared) throws -> Void
  ) throws {
    try render(
      indices, preparing: { frame in try prepare(frame.index, frame.pixels, frame.previous) },
      consume: consume)
  }

  /// `render(_:prepare:consume:)` with each frame's `RenderedFrame`, which also says where it
  /// can differ from the previous one. A frame in `drawings` (what an earlier call's frame drew,
  /// `FrameDrawing`) is put together from it instead of drawn again: the same pixels.
  public func render<Prepared>(
    _ indices: [Int], reusing drawings: [Int: FrameDrawing] = [:],
    preparing prepare: @Sendable @escaping (RenderedFrame) throws -> Prepared,
    consume: (Int, Prepared) throws -> Void
  ) throws {
    guard !indices.isEmpty else { return }
    let pipeline = FramePipeline<Prepared>(count: indices.count, window: framesInFlight)
    let group = DispatchGroup()
    for _ in 0..<min(threads, indices.count) {
      DispatchQueue.global().async(group: group) {
        self.work(indices, drawings: drawings, pipeline: pipeline, prepare: prepare)
      }
    }
    defer {
      pipeline.stop()
      group.wait()
    }
    for position in indices.indices {
      let prepared = try pipeline.takeResult(position).get()
      try consume(indices[position], prepared)
      pipeline.consumed(position)
    }
  }

  /// One worker: claims positions until none are left or the pipeline stops. Frames are drawn
  /// into the worker's own buffers, reused once the pipeline is done with the frame they hold:
  /// only the last frame's damage is put back to the base, not the whole frame copied.
  private func work<Prepared>(
    _ indices: [Int], drawings: [Int: FrameDrawing], pipeline: FramePipeline<Prepared>,
    prepare: (RenderedFrame) throws -> Prepared
  ) {
    var compositor = Compositor()
    var canvases = FrameCanvases()
    while let position = pipeline.claim() {
      let index = indices[position]
      let frame: Pixmap?
      let drawn: IntRect?
      let same =
        position > 0 && runStart[index] == runStart[indices[position - 1]]
        ? pipeline.frame(at: position - 1) : nil
      let shared = same != nil
      if let same {
        (frame, drawn) = (same.pixels, same.drawn)  // the same values: the same pixels
      } else if let base {
        var canvas = canvases.take(base: base) { pipeline.isDone($0) }
        if let known = drawings[index], known.size == (base.pixels.width, base.pixels.height) {
          if let box = canvas.drawn { canvas.pixels.copy(box, from: base.pixels) }
          known.draw(onto: &canvas.pixels)
          drawn = known.rect
        } else {
          drawn = scene.render(
            frame: index, compositor: &compositor, base: base, onto: &canvas.pixels,
            over: canvas.drawn)
        }
        canvases.keep(FrameCanvas(pixels: canvas.pixels, drawn: drawn, position: position))
        frame = canvas.pixels
      } else {
        frame = scene.render(frame: index, compositor: &compositor, base: nil)
        drawn = frame?.bounds
      }
      pipeline.store(frame, drawn: drawn, at: position)
      guard let frame else {
        pipeline.finish(position, with: .failure(RenderError("cannot allocate frame \(index)")))
        continue
      }
      let previous = position > 0 ? pipeline.frame(at: position - 1) : nil
      var changed = frame.bounds
      if shared {
        changed = IntRect(x: 0, y: 0, width: 0, height: 0)
      } else if let previous, base != nil {
        var both = PixelBounds()
        for box in [drawn, previous.drawn].compactMap({ $0 }) { both.add(box) }
        changed = both.rect ?? IntRect(x: 0, y: 0, width: 0, height: 0)
      }
      let rendered = RenderedFrame(
        index: index, pixels: frame, previous: previous?.pixels, changed: changed, drawn: drawn)
      pipeline.finish(position, with: Result { try prepare(rendered) })
    }
  }
}

/// A frame as `FrameRenderer` hands it to be prepared, with the frame at the position before.
public struct RenderedFrame: Sendable {
  public var index: Int
  /// Premultiplied pixels.
  public var pixels: Pixmap
  /// The frame at the previous position (nil for the first).
  public var previous: Pixmap?
  /// Outside this rectangle `pixels` equals `previous` (when there is one), pixel for pixel:
  /// where either frame drew over the scene's base; empty when the two are the same frame.
  public var changed: IntRect
  /// Where the frame drew over the scene's base (outside it, it is the base); nil when nowhere;
  /// the whole frame when it was drawn without a base.
  public var drawn: IntRect?
}

/// What a frame drew over its scene's base: the rectangle and its pixels, so that the frame can
/// be put together again (over the base) without drawing it.
public struct FrameDrawing: Sendable {
  /// The frame's size, and where it drew (nil: nowhere).
  public let size: (width: Int, height: Int)
  public let rect: IntRect?
  /// The pixels of `rect`, row by row.
  private let pixels: [UInt32]

  /// What `frame` drew: its pixels inside `frame.drawn`.
  public init(_ frame: RenderedFrame) {
    size = (frame.pixels.width, frame.pixels.height)
    let box = frame.drawn?.intersection(frame.pixels.bounds)
    rect = box.flatMap { $0.isEmpty ? nil : $0 }
    guard let r = rect, var crop = Pixmap(width: r.width, height: r.height) else {
      pixels = []
      return
    }
    crop.copy(
      IntRect(x: 0, y: 0, width: r.width, height: r.height), from: frame.pixels,
      origin: (r.minX, r.minY))
    pixels = crop.pixels
  }

  /// Writes the drawing into `canvas`, which must hold the base (at least inside `rect`).
  public func draw(onto canvas: inout Pixmap) {
    guard let r = rect, let crop = Pixmap(width: r.width, height: r.height, pixels: pixels)
    else { return }
    canvas.copy(r, from: crop, origin: (0, 0))
  }
}

/// A worker's frame buffer: the base with the frame at `position` drawn over it, inside `drawn`.
struct FrameCanvas {
  var pixels: Pixmap
  var drawn: IntRect?
  var position: Int
}

/// A worker's frame buffers, a few so that one the pipeline no longer holds can be drawn into
/// (drawing into one it still holds would copy it whole).
struct FrameCanvases {
  /// Buffers kept at most; beyond, the oldest is dropped.
  static let limit = 2
  private var free: [FrameCanvas] = []

  /// A buffer whose frame `isDone` says is no longer held, else a new one holding the base.
  mutating func take(base: SceneBase, isDone: (Int) -> Bool) -> FrameCanvas {
    if let at = free.firstIndex(where: { isDone($0.position) }) { return free.remove(at: at) }
    return FrameCanvas(pixels: base.pixels, drawn: nil, position: -1)
  }

  mutating func keep(_ canvas: FrameCanvas) {
    free.append(canvas)
    if free.count > Self.limit { free.removeFirst() }
  }
}
