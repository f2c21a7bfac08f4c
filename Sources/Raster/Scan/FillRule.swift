/// Which points a path's outline encloses, from their winding number (SVG `fill-rule`).
public enum FillRule: String, Hashable, Sendable, CaseIterable {
  /// Inside where the winding number is not zero.
  case nonzero
  /// Inside where the winding number is odd.
  case evenodd
}
