import CLCMS2

#if canImport(Glibc)
import Glibc
#endif

/// Converts an image's pixels from the colour space its embedded ICC profile describes (Display
/// P3, Adobe RGB, a camera's, a grey gamma) to sRGB, with Little CMS 2: what iOS does when it
/// draws such an image into an sRGB context. Core Graphics colour-matches every image from its
/// colour space to the destination's, with the perceptual rendering intent for sampled images
/// (Apple's `CGColorRenderingIntent`: "the graphics context uses the relative colorimetric
/// rendering intent, except when drawing sampled images"); a display's matrix profile has no
/// perceptual table, and lcms2 then uses the colorimetric mapping, colours outside sRGB clipped.
///
/// A profile that cannot be read, or does not describe the pixels (a grey profile on a colour
/// image, a CMYK one on RGB), is ignored and the pixels taken as sRGB, as browsers and iOS do.
/// So is one that maps sRGB onto itself (an embedded sRGB profile), so that such an image keeps
/// its exact pixel values.
final class SRGBConversion {
  private let context: cmsContext
  /// The lcms2 transform (from 8-bit RGBA, or 16-bit for `sixteenBits`, to 8-bit RGBA), and for
  /// grey pixels the sRGB colour (three bytes) of each of the 256 or 65,536 levels.
  private let transform: cmsHTRANSFORM?
  private let greyTable: [UInt8]
  /// Whether it converts 16-bit samples (`apply16`) rather than 8-bit ones (`apply`).
  let sixteenBits: Bool

  /// What became of an image's profile.
  enum Outcome {
    /// Converted by this.
    case converts(SRGBConversion)
    /// Nothing to do: the profile maps sRGB onto itself.
    case isSRGB
    /// Not used, and why (for a note naming the file); the pixels are taken as sRGB.
    case ignored(String)
  }

  /// The conversion from `profile`'s colour space, or why there is none (see the type).
  static func outcome(_ profile: EmbeddedColorProfile) -> Outcome {
    // A context of its own: nothing global, so images convert on any thread.
    guard let context = cmsCreateContext(nil, nil) else {
      return .ignored("Little CMS could not start")
    }
    let opened = profile.bytes.withUnsafeBytes { raw in
      cmsOpenProfileFromMemTHR(context, raw.baseAddress, cmsUInt32Number(raw.count))
    }
    let srgb = cmsCreate_sRGBProfileTHR(context)
    let made: Result<(cmsHTRANSFORM?, [UInt8])?, Ignored>
    if let source = opened, let srgb {
      let space = cmsGetColorSpace(source)
      if profile.imageIsGrey, space == cmsSigGrayData {
        made = Self.greyTable(source, srgb, context, sixteenBits: profile.sixteenBits).map {
          $0.map { (nil, $0) }
        }
      } else if !profile.imageIsGrey, space == cmsSigRgbData {
        made = Self.rgbTransform(source, srgb, context, sixteenBits: profile.sixteenBits).map {
          $0.map { ($0, []) }
        }
      } else {
        made = .failure(
          Ignored(
            "it describes \(Self.name(of: space)) colours, the image's are "
              + (profile.imageIsGrey ? "grey" : "RGB")))
      }
    } else {
      made = .failure(Ignored("Little CMS cannot read it"))
    }
    // The profiles go before their context can (a transform keeps what it needs of them).
    if let opened { cmsCloseProfile(opened) }
    if let srgb { cmsCloseProfile(srgb) }
    switch made {
    case .success(let conversion?):
      return .converts(
        SRGBConversion(context: context, conversion, sixteenBits: profile.sixteenBits))
    case .success(nil):
      cmsDeleteContext(context)
      return .isSRGB
    case .failure(let ignored):
      cmsDeleteContext(context)
      return .ignored(ignored.reason)
    }
  }

  /// The conversion for what a file says of its profile (nil for none or sRGB's), and a note
  /// when a profile is there but ignored: "its ICC profile is ignored (why); its colours are
  /// taken as sRGB".
  static func forFile(_ found: EmbeddedColorProfile.Found) -> (SRGBConversion?, note: String?) {
    func note(_ why: String) -> String {
      "its ICC profile is ignored (\(why)); its colours are taken as sRGB"
    }
    switch found {
    case .none: return (nil, nil)
    case .unreadable(let why): return (nil, note(why))
    case .profile(let profile):
      switch outcome(profile) {
      case .converts(let conversion): return (conversion, nil)
      case .isSRGB: return (nil, nil)
      case .ignored(let why): return (nil, note(why))
      }
    }
  }

