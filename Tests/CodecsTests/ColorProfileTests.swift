import CLCMS2
import Foundation
import Testing

@testable import Codecs
@testable import Raster

/// Embedded ICC profiles: a PNG's iCCP chunk and a JPEG's APP2 segments are read, and the pixels
/// converted to sRGB, checked against the colour science done here by hand (the primaries'
/// matrices and transfer functions), not against lcms2 itself.
@Suite struct ColorProfileTests {
  // MARK: - Profiles, made with lcms2 and saved as the bytes a file embeds

  /// sRGB's transfer function as an ICC parametric curve (type 4).
  static let srgbCurve: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]

  static func save(_ made: cmsHPROFILE?) -> [UInt8] {
    guard let profile = made else {
      Issue.record("lcms2 made no profile")
      return []
    }
    var size: cmsUInt32Number = 0
    cmsSaveProfileToMem(profile, nil, &size)
    var bytes = [UInt8](repeating: 0, count: Int(size))
    cmsSaveProfileToMem(profile, &bytes, &size)
    cmsCloseProfile(profile)
    return bytes
  }

  /// An RGB display profile: D65 white, the primaries' xy, one parametric curve of `type`.
  static func rgbProfile(
    red: (Double, Double), green: (Double, Double), blue: (Double, Double), curveType: Int32,
    parameters: [Double]
  ) -> [UInt8] {
    var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
    var primaries = cmsCIExyYTRIPLE(
      Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
      Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
    let curve = cmsBuildParametricToneCurve(nil, curveType, parameters)
    defer { cmsFreeToneCurve(curve) }
    var curves: [OpaquePointer?] = [curve, curve, curve]
    let profile = curves.withUnsafeMutableBufferPointer { buffer in
      cmsCreateRGBProfile(&white, &primaries, buffer.baseAddress)
    }
    return save(profile)
  }

  /// Display P3: DCI-P3's primaries, D65, sRGB's curve.
  static let displayP3 = rgbProfile(
    red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), curveType: 4,
    parameters: srgbCurve)
  /// Adobe RGB (1998): its primaries, D65, a gamma of 563/256.
  static let adobeRGB = rgbProfile(
    red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), curveType: 1,
    parameters: [563.0 / 256])
  static let srgb = save(cmsCreate_sRGBProfile())

  /// A grey profile whose levels are linear light (gamma 1).
  static let linearGrey: [UInt8] = {
    let curve = cmsBuildGamma(nil, 1.0)
    defer { cmsFreeToneCurve(curve) }
    var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
    return save(cmsCreateGrayProfile(&white, curve))
  }()

  // MARK: - The expected colours, by hand

  static func decodeSRGB(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
  }

  static func encodeSRGB(_ v: Double) -> Int {
    let c = min(max(v, 0), 1)
    let e = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
    return Int((e * 255).rounded())
  }

  /// Linear Display P3 to linear sRGB (both D65).
  static let p3ToSRGB: [[Double]] = [
    [1.2249401, -0.2249404, 0], [-0.0420569, 1.0420571, 0], [-0.0196376, -0.0786361, 1.0982735],
  ]
  /// Linear Adobe RGB to linear sRGB (both D65).
  static let adobeToSRGB: [[Double]] = [
    [1.3982832, -0.3982831, 0], [0, 1, 0], [0, -0.0429383, 1.0429383],
  ]

  static func expected(
    _ rgb: (UInt8, UInt8, UInt8), matrix: [[Double]], decode: (Double) -> Double
  ) -> [Int] {
    let linear = [rgb.0, rgb.1, rgb.2].map { decode(Double($0) / 255) }
    return matrix.map { row in encodeSRGB(zip(row, linear).map(*).reduce(0, +)) }
  }

  /// Colours across the cube: greys, primaries, mixtures, darks (where the curves are linear).
  static let samples: [(UInt8, UInt8, UInt8)] = [
    (0, 0, 0), (255, 255, 255), (128, 128, 128), (255, 0, 0), (0, 255, 0), (0, 0, 255),
    (200, 100, 50), (30, 160, 220), (250, 240, 10), (12, 5, 3), (90, 200, 140), (170, 40, 210),
  ]

  // MARK: - Files

  /// A PNG of one row of pixels: RGB or grey, with or without alpha (colour types 2, 0, 6, 4),
  /// with `extra` chunks (type, data) before the image data.
  static func png(
    rgb: [UInt8], grey: Bool, alpha: Bool = false, extra: [(String, [UInt8])]
  ) throws -> [UInt8] {
    let channels = (grey ? 1 : 3) + (alpha ? 1 : 0)
    let width = rgb.count / channels
    let colorType: UInt8 = (grey ? 0 : 2) + (alpha ? 4 : 0)
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let typed = Array(type.utf8) + data
      let length = UInt32(data.count).bigEndianBytes
      return length + typed + Deflate.crc32(typed).bigEndianBytes
    }
    let header =
      UInt32(width).bigEndianBytes + UInt32(1).bigEndianBytes + [8, colorType, 0, 0, 0]
    var out = PNGChunks.signature + chunk("IHDR", header)
    for (type, data) in extra { out += chunk(type, data) }
    out += chunk("IDAT", try Deflate.compress([0] + rgb))
    return out + chunk("IEND", [])
  }

  static func iccp(_ profile: [UInt8]) throws -> (String, [UInt8]) {
    ("iCCP", Array("test profile".utf8) + [0, 0] + (try Deflate.compress(profile)))
  }

  static func colours(_ image: Pixmap) -> [[Int]] {
    (0..<image.width).map { x in
      let p = image[x, 0]
      return [Int(p.r), Int(p.g), Int(p.b)]
    }
  }

  static func within(_ a: [[Int]], _ b: [[Int]], _ levels: Int) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) <= levels } }
  }

  static let sampleBytes = samples.flatMap { [$0.0, $0.1, $0.2] }

  // MARK: - PNG

  @Test func aDisplayP3PNGIsConvertedToSRGB() throws {
    let image = try PNGCodec.decode(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(Self.displayP3)]))
    let want = Self.samples.map {
      Self.expected($0, matrix: Self.p3ToSRGB, decode: Self.decodeSRGB)
    }
    #expect(Self.within(Self.colours(image), want, 1), "\(Self.colours(image)) vs \(want)")
    // P3's red is outside sRGB: clipped to sRGB's red.
    #expect(Self.colours(image)[3] == [255, 0, 0])
  }

  @Test func anAdobeRGBPNGIsConvertedToSRGB() throws {
    let image = try PNGCodec.decode(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(Self.adobeRGB)]))
    let want = Self.samples.map {
      Self.expected($0, matrix: Self.adobeToSRGB) { pow($0, 563.0 / 256) }
    }
    #expect(Self.within(Self.colours(image), want, 1), "\(Self.colours(image)) vs \(want)")
  }

  @Test func aLinearGreyProfileBrightensMidGrey() throws {
    let levels: [UInt8] = [0, 1, 64, 128, 200, 255]
    let image = try PNGCodec.decode(
      Self.png(rgb: levels, grey: true, extra: [try Self.iccp(Self.linearGrey)]))
    let want = levels.map { level -> [Int] in
      let v = Self.encodeSRGB(Double(level) / 255)
      return [v, v, v]
    }
    #expect(Self.within(Self.colours(image), want, 1), "\(Self.colours(image)) vs \(want)")
    #expect(Self.colours(image)[3][0] >= 187 && Self.colours(image)[3][0] <= 189)
  }

  /// Alpha is kept, and the converted colour premultiplied by it.
  @Test func translucentPixelsKeepTheirAlpha() throws {
    let alphas: [UInt8] = [255, 128, 0, 1]
    let rgba = (0..<4).flatMap { i in [200, 100, 50, alphas[i]] as [UInt8] }
    let image = try PNGCodec.decode(
      Self.png(rgb: rgba, grey: false, alpha: true, extra: [try Self.iccp(Self.displayP3)]))
    let straight = Self.expected((200, 100, 50), matrix: Self.p3ToSRGB, decode: Self.decodeSRGB)
    for x in 0..<4 {
      let p = image[x, 0]
      #expect(p.a == alphas[x])
      let want = PremultipliedRGBA8(
        straightR: UInt8(straight[0]), g: UInt8(straight[1]), b: UInt8(straight[2]), a: alphas[x])
      #expect(abs(Int(p.r) - Int(want.r)) <= 1 && abs(Int(p.g) - Int(want.g)) <= 1, "\(p)")
    }
  }

  /// Another maker's sRGB profile (here sRGB built from its primaries and curve, which differs
  /// from lcms2's own by rounding) leaves the pixels exactly as stored too.
  @Test func anotherSRGBProfileLeavesThePixelsExact() throws {
    let builtSRGB = Self.rgbProfile(
      red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), curveType: 4,
      parameters: Self.srgbCurve)
    var rgb: [UInt8] = []
    var state: UInt32 = 99
    for _ in 0..<3000 {
      state = state &* 1_664_525 &+ 1_013_904_223
      rgb.append(UInt8(truncatingIfNeeded: state >> 24))
    }
    let plain = try PNGCodec.decodeImage(Self.png(rgb: rgb, grey: false, extra: []))
    let profiled = try PNGCodec.decodeImage(
      Self.png(rgb: rgb, grey: false, extra: [try Self.iccp(builtSRGB)]))
    #expect(profiled.pixmap == plain.pixmap && profiled.note == nil)
  }

  /// Pixels stay exactly as stored when the profile is sRGB's, cannot be read, or describes
  /// the other kind of pixels.
  @Test func profilesThatChangeNothingLeaveThePixelsExact() throws {
    let plain = try PNGCodec.decode(Self.png(rgb: Self.sampleBytes, grey: false, extra: []))
    let ignored: [[UInt8]] = [
      Self.srgb, Array("not a profile at all".utf8), Array(Self.displayP3.prefix(100)),
      Self.linearGrey,
    ]
    for profile in ignored {
      let image = try PNGCodec.decode(
        Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(profile)]))
      #expect(image == plain)
    }
    let greyPlain = try PNGCodec.decode(Self.png(rgb: [0, 90, 255], grey: true, extra: []))
    let greyWithRGB = try PNGCodec.decode(
      Self.png(rgb: [0, 90, 255], grey: true, extra: [try Self.iccp(Self.displayP3)]))
    #expect(greyWithRGB == greyPlain)
  }

  /// A profile lcms2 reads but that cannot describe the image is ignored, with a note saying
  /// why, rather than wrecking the colours: zeroed colourants (a singular matrix) made every
  /// pixel black; a profile of the other kind of pixels (found by a walkthrough).
  @Test func unusableProfilesAreIgnoredWithANote() throws {
    var zeroed = Self.displayP3
    func word(_ at: Int) -> Int { zeroed[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    for i in 0..<word(128) {
      let entry = 132 + 12 * i
      let signature = String(decoding: zeroed[entry..<entry + 4], as: UTF8.self)
      guard ["rXYZ", "gXYZ", "bXYZ"].contains(signature) else { continue }
      let offset = word(entry + 4)
      for k in (offset + 8)..<(offset + 20) { zeroed[k] = 0 }
    }
    let plain = try PNGCodec.decode(Self.png(rgb: Self.sampleBytes, grey: false, extra: []))
    let (image, note) = try PNGCodec.decodeImage(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(zeroed)]))
    #expect(image == plain)
    #expect(note?.contains("not usable") == true, "\(String(describing: note))")
    let grey = try PNGCodec.decodeImage(
      Self.png(rgb: [0, 90, 255], grey: true, extra: [try Self.iccp(Self.displayP3)]))
    #expect(grey.note?.contains("describes RGB colours, the image's are grey") == true)
    let garbage = try PNGCodec.decodeImage(
      Self.png(rgb: [0, 90, 255], grey: true, extra: [try Self.iccp(Array("junk".utf8))]))
    #expect(garbage.note?.contains("cannot read it") == true)
    // An sRGB profile, or none, is no news.
    let srgb = try PNGCodec.decodeImage(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(Self.srgb)]))
    #expect(srgb.note == nil && srgb.pixmap == plain)
  }

  /// The iCCP profile supersedes gAMA (PNG: "when the iCCP chunk is present, PNG decoders
  /// that recognize it … shall ignore the gAMA and cHRM chunks"); without a usable profile,
  /// gAMA still applies.
  @Test func aProfileSupersedesGamma() throws {
    let gamma: (String, [UInt8]) = ("gAMA", UInt32(100_000).bigEndianBytes)
    let profiled = try PNGCodec.decode(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(Self.displayP3)]))
    let both = try PNGCodec.decode(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [gamma, try Self.iccp(Self.displayP3)]))
    #expect(both == profiled)
    let plain = try PNGCodec.decode(Self.png(rgb: Self.sampleBytes, grey: false, extra: []))
    let gammaOnly = try PNGCodec.decode(
      Self.png(rgb: Self.sampleBytes, grey: false, extra: [gamma]))
    #expect(gammaOnly != plain)
    // An sRGB profile, or one that is ignored, still supersedes the gamma: the pixels are sRGB.
    for profile in [Self.srgb, Array("junk".utf8)] {
      let withGamma = try PNGCodec.decode(
        Self.png(rgb: Self.sampleBytes, grey: false, extra: [gamma, try Self.iccp(profile)]))
      #expect(withGamma == plain)
    }
  }

  /// A profile that inflates past the bound is not read.
  @Test func anOversizedProfileIsNotRead() throws {
    let huge = Self.displayP3 + [UInt8](repeating: 0, count: EmbeddedColorProfile.maximumBytes)
    let bytes = try Self.png(rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(huge)])
    #expect(EmbeddedColorProfile.png(try PNGChunks.collect(bytes)).profile == nil)
    // Said in a note, as the pixels are left as sRGB.
    let note = try PNGCodec.decodeImage(bytes).note
    #expect(note?.contains("inflates to more than 8 MiB") == true, "\(String(describing: note))")
    let fits = try Self.png(
      rgb: Self.sampleBytes, grey: false, extra: [try Self.iccp(Self.displayP3)])
    #expect(
      EmbeddedColorProfile.png(try PNGChunks.collect(fits))
        == .profile(EmbeddedColorProfile(bytes: Self.displayP3, imageIsGrey: false)))
  }

  // MARK: - JPEG

  /// APP2 "ICC_PROFILE" segments carrying `profile` cut into `order.count` pieces, inserted
  /// after SOI in the order given (1-based piece numbers); each segment says it is piece
  /// `number` (the piece's own unless `numbers` says otherwise) of `count` (the piece count
  /// unless given).
  static func withProfile(
    _ jpeg: [UInt8], _ profile: [UInt8], order: [Int], numbers: [Int]? = nil, count: Int? = nil
  ) -> [UInt8] {
    let pieces = order.count
    let size = (profile.count + pieces - 1) / pieces
    var segments: [UInt8] = []
    for (position, piece) in order.enumerated() {
      let part = Array(profile.dropFirst((piece - 1) * size).prefix(size))
      let number = UInt8(numbers?[position] ?? piece)
      let signature = Array("ICC_PROFILE".utf8) + [0]
      let payload = signature + [number, UInt8(count ?? pieces)] + part
      let length = payload.count + 2
      segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    return Array(jpeg.prefix(2)) + segments + jpeg.dropFirst(2)
  }

  @Test func aDisplayP3JPEGIsConvertedToSRGB() throws {
    let jpeg = try JPEGCodecTests.fixture("o1.jpg")
    let plain = try JPEGCodec.decode(jpeg)
    let want = plain.pixels.map { packed -> [Int] in
      let p = PremultipliedRGBA8(packed: packed)
      return Self.expected((p.r, p.g, p.b), matrix: Self.p3ToSRGB, decode: Self.decodeSRGB)
    }
    for order in [[1], [1, 2, 3], [3, 1, 2]] {
      let image = try JPEGCodec.decode(Self.withProfile(jpeg, Self.displayP3, order: order))
      let got = image.pixels.map { packed -> [Int] in
        let p = PremultipliedRGBA8(packed: packed)
        return [Int(p.r), Int(p.g), Int(p.b)]
      }
      #expect(Self.within(got, want, 1), "parts in the order \(order)")
      #expect(image.pixels.allSatisfy { PremultipliedRGBA8(packed: $0).a == 255 })
    }
  }

  /// A profile with a part missing, repeated or numbered beyond its count is not read.
  @Test func aJPEGProfileWithBadPartsIsNotRead() throws {
    let jpeg = try JPEGCodecTests.fixture("o1.jpg")
    let plain = try JPEGCodec.decode(jpeg)
    let whole = Self.withProfile(jpeg, Self.displayP3, order: [1, 2])
    #expect(EmbeddedColorProfile.jpeg(whole).profile?.bytes == Self.displayP3)
    let repeated = Self.withProfile(jpeg, Self.displayP3, order: [1, 2], numbers: [1, 1])
    let missing = Self.withProfile(jpeg, Self.displayP3, order: [1, 2], count: 3)
    let beyond = Self.withProfile(jpeg, Self.displayP3, order: [1, 2], numbers: [1, 3])
    let zero = Self.withProfile(jpeg, Self.displayP3, order: [1, 2], numbers: [0, 1])
    for bad in [repeated, missing, beyond, zero] {
      #expect(EmbeddedColorProfile.jpeg(bad).profile == nil)
      let (image, note) = try JPEGCodec.decodeImage(bad)
      #expect(image == plain)
      #expect(note?.contains("APP2 parts") == true, "\(String(describing: note))")
    }
  }
}

