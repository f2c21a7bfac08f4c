extension Pixmap {
  /// Copies the pixels of `rect` (clipped to both pixmaps) from `source`, row by row; the rest
  /// is left as it is.
  public mutating func copy(_ rect: IntRect, from source: Pixmap) {
    copy(rect, from: source, origin: (rect.minX, rect.minY))
  }

  /// Copies into `rect` the pixels of `source` from `origin` on (the source's pixel that lands at
  /// `rect`'s top left corner), row by row; what falls outside either pixmap is skipped.
  public mutating func copy(_ rect: IntRect, from source: Pixmap, origin: (x: Int, y: Int)) {
    let (dx, dy) = (origin.x - rect.minX, origin.y - rect.minY)
    let inSource = source.bounds
    let area = rect.intersection(bounds).intersection(
      IntRect(
        minX: inSource.minX - dx, minY: inSource.minY - dy, maxX: inSource.maxX - dx,
        maxY: inSource.maxY - dy))
    guard !area.isEmpty else { return }
    let (width, sourceWidth, count) = (self.width, source.width, area.width)
    source.pixels.withUnsafeBufferPointer { from in
      pixels.withUnsafeMutableBufferPointer { to in
        guard let from = from.baseAddress, let to = to.baseAddress else { return }
        for y in area.minY..<area.maxY {
          (to + y * width + area.minX).update(
            from: from + (y + dy) * sourceWidth + area.minX + dx, count: count)
        }
      }
    }
  }
}
