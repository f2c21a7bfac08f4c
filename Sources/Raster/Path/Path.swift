/// One drawing command of a `Path`, in absolute coordinates.
public enum PathElement: Hashable, Sendable {
  /// Starts a new subpath at the point.
  case move(Point)
  /// A straight line from the current point.
  case line(Point)
  /// A quadratic Bézier from the current point: control, end.
  case quad(Point, Point)
  /// A cubic Bézier from the current point: control 1, control 2, end.
  case cubic(Point, Point, Point)
  /// A straight line back to the subpath's start; the subpath ends.
  case close
}

/// An immutable outline made of subpaths of lines and Bézier curves, in user space.
///
/// # Guarantees
/// - Every subpath starts with `.move`; no other element comes before the first `.move`.
/// - Every coordinate is finite.
/// - `bounds` holds every point of the path, control points included (so it may be larger than the
///   tight bounds of the curves); it is nil only for an empty path.
///
/// Build one with `PathBuilder`, by parsing SVG path data with `PathDataParser.parse`, or with the
/// shape constructors.
public struct Path: Hashable, Sendable {
  public let elements: [PathElement]
  public let bounds: Rect?

  init(validatedElements elements: [PathElement], bounds: Rect?) {
    self.elements = elements
    self.bounds = bounds
  }

  /// The empty path: it draws nothing.
  public static let empty = Path(validatedElements: [], bounds: nil)

  public var isEmpty: Bool { elements.isEmpty }
}
