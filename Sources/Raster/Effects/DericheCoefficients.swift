#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recursive (IIR) filter that approximates a sampled Gaussian of standard deviation σ
/// pixels, after Deriche's fourth-order design ("Recursively implementing the Gaussian and its
/// derivatives", INRIA RR-1893, 1993).
///
/// The Gaussian e^(−x²/2σ²) is fitted, for x ≥ 0, by two damped cosine/sine pairs; each pair is a
/// pair of complex exponentials, so the causal half is a sum of four geometric sequences — a
/// rational transfer function with a fourth-degree denominator. The anticausal half follows from
/// the symmetry h(−n) = h(n). The cost per pixel is the same for every σ.
///
/// `y⁺[n] = Σ nᵢ·x[n−i] − Σ dᵢ·y⁺[n−i]` (i = 0...3 and 1...4),
/// `y⁻[n] = Σ mᵢ·x[n+i] − Σ dᵢ·y⁻[n+i]` (i = 1...4), and the output is `y⁺ + y⁻`, normalised so
/// that a constant signal passes unchanged.
struct DericheCoefficients: Sendable {
  var n: (Float, Float, Float, Float)
  var m: (Float, Float, Float, Float)
  var d: (Float, Float, Float, Float)
  /// The same coefficients in Double, for the passes that run their state in Double.
  var preciseN: (Double, Double, Double, Double)
  var preciseM: (Double, Double, Double, Double)
  var preciseD: (Double, Double, Double, Double)
  /// Whether the recursion must run in Double: for large σ the poles crowd towards 1, the
  /// denominator's coefficients nearly cancel, and Float's rounding in the loop-carried state
  /// grows fast — a blurred step is off the exact Gaussian by 0.6 levels at σ = 23, 11 at 48,
  /// 38 at 72 (streaks in wide shadows), against 0.04–0.2 in Double.
  var isPrecise: Bool

  /// σ (pixels) from which the passes run in Double (BlurTests holds both sides under half a
  /// level).
  static let preciseSigma = 20.0

  /// Deriche's fit of e^(−x²/2) for x ≥ 0:
  /// (a0·cos(w0·x) + a1·sin(w0·x))·e^(−b0·x) + (c0·cos(w1·x) + c1·sin(w1·x))·e^(−b1·x).
  private static let (a0, a1, b0, w0) = (1.680, 3.735, 1.783, 0.6318)
  private static let (c0, c1, b1, w1) = (-0.6803, -0.2598, 1.723, 1.997)

  init(sigma: Double) {
    // Residues and poles of the four complex exponentials (x in pixels, scaled by 1/σ).
    let alphas = [
      ComplexNumber(Self.a0 / 2, -Self.a1 / 2), ComplexNumber(Self.a0 / 2, Self.a1 / 2),
      ComplexNumber(Self.c0 / 2, -Self.c1 / 2), ComplexNumber(Self.c0 / 2, Self.c1 / 2),
    ]
    let poles = [
      ComplexNumber.exp(-Self.b0 / sigma, Self.w0 / sigma),
      ComplexNumber.exp(-Self.b0 / sigma, -Self.w0 / sigma),
      ComplexNumber.exp(-Self.b1 / sigma, Self.w1 / sigma),
      ComplexNumber.exp(-Self.b1 / sigma, -Self.w1 / sigma),
    ]
    // Denominator Π(1 − z_k·q) and numerator Σ α_k·Π_{j≠k}(1 − z_j·q), as polynomials in q.
    var denominator = [ComplexNumber(1, 0)]
    for z in poles { denominator = Self.multiply(denominator, [ComplexNumber(1, 0), -z]) }
    var numerator = [ComplexNumber](repeating: ComplexNumber(0, 0), count: 4)
    for k in 0..<4 {
      var term = [alphas[k]]
      for j in 0..<4 where j != k { term = Self.multiply(term, [ComplexNumber(1, 0), -poles[j]]) }
      for i in 0..<4 { numerator[i] = numerator[i] + term[i] }
    }
    let dd = denominator.map(\.re)  // dd[0] = 1
    let nn = numerator.map(\.re)
    // Anticausal numerator: H⁻ = H⁺ − h(0) = (N − n0·D)/D, shifted one sample ahead.
    var mm = [nn[1] - nn[0] * dd[1], nn[2] - nn[0] * dd[2], nn[3] - nn[0] * dd[3], -nn[0] * dd[4]]
    // Normalise: the whole response sums to 1.
    let dSum = dd.reduce(0, +)
    let total = (nn.reduce(0, +) + mm.reduce(0, +)) / dSum
    let scaled = nn.map { $0 / total }
    mm = mm.map { $0 / total }
    n = (Float(scaled[0]), Float(scaled[1]), Float(scaled[2]), Float(scaled[3]))
    m = (Float(mm[0]), Float(mm[1]), Float(mm[2]), Float(mm[3]))
    d = (Float(dd[1]), Float(dd[2]), Float(dd[3]), Float(dd[4]))
    preciseN = (scaled[0], scaled[1], scaled[2], scaled[3])
    preciseM = (mm[0], mm[1], mm[2], mm[3])
    preciseD = (dd[1], dd[2], dd[3], dd[4])
    isPrecise = sigma >= Self.preciseSigma
  }

  private static func multiply(_ p: [ComplexNumber], _ q: [ComplexNumber]) -> [ComplexNumber] {
    var result = [ComplexNumber](repeating: ComplexNumber(0, 0), count: p.count + q.count - 1)
    for (i, a) in p.enumerated() {
      for (j, b) in q.enumerated() { result[i + j] = result[i + j] + a * b }
    }
    return result
  }
}

/// Just enough complex arithmetic for the coefficient design.
struct ComplexNumber: Sendable {
  var re: Double
  var im: Double

  init(_ re: Double, _ im: Double) {
    self.re = re
    self.im = im
  }

  /// e^(real + i·imaginary).
  static func exp(_ real: Double, _ imaginary: Double) -> ComplexNumber {
    let magnitude = Glibc.exp(real)
    return ComplexNumber(magnitude * cos(imaginary), magnitude * sin(imaginary))
  }

  static func + (a: ComplexNumber, b: ComplexNumber) -> ComplexNumber {
    ComplexNumber(a.re + b.re, a.im + b.im)
  }

  static func * (a: ComplexNumber, b: ComplexNumber) -> ComplexNumber {
    ComplexNumber(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
  }

  static prefix func - (a: ComplexNumber) -> ComplexNumber { ComplexNumber(-a.re, -a.im) }
}
