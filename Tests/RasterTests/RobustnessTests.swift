import Testing

@testable import Raster

/// Untrusted path data never crashes or hangs the parser or the rasterizer: mutations of real
/// path data and random byte strings, with a fixed seed.
@Suite struct RobustnessTests {
  static let seeds = [
    "M50 3L79 94L2 37H98L21 94Z", "M0 100A100 100 0 1 1 200 100A100 100 0 1 1 0 100Z",
    "M5 50C20 -10 35 110 50 50S80 -10 95 50L95 95L5 95Z", "M5 90Q25 -20 50 60T95 30L95 95Z",
  ]

  @Test func mutatedPathDataNeverCrashes() {
    var random = SeededGenerator(seed: 0xF00D)
    let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.,-+eE \n\t".utf8)
    var rasterizer = Rasterizer()
    var parsed = 0
    for round in 0..<3000 {
      var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let position = Int.random(in: 0..<max(1, bytes.count), using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          bytes.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &random)], at: position)
        case 1: if !bytes.isEmpty { bytes.remove(at: position) }
        case 2: if !bytes.isEmpty { bytes[position] = UInt8.random(in: 0...255, using: &random) }
        default: bytes.insert(contentsOf: Array("e30".utf8), at: position)
        }
      }
      guard let path = try? PathDataParser.parse(utf8: bytes) else { continue }
      parsed += 1
      let mask = rasterizer.mask(of: path, transform: .scale(0.3, 0.3), width: 32, height: 32)
      #expect(mask != nil)
    }
    #expect(parsed > 100)
  }

  @Test func randomBytesNeverCrashTheParser() {
    var random = SeededGenerator(seed: 0xBEEF)
    for _ in 0..<2000 {
      let bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      _ = try? PathDataParser.parse(utf8: bytes)
    }
  }

  @Test func extremeNumbersAreRefusedOrClipped() throws {
    #expect(throws: PathDataError.self) { try PathDataParser.parse("M0 0L1e309 0") }
    let path = try PathDataParser.parse("M-1e300 -1e300L1e300 -1e300L0 1e300Z")
    var rasterizer = Rasterizer()
    let mask = rasterizer.mask(of: path, width: 16, height: 16)
    #expect(mask != nil)
  }
}
