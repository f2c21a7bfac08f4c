/// The direction and length of the segment from `from` to `to`, in the stroke's user units,
/// computed without overflow: far geometry (coordinates near 1e308, whose differences overflow)
/// still has a unit direction, and a length that is +∞ only when it truly exceeds Double.
struct Segment {
  /// Unit vector from `from` to `to`; (1, 0) for a segment of no length.
  let direction: Point
  let length: Double

  init(from p: Point, to q: Point) {
    var dx = q.x - p.x
    var dy = q.y - p.y
    // Most segments: the length from the squares, which neither overflow nor underflow here.
    let squares = dx * dx + dy * dy
    if squares > 1e-280, squares < 1e280 {
      let length = squares.squareRoot()
      // Divided, not multiplied by 1/length: an axis-aligned segment keeps an exact unit
      // direction (the joins compare edge points for equality).
      direction = Point(dx / length, dy / length)
      self.length = length
      return
    }
    var factor = 1.0
    if !(dx.isFinite && dy.isFinite) {
      // Half-differences cannot overflow for finite ends.
      dx = q.x * 0.5 - p.x * 0.5
      dy = q.y * 0.5 - p.y * 0.5
      factor = 2
    }
    let largest = max(abs(dx), abs(dy))
    guard largest > 0, largest.isFinite else {
      direction = Point(1, 0)
      length = largest.isNaN ? 0 : largest * factor
      return
    }
    let (ux, uy) = (dx / largest, dy / largest)
    let norm = (ux * ux + uy * uy).squareRoot()
    direction = Point(ux / norm, uy / norm)
    length = largest * norm * factor
  }
}
