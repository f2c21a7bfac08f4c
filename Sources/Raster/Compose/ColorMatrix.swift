#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An affine map of straight RGBA colours (gamma-encoded components in 0...1): row i gives
/// output component i as m[i][0]·r + m[i][1]·g + m[i][2]·b + m[i][3]·a + m[i][4] — SVG's
/// `feColorMatrix`. SwiftUI's colour modifiers are such maps.
public struct ColorMatrix: Hashable, Sendable {
  /// Row-major, 4 rows of 5.
  public var m: [Double]

  public init(_ m: [Double]) {
    precondition(m.count == 20)
    self.m = m
  }

  public static let identity = ColorMatrix([
    1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0,
  ])

  /// Rec. 709 luma weights, as SVG's `saturate` and `hueRotate` use.
  static let (lr, lg, lb) = (0.2126, 0.7152, 0.0722)

  /// `.saturation(amount)`: 0 is gray, 1 unchanged, above 1 more saturated (SVG `saturate`).
  public static func saturation(_ s: Double) -> ColorMatrix {
    ColorMatrix([
      lr + (1 - lr) * s, lg - lg * s, lb - lb * s, 0, 0,
      lr - lr * s, lg + (1 - lg) * s, lb - lb * s, 0, 0,
      lr - lr * s, lg - lg * s, lb + (1 - lb) * s, 0, 0,
      0, 0, 0, 1, 0,
    ])
  }

  /// `.brightness(amount)`: adds `amount` to each colour component (0 unchanged, 1 white).
  public static func brightness(_ amount: Double) -> ColorMatrix {
    ColorMatrix([1, 0, 0, 0, amount, 0, 1, 0, 0, amount, 0, 0, 1, 0, amount, 0, 0, 0, 1, 0])
  }

  /// `.contrast(amount)`: scales each colour component about middle gray (0 gray, 1 unchanged).
  public static func contrast(_ amount: Double) -> ColorMatrix {
    let offset = 0.5 * (1 - amount)
    return ColorMatrix([
      amount, 0, 0, 0, offset, 0, amount, 0, 0, offset, 0, 0, amount, 0, offset, 0, 0, 0, 1, 0,
    ])
  }

  /// `.hueRotation(angle)`: turns hues by `radians` (SVG `hueRotate`).
  public static func hueRotation(_ radians: Double) -> ColorMatrix {
    let (c, s) = (cos(radians), sin(radians))
    return ColorMatrix([
      lr + c * (1 - lr) - s * lr, lg - c * lg - s * lg, lb - c * lb + s * (1 - lb), 0, 0,
      lr - c * lr + s * 0.143, lg + c * (1 - lg) + s * 0.140, lb - c * lb - s * 0.283, 0, 0,
      lr - c * lr - s * (1 - lr), lg - c * lg + s * lg, lb + c * (1 - lb) + s * lb, 0, 0,
      0, 0, 0, 1, 0,
    ])
  }

  /// `.colorMultiply(color)`: each component times the colour's (alpha too).
  public static func multiply(_ color: Color) -> ColorMatrix {
    ColorMatrix([
      color.red, 0, 0, 0, 0, 0, color.green, 0, 0, 0, 0, 0, color.blue, 0, 0, 0, 0, 0,
      color.alpha, 0,
    ])
  }

  /// `.colorInvert()`: 1 − each colour component.
  public static let invert = ColorMatrix([
    -1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0,
  ])

  /// This map, then `next`.
  public func concatenating(_ next: ColorMatrix) -> ColorMatrix {
    var out = [Double](repeating: 0, count: 20)
    for i in 0..<4 {
      for j in 0..<5 {
        var v = j == 4 ? next.m[i * 5 + 4] : 0
        for k in 0..<4 { v += next.m[i * 5 + k] * m[k * 5 + j] }
        out[i * 5 + j] = v
      }
    }
    return ColorMatrix(out)
  }

  /// The straight colour mapped and clamped to 0...1.
  public func apply(_ c: SIMD4<Double>) -> SIMD4<Double> {
    var out = SIMD4<Double>()
    for i in 0..<4 {
      let v =
        m[i * 5] * c.x + m[i * 5 + 1] * c.y + m[i * 5 + 2] * c.z + m[i * 5 + 3] * c.w
        + m[i * 5 + 4]
      out[i] = min(max(v, 0), 1)
    }
    return out
  }
}

extension Kernels {
  /// Maps every pixel's straight colour through `matrix`, in place: un-premultiplied, mapped in
  /// Float, clamped, premultiplied again with rounding to nearest. A fully transparent pixel
  /// stays transparent unless the map gives it alpha (`colorMultiply` never does; `brightness`
  /// and `colorInvert` leave alpha alone).
  static func applyColorMatrix(_ matrix: ColorMatrix, to pixmap: inout Pixmap) {
    let k = matrix.m.map(Float.init)
    pixmap.pixels.withUnsafeMutableBufferPointer { pixels in
      for i in 0..<pixels.count {
        let p = pixels[i]
        let a = Float(p >> 24)
        if a == 0, k[18] <= 0 { continue }
        let inverse: Float = a > 0 ? 1 / a : 0
        let r = Float(p & 0xFF) * inverse
        let g = Float((p >> 8) & 0xFF) * inverse
        let b = Float((p >> 16) & 0xFF) * inverse
        let alpha = a / 255
        func row(_ j: Int) -> Float {
          min(max(k[j] * r + k[j + 1] * g + k[j + 2] * b + k[j + 3] * alpha + k[j + 4], 0), 1)
        }
        let outA = row(15)
        let scale = outA * 255
        let outR = UInt32(row(0) * scale + 0.5)
        let outG = UInt32(row(5) * scale + 0.5)
        let outB = UInt32(row(10) * scale + 0.5)
        pixels[i] = outR | outG << 8 | outB << 16 | UInt32(scale + 0.5) << 24
      }
    }
  }
}
