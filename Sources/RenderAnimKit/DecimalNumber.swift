/// Numbers as options and lists write them: decimal (`12`, `-0.5`, `1e3`, `.25`), never
/// hexadecimal (`0x10`), `inf` or `nan`, which `Double(_:)` also reads and no option means.
public enum DecimalNumber {
  /// The number `text` writes in decimal, or nil (no spaces: the caller trims what it allows).
  public static func parse<S: StringProtocol>(_ text: S) -> Double? {
    guard !text.isEmpty, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
    return Double(String(text))
  }
}
