import Raster

/// A scene's appearance: SwiftUI's `ColorScheme`, which picks the light or dark value of every
/// system colour.
public enum ColorScheme: String, CaseIterable, Sendable {
  case light, dark
}

/// SwiftUI's named colours and UIKit's system colours, light and dark, as iOS 17 defines them
/// (Apple's Human Interface Guidelines, "Color": the system colour and system gray tables;
/// UIKit's `UIColor` UI element colours, whose values Xcode's colour inspector shows). iOS 26
/// changed several values; these are the classic ones the reference demos were written against.
enum NamedColors {
  /// 8-bit straight sRGB and an opacity.
  struct Value {
    var r: UInt8, g: UInt8, b: UInt8
    var opacity: Double = 1

    var color: Color {
      Color(r: r, g: g, b: b).opacity(opacity)
    }
  }

  static func rgb(_ hex: UInt32, _ opacity: Double = 1) -> Value {
    Value(
      r: UInt8(hex >> 16 & 0xFF), g: UInt8(hex >> 8 & 0xFF), b: UInt8(hex & 0xFF),
      opacity: opacity)
  }

  /// Name → (light, dark).
  static let table: [String: (light: Value, dark: Value)] = {
    var t: [String: (light: Value, dark: Value)] = [
      // Constant colours.
      "black": (rgb(0x000000), rgb(0x000000)), "white": (rgb(0xFFFFFF), rgb(0xFFFFFF)),
      "clear": (rgb(0x000000, 0), rgb(0x000000, 0)),
      // SwiftUI's `Color.red` … are the system colours.
      "red": (rgb(0xFF3B30), rgb(0xFF453A)), "orange": (rgb(0xFF9500), rgb(0xFF9F0A)),
      "yellow": (rgb(0xFFCC00), rgb(0xFFD60A)), "green": (rgb(0x34C759), rgb(0x30D158)),
      "mint": (rgb(0x00C7BE), rgb(0x63E6E2)), "teal": (rgb(0x30B0C7), rgb(0x40C8E0)),
      "cyan": (rgb(0x32ADE6), rgb(0x64D2FF)), "blue": (rgb(0x007AFF), rgb(0x0A84FF)),
      "indigo": (rgb(0x5856D6), rgb(0x5E5CE6)), "purple": (rgb(0xAF52DE), rgb(0xBF5AF2)),
      "pink": (rgb(0xFF2D55), rgb(0xFF375F)), "brown": (rgb(0xA2845E), rgb(0xAC8E68)),
      "gray": (rgb(0x8E8E93), rgb(0x8E8E93)),
      // UIKit's grays.
      "systemGray2": (rgb(0xAEAEB2), rgb(0x636366)), "systemGray3": (rgb(0xC7C7CC), rgb(0x48484A)),
      "systemGray4": (rgb(0xD1D1D6), rgb(0x3A3A3C)), "systemGray5": (rgb(0xE5E5EA), rgb(0x2C2C2E)),
      "systemGray6": (rgb(0xF2F2F7), rgb(0x1C1C1E)),
      // Labels: SwiftUI's `.primary`, `.secondary`, … are these.
      "label": (rgb(0x000000), rgb(0xFFFFFF)),
      "secondaryLabel": (rgb(0x3C3C43, 0.6), rgb(0xEBEBF5, 0.6)),
      "tertiaryLabel": (rgb(0x3C3C43, 0.3), rgb(0xEBEBF5, 0.3)),
      "quaternaryLabel": (rgb(0x3C3C43, 0.18), rgb(0xEBEBF5, 0.16)),
      "placeholderText": (rgb(0x3C3C43, 0.3), rgb(0xEBEBF5, 0.3)),
      "link": (rgb(0x007AFF), rgb(0x0984FF)),
      // Fills.
      "systemFill": (rgb(0x787880, 0.2), rgb(0x787880, 0.36)),
      "secondarySystemFill": (rgb(0x787880, 0.16), rgb(0x787880, 0.32)),
      "tertiarySystemFill": (rgb(0x767680, 0.12), rgb(0x767680, 0.24)),
      "quaternarySystemFill": (rgb(0x747480, 0.08), rgb(0x767680, 0.18)),
      // Backgrounds.
      "systemBackground": (rgb(0xFFFFFF), rgb(0x000000)),
      "secondarySystemBackground": (rgb(0xF2F2F7), rgb(0x1C1C1E)),
      "tertiarySystemBackground": (rgb(0xFFFFFF), rgb(0x2C2C2E)),
      "systemGroupedBackground": (rgb(0xF2F2F7), rgb(0x000000)),
      "secondarySystemGroupedBackground": (rgb(0xFFFFFF), rgb(0x1C1C1E)),
      "tertiarySystemGroupedBackground": (rgb(0xF2F2F7), rgb(0x2C2C2E)),
      // Separators.
      "separator": (rgb(0x3C3C43, 0.29), rgb(0x545458, 0.6)),
      "opaqueSeparator": (rgb(0xC6C6C8), rgb(0x38383A)),
      "lightText": (rgb(0xFFFFFF, 0.6), rgb(0xFFFFFF, 0.6)),
      "darkText": (rgb(0x000000), rgb(0x000000)),
    ]
    // `systemRed` … name the same colours as `red` …; SwiftUI's semantic names name labels.
    for name in [
      "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple",
      "pink", "brown", "gray",
    ] {
      t["system" + name.prefix(1).uppercased() + name.dropFirst()] = t[name]
    }
    t["primary"] = t["label"]
    t["secondary"] = t["secondaryLabel"]
    t["tertiary"] = t["tertiaryLabel"]
    t["quaternary"] = t["quaternaryLabel"]
    t["accentColor"] = t["blue"]
    return t
  }()

  static var names: [String] { table.keys.sorted() }

  static func color(_ name: String, scheme: ColorScheme) -> Color? {
    guard let entry = table[name] else { return nil }
    return (scheme == .dark ? entry.dark : entry.light).color
  }
}

extension Color {
  /// SwiftUI's named colour or UIKit's system colour `name` (`white`, `systemBlue`, `label`, …)
  /// in `scheme`, as scene files take them; nil for other names.
  public static func named(_ name: String, scheme: ColorScheme = .light) -> Color? {
    NamedColors.color(name, scheme: scheme)
  }
}
