/// An iPhone's screen in points, portrait, with its safe-area insets (docs/SEMANTICS.md, Devices).
public struct Device: Hashable, Sendable {
  public var name: String
  public var models: String
  public var width: Double
  public var height: Double
  public var safeTop: Double
  public var safeBottom: Double

  public static let presets: [Device] = [
    Device(
      name: "se", models: "iPhone SE 2nd/3rd gen, 8", width: 375, height: 667, safeTop: 20,
      safeBottom: 0),
    Device(
      name: "8plus", models: "iPhone 8 Plus", width: 414, height: 736, safeTop: 20, safeBottom: 0),
    Device(
      name: "x", models: "iPhone X, XS, 11 Pro", width: 375, height: 812, safeTop: 44,
      safeBottom: 34),
    Device(
      name: "xr", models: "iPhone XR, 11", width: 414, height: 896, safeTop: 48, safeBottom: 34),
    Device(
      name: "xsmax", models: "iPhone XS Max, 11 Pro Max", width: 414, height: 896, safeTop: 44,
      safeBottom: 34),
    Device(
      name: "mini", models: "iPhone 12 mini, 13 mini", width: 375, height: 812, safeTop: 50,
      safeBottom: 34),
    Device(
      name: "14", models: "iPhone 12, 13, 14, 16e", width: 390, height: 844, safeTop: 47,
      safeBottom: 34),
    Device(
      name: "14plus", models: "iPhone 14 Plus, 12/13 Pro Max", width: 428, height: 926, safeTop: 47,
      safeBottom: 34),
    Device(
      name: "15", models: "iPhone 14 Pro, 15, 15 Pro, 16", width: 393, height: 852, safeTop: 59,
      safeBottom: 34),
    Device(
      name: "15promax", models: "iPhone 14/15 Pro Max, 15/16 Plus", width: 430, height: 932,
      safeTop: 59, safeBottom: 34),
    Device(
      name: "16pro", models: "iPhone 16 Pro", width: 402, height: 874, safeTop: 62, safeBottom: 34),
    Device(
      name: "16promax", models: "iPhone 16 Pro Max", width: 440, height: 956, safeTop: 62,
      safeBottom: 34),
  ]

  /// The default: iPhone 14, 390×844 pt.
  public static let iPhone14 = presets.first { $0.name == "14" } ?? presets[0]

  public static func named(_ name: String) -> Device? { presets.first { $0.name == name } }

  /// The safe area's height in points (what a GeometryReader inside it measures).
  public var safeHeight: Double { height - safeTop - safeBottom }
}
