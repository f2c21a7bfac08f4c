import Raster

/// One frame of an APNG made ready for `APNGEncoder`: the rectangle that changed since the
/// frame before, compressed, and how it is drawn there. Nothing when the frame equals the one
/// before (its time is added to that frame's).
public struct APNGFrame: Sendable {
  /// The canvas size, in pixels.
  public var width: Int
  public var height: Int
  /// The changed rectangle in canvas pixels; nil when no pixel changed.
  public var rect: IntRect?
  /// `blend_op` OVER (unchanged pixels stored fully transparent, so the frame before shows
  /// through them) rather than SOURCE (the rectangle replaced).
  public var blendsOver = false
  /// The zlib stream of the rectangle's filtered rows (straight RGBA8).
  public var data: [UInt8] = []

  init(width: Int, height: Int, rect: IntRect? = nil, blendsOver: Bool = false, data: [UInt8] = [])
  {
    self.width = width
    self.height = height
    self.rect = rect
    self.blendsOver = blendsOver
    self.data = data
  }

  /// The straight RGBA8 bytes of `rect` in `pixmap` (premultiplied), row by row. With `over`,
  /// pixels equal to `previous`'s are 0, 0, 0, 0.
  static func straightRGBA(
    _ pixmap: Pixmap, rect: IntRect, over previous: Pixmap? = nil
  ) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
    let pixels = pixmap.pixels
    let earlier = previous?.pixels
    var k = 0
    for y in rect.minY..<rect.maxY {
      for i in (y * pixmap.width + rect.minX)..<(y * pixmap.width + rect.maxX) {
        let packed = pixels[i]
        defer { k += 4 }
        if let earlier, earlier[i] == packed { continue }
        let alpha = UInt8(truncatingIfNeeded: packed >> 24)
        if alpha == 255 {
          bytes[k] = UInt8(truncatingIfNeeded: packed)
          bytes[k + 1] = UInt8(truncatingIfNeeded: packed >> 8)
          bytes[k + 2] = UInt8(truncatingIfNeeded: packed >> 16)
          bytes[k + 3] = 255
        } else if alpha != 0 {
          let s = PremultipliedRGBA8(packed: packed).straight
          bytes[k] = s.r
          bytes[k + 1] = s.g
          bytes[k + 2] = s.b
          bytes[k + 3] = alpha
        }
      }
    }
    return bytes
  }

  /// Whether blending over `previous` can show `frame` exactly in `rect`: every pixel that
  /// changed is opaque (a translucent pixel drawn OVER would mix with what was there), and some
  /// pixel did not change (else OVER stores what SOURCE does).
  static func canBlendOver(_ frame: Pixmap, previous: Pixmap, rect: IntRect) -> Bool {
    let (now, before) = (frame.pixels, previous.pixels)
    var unchanged = false
    for y in rect.minY..<rect.maxY {
      for i in (y * frame.width + rect.minX)..<(y * frame.width + rect.maxX) {
        if now[i] == before[i] {
          unchanged = true
        } else if now[i] >> 24 != 0xFF {
          return false
        }
      }
    }
    return unchanged
  }
}
