import FileIO
import Raster
import TestSupport
import Testing

@testable import Codecs

@Suite struct APNGEncoderTests {
  /// The filter kernel and its scalar twin agree on random images of awkward widths, every
  /// choice and pixel size.
  @Test(arguments: [1, 3, 4])
  func rowFilterKernelMatchesItsScalarTwin(_ bytesPerPixel: Int) {
    var generator = SeededGenerator(seed: UInt64(bytesPerPixel))
    for (width, height) in [(1, 1), (2, 5), (7, 3), (33, 9)] {
      let rowBytes = width * bytesPerPixel
      // Smooth runs with jumps, so every filter wins somewhere.
      var image = [UInt8](repeating: 0, count: rowBytes * height)
      for i in image.indices {
        let r = generator.next()
        image[i] = r % 4 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : UInt8(truncatingIfNeeded: i / 3)
      }
      for choice in PNGRowFilter.Choice.allCases {
        let fast = PNGRowFilter.filter(
          image, rowBytes: rowBytes, height: height, bytesPerPixel: bytesPerPixel, choice: choice)
        let plain = PNGRowFilter.referenceFilter(
          image, rowBytes: rowBytes, height: height, bytesPerPixel: bytesPerPixel, choice: choice)
        #expect(fast == plain, "\(width)×\(height), \(bytesPerPixel) bytes a pixel, \(choice)")
      }
    }
  }

  @Test func adaptiveFilteringPicksEachRowsSmallestResidues() {
    // A horizontal ramp: Sub turns it into constant steps; a copy of the row above: Up → zeros.
    let ramp = (0..<16).map { UInt8($0 * 10) }
    let filtered = PNGRowFilter.filter(ramp + ramp, rowBytes: 16, height: 2, bytesPerPixel: 1)
    #expect(filtered[0] == PNGRowFilter.sub)
    #expect(filtered[17] == PNGRowFilter.up)
    #expect(filtered[18...].allSatisfy { $0 == 0 })
  }

  @Test func delaysAreExactFractionsOrTheNearestThatFits() {
    #expect(APNGEncoder.delay(ticks: 3, perSecond: 30) == (1, 10))
    #expect(APNGEncoder.delay(ticks: 1, perSecond: 50) == (1, 50))
    #expect(APNGEncoder.delay(ticks: 70_000, perSecond: 1) == (65_535, 1))
    let (n, d) = APNGEncoder.delay(ticks: 100_001, perSecond: 1000)
    #expect(n <= 65_535 && d <= 65_535 && abs(Double(n) / Double(d) - 100.001) < 0.01)
  }

  /// The chunks of an APNG, in order: (type, data).
  private func chunks(_ bytes: [UInt8]) -> [(String, [UInt8])] {
    var result: [(String, [UInt8])] = []
    var i = 8
    while i + 12 <= bytes.count {
      let length = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
      let data = Array(bytes[i + 8..<i + 8 + length])
      let crc = bytes[i + 8 + length..<i + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      #expect(crc == Deflate.crc32(data, continuing: Deflate.crc32(Array(type.utf8))), "\(type)")
      result.append((type, data))
      i += 12 + length
    }
    return result
  }

  private func word(_ data: [UInt8], _ at: Int) -> Int {
    data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
  }

  private func pixmap(
    _ width: Int, _ height: Int, _ pixel: (Int, Int) -> UInt32
  ) throws -> Pixmap {
    var pixels: [UInt32] = []
    for y in 0..<height { for x in 0..<width { pixels.append(pixel(x, y)) } }
    return try #require(Pixmap(width: width, height: height, pixels: pixels))
  }

  /// Changed rectangles, OVER only where every changed pixel is opaque, identical frames merged
  /// into the delay, sequence numbers counting up from 0, and the frame count in acTL.
  @Test func framesAreChangedRectanglesWithTheRightBlendAndMergedDelays() throws {
    let opaqueRed: UInt32 = 0xFF00_00FF
    let halfBlue: UInt32 = 0x8080_0000  // premultiplied blue at alpha 128
    let background = try pixmap(16, 8) { _, _ in 0xFFFF_FFFF }
    let square = try pixmap(16, 8) { x, y in
      (4..<8).contains(x) && (2..<5).contains(y) && (x + y) % 2 == 0 ? opaqueRed : 0xFFFF_FFFF
    }
    let translucent = try pixmap(16, 8) { x, y in
      x == 10 && y == 6 ? halfBlue : square.pixels[y * 16 + x]
    }
    let sink = MemorySink()
    let encoder = try APNGEncoder(
      width: 16, height: 8, ticksPerSecond: 25, loopCount: 3, output: sink)
    try encoder.add(background, ticks: 1)
    try encoder.add(background, ticks: 1)  // merged: 2/25 s
    try encoder.add(square, ticks: 1)
    try encoder.add(translucent, ticks: 2)
    try encoder.finish()
    let list = chunks(sink.bytes)
    #expect(
      list.map(\.0) == [
        "IHDR", "sRGB", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND",
      ])
    let actl = list[2].1
    #expect(word(actl, 0) == 3 && word(actl, 4) == 3)
    let controls = list.filter { $0.0 == "fcTL" }.map(\.1)
    // Sequence numbers: fcTL 0, fcTL 1, fdAT 2, fcTL 3, fdAT 4.
    #expect(controls.map { word($0, 0) } == [0, 1, 3])
    #expect(list.filter { $0.0 == "fdAT" }.map { word($0.1, 0) } == [2, 4])
    // Frame 0: whole canvas for 2/25 s; frame 1: the square's pixels, 4…7 × 2…4; frame 2:
    // the one translucent pixel, drawn with SOURCE (OVER would mix it with white).
    func geometry(_ c: [UInt8]) -> [Int] { [word(c, 4), word(c, 8), word(c, 12), word(c, 16)] }
    #expect(geometry(controls[0]) == [16, 8, 0, 0])
    #expect(geometry(controls[1]) == [4, 3, 4, 2])
    #expect(geometry(controls[2]) == [1, 1, 10, 6])
    #expect(controls[0][20..<24] == [0, 2, 0, 25])
    #expect(controls[2][20..<24] == [0, 2, 0, 25])
    #expect(controls.map { $0[24] } == [0, 0, 0])  // dispose NONE
    #expect(controls[2][25] == 0)  // SOURCE
  }

  @Test func theSameFramesGiveTheSameBytes() throws {
    func encode() throws -> [UInt8] {
      let sink = MemorySink()
      let encoder = try APNGEncoder(width: 9, height: 9, ticksPerSecond: 50, output: sink)
      for k in 0..<5 {
        let frame = try pixmap(9, 9) { x, y in x + y == k ? 0xFF00_FF00 : 0x4020_1008 }
        try encoder.add(frame, ticks: 1)
      }
      try encoder.finish()
      return sink.bytes
    }
    #expect(try encode() == encode())
  }

  @Test func aFrameOfAnotherSizeOrNoneIsAnError() throws {
    let encoder = try APNGEncoder(width: 4, height: 4, ticksPerSecond: 10, output: MemorySink())
    #expect(throws: CodecError.self) { try encoder.add(try pixmap(5, 4) { _, _ in 0 }, ticks: 1) }
    let empty = try APNGEncoder(width: 4, height: 4, ticksPerSecond: 10, output: MemorySink())
    #expect(throws: CodecError.self) { try empty.finish() }
  }
}
