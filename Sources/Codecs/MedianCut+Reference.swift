/// The plain twin of `MedianCut.palettes`: the same weighted median cut over arrays of member
/// indices, each box's statistics summed again from its members, sorted by closure. A test holds
/// the fast one to it.
enum MedianCutReference {
  private struct Box {
    var members: [Int]
    var error: Double
  }

  static func palette(colors: [UInt32], counts: [Int], size: Int) -> [UInt32] {
    func channel(_ c: UInt32, _ k: Int) -> Int { Int(c >> UInt32(16 - 8 * k) & 0xFF) }
    func stats(_ members: [Int]) -> (mean: [Double], error: Double, widest: Int) {
      var n = 0.0
      var sum = [0.0, 0.0, 0.0]
      var squares = [0.0, 0.0, 0.0]
      for i in members {
        let w = Double(counts[i])
        n += w
        for k in 0..<3 {
          let v = Double(channel(colors[i], k))
          sum[k] += w * v
          squares[k] += w * v * v
        }
      }
      let mean = sum.map { $0 / n }
      let variance = (0..<3).map { squares[$0] - n * mean[$0] * mean[$0] }
      let widest = variance.indices.max { variance[$0] < variance[$1] } ?? 0
      return (mean, variance.reduce(0, +), widest)
    }
    var boxes = [Box(members: Array(colors.indices), error: stats(Array(colors.indices)).error)]
    while boxes.count < size {
      guard let worst = boxes.indices.max(by: { boxes[$0].error < boxes[$1].error }),
        boxes[worst].members.count > 1, boxes[worst].error > 0
      else { break }
      let box = boxes[worst]
      let k = stats(box.members).widest
      let sorted = box.members.sorted {
        let (a, b) = (channel(colors[$0], k), channel(colors[$1], k))
        return a != b ? a < b : colors[$0] < colors[$1]
      }
      let total = sorted.reduce(0) { $0 + counts[$1] }
      var running = 0
      var cut = 1
      for (position, i) in sorted.enumerated() {
        running += counts[i]
        if running * 2 >= total {
          cut = min(max(position + 1, 1), sorted.count - 1)
          break
        }
      }
      let low = Array(sorted[..<cut])
      let high = Array(sorted[cut...])
      boxes[worst] = Box(members: low, error: stats(low).error)
      boxes.append(Box(members: high, error: stats(high).error))
    }
    return boxes.map { box in
      let mean = stats(box.members).mean
      let rgb = mean.map { UInt32(min(255, max(0, $0.rounded()))) }
      return rgb[0] << 16 | rgb[1] << 8 | rgb[2]
    }
  }
}
