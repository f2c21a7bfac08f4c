import Dispatch
import Raster
import Synchronization

/// Renders a scene's frames on several threads and hands them over in order.
///
/// Frames are independent, so a batch of them renders concurrently, each worker with its own
/// compositor; the batch is then passed on frame by frame, in order, and dropped. Memory stays
/// that of one batch however many frames there are, and the pixels are the same with one thread
/// or many.
public struct FrameRenderer: Sendable {
  public var scene: Scene
  public var threads: Int

  /// The background and static layers every frame starts from, drawn once.
  private let base: SceneBase?
  /// For each frame, the first frame of its run: the frames in a run have the same animated
  /// values, so they look the same (a pause between two events, the hold at the end).
  private let runStart: [Int]

  public init(scene: Scene, threads: Int) {
    self.scene = scene
    self.threads = max(1, threads)
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

  /// Frame `index`: a frame whose run started earlier is not drawn again but copied from the
  /// run's first frame.
  private func frame(_ index: Int, compositor: inout Compositor, still: StillFrame) -> Pixmap? {
    let start = index < runStart.count ? runStart[index] : index
    guard start != index || (index + 1 < runStart.count && runStart[index + 1] == index) else {
      return scene.render(frame: index, compositor: &compositor, base: base)
    }
    return still.get(start) { scene.render(frame: start, compositor: &compositor, base: base) }
  }

  /// The frames at `indices`, rendered concurrently.
  public func render(_ indices: [Int]) throws -> [Pixmap] {
    let slots = Slots<Pixmap>(count: indices.count)
    let still = StillFrame()
    let workers = min(threads, indices.count)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var compositor = Compositor()
      var k = worker
      while k < indices.count {
        slots.store(self.frame(indices[k], compositor: &compositor, still: still), at: k)
        k += workers
      }
    }
    return try indices.indices.map { k in
      guard let frame = slots.take(k) else {
        throw RenderError("cannot allocate frame \(indices[k])")
      }
      return frame
    }
  }

  /// Calls `consume` with every frame in `frames`, in order.
  public func render(_ frames: Range<Int>, consume: (Int, Pixmap) throws -> Void) throws {
    try render(frames, prepare: { _, pixmap, _ in pixmap }, consume: consume)
  }

  /// Renders `frames` and, still on the worker threads, turns each into `prepare(index, frame,
  /// previous frame)` (nil for the range's first); then calls `consume` in frame order. While one
  /// batch is consumed the next is already rendering.
  public func render<Prepared>(
    _ frames: Range<Int>, prepare: @Sendable @escaping (Int, Pixmap, Pixmap?) throws -> Prepared,
    consume: (Int, Prepared) throws -> Void
  ) throws {
    let batchSize = threads * 2
    let batches = stride(from: frames.lowerBound, to: frames.upperBound, by: batchSize).map {
      $0..<min($0 + batchSize, frames.upperBound)
    }
    guard let first = batches.first else { return }
    let still = StillFrame()
    var current = produce(first, previous: nil, still: still, prepare: prepare)
    for (number, batch) in batches.enumerated() {
      // Start the next batch before handing this one over.
      let next = BatchBox<Prepared>()
      let group = DispatchGroup()
      if number + 1 < batches.count {
        let following = batches[number + 1]
        let carried = current.last
        DispatchQueue.global().async(group: group) {
          next.value = self.produce(following, previous: carried, still: still, prepare: prepare)
        }
      }
      for (offset, result) in current.results.enumerated() {
        try consume(batch.lowerBound + offset, try result.get())
      }
      group.wait()
      if let value = next.value { current = value }
    }
  }

  /// One batch rendered and prepared on the worker threads.
  private func produce<Prepared>(
    _ batch: Range<Int>, previous: Pixmap?, still: StillFrame,
    prepare: @Sendable @escaping (Int, Pixmap, Pixmap?) throws -> Prepared
  ) -> Batch<Prepared> {
    let count = batch.count
    // Runs that ended before this batch are not needed again.
    still.forget(
      before: runStart.indices.contains(batch.lowerBound) ? runStart[batch.lowerBound] : 0)
    let slots = Slots<Pixmap>(count: count + 1)
    let results = Slots<Result<Prepared, any Error>>(count: count)
    let workers = min(threads, count)
    // Slot 0 holds the frame before the batch; frames go to slots 1...count.
    slots.store(previous, at: 0)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var compositor = Compositor()
      var index = worker
      while index < count {
        slots.store(
          self.frame(batch.lowerBound + index, compositor: &compositor, still: still), at: index + 1
        )
        index += workers
      }
    }
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var index = worker
      while index < count {
        let result: Result<Prepared, any Error>
        if let frame = slots.peek(index + 1) {
          result = Result { try prepare(batch.lowerBound + index, frame, slots.peek(index)) }
        } else {
          result = .failure(RenderError("cannot allocate frame \(batch.lowerBound + index)"))
        }
        results.store(result, at: index)
        index += workers
      }
    }
    return Batch(
      results: (0..<count).map { results.take($0) ?? .failure(RenderError("frame lost")) },
      last: slots.peek(count))
  }
}

/// A rendered and prepared batch, and its last frame (the next batch's "previous").
private struct Batch<Prepared> {
  var results: [Result<Prepared, any Error>]
  var last: Pixmap?
}

/// Carries a batch from the thread that produced it.
private final class BatchBox<Prepared>: @unchecked Sendable {
  var value: Batch<Prepared>?
}

/// Why frames could not be made.
public struct RenderError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Values of one batch (frames, prepared results), written by the workers at distinct indices
/// and read after they finish. The storage is a fixed buffer, so concurrent writes to different
/// slots share no array header.
private final class Slots<Value>: @unchecked Sendable {
  private let values: UnsafeMutableBufferPointer<Value?>

  init(count: Int) {
    values = .allocate(capacity: count)
    values.initialize(repeating: nil)
  }

  deinit {
    _ = values.deinitialize()
    values.deallocate()
  }

  func store(_ value: Value?, at index: Int) { values[index] = value }

  func take(_ index: Int) -> Value? {
    defer { values[index] = nil }
    return values[index]
  }

  func peek(_ index: Int) -> Value? { values[index] }
}

/// The first frames of runs of equal frames, each drawn by whichever worker needs it first and
/// shared after that.
private final class StillFrame: Sendable {
  private let frames = Mutex<[Int: Pixmap?]>([:])

  func get(_ index: Int, _ make: () -> Pixmap?) -> Pixmap? {
    frames.withLock { frames in
      if let frame = frames[index] { return frame }
      let made = make()
      frames[index] = .some(made)
      return made
    }
  }

  /// Drops the frames of runs that start before `index`.
  func forget(before index: Int) {
    frames.withLock { frames in frames = frames.filter { $0.key >= index } }
  }
}
