import Codecs
import FileIO
import Raster

extension SceneDecoder {
  /// `"image": "photo.jpg"`: a PNG or JPEG next to the scene (under the file rules of
  /// `pathFile`), decoded once per file, with its layout and drawing options.
  mutating func imageContent(
    _ source: JSONField, _ o: JSONObject
  ) throws(SceneFileError) -> LayerDescription.Content {
    let name = try source.string(maxLength: 4096)
    if name.isEmpty { throw source.expected("a file name (a PNG or JPEG next to the scene)") }
    var options = LayerDescription.ImageOptions()
    options.resizable = try o["resizable"]?.bool() ?? false
    // `"fit"`/`"fill"` is the image's own scaling; `{"ratio", "contentMode"}` is the layer
    // modifier (`Image(…).resizable().aspectRatio(16 / 9, contentMode: .fit)`), whose offer a
    // resizable image fills.
    if let mode = o["aspectRatio"], Self.isString(mode) {
      options.contentMode = try mode.choice(LayerDescription.ImageOptions.ContentMode.self)
    }
    options.interpolation = try o["interpolation"]?.choice(ImageInterpolation.self) ?? .medium
    options.renderingMode =
      try o["renderingMode"]?.choice(LayerDescription.ImageOptions.RenderingMode.self) ?? .original
    if options.contentMode != nil, !options.resizable {
      throw try o.required("aspectRatio").error(
        "aspectRatio scales a resizable image: add \"resizable\": true")
    }
    let image = try loadImage(name, at: source)
    // `photo@2x.png` holds two pixels per point, as UIKit reads such names.
    let stem = name.split(separator: "/").last.map(String.init) ?? name
    let scale: Double =
      stem.contains("@3x.") ? 3 : stem.contains("@2x.") ? 2 : 1
    return .image(image, scale: scale, options)
  }

  /// The decoded image of the file `name`, read and decoded once however many layers use it.
  mutating func loadImage(
    _ name: String, at source: JSONField
  ) throws(SceneFileError) -> RasterImage {
    let resolved: String
    switch files.resolve(name) {
    case .success(let path): resolved = path
    case .failure(let refusal): throw source.error("\"\(FileError.escaped(name))\": \(refusal)")
    }
    if let cached = images[resolved] { return cached }
    readFiles.append(resolved)
    let bytes: [UInt8]?
    do {
      bytes = try FileReader.read(
        resolved, atMost: SceneLimits.imageFileBytes, regularFileOnly: !files.allowsOutside)
    } catch {
      throw source.error("cannot read \"\(FileError.escaped(name))\": \(error.reason)")
    }
    guard let bytes else {
      throw source.error(
        "\"\(FileError.escaped(name))\" is larger than \(byteCountText(SceneLimits.imageFileBytes)); at most that is read"
      )
    }
    imageFileBytes += bytes.count
    guard imageFileBytes <= SceneLimits.totalImageFileBytes else {
      throw source.error(
        "the scene's image files add up to more than \(byteCountText(SceneLimits.totalImageFileBytes))"
      )
    }
    let pixels: Pixmap
    var note: String?
    do {
      if JPEGCodec.isJPEG(bytes) {
        (pixels, note) = try JPEGCodec.decodeImage(bytes, maximumPixels: SceneLimits.imagePixels)
      } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
        // The header's size first, so an oversized image is refused before it is decoded; a
        // file whose first chunk is not IHDR is left to the decoder, which says so.
        if bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) {
          func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
          let (w, h) = (u32(16), u32(20))
          guard w * h <= SceneLimits.imagePixels else {
            throw source.error(
              "\"\(FileError.escaped(name))\" is \(w)×\(h) pixels; at most \(SceneLimits.imagePixels) in one image"
            )
          }
        }
        (pixels, note) = try PNGCodec.decodeImage(bytes)
      } else {
        throw source.error("\"\(FileError.escaped(name))\" is neither a PNG nor a JPEG file")
      }
    } catch let error as SceneFileError {
      throw error
    } catch {
      throw source.error(
        "\"\(FileError.escaped(name))\": \((error as? CodecError)?.message ?? "\(error)")")
    }
    guard pixels.width * pixels.height <= SceneLimits.imagePixels else {
      throw source.error(
        "\"\(FileError.escaped(name))\" is \(pixels.width)×\(pixels.height) pixels; at most \(SceneLimits.imagePixels) in one image"
      )
    }
    imagePixels += pixels.width * pixels.height
    guard imagePixels <= SceneLimits.totalImagePixels else {
      throw source.error(
        "the scene's images add up to more than \(SceneLimits.totalImagePixels) pixels")
    }
    if let note { notes.append("warning: \(source.path): \"\(FileError.escaped(name))\": \(note)") }
    // Identity: FNV-1a of the file's bytes.
    var hash = FNV1a()
    hash.add(bytes)
    let image = RasterImage(pixels, identity: hash.value)
    images[resolved] = image
    return image
  }
}
