/// The accuracy measure of the raster-core issue: mean absolute error over partially covered
/// pixels (partial in the reference) and the largest error of any pixel, both in 1/255 units.
struct ErrorMeasure: CustomStringConvertible {
  var partialPixels = 0
  var sumOfPartialErrors = 0.0
  var maximum = 0.0

  /// `reference` and `actual` are coverages in 0...1, same length.
  init(reference: [Double], actual: [Double]) {
    for (r, a) in zip(reference, actual) {
      let error = abs(r - a) * 255
      maximum = max(maximum, error)
      if r > 0.5 / 255, r < 1 - 0.5 / 255 {
        partialPixels += 1
        sumOfPartialErrors += error
      }
    }
  }

  var mean: Double { partialPixels == 0 ? 0 : sumOfPartialErrors / Double(partialPixels) }

  var description: String {
    "mean \(String(format2: mean)) / max \(String(format2: maximum)) over \(partialPixels) edge px"
  }
}

extension String {
  init(format2 value: Double) {
    let scaled = (value * 100).rounded() / 100
    self = "\(scaled)"
  }
}
