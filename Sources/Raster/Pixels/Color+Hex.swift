/// Why a colour string was refused.
public struct ColorParseError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  public let reason: String

  public var description: String {
    "invalid colour \"\(text)\": \(reason); expected #RGB, #RRGGBB, #RRGGBBAA or 0xRRGGBB"
  }
}

extension Color {
  /// Parses `#RGB`, `#RRGGBB`, `#RRGGBBAA` or `0xRRGGBB` (hex digits in either case).
  public init(hex text: String) throws(ColorParseError) {
    let digits: Substring
    if text.hasPrefix("#") {
      digits = text.dropFirst()
    } else if text.hasPrefix("0x") || text.hasPrefix("0X") {
      digits = text.dropFirst(2)
      guard digits.count == 6 else {
        throw ColorParseError(text: text, reason: "0x needs exactly 6 hex digits")
      }
    } else {
      throw ColorParseError(text: text, reason: "it must start with # or 0x")
    }
    var values: [UInt8] = []
    for scalar in digits.unicodeScalars {
      guard let v = hexValue(scalar) else {
        throw ColorParseError(text: text, reason: "'\(scalar)' is not a hex digit")
      }
      values.append(v)
    }
    switch values.count {
    case 3:
      self.init(r: values[0] * 17, g: values[1] * 17, b: values[2] * 17)
    case 6, 8:
      let bytes = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
      self.init(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes.count == 4 ? bytes[3] : 255)
    default:
      throw ColorParseError(text: text, reason: "\(values.count) hex digits")
    }
  }
}

private func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
  switch scalar {
  case "0"..."9": return UInt8(scalar.value - 48)
  case "a"..."f": return UInt8(scalar.value - 87)
  case "A"..."F": return UInt8(scalar.value - 55)
  default: return nil
  }
}
