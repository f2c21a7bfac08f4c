import Typeset

/// SwiftUI's `Font.Design` (`Font.system(_:design:weight:)`): the system font's designs, each
/// drawn by an open stand-in, as Inter stands in for SF Pro.
public enum FontDesign: String, CaseIterable, Sendable {
  /// SF Pro: Inter (`TextStyle.family(forSize:)`).
  case `default`
  /// New York: Noto Serif (Debian's `fonts-noto-core`), else DejaVu Serif.
  case serif
  /// SF Pro Rounded: Quicksand (`fonts-quicksand`), else the default design's.
  case rounded
  /// SF Mono: JetBrains Mono (`fonts-jetbrains-mono`), else DejaVu Sans Mono.
  case monospaced

  /// The families that stand in for the design, best first.
  public var candidates: [String] {
    switch self {
    case .default: []
    case .serif: ["Noto Serif", "DejaVu Serif"]
    case .rounded: ["Quicksand"]
    case .monospaced: ["JetBrains Mono", "DejaVu Sans Mono"]
    }
  }

  /// The first stand-in that is installed; nil for the default design, or where none is (the
  /// text then takes SF Pro's stand-in).
  public var family: String? { Self.installed[self] }

  /// Each design's stand-in as fontconfig finds them, looked up once a run.
  private static let installed: [FontDesign: String] = Dictionary(
    uniqueKeysWithValues: allCases.compactMap { design in
      design.candidates.first { FontLocator.locate(family: $0, weight: .regular) != nil }
        .map { (design, $0) }
    })
}

/// SwiftUI's text styles at the default Dynamic Type size (Large), with the stand-in fonts for
/// SF Pro: Inter below 20 pt and Inter Display from 20 pt, as SF switches from Text to Display.
public enum TextStyle: String, CaseIterable, Sendable {
  case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption,
    caption2

  /// Size in points.
  public var size: Double {
    switch self {
    case .largeTitle: 34
    case .title: 28
    case .title2: 22
    case .title3: 20
    case .headline, .body: 17
    case .callout: 16
    case .subheadline: 15
    case .footnote: 13
    case .caption: 12
    case .caption2: 11
    }
  }

  public var weight: FontWeight { self == .headline ? .semibold : .regular }

  /// The stand-in family for SF Pro at `size` points.
  public static func family(forSize size: Double) -> String {
    size >= 20 ? "Inter Display" : "Inter"
  }

  /// The tracking SF Pro applies at `size` points, in points (Apple's HIG tracking table; −0.43 at
  /// 17 pt and +0.40 at 34 pt are the values the demos use). Linear between the table's sizes,
  /// the end values beyond them.
  public static func tracking(forSize size: Double) -> Double {
    let table: [(Double, Double)] = [
      (6, 0.24), (8, 0.21), (10, 0.12), (11, 0.06), (12, 0), (13, -0.08), (14, -0.15),
      (15, -0.23), (16, -0.31), (17, -0.43), (20, -0.45), (22, -0.26), (24, 0.07), (28, 0.38),
      (34, 0.40), (48, 0.35), (64, 0.23), (80, 0),
    ]
    guard let first = table.first, let last = table.last else { return 0 }
    if size <= first.0 { return first.1 }
    if size >= last.0 { return last.1 }
    for (a, b) in zip(table, table.dropFirst()) where size <= b.0 {
      if size == b.0 { return b.1 }
      return a.1 + (b.1 - a.1) * (size - a.0) / (b.0 - a.0)
    }
    return last.1
  }
}
