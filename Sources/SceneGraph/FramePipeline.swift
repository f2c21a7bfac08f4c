import Raster

/// The shared state of one `FrameRenderer.render` call: which positions are claimed, the frames
/// alive, the prepared results waiting, and the window of frames allowed at once. Guarded by one
/// mutex; threads wait on its condition for a change.
final class FramePipeline<Prepared>: @unchecked Sendable {
  private enum Slot {
    case pending
    /// The frame and where it drew over the scene's base (nil: nowhere; the whole frame when
    /// it was drawn without one).
    case ready(Pixmap?, drawn: IntRect?)
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

  func store(_ frame: Pixmap?, drawn: IntRect?, at position: Int) {
    monitor.locked {
      frames[position] = .ready(frame, drawn: drawn)
      monitor.broadcast()
    }
  }

  /// The frame at a claimed `position`, once rendered (nil if it could not be). Every claimed
  /// position is stored by its worker, so this never waits forever.
  func frame(at position: Int) -> (pixels: Pixmap, drawn: IntRect?)? {
    monitor.locked {
      while true {
        switch frames[position] {
        case .ready(let frame, let drawn): return frame.map { ($0, drawn) }
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

  /// Whether the frame at `position` was released and consumed: the pipeline holds it no more
  /// (a buffer its worker may draw into again).
  func isDone(_ position: Int) -> Bool {
    monitor.locked {
      if case .released = frames[position] { return consumedFlags[position] }
      return false
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
