import Dispatch
import Raster

/// Renders a scene's frames on several threads and hands them over in order.
///
/// Frames are independent, so a batch of them renders concurrently, each worker with its own
/// compositor; the batch is then passed on frame by frame, in order, and dropped. Memory stays
/// that of one batch however many frames there are, and the pixels are the same with one thread
/// or many.
public struct FrameRenderer: Sendable {
  public var scene: Scene
  public var threads: Int

  public init(scene: Scene, threads: Int) {
    self.scene = scene
    self.threads = max(1, threads)
  }

  /// Calls `consume` with every frame in `frames`, in order.
  public func render(_ frames: Range<Int>, consume: (Int, Pixmap) throws -> Void) throws {
    try render(frames, prepare: { _, pixmap, _ in pixmap }, consume: consume)
  }

  /// Renders `frames` and, still on the worker threads, turns each into `prepare(index, frame,
  /// previous frame)` (nil for the range's first); then calls `consume` in frame order.
  public func render<Prepared>(
    _ frames: Range<Int>, prepare: @Sendable @escaping (Int, Pixmap, Pixmap?) throws -> Prepared,
    consume: (Int, Prepared) throws -> Void
  ) throws {
    let batchSize = threads * 2
    let slots = FrameSlots(count: batchSize + 1)
    let results = ResultSlots<Prepared>(count: batchSize)
    var start = frames.lowerBound
    var carried: Pixmap?
    while start < frames.upperBound {
      let end = min(start + batchSize, frames.upperBound)
      let count = end - start
      let scene = self.scene
      let first = start
      let workers = min(threads, count)
      // Slot 0 holds the frame before the batch; frames go to slots 1...count.
      slots.store(carried, at: 0)
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var compositor = Compositor()
        var index = worker
        while index < count {
          slots.store(scene.render(frame: first + index, compositor: &compositor), at: index + 1)
          index += workers
        }
      }
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var index = worker
        while index < count {
          if let frame = slots.peek(index + 1) {
            results.store(Result { try prepare(first + index, frame, slots.peek(index)) }, at: index)
          }
          index += workers
        }
      }
      for index in 0..<count {
        guard let result = results.take(index) else {
          throw RenderError("cannot allocate frame \(first + index)")
        }
        try consume(first + index, try result.get())
      }
      carried = slots.peek(count)
      for index in 0...count { _ = slots.take(index) }
      start = end
    }
  }
}

/// Why frames could not be made.
public struct RenderError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}

/// One batch's frames, written by the workers at distinct indices and read after they finish.
/// The storage is a fixed buffer, so concurrent writes to different slots share no array header.
private final class FrameSlots: @unchecked Sendable {
  private let frames: UnsafeMutableBufferPointer<Pixmap?>

  init(count: Int) {
    frames = .allocate(capacity: count)
    frames.initialize(repeating: nil)
  }

  deinit {
    _ = frames.deinitialize()
    frames.deallocate()
  }

  func store(_ frame: Pixmap?, at index: Int) { frames[index] = frame }

  func take(_ index: Int) -> Pixmap? {
    defer { frames[index] = nil }
    return frames[index]
  }

  func peek(_ index: Int) -> Pixmap? { frames[index] }
}

/// Prepared results of one batch, stored by the workers at distinct indices.
private final class ResultSlots<Value>: @unchecked Sendable {
  private let values: UnsafeMutableBufferPointer<Result<Value, any Error>?>

  init(count: Int) {
    values = .allocate(capacity: count)
    values.initialize(repeating: nil)
  }

  deinit {
    _ = values.deinitialize()
    values.deallocate()
  }

  func store(_ value: Result<Value, any Error>, at index: Int) { values[index] = value }

  func take(_ index: Int) -> Result<Value, any Error>? {
    defer { values[index] = nil }
    return values[index]
  }
}
