/// Where `Stroker` puts an outline as it traces it (user space): contours of straight lines,
/// each element with the stroke piece it bounds (`PieceGroup`).
protocol OutlineSink {
  /// Elements received so far (for the stroker's bound on outline points).
  var count: Int { get }
  /// Starts a contour at `p`, ending the previous one as `close` would.
  mutating func move(to p: Point, group: PieceGroup)
  mutating func line(to p: Point, group: PieceGroup)
  /// Ends the contour with a line back to its start.
  mutating func close(group: PieceGroup)
}

/// Collects an outline as a `Path` and its groups, for `Stroker.outline`.
struct PathOutlineSink: OutlineSink {
  var builder = PathBuilder()
  /// Per element of `builder`.
  var groups: [PieceGroup] = []

  var count: Int { builder.count }

  mutating func move(to p: Point, group: PieceGroup) {
    builder.move(to: p)
    sync(group)
  }

  mutating func line(to p: Point, group: PieceGroup) {
    builder.line(to: p)
    sync(group)
  }

  mutating func close(group: PieceGroup) {
    builder.close()
    sync(group)
  }

  /// One group for each element added since the last call (a move may replace a move).
  private mutating func sync(_ group: PieceGroup) {
    if groups.count > builder.count { groups.removeLast(groups.count - builder.count) }
    while groups.count < builder.count { groups.append(group) }
  }

  /// The outline; empty when nothing was drawn or a coordinate was not finite.
  func finished() -> StrokeOutline {
    guard let built = builder.build(), !built.isEmpty else { return .empty }
    // `build` drops a trailing move.
    return StrokeOutline(path: built, groups: Array(groups.prefix(built.elements.count)))
  }
}
