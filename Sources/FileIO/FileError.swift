#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be read or written: the file as the user named it, and the problem in
/// words, said once (`out.gif: no such folder 'out'`).
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file as the user wrote it; `-` is standard input or output.
  public var path: String
  /// What went wrong, without the file's name.
  public var reason: String
  /// Whether `-` means standard output (else standard input).
  public var isOutput: Bool

  public init(path: String, _ reason: String, isOutput: Bool = false) {
    self.path = path
    self.reason = reason
    self.isOutput = isOutput
  }

  /// `path: reason`, with `-` named as standard input or output.
  public var description: String { "\(Self.displayName(path, isOutput: isOutput)): \(reason)" }

  /// How a path is named in messages: `-` is "standard input" (or "standard output"), any
  /// other path `escaped`.
  public static func displayName(_ path: String, isOutput: Bool = false) -> String {
    path == "-" ? (isOutput ? "standard output" : "standard input") : escaped(path)
  }

  /// `path` with control characters (C0, DEL, C1 — a NUL from JSON's `\u0000`, an 8-bit CSI)
  /// and the bidirectional controls that reorder a terminal's text (U+061C, U+200E–U+200F,
  /// U+202A–U+202E, U+2066–U+2069) written as `\u{…}`, so a message shows the name as it is.
  public static func escaped(_ path: String) -> String {
    path.unicodeScalars.map { c in
      let v = c.value
      let hidden =
        v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x061C || v == 0x200E || v == 0x200F
        || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
      return hidden ? "\\u{\(String(v, radix: 16))}" : String(c)
    }.joined()
  }

  /// The error `errno` describes, for `path`.
  static func system(_ path: String, isOutput: Bool = false, _ what: String? = nil) -> FileError {
    let text = String(cString: strerror(errno))
    let lowered = text.prefix(1).lowercased() + text.dropFirst()
    return FileError(
      path: path, what.map { "\($0): \(lowered)" } ?? lowered, isOutput: isOutput)
  }
}

/// A byte count as people read it: `4 MiB`, `1 GiB`, `700 bytes`.
public func byteCountText(_ count: Int) -> String {
  for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where count >= 1 << shift {
    let value = Double(count) / Double(1 << shift)
    return value == value.rounded()
      ? "\(Int(value)) \(unit)" : "\((value * 10).rounded() / 10) \(unit)"
  }
  return count == 1 ? "1 byte" : "\(count) bytes"
}
