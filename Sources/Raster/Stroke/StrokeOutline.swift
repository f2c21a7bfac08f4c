/// A stroke's outline as `Stroker.outline` makes it: a path to be filled with the nonzero rule
/// (user space), and for each of its elements the stroke piece it bounds, which lets the
/// rasterizer keep the summed area wherever pieces that cannot overlap share a pixel
/// (`PieceGroup`). Fill it with the `Rasterizer` methods that take a `StrokeOutline`; filling
/// `path` alone gives the same pixels, more slowly.
public struct StrokeOutline: Hashable, Sendable {
  public let path: Path
  /// One per element of `path`.
  public let groups: [PieceGroup]

  init(path: Path, groups: [PieceGroup]) {
    precondition(path.elements.count == groups.count, "a group per element")
    self.path = path
    self.groups = groups
  }

  /// Nothing to draw.
  public static let empty = StrokeOutline(path: .empty, groups: [])

  public var isEmpty: Bool { path.isEmpty }
}
