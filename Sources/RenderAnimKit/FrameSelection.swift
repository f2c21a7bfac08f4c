import SceneGraph

/// Which frames of a render to write or check: `--frames 0,10,20-30` and `--times
/// 0,0.25,settled`, resolved against a scene.
///
/// A time selects the first frame at or after it (frame n is at n / fps); `settled` selects
/// the first frame at which every animation has ended. Both lists may be given; the frames are
/// their union, in order, each once.
public struct FrameSelection: Hashable, Sendable {
  /// The most entries a list may have, and the largest frame index.
  public static let maximumEntries = 10_000
  public static let maximumFrame = 1_000_000

  public enum Time: Hashable, Sendable {
    case seconds(Double)
    case settled
  }

  public var frames: [ClosedRange<Int>]
  public var times: [Time]

  public init(frames: [ClosedRange<Int>] = [], times: [Time] = []) {
    self.frames = frames
    self.times = times
  }

  /// Why a list or a selection is refused.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// `0,10,20-30`: indices and inclusive ranges, separated by commas.
  public static func frames(_ text: String) throws(Problem) -> [ClosedRange<Int>] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= maximumEntries else {
      throw Problem("at most \(maximumEntries) entries")
    }
    var ranges: [ClosedRange<Int>] = []
    for part in parts {
      let piece = part.trimmingSpaces
      let ends = piece.split(separator: "-", omittingEmptySubsequences: false)
      let numbers = ends.map { Int($0.trimmingSpaces) }
      guard (1...2).contains(ends.count), let first = numbers.first ?? nil,
        let last = numbers.last ?? nil
      else {
        throw Problem(
          "\"\(piece)\" is not a frame index or a range such as 20-30 (indices from 0)")
      }
      guard first >= 0, last <= maximumFrame else {
        throw Problem("\"\(piece)\": frame indices are 0 to \(maximumFrame)")
      }
      guard first <= last else { throw Problem("\"\(piece)\": a range runs upwards") }
      ranges.append(first...last)
    }
    return ranges
  }

  /// `0,0.25,settled`: seconds, or `settled`.
  public static func times(_ text: String) throws(Problem) -> [Time] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= maximumEntries else {
      throw Problem("at most \(maximumEntries) entries")
    }
    var times: [Time] = []
    for part in parts {
      let piece = part.trimmingSpaces
      if piece == "settled" {
        times.append(.settled)
      } else if let t = DecimalNumber.parse(piece), t.isFinite, t >= 0, t <= 3600 {
        times.append(.seconds(t))
      } else {
        throw Problem("\"\(piece)\" is not a time in seconds (0 to 3600) or settled")
      }
    }
    return times
  }

  /// The selected frame indices of `scene`, ascending, each once; an index before 0 or past the
  /// last frame, a time that is negative, not finite or past the last frame, or `settled` for a
  /// scene that never settles, is refused.
  public func indices(in scene: Scene) throws(Problem) -> [Int] {
    let count = scene.frameCount
    let last = count - 1
    var chosen = Set<Int>()
    for range in frames {
      guard range.lowerBound >= 0 else {
        throw Problem("frame \(range.lowerBound) is before the first frame, 0")
      }
      guard range.upperBound <= last else {
        throw Problem(
          "frame \(range.upperBound) is past the last frame, \(last) (the render has \(count))")
      }
      chosen.formUnion(range)
    }
    for time in times {
      let seconds: Double
      switch time {
      case .seconds(let t):
        guard t.isFinite, t >= 0 else { throw Problem("time \(t) s is not a time from 0") }
        seconds = t
      case .settled:
        guard scene.settleTime.isFinite else {
          throw Problem(
            "the scene never settles (it repeats for ever, or follows time): give times in seconds")
        }
        seconds = scene.settleTime
      }
      let index = Int((seconds * scene.frameRate - 1e-9).rounded(.up))
      guard index <= last else {
        throw Problem(
          "\(time == .settled ? "settled (\(seconds) s)" : "time \(seconds) s") is past the last "
            + "frame, \(last) at \(scene.time(ofFrame: last)) s")
      }
      chosen.insert(max(index, 0))
    }
    return chosen.sorted()
  }
}

extension Substring {
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}

/// `times: [0, 0.25, .settled]`.
extension FrameSelection.Time: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
  public init(floatLiteral value: Double) { self = .seconds(value) }
  public init(integerLiteral value: Int) { self = .seconds(Double(value)) }
}
