import CFribidi

/// The Unicode Bidirectional Algorithm (UAX #9) for mixed-direction text: embedding levels from
/// GNU FriBidi, and the visual order of runs by rule L2.
enum Bidi {
  /// The paragraph's direction by rules P2–P3: its first strong character's (L, or R and AL),
  /// skipping what lies between an isolate initiator (LRI, RLI, FSI) and its PDI; left to right
  /// without one.
  static func isRightToLeft(_ scalars: [UInt32]) -> Bool {
    guard scalars.contains(where: mayBeRightToLeft) else { return false }
    var depth = 0
    for scalar in scalars {
      let type = fribidi_get_bidi_type(scalar)
      if type == cfb_type_lri || type == cfb_type_rli || type == cfb_type_fsi {
        depth += 1
      } else if type == cfb_type_pdi {
        depth = max(0, depth - 1)
      } else if depth == 0 {
        if type == cfb_type_ltr { return false }
        if type == cfb_type_rtl || type == cfb_type_al { return true }
      }
    }
    return false
  }

  /// The paragraphs of UTF-8 text by rule P1: each ends after a paragraph separator (bidi
  /// class B: line feed, carriage return — with a line feed after it, one separator —, U+001C
  /// to U+001E, next line U+0085, paragraph separator U+2029), the last at the text's end.
  /// Byte ranges, at least one (empty for empty text).
  static func paragraphs(in bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var i = 0
    while i < bytes.count {
      var end: Int?
      switch bytes[i] {
      case 0x0D: end = i + 1 < bytes.count && bytes[i + 1] == 0x0A ? i + 2 : i + 1
      case 0x0A, 0x1C...0x1E: end = i + 1
      case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0x85: end = i + 2
      case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA9:
        end = i + 3
      default: break
      }
      if let end {
        ranges.append(start..<end)
        start = end
        i = end
      } else {
        i += 1
      }
    }
    if start < bytes.count || ranges.isEmpty { ranges.append(start..<bytes.count) }
    return ranges
  }

  /// Each scalar's embedding level in a paragraph of direction `rightToLeft` (nil: P2–P3):
  /// even left to right, odd right to left. All 0 for text without right-to-left characters.
  static func levels(_ scalars: [UInt32], rightToLeft: Bool?) -> [UInt8] {
    let count = scalars.count
    if rightToLeft != true, !scalars.contains(where: mayBeRightToLeft) {
      return [UInt8](repeating: 0, count: count)
    }
    var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
    fribidi_get_bidi_types(scalars, FriBidiStrIndex(count), &types)
    var brackets = [FriBidiBracketType](repeating: 0, count: count)
    fribidi_get_bracket_types(scalars, FriBidiStrIndex(count), types, &brackets)
    var levels = [FriBidiLevel](repeating: 0, count: count)
    var direction =
      rightToLeft.map { $0 ? cfb_par_rtl : cfb_par_ltr } ?? cfb_par_on
    let result = fribidi_get_par_embedding_levels_ex(
      types, brackets, FriBidiStrIndex(count), &direction, &levels)
    guard result > 0 else { return [UInt8](repeating: rightToLeft == true ? 1 : 0, count: count) }
    return levels.map { UInt8(bitPattern: $0) }
  }

  /// Whether a scalar may take a right-to-left level: the right-to-left scripts' blocks and the
  /// explicit marks and embeddings. Text without any is left to right throughout.
  static func mayBeRightToLeft(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
      return true
    case 0x200F, 0x202B, 0x202E, 0x2067, 0x061C: return true
    default: return false
    }
  }

  /// The order runs of these levels are shown in, left to right (rule L2: from the highest level
  /// down to the lowest odd one, every maximal sequence of runs at that level or above is
  /// reversed).
  static func visualOrder(_ levels: [UInt8]) -> [Int] {
    var order = Array(levels.indices)
    guard let highest = levels.max(), highest > 0 else { return order }
    let lowestOdd = (levels.min() ?? 0) | 1
    var level = highest
    while level >= lowestOdd {
      var i = 0
      while i < order.count {
        guard levels[order[i]] >= level else {
          i += 1
          continue
        }
        var end = i
        while end < order.count, levels[order[end]] >= level { end += 1 }
        order[i..<end].reverse()
        i = end
      }
      level -= 1
    }
    return order
  }
}
