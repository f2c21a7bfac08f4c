/// How a line ends: SwiftUI's `CGLineCap`, SVG's `stroke-linecap`.
public enum LineCap: String, CaseIterable, Hashable, Sendable {
  /// The stroke stops square at the end point.
  case butt
  /// A half disc of the stroke's width around the end point.
  case round
  /// The stroke goes on half its width past the end point, square.
  case square
}

/// How two segments meet: SwiftUI's `CGLineJoin`, SVG's `stroke-linejoin`.
public enum LineJoin: String, CaseIterable, Hashable, Sendable {
  /// The outer edges extended until they meet, unless that point lies further than `miterLimit`
  /// half-widths from the vertex; then a bevel.
  case miter
  /// A disc sector of the stroke's width around the vertex.
  case round
  /// The outer corners joined by a straight line.
  case bevel
}

/// A stroke's geometry in the path's user units: SwiftUI's `StrokeStyle` (whose defaults these
/// are: width 1, butt caps, miter joins, a miter limit of 10, no dashes).
public struct StrokeStyle: Hashable, Sendable {
  /// The stroke's width; the outline lies half of it on each side of the path.
  public var width: Double
  public var cap: LineCap
  public var join: LineJoin
  /// The longest miter allowed, as a ratio of the miter's length to the stroke's width
  /// (1/sin(θ/2) for segments meeting at θ); longer miters are bevelled.
  public var miterLimit: Double
  /// Dash and gap lengths, alternating, starting with a dash; an odd list is repeated once (SVG,
  /// Core Graphics). Empty: a solid stroke.
  public var dash: [Double]
  /// How far into the dash pattern the path starts.
  public var dashPhase: Double

  public init(
    width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
    dash: [Double] = [], dashPhase: Double = 0
  ) {
    self.width = width
    self.cap = cap
    self.join = join
    self.miterLimit = miterLimit
    self.dash = dash
    self.dashPhase = dashPhase
  }

  /// How far the outline can reach from the path's points (control points included): half the
  /// width, times the miter limit for miter joins and √2 for square caps.
  public var reach: Double {
    let half = width / 2
    let joinFactor = join == .miter ? max(miterLimit, 1) : 1
    let capFactor = cap == .square ? 2.0.squareRoot() : 1
    return half * max(joinFactor, capFactor)
  }

  /// The dash pattern as it is applied: the list repeated once when its count is odd; empty (a
  /// solid stroke) when it has no positive total or a negative or non-finite entry, as SVG
  /// renders such a list.
  var effectiveDash: [Double] {
    guard !dash.isEmpty, dash.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return [] }
    let pattern = dash.count % 2 == 1 ? dash + dash : dash
    return pattern.reduce(0, +) > 0 ? pattern : []
  }
}
