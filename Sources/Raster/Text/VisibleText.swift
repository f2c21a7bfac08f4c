/// Text from an input shown in a message so that every character can be seen: control and
/// format characters (NUL, a byte order mark, a line break) and unusual spaces are written as
/// their code points, since quoting them as they are shows nothing.
public enum VisibleText {
  /// `'abc'`, with each invisible scalar written `<U+FEFF>`; a lone invisible scalar is named
  /// instead of quoted: `U+FEFF (a byte order mark)`.
  public static func quoted(_ text: some StringProtocol) -> String {
    let scalars = Array(text.unicodeScalars)
    if scalars.count == 1, let only = scalars.first, isInvisible(only) { return named(only) }
    var shown = ""
    for scalar in scalars {
      if isInvisible(scalar) {
        shown += "<\(codePoint(scalar))>"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return "'\(shown)'"
  }

  /// `U+000A (a line break)`, `U+0000 (NUL)`, `U+00A0`.
  public static func named(_ scalar: Unicode.Scalar) -> String {
    let names: [UInt32: String] = [
      0x00: "NUL", 0x09: "a tab", 0x0A: "a line break", 0x0D: "a carriage return",
      0xA0: "a no-break space", 0x200B: "a zero-width space", 0xFEFF: "a byte order mark",
      0xFFFD: "a replacement character: the input is not valid UTF-8",
    ]
    return codePoint(scalar) + (names[scalar.value].map { " (\($0))" } ?? "")
  }

  /// `U+FEFF`.
  public static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// Whether the scalar shows nothing (or nothing telling) when printed: controls, format
  /// characters, separators other than the plain space, unassigned and private-use code points.
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == " " { return false }
    if scalar.value == 0xFFFD { return true }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .unassigned,
      .privateUse, .surrogate:
      return true
    default: return false
    }
  }
}
