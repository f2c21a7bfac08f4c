import Raster
import SceneGraph
import Testing

@testable import SceneFormat

/// `contentTransition(.numericText())` per character, against the statement in
/// docs/SEMANTICS.md ("Type"): the characters that stay are drawn where they were and slide to
/// their new places; the others roll — the old ones rise by half the line height and fade and
/// blur out, the new ones rise from half the line height below and fade and sharpen in (the other
/// way with countsDown) — with the change's animation.
@Suite struct NumericTextTests {
  /// Which characters stay, case by case.
  @Test func keptCharactersAreTheSamePlaceOrTheCommonEnds() {
    func kept(_ a: String, _ b: String) -> [[Int]] {
      SceneAssembler.keptCharacters(Array(a), Array(b)).map { [$0.0, $0.1] }
    }
    #expect(kept("41", "42") == [[0, 0]])
    #expect(kept("1,999", "2,000") == [[1, 1]])
    #expect(kept("0.9 s", "1.0 s") == [[1, 1], [3, 3], [4, 4]])
    #expect(kept("9", "10") == [])
    #expect(kept("99", "100") == [])
    #expect(kept("9 likes", "10 likes") == (0..<6).map { [1 + $0, 2 + $0] })
    #expect(kept("12 items", "1 items") == [[0, 0]] + (0..<6).map { [2 + $0, 1 + $0] })
  }

  static func scene(
    _ from: Int, _ to: Int, countsDown: Bool = false,
    frame: String = #", "frame": {"width": 150, "alignment": "leading"}"#
  ) throws -> Scene {
    let transition = countsDown ? #"{"numericText": {"countsDown": true}}"# : #""numericText""#
    return try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 80}, "state": {"n": \(from)},
         "layers": [{"id": "n", "text": "=\\"\\\\(n)\\"", "font": "largeTitle",
                     "monospacedDigit": true, "contentTransition": \(transition)\(frame)}],
         "events": [{"at": 0.5, "set": {"n": \(to)}, "animation": {"type": "linear", "duration": 1}}]}
        """, settings: SceneSettings(scale: 2, frameRate: 10, hold: 0)
    ).scene
  }

  static func still(_ text: String) throws -> Scene {
    try SceneFile.load(
      text: """
        {"canvas": {"width": 200, "height": 80},
         "layers": [{"id": "n", "text": "\(text)", "font": "largeTitle", "monospacedDigit": true,
                     "frame": {"width": 150, "alignment": "leading"}}]}
        """, settings: SceneSettings(scale: 2, frameRate: 10, hold: 0)
    ).scene
  }

  /// 41 → 42 under a linear second: at fraction f the old "1" has opacity 1 − f and has risen
  /// by f × h/2, the new "2" has opacity f and is (1 − f) × h/2 below its place, their blurs
  /// h/12 × f and h/12 × (1 − f); the "4" is shown, unmoved, throughout. Counting down, the
  /// rolls go the other way.
  @Test(arguments: [false, true])
  func changedDigitsRollWithTheAnimation(countsDown: Bool) throws {
    let scene = try Self.scene(41, 42, countsDown: countsDown)
    let height = try #require(SceneLayoutTests.entry("n", in: scene.layout(at: 0))).frame.height
    let rise = (countsDown ? -1 : 1) * height / 2
    var largest = 0.0
    for f in stride(from: 0.0, through: 1, by: 0.125) {
      let v = scene.values(at: 0.5 + f)
      func value(_ suffix: String) -> Double {
        v.first { $0.key.hasSuffix(suffix) }?.value[0] ?? .nan
      }
      let expected: [(String, Double)] = [
        ("change[0].out.opacity", 1 - f), ("change[0].out.roll", -rise * f),
        ("change[0].out.blur", abs(rise) / 6 * f), ("change[0].in.opacity", f),
        ("change[0].in.roll", rise * (1 - f)), ("change[0].in.blur", abs(rise) / 6 * (1 - f)),
        ("change[0].kept[0].opacity", 1), ("rest.opacity", 0),
      ]
      for (suffix, target) in expected {
        largest = max(largest, abs(value(suffix) - target))
      }
    }
    #expect(largest < 1e-9)
    #expect(!scene.values(at: 1).keys.contains { $0.hasSuffix("kept[0].slide") })
    #expect(scene.values(at: 0.4).first { $0.key.hasSuffix("rest.opacity") }?.value == [1])
  }

  /// Pixels: halfway, the columns of the "4" (short of the rolling digit's blur, 3 radii) are
  /// the still "42"'s (and "41"'s) to the level; the changing digit's columns are neither; before the change the frame is the
  /// still "41", after it the still "42" (within a level: the parts are drawn apart and composited).
  @Test func keptDigitsStayPutAndTheRestSettles() throws {
    let scene = try Self.scene(41, 42)
    var compositor = Compositor()
    let before = try #require(scene.render(frame: 4, compositor: &compositor))
    let halfway = try #require(scene.render(frame: 10, compositor: &compositor))
    let after = try #require(scene.render(frame: scene.frameCount - 1, compositor: &compositor))
    let old = try #require(try Self.still("41").render(frame: 0, compositor: &compositor))
    let new = try #require(try Self.still("42").render(frame: 0, compositor: &compositor))
    // The boundary between "4" and the last digit: the text's middle (two tabular figures, the
    // text at the frame's leading edge), in device pixels; and the blur's reach.
    let entry = try #require(SceneLayoutTests.entry("n", in: scene.layout(at: 0)))
    let width = try #require(entry.lines.first?.width)
    let split = Int(((entry.frame.minX + width / 2) * 2).rounded())
    let reach = Int((3 * entry.frame.height / 12 * 2).rounded(.up))
    func difference(_ a: Pixmap, _ b: Pixmap, columns: Range<Int>) -> Int {
      var largest = 0
      for y in 0..<a.height {
        for x in columns {
          let (p, q) = (a.pixels[y * a.width + x], b.pixels[y * b.width + x])
          for shift in stride(from: 0, to: 32, by: 8) {
            largest = max(largest, abs(Int((p >> shift) & 255) - Int((q >> shift) & 255)))
          }
        }
      }
      return largest
    }
    let all = 0..<old.width
    #expect(difference(before, old, columns: all) == 0)
    #expect(difference(after, new, columns: all) <= 1)
    #expect(difference(halfway, new, columns: 0..<(split - reach)) <= 1)
    #expect(difference(halfway, old, columns: 0..<(split - reach)) <= 1)
    #expect(difference(halfway, new, columns: split..<old.width) > 64)
    #expect(difference(halfway, old, columns: split..<old.width) > 64)
  }

  /// A text that wraps to more than one line in some version rolls whole, as before.
  @Test func wrappedTextRollsWhole() throws {
    let scene = try Self.scene(41, 987_654, frame: #", "frame": {"width": 60}"#)
    let names = scene.values(at: 1).keys
    #expect(!names.contains { $0.contains(".change[") })
    #expect(names.contains { $0.hasSuffix(".text[1].roll") })
  }
}
