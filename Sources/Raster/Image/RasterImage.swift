#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoded image: premultiplied pixels and an identity, so layers holding it compare and hash
/// by identity instead of by every pixel.
public struct RasterImage: Hashable, Sendable {
  public let pixels: Pixmap
  /// Names the image's source and content (say, a hash of its file's bytes).
  public let identity: UInt64

  public init(_ pixels: Pixmap, identity: UInt64) {
    self.pixels = pixels
    self.identity = identity
  }

  public var width: Int { pixels.width }
  public var height: Int { pixels.height }

  public static func == (a: RasterImage, b: RasterImage) -> Bool {
    a.identity == b.identity && a.width == b.width && a.height == b.height
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(identity)
    hasher.combine(width)
    hasher.combine(height)
  }
}

/// How an image is resampled: SwiftUI's `Image.Interpolation`.
public enum ImageInterpolation: String, CaseIterable, Hashable, Sendable {
  /// Nearest source pixel, enlarged or shrunk: hard pixels.
  case none
  /// A triangle (bilinear) filter.
  case low
  /// Mitchell–Netravali's bicubic (B = C = 1/3).
  case medium
  /// Lanczos, three lobes.
  case high

  /// The filter's weight at distance `x` (in source pixels at 1:1), and how far it reaches.
  func weight(_ x: Double) -> Double {
    let a = abs(x)
    switch self {
    case .none: return a < 0.5 ? 1 : 0
    case .low: return max(0, 1 - a)
    case .medium:
      let (b, c) = (1.0 / 3.0, 1.0 / 3.0)
      if a < 1 {
        return ((12 - 9 * b - 6 * c) * a * a * a + (-18 + 12 * b + 6 * c) * a * a + (6 - 2 * b)) / 6
      }
      if a < 2 {
        return
          ((-b - 6 * c) * a * a * a + (6 * b + 30 * c) * a * a + (-12 * b - 48 * c) * a
          + (8 * b + 24 * c)) / 6
      }
      return 0
    case .high:
      if a < 1e-12 { return 1 }
      if a >= 3 { return 0 }
      let px = Double.pi * a
      return 3 * sin(px) * sin(px / 3) / (px * px)
    }
  }

  var support: Double {
    switch self {
    case .none: return 0.5
    case .low: return 1
    case .medium: return 2
    case .high: return 3
    }
  }
}
