import Raster

/// The demos' colours: SwiftUI's light-mode system colours (iOS 13–18) and the cats' background.
public enum DemoPalette {
  /// `.orange`, #FF9500.
  public static let orange = Color(r: 255, g: 149, b: 0)
  /// `.blue`, #007AFF.
  public static let blue = Color(r: 0, g: 122, b: 255)
  /// `.red`, #FF3B30.
  public static let red = Color(r: 255, g: 59, b: 48)
  /// `Color(hex: 0xe4f6ff)`, the cats' background.
  public static let sky = Color(r: 228, g: 246, b: 255)
}
