import FileIO
import Raster
import Testing

@testable import Codecs

@Suite struct GIFEncoderTests {
  /// A frame of `rect` in one colour index, with or without a palette of its own; `rgb` is the
  /// true colour of every pixel.
  private func frame(_ rect: IntRect, index: UInt8, local: [UInt32]?, rgb: UInt32) -> GIFFrame {
    let packed = 0xFF00_0000 | (rgb & 0xFF) << 16 | (rgb >> 8 & 0xFF) << 8 | rgb >> 16
    return GIFFrame(
      width: 8, height: 8, rect: rect,
      indices: [UInt8](repeating: index, count: rect.width * rect.height), localPalette: local,
      pixels: [UInt32](repeating: packed, count: 64))
  }

  /// giflib 5.2.1 kept a copy of each local colour map and dropped it, unfreed, when the next
  /// frame had none (LeakSanitizer found it; `scripts/sanitize.sh address` runs this test).
  @Test func localAndGlobalPalettesAlternateWithoutLeaking() throws {
    let sink = MemorySink()
    let encoder = try GIFEncoder(
      width: 8, height: 8, palette: GIFPalette(colors: [0x000000, 0xFFFFFF]), output: sink)
    let local: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF]
    let frames = [
      frame(IntRect(x: 0, y: 0, width: 8, height: 8), index: 0, local: local, rgb: 0xFF0000),
      frame(IntRect(x: 1, y: 1, width: 3, height: 3), index: 1, local: nil, rgb: 0xFFFFFF),
      frame(IntRect(x: 2, y: 2, width: 3, height: 3), index: 2, local: local, rgb: 0x0000FF),
      frame(IntRect(x: 0, y: 0, width: 2, height: 2), index: 0, local: nil, rgb: 0x000000),
    ]
    for frame in frames { try encoder.add(frame, delay: 2) }
    try encoder.finish()
    #expect(Array(sink.bytes.prefix(6)) == Array("GIF89a".utf8))
    #expect(sink.bytes.last == 0x3B)  // the trailer
    // Four image descriptors, two of them with a local colour table (flag 0x80).
    var descriptors: [UInt8] = []
    for i in sink.bytes.indices.dropLast(10) where sink.bytes[i] == 0x2C {
      if sink.bytes[i - 1] == 0 { descriptors.append(sink.bytes[i + 9]) }
    }
    #expect(descriptors.count == 4)
    #expect(descriptors.filter { $0 & 0x80 != 0 }.count == 2)
  }

  /// When the picture holds still, the first identical frame redraws what the palettes got
  /// wrong (its error would count for every frame of the hold); later identical frames only
  /// lengthen the delay.
  @Test func aStillPictureIsCorrectedOnce() throws {
    // 32×32 pixels of 1024 colours: no palette of 255 holds them exactly.
    let pixels = (0..<1024).map { (i: Int) -> UInt32 in
      let r = UInt32(i % 32 * 8)
      let g = UInt32(i / 32 * 8)
      let b = UInt32(i * 37 % 256)
      return 0xFF00_0000 | b << 16 | g << 8 | r
    }
    let picture = try #require(Pixmap(width: 32, height: 32, pixels: pixels))
    let sink = MemorySink()
    let encoder = try GIFEncoder(
      width: 32, height: 32, palette: GIFPalette.from([pixels]), measuresError: true,
      output: sink)
    try encoder.add(picture, delay: 2)
    let moving = encoder.shownSquaredError
    try encoder.add(picture, delay: 2)
    let corrected = encoder.shownSquaredError
    #expect(corrected < moving)
    #expect(encoder.lastFrameBytes > 0)
    try encoder.add(picture, delay: 2)
    #expect(encoder.shownSquaredError == corrected)
    #expect(encoder.lastFrameBytes == 0)
    try encoder.finish()
  }

  /// A write error from the output is the encoder's error, with its words.
  @Test func anOutputThatFailsIsReported() throws {
    final class Full: ByteSink {
      func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        throw FileError(path: "out.gif", "no space left on device", isOutput: true)
      }
    }
    #expect(throws: CodecError.self) {
      let encoder = try GIFEncoder(
        width: 8, height: 8, palette: GIFPalette(colors: [0]), output: Full())
      try encoder.finish()
    }
    do {
      _ = try GIFEncoder(width: 8, height: 8, palette: GIFPalette(colors: [0]), output: Full())
    } catch {
      #expect(error.description == "out.gif: no space left on device")
    }
  }
}