  private init(context: cmsContext, _ made: (cmsHTRANSFORM?, [UInt8]), sixteenBits: Bool) {
    self.context = context
    (transform, greyTable) = made
    self.sixteenBits = sixteenBits
  }

  /// Why a profile is not used.
  private struct Ignored: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// A colour space signature's four letters, trimmed ("CMYK", "Lab").
  private static func name(of space: cmsColorSpaceSignature) -> String {
    let value = space.rawValue
    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    let text = String(decoding: bytes.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    return String(text.reversed().drop { $0 == " " }.reversed())
  }

  deinit {
    if let transform { cmsDeleteTransform(transform) }
    cmsDeleteContext(context)
  }

  /// Converts `count` straight 16-bit RGBA pixels (`samples`, R, G, B, A) to straight RGBA8
  /// sRGB pixels in `pixels` (alpha rounded to 8 bits): a 16-bit image converted at its own
  /// precision, rounded once. Only for a conversion made for 16-bit samples.
  func apply16(
    _ samples: UnsafeBufferPointer<UInt16>, into pixels: UnsafeMutableRawBufferPointer, count: Int
  ) {
    precondition(sixteenBits, "an 8-bit conversion")
    precondition(samples.count >= count * 4 && pixels.count >= count * 4, "too few samples")
    guard let transform else {
      for i in 0..<count {
        setGrey(Int(samples[i * 4]), pixel: i, in: pixels)
        pixels[i * 4 + 3] = UInt8((UInt32(samples[i * 4 + 3]) * 255 + 32_767) / 65_535)
      }
      return
    }
    guard let from = samples.baseAddress, let to = pixels.baseAddress else { return }
    let block = 4096
    var start = 0
    while start < count {
      let n = min(block, count - start)
      cmsDoTransform(transform, from + start * 4, to + start * 4, cmsUInt32Number(n))
      start += n
    }
  }

  /// Pixel `pixel`'s colour (its first three bytes) set to grey level `level`'s sRGB colour.
  @inline(__always)
  private func setGrey(_ level: Int, pixel: Int, in pixels: UnsafeMutableRawBufferPointer) {
    for c in 0..<3 { pixels[pixel * 4 + c] = greyTable[level * 3 + c] }
  }

  /// Converts `count` straight RGBA8 pixels (R, G, B, A in memory, alpha untouched) in place
  /// to sRGB. Only for a conversion made for 8-bit samples.
  func apply(_ pixels: UnsafeMutableRawBufferPointer, count: Int) {
    precondition(!sixteenBits, "a 16-bit conversion")
    precondition(pixels.count >= count * 4, "fewer bytes than pixels")
    guard let transform else {
      for i in 0..<count { setGrey(Int(pixels[i * 4]), pixel: i, in: pixels) }
      return
    }
    // A block at a time into scratch, copied back.
    let block = 4096
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block * 4) { scratch in
      guard let out = scratch.baseAddress, let base = pixels.baseAddress else { return }
      var start = 0
      while start < count {
        let n = min(block, count - start)
        let at = base + start * 4
        cmsDoTransform(transform, at, out, cmsUInt32Number(n))
        at.copyMemory(from: out, byteCount: n * 4)
        start += n
      }
    }
  }

  /// The sRGB colour (three bytes) of each grey level, computed in floating point without
  /// lcms2's 8-bit shortcuts (which lose the darkest levels of a linear grey); nil when the
  /// profile maps every level onto itself; a failure when it is not usable: its white must come
  /// out near white, its black dark, and the levels must not fall (a damaged curve).
  private static func greyTable(
    _ source: cmsHPROFILE, _ srgb: cmsHPROFILE, _ context: cmsContext, sixteenBits: Bool
  ) -> Result<[UInt8]?, Ignored> {
    guard
      let transform = cmsCreateTransformTHR(
        context, source, ra_lcms_gray_float, srgb, ra_lcms_rgb_float, ra_lcms_intent_perceptual,
        ra_lcms_no_optimize)
    else { return .failure(Ignored("Little CMS cannot convert from it")) }
    defer { cmsDeleteTransform(transform) }
    let levels = (0...255).map { Float($0) / 255 }
    var colours = [Float](repeating: 0, count: 256 * 3)
    cmsDoTransform(transform, levels, &colours, 256)
    guard colours.allSatisfy({ $0.isFinite }) else {
      return .failure(Ignored("it gives colours that are not numbers"))
    }
    let table = colours.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    let greys = (0..<256).map { Int(table[$0 * 3 + 1]) }
    guard greys[255] >= minimumWhite, greys[0] <= maximumBlack,
      zip(greys, greys.dropFirst()).allSatisfy({ $0 <= $1 })
    else {
      return .failure(
        Ignored(
          "it is not usable: its black comes out as \(greys[0]) and its white as \(greys[255])"))
    }
    // Within a level of every grey counts as sRGB's: profiles that describe sRGB differ from
    // lcms2's own by rounding.
    let identity = (0..<256).allSatisfy { level in
      (0..<3).allSatisfy { abs(Int(table[level * 3 + $0]) - level) <= 1 }
    }
    if identity { return .success(nil) }
    guard sixteenBits else { return .success(table) }
    let fine = (0...65_535).map { Float($0) / 65_535 }
    var fineColours = [Float](repeating: 0, count: 65_536 * 3)
    cmsDoTransform(transform, fine, &fineColours, 65_536)
    return .success(fineColours.map { UInt8((min(max($0, 0), 1) * 255).rounded()) })
  }

