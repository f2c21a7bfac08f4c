/// Which piece of a stroke a line of its outline belongs to, for the rasterizer's test of where
/// the summed area may be wrong.
///
/// A stroke's outline (`Stroker`) is traced so that its winding number is 0 outside the stroke
/// and of one sign inside; it exceeds 1 in size only where two pieces of the stroke overlap
/// without the outline merging them. The stroker numbers its centre line's stretches in order
/// (a stretch is a quarter of the width long, or one segment where segments are longer), and
/// gives every outline line the number of the stretch it bounds. Consecutive stretches meet
/// where their edges cross, so their pieces do not overlap; a join traced through the vertex (a
/// turn too tight for the edges to cross) or a turn of more than 90° skips a number, as does
/// every new polyline. The deposit's claims (two unconnected lines in one pixel mark its row
/// for the exact resolver) let lines of adjoining groups (`adjoins`) share a pixel: the left and
/// right edges of a thin stroke do in most rows, and without this nearly every row of a stroke
/// was resolved exactly. The vertical-turn test still applies to every row.
/// `StrokePieceTests` holds random strokes to the plain fill of the same outline.
public struct PieceGroup: Hashable, Sendable {
  /// The stretch's number.
  public var id: Int32
  /// The number of the stretch a closed polyline's first (or last) stretch adjoins across its
  /// closing join; `id` elsewhere.
  public var partner: Int32

  @inlinable public init(id: Int32, partner: Int32? = nil) {
    self.id = id
    self.partner = partner ?? id
  }

  /// Whether pieces of the two groups may share a pixel without their winding exceeding 1: the
  /// same or consecutive stretches, or the two ends of a closed polyline.
  @inline(__always)
  func adjoins(_ other: PieceGroup) -> Bool {
    let d = id &- other.id
    return (d >= -1 && d <= 1) || partner == other.id || other.partner == id
  }
}
