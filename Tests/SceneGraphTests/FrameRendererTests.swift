import Motion
import Raster
import Synchronization
import Testing

@testable import SceneGraph

/// The frame pipeline: frames in order, the same pixels with any number of threads, and a fixed
/// number of frames alive however many there are (issue #11: memory grew with `--threads`).
@Suite struct FrameRendererTests {
  /// A square sliding for `seconds`, then held, at 50 fps.
  static func slidingSquare(seconds: Double, hold: Double = 0.2) -> Scene {
    let x = ChannelTimeline(
      initial: [10],
      changes: [.init(time: 0, target: [50], animation: .curve(.linear(duration: seconds)))],
      frameRate: 50)
    let square = SceneNode(
      "square", .fill(.rect(Rect(x: -5, y: -5, width: 10, height: 10)), .black, .nonzero),
      centerX: .channel("x", component: 0), centerY: .constant(20))
    return Scene(
      width: 60, height: 40, scale: 1, background: .white,
      root: SceneNode("root", .group([square])), channels: ["x": x], traceColumns: [],
      frameRate: 50, hold: hold)
  }

  @Test func threadsAreClampedToTheCores() {
    let scene = Self.slidingSquare(seconds: 0.1)
    #expect(FrameRenderer(scene: scene, threads: 64).threads == FrameRenderer.processorCount)
    #expect(FrameRenderer(scene: scene, threads: 0).threads == 1)
  }

  /// Frames waiting between `prepare` and `consume` never exceed the window, and each frame's
  /// `previous` is the frame before it, also when a held frame shares its predecessor's pixels.
  @Test(arguments: [1, 2, 8])
  func framesInFlightAreBounded(threads: Int) throws {
    let scene = Self.slidingSquare(seconds: 1, hold: 0.5)
    let renderer = FrameRenderer(scene: scene, threads: threads)
    let inFlight = Mutex((now: 0, most: 0))
    var seen: [Int] = []
    var frames: [Pixmap] = []
    try renderer.render(
      Array(0..<scene.frameCount),
      prepare: { index, frame, previous in
        inFlight.withLock {
          $0.now += 1
          $0.most = max($0.most, $0.now)
        }
        return (index, frame, previous)
      }
    ) { index, prepared in
      inFlight.withLock { $0.now -= 1 }
      #expect(prepared.0 == index)
      #expect(prepared.2 == frames.last)
      seen.append(index)
      frames.append(prepared.1)
    }
    #expect(seen == Array(0..<scene.frameCount))
    #expect(inFlight.withLock { $0.most } <= renderer.framesInFlight)
    var compositor = Compositor()
    for index in [0, 20, scene.frameCount - 1] {
      #expect(frames[index] == scene.render(frame: index, compositor: &compositor))
    }
  }

  /// An error from `prepare` or `consume` stops the run and is the one thrown.
  @Test func theFirstErrorStopsTheRun() {
    struct Stop: Error, Equatable { var at: Int }
    let renderer = FrameRenderer(scene: Self.slidingSquare(seconds: 1), threads: 2)
    #expect(throws: Stop(at: 7)) {
      try renderer.render(
        Array(0..<50),
        prepare: { index, _, _ in
          if index == 7 { throw Stop(at: 7) }
          return index
        }
      ) { _, _ in }
    }
    var consumed = 0
    #expect(throws: Stop(at: 3)) {
      try renderer.render(Array(0..<50), prepare: { index, _, _ in index }) { index, _ in
        consumed += 1
        if index == 3 { throw Stop(at: 3) }
      }
    }
    #expect(consumed == 4)
  }
}
