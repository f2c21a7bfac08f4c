/// SwiftUI's `Alignment`: where a view of one size sits inside a larger area, by the nine names
/// SwiftUI gives (`topLeading` … `bottomTrailing`). Leading is left and trailing right (the
/// scenes are left to right).
enum Alignment: String, CaseIterable {
  case topLeading, top, topTrailing, leading, center, trailing
  case bottomLeading, bottom, bottomTrailing
  /// An HStack's `VerticalAlignment.firstTextBaseline` and `.lastTextBaseline`: its children's
  /// first (or last) text baselines on one line.
  case firstTextBaseline, lastTextBaseline

  /// The nine of SwiftUI's `Alignment` (ZStacks, frames, backgrounds, overlays).
  static let nine: [Alignment] = [
    .topLeading, .top, .topTrailing, .leading, .center, .trailing, .bottomLeading, .bottom,
    .bottomTrailing,
  ]

  /// The alignment among `allowed` at unit point (`horizontal`, `vertical`) — what an
  /// alignment from state evaluates to — or nil when none is there.
  static func at(
    horizontal: Double, vertical: Double, among allowed: [Alignment]
  ) -> Alignment? {
    allowed.first {
      !$0.isBaseline && abs($0.horizontal - horizontal) < 1e-9 && abs($0.vertical - vertical) < 1e-9
    }
  }

  /// Whether it lines children up by a text baseline.
  var isBaseline: Bool { self == .firstTextBaseline || self == .lastTextBaseline }

  /// The fraction of the spare width that goes before the view: 0 (leading), ½, 1 (trailing).
  var horizontal: Double {
    switch self {
    case .topLeading, .leading, .bottomLeading: 0
    case .top, .center, .bottom, .firstTextBaseline, .lastTextBaseline: 0.5
    case .topTrailing, .trailing, .bottomTrailing: 1
    }
  }

  /// The fraction of the spare height that goes above the view: 0 (top), ½, 1 (bottom).
  var vertical: Double {
    switch self {
    case .topLeading, .top, .topTrailing: 0
    case .leading, .center, .trailing, .firstTextBaseline, .lastTextBaseline: 0.5
    case .bottomLeading, .bottom, .bottomTrailing: 1
    }
  }
}
