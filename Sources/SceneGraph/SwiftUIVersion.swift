import Motion
import Raster

/// Which SDK's SwiftUI defaults to follow.
public enum SwiftUIVersion: String, Hashable, Sendable, CaseIterable {
  /// iOS 17+ SDK: `.spring()` is response 0.5, ζ 1; corners are continuous.
  case ios17 = "17"
  /// Xcode 11–14: `.spring()` is response 0.55, ζ 0.825; corners are circular.
  case legacy

  public var defaultSpring: Spring { self == .ios17 ? .swiftUI17Default : .swiftUILegacyDefault }
  public var cornerStyle: CornerStyle { self == .ios17 ? .continuous : .circular }
}
