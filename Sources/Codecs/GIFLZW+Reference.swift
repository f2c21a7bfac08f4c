/// The plain twin of `GIFLZW`: the same greedy LZW written with dictionaries and arrays, no
/// unsafe buffers, so a test can hold the kernel to it.
enum GIFLZWReference {
  /// What `GIFLZW.encode` gives for the same input, with the choices as plain arrays.
  static func encode(
    _ indices: inout [UInt8], minimumCodeSize: Int, alternates: [UInt8]? = nil,
    truth: [UInt32]? = nil,
    shown: [UInt32]? = nil, colors: [UInt32] = [], transparent: Int = 0, bound: Int = 0
  ) -> [UInt8] {
    var bits: [Bool] = []
    func put(_ code: Int, _ width: Int) {
      for b in 0..<width { bits.append(code >> b & 1 == 1) }
    }
    if !indices.isEmpty {
      let clear = 1 << minimumCodeSize
      var codes: [[Int]: Int] = [:]
      var children: [Int: [Int]] = [:]  // in the order made
      var last: [Int: Int] = [:]  // a code's last index
      var next = clear + 2
      var width = minimumCodeSize + 1
      put(clear, width)
      func result(_ v: Int, _ i: Int) -> UInt32 {
        v == transparent ? (shown?[i] ?? 0) : colors[v]
      }
      func cost(_ v: Int, _ i: Int, _ asked: Int) -> Int? {
        let (got, want) = (result(v, i), result(asked, i))
        if got == want { return 0 }
        guard bound > 0, let truth else { return nil }
        let t = truth[i]
        guard got <= 0xFF_FFFF, t <= 0xFF_FFFF, want <= 0xFF_FFFF else { return nil }
        let e = Quantizer.distance(got, t)
        return e <= max(Quantizer.distance(want, t), bound) ? e + 1 : nil
      }
      var current = Int(indices[0])
      for i in 1..<indices.count {
        let index = Int(indices[i])
        if let found = codes[[current, index]] {
          current = found
          continue
        }
        if let alternates, let found = codes[[current, Int(alternates[i])]] {
          indices[i] = alternates[i]
          current = found
          continue
        }
        if truth != nil || shown != nil, next > clear + 2 {
          var best: (code: Int, error: Int)?
          for c in (children[current] ?? []).reversed() {
            guard let e = cost(last[c] ?? 0, i, index) else { continue }
            if e < (best?.error ?? Int.max) { best = (c, e) }
            if e == 0 && bound == 0 { break }
          }
          if let best {
            indices[i] = UInt8(last[best.code] ?? 0)
            current = best.code
            continue
          }
        }
        put(current, width)
        if next < 4096 {
          codes[[current, index]] = next
          children[current, default: []].append(next)
          last[next] = index
          next += 1
          if next > 1 << width && width < 12 { width += 1 }
        }
        if next == 4096 {
          put(clear, width)
          codes = [:]
          children = [:]
          last = [:]
          next = clear + 2
          width = minimumCodeSize + 1
        }
        current = index
      }
      put(current, width)
      if next < 4096 {
        next += 1
        if next > 1 << width && width < 12 { width += 1 }
      }
      put(clear + 1, width)
    }
    var bytes: [UInt8] = []
    var at = 0
    while at < bits.count {
      var byte = 0
      for b in 0..<8 where at + b < bits.count && bits[at + b] { byte |= 1 << b }
      bytes.append(UInt8(byte))
      at += 8
    }
    return bytes
  }
}
