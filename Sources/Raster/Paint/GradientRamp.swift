/// A gradient prepared for drawing: each span between two stops as samples of its premultiplied
/// colour (0...255 per channel) — its two ends when the interpolation is a straight line (the
/// device colour space), 257 samples when it is a curve (perceptual), read with linear
/// interpolation between samples.
struct GradientRamp: Sendable {
  struct Span: Sendable {
    var start: Double
    var end: Double
    var samples: [SIMD4<Float>]
  }

  let spans: [Span]
  /// The colours before the first stop and after the last.
  let before: SIMD4<Float>
  let after: SIMD4<Float>
  let firstLocation: Double
  let lastLocation: Double

  static let curveSamples = 257

  init(_ gradient: Gradient) {
    let stops = gradient.stops
    func scaled(_ c: SIMD4<Double>) -> SIMD4<Float> { SIMD4<Float>(c * 255) }
    before = stops.first.map { scaled(Gradient.premultiplied($0.color)) } ?? .zero
    after = stops.last.map { scaled(Gradient.premultiplied($0.color)) } ?? .zero
    firstLocation = stops.first?.location ?? 0
    lastLocation = stops.last?.location ?? 0
    var spans: [Span] = []
    for (a, b) in zip(stops, stops.dropFirst()) where b.location > a.location {
      let count = gradient.colorSpace == .device ? 2 : Self.curveSamples
      let samples = (0..<count).map { i in
        scaled(gradient.interpolate(a.color, b.color, Double(i) / Double(count - 1)))
      }
      spans.append(Span(start: a.location, end: b.location, samples: samples))
    }
    self.spans = spans
  }

  /// The packed premultiplied pixel at `t` (clamped), each channel rounded to nearest.
  @inline(__always)
  func pixel(at t: Double, hint: inout Int) -> UInt32 {
    let value = self.value(at: t, hint: &hint)
    let r = UInt32(value.x + 0.5)
    let g = UInt32(value.y + 0.5)
    let b = UInt32(value.z + 0.5)
    let a = UInt32(value.w + 0.5)
    return r | g << 8 | b << 16 | a << 24
  }

  /// The premultiplied colour at `t` (clamped), 0...255 a channel, not rounded.
  @inline(__always)
  func value(at t: Double, hint: inout Int) -> SIMD4<Float> {
    let value: SIMD4<Float>
    if spans.isEmpty {
      value = t < firstLocation ? before : after
    } else if !(t >= firstLocation) {  // NaN too
      value = before
    } else if t >= lastLocation {
      value = after
    } else {
      // Spans change rarely from one pixel to the next: start where the last one was.
      var i = min(hint, spans.count - 1)
      while i > 0, t < spans[i].start { i -= 1 }
      while i + 1 < spans.count, t >= spans[i].end { i += 1 }
      hint = i
      let span = spans[i]
      let u = min(max((t - span.start) / (span.end - span.start), 0), 1)
      let position = u * Double(span.samples.count - 1)
      let j = min(Int(position), span.samples.count - 2)
      let f = Float(position - Double(j))
      value = span.samples[j] + (span.samples[j + 1] - span.samples[j]) * f
    }
    return value
  }
}

/// Blends a gradient through coverage into one pixmap row, the colour computed at each pixel's
/// centre (device pixels).
struct GradientRow: PlaneRow {
  let pixels: UnsafeMutablePointer<UInt32>
  let width: Int
  /// The canvas row this writer draws.
  let y: Int
  let shader: GradientShader
  let ramp: GradientRamp

  @inline(__always)
  func movedDown(_ rows: Int) -> Self {
    Self(
      pixels: pixels + rows &* width, width: width, y: y + rows, shader: shader, ramp: ramp)
  }

  @inline(__always)
  mutating func span(x: Int, count: Int, coverage: UInt8) {
    var hint = 0
    let cy = Double(y) + 0.5
    for i in 0..<count {
      let src = ramp.value(at: shader.t(x: Double(x + i) + 0.5, y: cy), hint: &hint)
      blend(src, coverage: coverage, at: x + i)
    }
  }

  @inline(__always)
  mutating func pixel(x: Int, coverage: UInt8) {
    if coverage == 0 { return }
    var hint = 0
    let src = ramp.value(at: shader.t(x: Double(x) + 0.5, y: Double(y) + 0.5), hint: &hint)
    blend(src, coverage: coverage, at: x)
  }

  /// Source-over of the unrounded colour through `coverage`, rounded once: a translucent
  /// gradient over a background stays within ±1 level of the formula (rounding the colour, then
  /// the blend, reached 1.4).
  @inline(__always)
  private func blend(_ color: SIMD4<Float>, coverage: UInt8, at x: Int) {
    let src = coverage == 255 ? color : color * (Float(coverage) / 255)
    let keep = 1 - src.w / 255
    let old = pixels[x]
    let below = SIMD4<Float>(
      Float(old & 0xFF), Float((old >> 8) & 0xFF), Float((old >> 16) & 0xFF), Float(old >> 24))
    let out = (src + below * keep).clamped(
      lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
    pixels[x] =
      UInt32(out.x + 0.5) | UInt32(out.y + 0.5) << 8 | UInt32(out.z + 0.5) << 16
      | UInt32(out.w + 0.5) << 24
  }
}
