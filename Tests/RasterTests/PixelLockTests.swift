import Foundation
import Testing

@testable import Raster

/// Pixel locks: the exact coverage bytes of every accuracy shape and refcase at two sizes, held
/// as hashes. An optimisation that claims "same pixels" passes them unchanged; a change that
/// alters pixels on purpose updates them in the same commit and says why. On a mismatch the test
/// prints the whole table as it now is, to paste in (or run with `PIXEL_LOCKS_PRINT=1`).
@Suite struct PixelLockTests {
  /// FNV-1a, 64 bits: stable across runs and machines, unlike `Hasher`.
  static func hash(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      h ^= UInt64(byte)
      h = h &* 0x0000_0100_0000_01b3
    }
    return h
  }

  /// Each locked case: its name and the coverage bytes it makes now.
  static func cases() throws -> [(name: String, coverage: [UInt8])] {
    var rasterizer = Rasterizer()
    var result: [(String, [UInt8])] = []
    for shape in TestShapes.cases {
      let path = try PathDataParser.parse(shape.data)
      for size in [97, 256] {
        let scale = Double(size) / 100
        let transform = Transform.scale(scale, scale).concatenating(.translation(0.37, 0.12))
        let mask = rasterizer.mask(
          of: path, transform: transform, rule: shape.rule, width: size, height: size)
        result.append(("\(shape.name) @\(size)", mask?.values ?? []))
      }
    }
    for refcase in Refcase.all {
      let path = try PathDataParser.parse(refcase.pathData)
      for rule in [FillRule.nonzero, .evenodd] {
        let mask = rasterizer.mask(
          of: path, transform: refcase.transform, rule: rule, width: refcase.width,
          height: refcase.height)
        result.append(("\(refcase) \(rule)", mask?.values ?? []))
      }
    }
    return result
  }

  @Test func coverageIsExactlyAsLocked() throws {
    let now = try Self.cases().map { ($0.name, Self.hash($0.coverage)) }
    let table = now.map { "    \"\($0.0)\": 0x\(String($0.1, radix: 16, uppercase: true)),\n" }
      .joined()
    let changed = now.filter { Self.locks[$0.0] != $0.1 }.map(\.0)
    if !changed.isEmpty || ProcessInfo.processInfo.environment["PIXEL_LOCKS_PRINT"] != nil {
      print("PixelLockTests.locks as they are now:\n[\n\(table)]")
    }
    #expect(changed.isEmpty, "coverage changed for: \(changed.joined(separator: ", "))")
    #expect(Set(now.map(\.0)) == Set(Self.locks.keys), "cases added or removed: update the table")
  }

  /// Recorded when the locks were made, after e8d3433 (the shapes scaled by size/100 and moved
  /// by (0.37, 0.12) px; the refcases at their reference sizes, both fill rules). The refcases'
  /// PNGs from `render-anim path` at 128 and 512 px are byte-identical to those of 44ab328, the
  /// start of this series of changes.
  static let locks: [String: UInt64] = [
    "circle @97": 0x485EA3BC13ECBE9A,
    "circle @256": 0x12187DD5F61B7BE5,
    "ring evenodd @97": 0x20AF22A8F10BB7EB,
    "ring evenodd @256": 0x98B5E2EEF4F93CCE,
    "ring nonzero opposite @97": 0x20AF22A8F10BB7EB,
    "ring nonzero opposite @256": 0x98B5E2EEF4F93CCE,
    "pentagram nonzero @97": 0x1C4F760C98EBF6C9,
    "pentagram nonzero @256": 0x4FA3E5B188D90589,
    "pentagram evenodd @97": 0x6D930F3120F97EE3,
    "pentagram evenodd @256": 0x6FBF681CE8302973,
    "thin slivers @97": 0xA363571B6A0C7319,
    "thin slivers @256": 0xA061CFC7F9CDCF12,
    "near-horizontal edges @97": 0xD42A2BB44E538DBF,
    "near-horizontal edges @256": 0x62DDDAEB7B520562,
    "rotated square @97": 0x96FB12D591B8BB12,
    "rotated square @256": 0x3A93B0BEDB453ABF,
    "wavy cubic @97": 0x41DD0370ED312AE6,
    "wavy cubic @256": 0x1F4CFC1E4EDC111B,
    "quads @97": 0xD216E1FF78EB3330,
    "quads @256": 0x6F40568F27EC3665,
    "tiny features @97": 0xCC1E6473848E28CF,
    "tiny features @256": 0xEF8B1EF0D2811C2F,
    "overlapping same direction @97": 0x2D1174AAA065FDAF,
    "overlapping same direction @256": 0x6E2C0E064E231CBC,
    "overlapping evenodd @97": 0xACEFF6C383CDEBBC,
    "overlapping evenodd @256": 0xAA78B71263778758,
    "pentagram past the right edge @97": 0x270E19CB0D6BBD2A,
    "pentagram past the right edge @256": 0x3E0F467E99F065C0,
    "pentagram past the right edge evenodd @97": 0x7813A57D773FF521,
    "pentagram past the right edge evenodd @256": 0xA3E06A446C3FDB84,
    "flat-topped peaks @97": 0xE62778F14CE3411B,
    "flat-topped peaks @256": 0x7AD1A001D4A0FF61,
    "contours meeting at one height @97": 0xEC995974A6818F13,
    "contours meeting at one height @256": 0x173C527C4B362CFC,
    "fa-solid-paw@128 nonzero": 0xD8ECC6D31086DE65,
    "fa-solid-paw@128 evenodd": 0xD8ECC6D31086DE65,
    "fa-solid-paw@512 nonzero": 0xC8AA93BDC0B3924C,
    "fa-solid-paw@512 evenodd": 0xC8AA93BDC0B3924C,
    "fa-solid-heart@128 nonzero": 0x503237770E83DB26,
    "fa-solid-heart@128 evenodd": 0x503237770E83DB26,
    "fa-solid-heart@512 nonzero": 0x99A5B1B42B07A6A2,
    "fa-solid-heart@512 evenodd": 0x99A5B1B42B07A6A2,
    "fa-solid-star@128 nonzero": 0x36CD267ADA33C7FC,
    "fa-solid-star@128 evenodd": 0x36CD267ADA33C7FC,
    "fa-solid-star@512 nonzero": 0x43F21803AA61C199,
    "fa-solid-star@512 evenodd": 0x43F21803AA61C199,
    "fa-solid-anchor@128 nonzero": 0x519BBFC254E7B02E,
    "fa-solid-anchor@128 evenodd": 0x519BBFC254E7B02E,
    "fa-solid-anchor@512 nonzero": 0xC1B27D997883DC3D,
    "fa-solid-anchor@512 evenodd": 0xC1B27D997883DC3D,
    "fa-solid-music@128 nonzero": 0xAB9248D5DDC34BDD,
    "fa-solid-music@128 evenodd": 0xAB9248D5DDC34BDD,
    "fa-solid-music@512 nonzero": 0x2328D2E3A62D960A,
    "fa-solid-music@512 evenodd": 0x2328D2E3A62D960A,
    "fa-regular-bell@128 nonzero": 0x80491A3C4AAC587,
    "fa-regular-bell@128 evenodd": 0x80491A3C4AAC587,
    "fa-regular-bell@512 nonzero": 0x89B9A0756169D623,
    "fa-regular-bell@512 evenodd": 0x89B9A0756169D623,
    "fa-solid-feather@128 nonzero": 0x2B8396A816FF257D,
    "fa-solid-feather@128 evenodd": 0x2B8396A816FF257D,
    "fa-solid-feather@512 nonzero": 0xDB4C74241D005B43,
    "fa-solid-feather@512 evenodd": 0xDB4C74241D005B43,
    "fa-regular-circle-check@128 nonzero": 0x71BA4A90AB854D60,
    "fa-regular-circle-check@128 evenodd": 0x71BA4A90AB854D60,
    "fa-regular-circle-check@512 nonzero": 0xB6416EABBCD91C60,
    "fa-regular-circle-check@512 evenodd": 0xB6416EABBCD91C60,
  ]
}
