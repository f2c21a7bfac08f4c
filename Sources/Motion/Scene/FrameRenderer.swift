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
  public func render(
    _ frames: Range<Int>, consume: (Int, Pixmap) throws -> Void
  ) throws {
    let batchSize = threads * 2
    let slots = FrameSlots(count: batchSize)
    var start = frames.lowerBound
    while start < frames.upperBound {
      let end = min(start + batchSize, frames.upperBound)
      let count = end - start
      let scene = self.scene
      let first = start
      let workers = min(threads, count)
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var compositor = Compositor()
        var index = worker
        while index < count {
          slots.store(scene.render(frame: first + index, compositor: &compositor), at: index)
          index += workers
        }
      }
      for index in 0..<count {
        guard let pixmap = slots.take(index) else {
          throw RenderError("cannot allocate frame \(first + index)")
        }
        try consume(first + index, pixmap)
      }
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
}
