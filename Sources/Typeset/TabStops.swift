/// Where a tab moves the pen: the tab stops of Apple's default paragraph style, which SwiftUI's
/// `Text` lays out with (`NSParagraphStyle.default`: "12 left-aligned tabs, spaced by 28.0
/// points", and a `defaultTabInterval` of 0, so no stops after them). Points from the start of
/// the line.
public enum TabStops {
  /// The distance between two stops, points.
  public static let interval = 28.0
  /// How many stops there are: the last is at 12 × 28 = 336 points.
  public static let count = 12

  /// The advance of a tab whose pen is `pen` points from the line's start: to the first stop
  /// past the pen (one a hair away counts as reached), or, past the last stop, `natural`
  /// points — a space's advance (the shaper's), as Apple's style has no stop left to go to.
  public static func advance(at pen: Double, natural: Double) -> Double {
    let next = ((max(0, pen) + 1e-6) / interval).rounded(.down) * interval + interval
    return next <= Double(count) * interval ? next - pen : natural
  }
}
