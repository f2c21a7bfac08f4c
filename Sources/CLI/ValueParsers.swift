import Raster
import RenderAnimKit
import SceneFormat

/// Converters from option text to typed values; each error names the option and the value.
enum ValueParsers {
  /// The largest image side the CLI accepts, in pixels.
  static let maximumImageSide = 16_384

  /// An option's value that is not what it takes. `option` is the long name (`scale`, shown as
  /// `--scale`), or a positional argument's placeholder (`<element>`, shown as it is).
  static func invalid(_ option: String, _ value: String, _ expected: String) -> UsageError {
    UsageError("Invalid value '\(value)' for '\(shown(option))': \(expected)")
  }

  /// How `option` is named in messages: `--name`, or a placeholder `<name>` as it is.
  static func shown(_ option: String) -> String {
    option.hasPrefix("<") ? option : "--" + option
  }

  /// A number written in decimal (`DecimalNumber`), spaces around it allowed.
  static func decimal<S: StringProtocol>(_ text: S) -> Double? {
    DecimalNumber.parse(Substring(String(text)).trimmingSpaces)
  }

  /// A whole number written in decimal, spaces around it allowed.
  static func whole<S: StringProtocol>(_ text: S) -> Int? {
    Int(Substring(String(text)).trimmingSpaces)
  }

  /// `x,y,w,h`: four finite numbers, w and h > 0.
  static func viewBox(_ text: String, option: String = "viewbox") throws(UsageError) -> Rect {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { decimal($0) }.filter(\.isFinite)
    guard parts.count == 4, numbers.count == 4 else {
      throw invalid(option, text, "expected four numbers x,y,w,h")
    }
    guard numbers[2] > 0, numbers[3] > 0 else {
      throw invalid(option, text, "width and height must be greater than 0")
    }
    return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
  }

  /// `WxH` (or a single `S` for a square when `allowSquare`), each 1...maximumImageSide.
  static func size(
    _ text: String, option: String = "size", allowSquare: Bool = false
  )
    throws(UsageError) -> (width: Int, height: Int)
  {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    let expected =
      allowSquare
      ? "expected a size S or WxH in pixels, 1 to \(maximumImageSide)"
      : "expected WxH in pixels, each 1 to \(maximumImageSide)"
    let numbers = parts.compactMap { whole($0) }
    guard numbers.count == parts.count, parts.count == 2 || (allowSquare && parts.count == 1),
      numbers.allSatisfy({ (1...maximumImageSide).contains($0) })
    else { throw invalid(option, text, expected) }
    return (numbers[0], numbers.count == 2 ? numbers[1] : numbers[0])
  }

  /// `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `0xRRGGBB`, or a colour name as scene files take it
  /// (SwiftUI's `white`, `orange`, …, UIKit's `systemBlue`, …; light appearance).
  static func color(_ text: String, option: String) throws(UsageError) -> Color {
    if let named = Color.named(text) { return named }
    do {
      return try Color(hex: text)
    } catch {
      // A hex colour's own fault only when it looks like one; otherwise no such name.
      let looksHex = text.hasPrefix("#") || text.lowercased().hasPrefix("0x")
      throw UsageError(
        "Invalid value '\(text)' for '--\(option)': "
          + (looksHex ? error.reason : "no colour has that name") + "; expected "
          + "#RGB, #RRGGBB, #RRGGBBAA, 0xRRGGBB or a colour name (white, black, systemBlue, …)")
    }
  }

  /// One of an enumeration's raw values.
  static func choice<T: RawRepresentable & CaseIterable>(
    _ text: String, option: String
  )
    throws(UsageError) -> T where T.RawValue == String
  {
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw invalid(option, text, "expected one of \(names)")
    }
    return value
  }

  /// A whole number in `range`.
  static func integer(
    _ text: String, option: String, in range: ClosedRange<Int>
  )
    throws(UsageError) -> Int
  {
    guard let value = whole(text), range.contains(value) else {
      throw invalid(
        option, text, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  /// A finite number in `range`.
  static func number(
    _ text: String, option: String, in range: ClosedRange<Double>
  )
    throws(UsageError) -> Double
  {
    guard let value = decimal(text), value.isFinite, range.contains(value) else {
      throw invalid(
        option, text, "expected a number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  /// Comma-separated finite numbers in `range`, at most `maximumCount` of them.
  static func numbers(
    _ text: String, option: String, in range: ClosedRange<Double>, maximumCount: Int
  ) throws(UsageError) -> [Double] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= maximumCount else {
      throw invalid(option, String(text.prefix(40)), "at most \(maximumCount) numbers")
    }
    var values: [Double] = []
    for part in parts {
      let trimmed = String(part.trimmingSpaces)
      guard let value = decimal(trimmed), value.isFinite, range.contains(value) else {
        throw invalid(
          option, text,
          "'\(trimmed)' is not a number from \(range.lowerBound) to \(range.upperBound); "
            + "expected numbers separated by commas")
      }
      values.append(value)
    }
    return values
  }

  /// A colour, or `none`: nil.
  static func paint(_ text: String, option: String) throws(UsageError) -> Color? {
    text == "none" ? nil : try color(text, option: option)
  }
}

extension Substring {
  var trimmingSpaces: Substring {
    var s = self
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return s
  }
}
