/// A straight edge in device pixels, relative to the canvas origin, already clipped to the canvas
/// (`0 <= x <= width`, `0 <= y <= height`). Its direction carries the winding: an edge going down
/// (y0 < y1) adds +1 to the winding number of the points to its right, one going up adds −1.
public struct Line: Hashable, Sendable {
  public var x0: Float
  public var y0: Float
  public var x1: Float
  public var y1: Float

  @inlinable public init(x0: Float, y0: Float, x1: Float, y1: Float) {
    self.x0 = x0
    self.y0 = y0
    self.x1 = x1
    self.y1 = y1
  }
}
