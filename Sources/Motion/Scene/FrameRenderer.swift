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

/// The shared state of one `FrameRenderer.render` call: which positions are claimed, the frames
/// alive, the prepared results waiting, and the window of frames allowed at once. Guarded by one
/// mutex; threads wait on its condition for a change.
private final class FramePipeline<Prepared>: @unchecked Sendable {
  private enum Slot {
    case pending
    case ready(Pixmap?)
    case released
  }

  private let monitor = Monitor()
  private let count: Int
  private var permits: Int
  private var nextClaim = 0
  private var stopped = false
  /// The first failure, reported for positions that were never claimed.
  private var firstFailure: (any Error)?
  private var frames: [Slot]
  private var results: [Result<Prepared, any Error>?]
  private var prepared: [Bool]
  private var consumedFlags: [Bool]

  init(count: Int, window: Int) {
    self.count = count
    permits = max(2, window)
    frames = Array(repeating: .pending, count: count)
    results = Array(repeating: nil, count: count)
    prepared = Array(repeating: false, count: count)
    consumedFlags = Array(repeating: false, count: count)
  }

  /// The next position to render, once the window allows; nil when none are left.
  func claim() -> Int? {
    monitor.locked {
      while permits == 0 && !stopped { monitor.wait() }
      guard !stopped, nextClaim < count else { return nil }
      permits -= 1
      nextClaim += 1
      return nextClaim - 1
    }
  }

  func store(_ frame: Pixmap?, at position: Int) {
    monitor.locked {
      frames[position] = .ready(frame)
      monitor.broadcast()
    }
  }

  /// The frame at a claimed `position`, once rendered (nil if it could not be). Every claimed
  /// position is stored by its worker, so this never waits forever.
  func frame(at position: Int) -> Pixmap? {
    monitor.locked {
      while true {
        switch frames[position] {
        case .ready(let frame): return frame
        case .released: return nil
        case .pending: monitor.wait()
        }
      }
    }
  }

  /// Records the prepared result of `position` and releases the frames no longer needed.
  func finish(_ position: Int, with result: Result<Prepared, any Error>) {
    monitor.locked {
      results[position] = result
      prepared[position] = true
      if case .failure(let error) = result {
        stopped = true
        firstFailure = firstFailure ?? error
      }
      if position > 0 { release(position - 1) }
      release(position)
      monitor.broadcast()
    }
  }

  /// The result at `position`, waiting for it.
  func takeResult(_ position: Int) -> Result<Prepared, any Error> {
    monitor.locked {
      while results[position] == nil {
        if stopped, position >= nextClaim {
          return .failure(firstFailure ?? RenderError("rendering stopped"))
        }
        monitor.wait()
      }
      defer { results[position] = nil }
      return results[position] ?? .failure(RenderError("frame lost"))
    }
  }

  func consumed(_ position: Int) {
    monitor.locked {
      consumedFlags[position] = true
      if case .released = frames[position] { permits += 1 }
      monitor.broadcast()
    }
  }

  /// Ends the run early: workers finish their frames and claim no more.
  func stop() {
    monitor.locked {
      stopped = true
      monitor.broadcast()
    }
  }

  /// Drops the frame at `position` once it is prepared and so is its successor (which needs it
  /// as its previous frame); its permit returns once it is consumed too. Called locked.
  private func release(_ position: Int) {
    guard case .ready = frames[position], prepared[position],
      position + 1 == count || prepared[position + 1]
    else { return }
    frames[position] = .released
    if consumedFlags[position] { permits += 1 }
  }
}

/// A mutex and a condition variable (pthreads), for threads that wait for each other's progress.
final class Monitor: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Waits for a broadcast; call with the lock held (inside `locked`).
  func wait() { pthread_cond_wait(condition, mutex) }

  func broadcast() { pthread_cond_broadcast(condition) }
}

/// Why frames could not be made.
public struct RenderError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
