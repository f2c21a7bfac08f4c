import Raster

/// SwiftUI's named colours in light mode (iOS 13–18 system colours), for colour fields.
enum NamedColors {
  static let table: [String: Color] = [
    "black": .black, "white": .white, "clear": .clear,
    "gray": Color(r: 142, g: 142, b: 147), "red": Color(r: 255, g: 59, b: 48),
    "orange": Color(r: 255, g: 149, b: 0), "yellow": Color(r: 255, g: 204, b: 0),
    "green": Color(r: 52, g: 199, b: 89), "mint": Color(r: 0, g: 199, b: 190),
    "teal": Color(r: 48, g: 176, b: 199), "cyan": Color(r: 50, g: 173, b: 230),
    "blue": Color(r: 0, g: 122, b: 255), "indigo": Color(r: 88, g: 86, b: 214),
    "purple": Color(r: 175, g: 82, b: 222), "pink": Color(r: 255, g: 45, b: 85),
    "brown": Color(r: 162, g: 132, b: 94),
  ]
}
