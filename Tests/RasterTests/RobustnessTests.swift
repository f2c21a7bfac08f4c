import TestSupport
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

  /// Fuzz finding 1 (Fuzz/findings/pathdata/): with a coordinate near Double's limit the
  /// Flattener's arithmetic overflowed and it dropped whole edges, leaving the contour open, so
  /// coverage leaked along rows. Far geometry is now halved down to near pieces: each path below
  /// has the coverage of the same path with its far coordinates at 1e9 (which no longer differ
  /// from the far ones by a visible amount on a 48-pixel canvas).
  @Test(
    arguments: [
      ("M 10 10 L F 20 L -F 30 Z", 48.0 * 15),
      ("M -F -F L F F L F -F Z", 48.0 * 48 / 2),
      ("M 0 0 Q 7 -F 8 0 H 9 Z", nil),
      ("M 0 0 a 1 1F 0 1 1 1 1 Z", nil),
      ("M 4 4 C F 4 F 40 4 40 Z", nil),
      ("M 4 4 C -F 4 -F 40 4 40 Z", nil),
      ("M 40 10 L -F 10.5 L 40 11 Z", nil),
    ] as [(String, Double?)])
  func farGeometryKeepsItsEdges(template: String, area: Double?) throws {
    func coverage(_ far: String) throws -> [UInt8] {
      let text = template.replacingOccurrences(of: "1F", with: "1" + far.dropFirst())
        .replacingOccurrences(of: "F", with: far)
      let path = try PathDataParser.parse(text)
      var rasterizer = Rasterizer()
      let mask = rasterizer.mask(of: path, width: 48, height: 48)
      return try #require(mask).values
    }
    for far in ["1e300", "1e308", "1.7976931348623157e308"] {
      let farCoverage = try coverage(far)
      let reference = try coverage("1e9")
      let worst = zip(farCoverage, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst <= 1, "\(template) with F = \(far): differs by \(worst)")
      if let area {
        let total = Double(farCoverage.reduce(0) { $0 + Int($1) }) / 255
        #expect(abs(total - area) < 1, "\(template) with F = \(far): area \(total)")
      }
    }
  }
}
