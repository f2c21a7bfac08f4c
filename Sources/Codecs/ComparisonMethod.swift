/// How two pixels are judged the same.
public enum ComparisonMethod: Hashable, Sendable {
  /// Every channel within `tolerance` (in 1/255): 0 is byte-exact.
  case exact(tolerance: UInt8)
  /// OKLab distance within `threshold` (ΔE), anti-aliased pixels excused
  /// (`PerceptualDifference`).
  case perceptual(threshold: Double)

}
