#if canImport(Glibc)
import Glibc
#endif

/// Linear light to sRGB's transfer function (IEC 61966-2-1), for 16-bit linear samples.
enum LinearToSRGB {
  /// The 8-bit sRGB value of each 16-bit linear sample (0…65,535), rounded to the nearest: the
  /// piecewise curve, 12.92·v below 0.0031308, else 1.055·v^(1/2.4) − 0.055.
  static let byte: [UInt8] = (0...65_535).map { sample in
    let v = Double(sample) / 65_535
    let encoded = v <= 0.003_130_8 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    return UInt8((min(max(encoded, 0), 1) * 255).rounded())
  }
}
