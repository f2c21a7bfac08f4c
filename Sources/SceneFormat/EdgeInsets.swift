/// Insets of a layer's four edges in points, as SwiftUI's `EdgeInsets`: what `.padding` adds.
struct EdgeInsets: Hashable, Sendable {
  var top = 0.0
  var leading = 0.0
  var bottom = 0.0
  var trailing = 0.0

  /// SwiftUI's `.padding()` without a length: 16 pt on iOS.
  static let defaultPadding = 16.0

  init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// The same inset on every edge.
  init(all length: Double) {
    self.init(top: length, leading: length, bottom: length, trailing: length)
  }
}
