import Dispatch
import Motion
import Raster
import Synchronization
import Testing

@testable import SceneFormat

/// Damaged scene files never crash the loader: each is refused with an error or, if it is still
/// a valid scene, loads and renders.
@Suite struct SceneFileFuzzTests {
  @Test func mutatedExamplesAreRefusedOrRendered() throws {
    var seed: UInt64 = 0xD1B5_4A32_D192_ED03
    func next(_ bound: Int) -> Int {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return Int(seed % UInt64(max(bound, 1)))
    }
    let alphabet = Array("{}[]\",:.-+=#!?0123456789eExyz ".utf8)
    var refused = 0
    var rendered = 0
    for name in ["cats.json", "cards.json", "toggle.json", "banner.json", "progress.json"] {
      let original = Array(try ExampleSceneTests.read(name).utf8)
      for _ in 0..<60 {
        var bytes = original
        for _ in 0...next(3) {
          let at = next(bytes.count)
          switch next(4) {
          case 0: bytes.remove(at: at)
          case 1: bytes.insert(alphabet[next(alphabet.count)], at: at)
          case 2: bytes[at] = alphabet[next(alphabet.count)]
          default:
            let end = min(bytes.count, at + next(40))
            bytes.insert(contentsOf: bytes[at..<end], at: next(bytes.count))
          }
        }
        do {
          let loaded = try SceneFile.load(
            text: String(decoding: bytes, as: UTF8.self),
            settings: SceneSettings(scale: 1, frameRate: 10, hold: 0))
          let scene = loaded.scene
          guard scene.pixelWidth * scene.pixelHeight <= 1 << 20 else { continue }
          var compositor = Compositor()
          _ = scene.render(frame: 0, compositor: &compositor)
          _ = scene.render(frame: scene.frameCount - 1, compositor: &compositor)
          rendered += 1
        } catch {
          #expect(!error.message.isEmpty)
          refused += 1
        }
      }
    }
    #expect(refused + rendered > 250)
    print("fuzzed scene files: \(refused) refused, \(rendered) rendered")
  }
}

@Suite struct SceneNestingTests {
  /// Definitions that use themselves are refused; layers nest at most 32 deep, and a file that
  /// deep loads even on a worker thread with its smaller stack.
  @Test func cyclesAndDepthAreBounded() throws {
    let cycle = #"""
      {"canvas": {"width": 10, "height": 10},
       "definitions": {"a": {"zstack": [{"use": "b"}]}, "b": {"vstack": [{"use": "a"}]}},
       "layers": [{"use": "a"}]}
      """#
    #expect {
      _ = try SceneFile.load(text: cycle, settings: SceneSettings())
    } throws: { error in
      (error as? SceneFileError)?.message == #"the definition "a" uses itself"#
    }
    // A chain of definitions nests layers without nesting the JSON.
    func nested(_ depth: Int) -> String {
      let links = (0..<(depth - 1)).map { #""d\#($0)": {"zstack": [{"use": "d\#($0 + 1)"}]}"# }
      let leaf = #""d\#(depth - 1)": {"shape": "circle", "frame": {"width": 4, "height": 4}}"#
      return #"{"canvas": {"width": 10, "height": 10}, "definitions": {"#
        + (links + [leaf]).joined(separator: ", ") + #"}, "layers": [{"use": "d0"}]}"#
    }
    #expect {
      _ = try SceneFile.load(text: nested(33), settings: SceneSettings())
    } throws: { error in
      (error as? SceneFileError)?.message == "layers nested more than 32 deep"
    }
    let deepest = nested(32)
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Int?>(nil)
    DispatchQueue.global().async {
      let frames = try? SceneFile.load(text: deepest, settings: SceneSettings()).scene.frameCount
      outcome.withLock { $0 = frames }
      done.signal()
    }
    done.wait()
    #expect(outcome.withLock { $0 } != nil)
  }

  /// Fuzz findings 3 and 4 (Fuzz/findings/scene-load/): a spring too stiffly damped for
  /// SwiftUI's step, and an undamped one, load to a finite animation; the undamped one is cut
  /// after a minute with a note naming its channel.
  @Test(
    arguments: [
      (#"{"type": "spring", "response": 0.1, "dampingFraction": 5}"#, nil),
      (#"{"type": "spring", "response": 0.01, "dampingFraction": 10}"#, nil),
      (#"{"type": "spring", "mass": 1, "stiffness": 100, "damping": 0}"#, "layers[0].offset"),
      (#"{"type": "spring", "mass": 1, "stiffness": 100, "damping": -0}"#, "layers[0].offset"),
      (
        #"{"type": "interpolatingSpring", "mass": 1000, "stiffness": 0.001, "damping": 1e-9}"#,
        "layers[0].offset"
      ),
    ] as [(String, String?)])
  func springsThatNeverSettleOrDivergeLoadToAFiniteAnimation(
    animation: String, noted: String?
  )
    throws
  {
    let text = """
      {"canvas": {"width": 40, "height": 40, "scale": 1}, "state": {"on": false},
       "layers": [{"shape": "circle", "frame": {"width": 10, "height": 10},
                   "offset": {"x": "=on ? 10 : -10", "y": 0}}],
       "events": [{"at": 0.2, "set": {"on": true}, "animation": \(animation)}]}
      """
    let loaded = try SceneFile.load(text: text, settings: SceneSettings())
    let scene = loaded.scene
    #expect(scene.settleTime <= 0.2 + ChannelTimeline.longestAnimation)
    #expect(scene.frameCount <= Int((60.2 + scene.hold) * scene.frameRate) + 2)
    for frame in stride(from: 0, to: scene.frameCount, by: 7) {
      #expect(
        scene.values(at: scene.time(ofFrame: frame)).values.allSatisfy {
          $0.allSatisfy { $0.isFinite && abs($0) <= 40 }
        })
    }
    let notes = loaded.notes.filter { $0.contains("has not settled") }
    if let noted {
      #expect(notes.count == 1 && notes[0].hasPrefix(noted + ": "), "\(loaded.notes)")
    } else {
      #expect(notes.isEmpty, "\(loaded.notes)")
    }
  }
}
