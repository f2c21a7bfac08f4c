/// FNV-1a, 64 bits: a stable hash of bytes (Swift's `Hasher` is seeded per process), which
/// names a `RasterImage`'s content — a decoded file's bytes, a font's glyph.
public struct FNV1a: Sendable {
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  public mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
  }

  public mutating func add(_ text: String) { add(text.utf8) }
}
