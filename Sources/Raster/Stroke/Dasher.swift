/// Cuts centre lines into dashes (SVG 2 and Core Graphics): the pattern starts again at each
/// subpath, `phase` into it; a closed subpath is dashed along its closing segment too, its
/// dashes capped like any other. A dash of length zero is a dot, capped round or square (facing
/// the path) and not drawn with butt caps. Lengths are in the path's user units.
public struct Dasher {
  /// Dash and gap lengths, alternating, of even count, all finite and ≥ 0 with a positive sum.
  let pattern: [Double]
  let phase: Double

  /// The most dashes one stroke is cut into; past it the rest of the path is not drawn
  /// (`Stroker.dashCount` lets a caller refuse such a stroke first).
  public static let maximumDashes = 1 << 20

  func dashes(of lines: [Polyline]) -> [Polyline] {
    var result: [Polyline] = []
    let total = pattern.reduce(0, +)
    for line in lines {
      guard result.count < Self.maximumDashes else { break }
      var points = line.points
      if points.count == 1 {
        // A dot: drawn when the pattern is on where it lies.
        if isOn(at: 0, total: total) { result.append(line) }
        continue
      }
      if line.closed, let first = points.first { points.append(first) }
      // Where in the pattern the subpath starts: entry `index`, with `left` of it to go.
      var offset = phase.truncatingRemainder(dividingBy: total)
      if offset < 0 { offset += total }
      var index = 0
      while offset >= pattern[index] && offset > 0 {
        offset -= pattern[index]
        index = (index + 1) % pattern.count
      }
      var left = pattern[index] - offset
      var current: Polyline? = index % 2 == 0 ? Polyline() : nil
      current?.append(points[0], smooth: false)
      var direction = Point(1, 0)
      segments: for i in 0..<(points.count - 1) {
        let a = points[i]
        let b = points[i + 1]
        let segment = Segment(from: a, to: b)
        let length = segment.length
        // (A segment longer than Double holds is left out of the pattern.)
        guard length > 0, length.isFinite else { continue }
        direction = segment.direction
        if current?.points.count == 1 { current?.direction = direction }
        var travelled = 0.0
        while travelled + left <= length {
          travelled += left
          let p = travelled >= length ? b : a + direction * travelled
          if var dash = current {
            dash.append(p, smooth: false)
            dash.direction = dash.points.count == 1 ? direction : dash.direction
            result.append(dash)
            current = nil
            if result.count >= Self.maximumDashes { break segments }
          } else if travelled >= length, i == points.count - 2,
            pattern[(index + 1) % pattern.count] > 0
          {
            // A dash would start at the very end: it has no length there.
            index = (index + 1) % pattern.count
            left = pattern[index]
            continue
          } else {
            var dash = Polyline()
            dash.append(p, smooth: false)
            dash.direction = direction
            current = dash
          }
          index = (index + 1) % pattern.count
          left = pattern[index]
        }
        left -= length - travelled
        if current != nil {
          let smooth = i + 1 < line.smooth.count && line.smooth[i + 1]
          current?.append(b, smooth: smooth)
        }
      }
      if let dash = current, result.count < Self.maximumDashes { result.append(dash) }
    }
    return result
  }

  private func isOn(at offset: Double, total: Double) -> Bool {
    var position = (phase + offset).truncatingRemainder(dividingBy: total)
    if position < 0 { position += total }
    var index = 0
    while position >= pattern[index] && position > 0 {
      position -= pattern[index]
      index = (index + 1) % pattern.count
    }
    return index % 2 == 0
  }
}
