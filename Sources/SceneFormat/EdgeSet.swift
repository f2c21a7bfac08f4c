/// A set of a layer's edges, as SwiftUI's `Edge.Set`: which edges `.ignoresSafeArea(edges:)`
/// lets a layer reach past the safe area on.
struct EdgeSet: Hashable, Sendable {
  var top = false
  var leading = false
  var bottom = false
  var trailing = false

  static let none = EdgeSet()
  static let all = EdgeSet(top: true, leading: true, bottom: true, trailing: true)

  /// `Edge.Set`'s names: the four edges, `horizontal` (leading and trailing), `vertical` (top
  /// and bottom) and `all`.
  static let names = ["top", "leading", "bottom", "trailing", "horizontal", "vertical", "all"]

  /// The set a name stands for; nil for an unknown name.
  init?(name: String) {
    switch name {
    case "top": self.init(top: true)
    case "leading": self.init(leading: true)
    case "bottom": self.init(bottom: true)
    case "trailing": self.init(trailing: true)
    case "horizontal": self.init(leading: true, trailing: true)
    case "vertical": self.init(top: true, bottom: true)
    case "all": self = .all
    default: return nil
    }
  }

  init(top: Bool = false, leading: Bool = false, bottom: Bool = false, trailing: Bool = false) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  func union(_ other: EdgeSet) -> EdgeSet {
    EdgeSet(
      top: top || other.top, leading: leading || other.leading, bottom: bottom || other.bottom,
      trailing: trailing || other.trailing)
  }

  var isEmpty: Bool { self == .none }
}
