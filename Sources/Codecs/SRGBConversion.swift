import CLCMS2

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
  /// The lcms2 transform, and for grey pixels the sRGB colour of each of the 256 levels.
  private let transform: cmsHTRANSFORM?
  private let greyTable: [UInt8]

  /// The conversion from `profile`'s colour space; nil when the profile is ignored (see the
  /// type).
  init?(_ profile: EmbeddedColorProfile) {
    // A context of its own: nothing global, so images convert on any thread.
    guard let context = cmsCreateContext(nil, nil) else { return nil }
    let opened = profile.bytes.withUnsafeBytes { raw in
      cmsOpenProfileFromMemTHR(context, raw.baseAddress, cmsUInt32Number(raw.count))
    }
    let srgb = cmsCreate_sRGBProfileTHR(context)
    defer {
      if let opened { cmsCloseProfile(opened) }
      if let srgb { cmsCloseProfile(srgb) }
    }
    var made: (cmsHTRANSFORM?, [UInt8])?
    if let source = opened, let srgb {
      let space = cmsGetColorSpace(source)
      if profile.imageIsGrey, space == cmsSigGrayData {
        made = Self.greyTable(source, srgb, context).map { (nil, $0) }
      } else if !profile.imageIsGrey, space == cmsSigRgbData {
        made = Self.rgbTransform(source, srgb, context).map { ($0, []) }
      }
    }
    guard let made else {
      cmsDeleteContext(context)
      return nil
    }
    self.context = context
    (transform, greyTable) = made
  }

  deinit {
    if let transform { cmsDeleteTransform(transform) }
    cmsDeleteContext(context)
  }

  /// Converts `count` straight RGBA8 pixels (R, G, B, A in memory, alpha untouched) in place
  /// to sRGB.
  func apply(_ pixels: UnsafeMutableRawBufferPointer, count: Int) {
    precondition(pixels.count >= count * 4, "fewer bytes than pixels")
    guard let transform else {
      for i in 0..<count {
        let level = Int(pixels[i * 4]) * 3
        pixels[i * 4] = greyTable[level]
        pixels[i * 4 + 1] = greyTable[level + 1]
        pixels[i * 4 + 2] = greyTable[level + 2]
      }
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
  /// profile maps every level onto itself.
  private static func greyTable(
    _ source: cmsHPROFILE, _ srgb: cmsHPROFILE, _ context: cmsContext
  ) -> [UInt8]? {
    guard
      let transform = cmsCreateTransformTHR(
        context, source, ra_lcms_gray_float, srgb, ra_lcms_rgb_float, ra_lcms_intent_perceptual,
        ra_lcms_no_optimize)
    else { return nil }
    defer { cmsDeleteTransform(transform) }
    let levels = (0...255).map { Float($0) / 255 }
    var colours = [Float](repeating: 0, count: 256 * 3)
    cmsDoTransform(transform, levels, &colours, 256)
    let table = colours.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    let identity = (0..<256).allSatisfy { level in
      (0..<3).allSatisfy { table[level * 3 + $0] == UInt8(level) }
    }
    return identity ? nil : table
  }

  /// The RGBA transform; nil when it cannot be made or maps sRGB onto itself.
  private static func rgbTransform(
    _ source: cmsHPROFILE, _ srgb: cmsHPROFILE, _ context: cmsContext
  ) -> cmsHTRANSFORM? {
    guard
      let transform = cmsCreateTransformTHR(
        context, source, ra_lcms_rgba_8, srgb, ra_lcms_rgba_8, ra_lcms_intent_perceptual,
        ra_lcms_copy_alpha)
    else { return nil }
    if mapsOntoItself(transform) {
      cmsDeleteTransform(transform)
      return nil
    }
    return transform
  }

  /// Whether the transform leaves every colour of a 17-level grid and every grey level as it
  /// is: the profile is sRGB's (or as good as), and the image keeps its exact values.
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
    return out == probe
  }
}
