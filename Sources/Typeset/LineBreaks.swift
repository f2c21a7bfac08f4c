import CUnibreak

/// Where a line may or must break in UTF-8 text, by Unicode's line-breaking algorithm (UAX #14)
/// as libunibreak implements it (Debian 12 ships libunibreak 1.1, which follows the rules of
/// Unicode 6: `LineBreakTest` measures how far that is from today's).
public enum LineBreaks {
  /// What may follow a byte.
  public enum Opportunity: UInt8, Sendable {
    /// A line must end after it (a line feed, a paragraph separator, the text's end).
    case mandatory
    /// A line may end after it (after a space, between ideographs, …).
    case allowed
    /// No break: inside a word, or inside a character's bytes.
    case none
  }

  /// One opportunity per UTF-8 byte of `text`: whether a line may end after that byte.
  public static func opportunities(in text: String) -> [Opportunity] {
    var bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return [] }
    sanitize(&bytes)
    var breaks = [CChar](repeating: 0, count: bytes.count)
    bytes.withUnsafeBufferPointer { input in
      breaks.withUnsafeMutableBufferPointer { output in
        set_linebreaks_utf8(input.baseAddress, input.count, "en", output.baseAddress)
      }
    }
    return breaks.map {
      $0 == cub_mustbreak ? .mandatory : $0 == cub_allowbreak ? .allowed : .none
    }
  }

  /// Replaces the characters libunibreak 1.1 does not know and stops on (an assertion: the
  /// regional indicators of flags, class RI, and U+FFFF) with ones of the same UTF-8 length
  /// that it treats as letters (U+1D400, U+FFFD), so that a flag in a label cannot abort the
  /// program. A flag then keeps its two indicators together, as Unicode's rule LB30a does.
  /// Every scalar value was tried (`LineBreakTests`).
  static func sanitize(_ bytes: inout [UInt8]) {
    var i = 0
    while i < bytes.count {
      let lead = bytes[i]
      if lead == 0xF0, i + 3 < bytes.count, bytes[i + 1] == 0x9F, bytes[i + 2] == 0x87,
        (0xA6...0xBF).contains(bytes[i + 3])
      {
        // U+1F1E6…U+1F1FF → U+1D400 (F0 9D 90 80).
        bytes.replaceSubrange(i..<(i + 4), with: [0xF0, 0x9D, 0x90, 0x80])
        i += 4
      } else if lead == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBF {
        // U+FFFF → U+FFFD (EF BF BD).
        bytes[i + 2] = 0xBD
        i += 3
      } else {
        i += 1
      }
    }
  }
}