  /// The lowest level of every channel a usable profile's white may come out as, and the
  /// highest of its black (a display's black may be lifted a little): a profile with zeroed
  /// colourants makes white black, one with a damaged tag makes it yellow.
  static let minimumWhite = 224
  static let maximumBlack = 64

  /// The RGBA transform; nil when it maps sRGB onto itself; a failure when it cannot be made or
  /// is not usable: white must come out near white, black dark, and the three primaries must
  /// stay apart (their linear colours span the colour space), so a singular matrix or a
  /// damaged tag is ignored rather than turning the image black or yellow (skcms's test of a
  /// profile usable as a source is of this kind).
  private static func rgbTransform(
    _ source: cmsHPROFILE, _ srgb: cmsHPROFILE, _ context: cmsContext, sixteenBits: Bool
  ) -> Result<cmsHTRANSFORM?, Ignored> {
    guard
      let transform = cmsCreateTransformTHR(
        context, source, ra_lcms_rgba_8, srgb, ra_lcms_rgba_8, ra_lcms_intent_perceptual,
        ra_lcms_copy_alpha)
    else { return .failure(Ignored("Little CMS cannot convert from it")) }
    let probe: [UInt8] = [
      255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
    ]
    var out = [UInt8](repeating: 0, count: probe.count)
    cmsDoTransform(transform, probe, &out, 5)
    let white = out[0..<3].map(Int.init)
    let black = out[4..<7].map(Int.init)
    func linear(_ v: UInt8) -> Double {
      let c = Double(v) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    let m = (2...4).map { p in (0..<3).map { linear(out[p * 4 + $0]) } }
    let determinant =
      m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
      - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
      + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    guard white.allSatisfy({ $0 >= minimumWhite }), black.allSatisfy({ $0 <= maximumBlack }),
      abs(determinant) > 0.05
    else {
      cmsDeleteTransform(transform)
      return .failure(
        Ignored(
          "it is not usable: white comes out as \(white), black as \(black), and its red, green "
            + "and blue as \((2...4).map { p in (0..<3).map { Int(out[p * 4 + $0]) } })"))
    }
    if mapsOntoItself(transform) {
      cmsDeleteTransform(transform)
      return .success(nil)
    }
    guard sixteenBits else { return .success(transform) }
    // Checked at 8 bits; the image's own transform reads 16, and evaluates the profile's
    // pipeline for each pixel (lcms2 would otherwise sample it on a grid of 33 points an axis,
    // off by up to 11 levels near the edge of the gamut).
    cmsDeleteTransform(transform)
    guard
      let wide = cmsCreateTransformTHR(
        context, source, ra_lcms_rgba_16, srgb, ra_lcms_rgba_8, ra_lcms_intent_perceptual,
        ra_lcms_copy_alpha | ra_lcms_no_optimize)
    else { return .failure(Ignored("Little CMS cannot convert from it")) }
    return .success(wide)
  }

  /// Whether the transform leaves every colour of a 17-level grid and every grey level as it
  /// is, within a level: the profile is sRGB's (another maker's sRGB profile differs from
  /// lcms2's by rounding, which moved one pixel in a thousand by a level), and the image keeps
  /// its exact values.
  private static func mapsOntoItself(_ transform: cmsHTRANSFORM) -> Bool {
    var probe: [UInt8] = []
    let grid = (0...16).map { UInt8(min(255, $0 * 16)) }
    for r in grid {
      for g in grid {
        for b in grid { probe += [r, g, b, 255] }
      }
    }
    for level in 0...255 { probe += [UInt8(level), UInt8(level), UInt8(level), 255] }
    var out = [UInt8](repeating: 0, count: probe.count)
    cmsDoTransform(transform, probe, &out, cmsUInt32Number(probe.count / 4))
    return zip(out, probe).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
  }
}
