/// A tap on the screen: where (screen points, y down from the top of the display) and when
/// (seconds from the start).
public struct Tap: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var time: Double

  public init(x: Double, y: Double, time: Double = 0) {
    self.x = x
    self.y = y
    self.time = time
  }
}