extension UInt32 {
  fileprivate var bigEndianBytes: [UInt8] {
    [UInt8(self >> 24), UInt8(self >> 16 & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self & 0xFF)]
  }
}

extension ColorProfileTests {
  /// Every grey level and a spread of colours of a Display P3 image land within a level of
  /// the exact conversion, the shadows included.
  @Test func displayP3IsWithinALevelEverywhere() throws {
    var rgb: [UInt8] = []
    for level in 0...255 { rgb += [UInt8(level), UInt8(level), UInt8(level)] }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      rgb += [UInt8(state >> 56), UInt8(state >> 48 & 0xFF), UInt8(state >> 40 & 0xFF)]
    }
    let image = try PNGCodec.decode(
      Self.png(rgb: rgb, grey: false, extra: [try Self.iccp(Self.displayP3)]))
    let want = stride(from: 0, to: rgb.count, by: 3).map {
      Self.expected(
        (rgb[$0], rgb[$0 + 1], rgb[$0 + 2]), matrix: Self.p3ToSRGB, decode: Self.decodeSRGB)
    }
    let got = Self.colours(image)
    let worst = zip(got, want).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
    #expect(worst <= 1, "largest difference \(worst) levels")
  }
}

extension ColorProfileTests {
  /// A 16-bit PNG of one row: RGB or grey, with or without alpha; samples in order.
  static func png16(
    _ samples: [UInt16], grey: Bool, alpha: Bool, extra: [(String, [UInt8])]
  ) throws -> [UInt8] {
    let channels = (grey ? 1 : 3) + (alpha ? 1 : 0)
    let width = samples.count / channels
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let typed = Array(type.utf8) + data
      return UInt32(data.count).bigEndianBytes + typed + Deflate.crc32(typed).bigEndianBytes
    }
    let colorType: UInt8 = (grey ? 0 : 2) + (alpha ? 4 : 0)
    let header =
      UInt32(width).bigEndianBytes + UInt32(1).bigEndianBytes + [16, colorType, 0, 0, 0]
    var out = PNGChunks.signature + chunk("IHDR", header)
    for (type, data) in extra { out += chunk(type, data) }
    let row = samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    out += chunk("IDAT", try Deflate.compress([0] + row))
    return out + chunk("IEND", [])
  }

  /// A 16-bit image with a gAMA and no profile takes its gamma at 16 bits: a linear (gAMA 1.0)
  /// shadow ramp keeps its steps, each sample the nearest sRGB level of its exact value (libpng
  /// cut the samples to 8 bits before the gamma, so 0…1020 of 65,535 came out as a few levels);
  /// a gamma of 1/2.2 stays within a level of the exact curve; alpha is kept.
  @Test func sixteenBitGammaIsAppliedAtSixteenBits() throws {
    let ramp = stride(from: 0, to: 1024, by: 4).map { UInt16($0) }
    let gamma1: (String, [UInt8]) = ("gAMA", UInt32(100_000).bigEndianBytes)
    let grey = try PNGCodec.decode(try Self.png16(ramp, grey: true, alpha: false, extra: [gamma1]))
    for i in ramp.indices {
      let exact = Self.encodeSRGBExact(Double(ramp[i]) / 65_535)
      #expect(abs(Double(grey[i, 0].r) - exact) <= 0.5 + 1e-9, "sample \(ramp[i])")
    }
    #expect(Set((0..<ramp.count).map { grey[$0, 0].r }).count > 30)
    // Alpha kept, colour premultiplied by it.
    let clear = try PNGCodec.decode(
      try Self.png16([65_535, 0, 0, 32_768], grey: false, alpha: true, extra: [gamma1]))
    #expect(clear[0, 0].a == 128 && abs(Int(clear[0, 0].r) - 128) <= 1, "\(clear[0, 0])")
    // A gamma of 1/2.2 (45,455): the samples decode to v^2.2 and are encoded again as sRGB.
    let samples = stride(from: 0, through: 65_535, by: 1_285).map { UInt16($0) }
    let gamma22: (String, [UInt8]) = ("gAMA", UInt32(45_455).bigEndianBytes)
    let curve = try PNGCodec.decode(
      try Self.png16(samples, grey: true, alpha: false, extra: [gamma22]))
    for i in samples.indices {
      let linear = pow(Double(samples[i]) / 65_535, 1 / 0.45455)
      #expect(
        abs(Double(curve[i, 0].r) - Self.encodeSRGBExact(linear)) <= 1, "sample \(samples[i])")
    }
  }

  /// A 16-bit image is converted at 16 bits and rounded once: a linear grey's deep shadows
  /// keep their steps (cut to 8 bits first, a ramp 0…1020 of 65,535 came out as five levels),
  /// and Adobe RGB colours land within a level of the exact conversion of their 16-bit values;
  /// alpha is kept (found by a walkthrough).
  @Test func sixteenBitImagesConvertAtSixteenBits() throws {
    let ramp = stride(from: 0, to: 1024, by: 4).map { UInt16($0) }
    let greyBytes = try Self.png16(
      ramp, grey: true, alpha: false, extra: [try Self.iccp(Self.linearGrey)])
    let grey = try PNGCodec.decode(greyBytes)
    let worstGrey =
      ramp.indices.map { i -> Double in
        let exact = Double(Self.encodeSRGBExact(Double(ramp[i]) / 65_535))
        return abs(Double(grey[i, 0].r) - exact)
      }.max() ?? 0
    #expect(worstGrey <= 0.75, "largest difference \(worstGrey) levels")
    #expect(Set((0..<ramp.count).map { grey[$0, 0].r }).count > 30)

    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var samples: [UInt16] = []
    for _ in 0..<500 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      samples += [
        UInt16(truncatingIfNeeded: state >> 48), UInt16(truncatingIfNeeded: state >> 32),
        UInt16(truncatingIfNeeded: state >> 16), 65_535,
      ]
    }
    samples[3] = 32_768  // one half-transparent pixel
    let colourBytes = try Self.png16(
      samples, grey: false, alpha: true, extra: [try Self.iccp(Self.adobeRGB)])
    let image = try PNGCodec.decode(colourBytes)
    var worst = 0.0
    for i in 1..<500 {
      let linear = (0..<3).map { pow(Double(samples[i * 4 + $0]) / 65_535, 563.0 / 256) }
      for c in 0..<3 {
        let v = zip(Self.adobeToSRGB[c], linear).map(*).reduce(0, +)
        let p = image[i, 0]
        let got = c == 0 ? p.r : c == 1 ? p.g : p.b
        worst = max(worst, abs(Double(got) - Self.encodeSRGBExact(v)))
      }
    }
    #expect(worst <= 1.0, "largest difference \(worst) levels")
    #expect(image[0, 0].a == 128)
  }

  /// `encodeSRGB` without the rounding: 0…255 as a real number.
  static func encodeSRGBExact(_ v: Double) -> Double {
    let c = min(max(v, 0), 1)
    return (c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055) * 255
  }
}
