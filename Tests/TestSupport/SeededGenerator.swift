/// A deterministic random number generator for property tests and generated test data:
/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014),
/// so every run draws the same cases from the same seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64 = 0x1234) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in [0, 1) from the next value's top 53 bits (every Double there equally likely).
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }
}
