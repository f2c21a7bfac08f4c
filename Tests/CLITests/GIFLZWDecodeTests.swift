import Foundation
import RenderAnimKit
import Testing

/// GIFs whose image data is our own LZW, decoded by Pillow (an independent decoder) frame by
/// frame: lossless ones exactly, lossy ones within their bound.
@Suite struct GIFLZWDecodeTests {
  /// Frames of few colours (so the palette holds them exactly): noise, flat blocks that move,
  /// and a large noisy first frame (past 4096 codes, so the dictionary is cleared).
  static func frames(count: Int, width: Int, height: Int) -> [Pixmap] {
    var state: UInt64 = 0x1234_5678
    func random(_ n: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(n))
    }
    let colors: [UInt32] = (0..<40).map { (i: Int) -> UInt32 in
      // Near neighbours (a squared step of 14), so a lossy bound spans several.
      let r = UInt32(i * 3)
      let g = UInt32(100 + i * 2) << 8
      let b = UInt32(50 + i) << 16
      return 0xFF00_0000 | r | g | b
    }
    var pixels = (0..<(width * height)).map { _ in colors[random(colors.count)] }
    var out: [Pixmap] = []
    for f in 0..<count {
      if f > 0 {
        let (x0, y0) = (random(width - 20), random(height - 20))
        let c = colors[random(colors.count)]
        for y in y0..<(y0 + 20) {
          for x in x0..<(x0 + 20) { pixels[y * width + x] = random(4) == 0 ? colors[0] : c }
        }
      }
      if let pixmap = Pixmap(width: width, height: height, pixels: pixels) { out.append(pixmap) }
    }
    return out
  }

  static func gif(_ frames: [Pixmap], loss: Int) throws -> [UInt8] {
    var counts = ColorCounts()
    for f in frames { counts.add(ColorCounts(f.pixels)) }
    let palette = GIFPalette.from(counts)
    let sink = MemorySink()
    let encoder = try GIFEncoder(
      width: frames[0].width, height: frames[0].height, palette: palette, output: sink)
    var previous: Pixmap?
    for f in frames {
      try encoder.add(
        GIFEncoder.prepare(f, previous: previous, palette: palette), delay: 4, loss: loss)
      previous = f
    }
    try encoder.finish()
    return sink.bytes
  }

  @Test(arguments: [0, 300]) func pillowDecodesOurLZW(loss: Int) throws {
    let frames = Self.frames(count: 12, width: 150, height: 120)
    let bytes = try Self.gif(frames, loss: loss)
    let path = ToolRun.scratchFolder("lzw-decode") + "/out.gif"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    guard let decoded = try PillowDecoded.decode(path) else { return }
    #expect(decoded.frames.count == frames.count)
    var worst = 0
    for (frame, shown) in zip(frames, decoded.frames) {
      for (i, packed) in frame.pixels.enumerated() {
        let p = PremultipliedRGBA8(packed: packed)
        var d = 0
        for (c, v) in [Int(p.r), Int(p.g), Int(p.b)].enumerated() {
          let e = v - Int(shown.rgba[i * 4 + c])
          d += e * e
        }
        worst = max(worst, d)
      }
    }
    #expect(worst <= loss, "largest squared error \(worst), bound \(loss)")
    if loss > 0 {
      #expect(bytes.count < (try Self.gif(frames, loss: 0)).count)
    }
  }
}
