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
    guard !indices.isEmpty else { return }
    let pipeline = FramePipeline<Prepared>(count: indices.count, window: framesInFlight)
    let group = DispatchGroup()
    for _ in 0..<min(threads, indices.count) {
      DispatchQueue.global().async(group: group) {
        self.work(indices, pipeline: pipeline, prepare: prepare)
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

  /// One worker: claims positions until none are left or the pipeline stops.
  private func work<Prepared>(
    _ indices: [Int], pipeline: FramePipeline<Prepared>,
    prepare: (Int, Pixmap, Pixmap?) throws -> Prepared
  ) {
    var compositor = Compositor()
    while let position = pipeline.claim() {
      let index = indices[position]
      let frame: Pixmap?
      if position > 0, runStart[index] == runStart[indices[position - 1]] {
        frame = pipeline.frame(at: position - 1)  // the same values: the same pixels
      } else {
        frame = scene.render(frame: index, compositor: &compositor, base: base)
      }
      pipeline.store(frame, at: position)
      guard let frame else {
        pipeline.finish(position, with: .failure(RenderError("cannot allocate frame \(index)")))
        continue
      }
      let previous = position > 0 ? pipeline.frame(at: position - 1) : nil
      pipeline.finish(position, with: Result { try prepare(index, frame, previous) })
    }
  }
}
