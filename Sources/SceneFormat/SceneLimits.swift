/// Every bound on what a scene file may ask for, in one place: the decoder, the assembler and the
/// command line all use these (the README's Limits section lists them).
public enum SceneLimits {
  /// Bytes of JSON read; reading stops there.
  public static let jsonBytes = 4 << 20
  /// Layers inside layers (a definition's layers counted where it is used).
  public static let layerNesting = 32
  /// JSON nesting: room for every layer depth (each level is an object inside an array) plus
  /// the values inside the deepest layer.
  public static let jsonNesting = 2 * layerNesting + 16
  public static let layers = 2_000
  public static let stateValues = 100
  /// Taps (in the file or from `--tap`), each hit-tested against the animation so far.
  public static let taps = 100
  public static let timedEvents = 200
  public static let tapHandlers = 100
  /// Changes of animated values over all events and taps (each is simulated once).
  public static let changes = 20_000
  /// Seconds: times, delays and durations.
  public static let time = 60.0
  /// Points: a canvas side, a frame, padding, spacing, radii.
  public static let canvasSide = 4_096.0
  /// Pixels of a frame: per side and in all (an iPhone 16 Pro Max at 3× has 3.8 M).
  public static let frameSidePixels = 8_192
  public static let framePixels = 1 << 24
  /// Bytes of one text, and of all a scene's texts.
  public static let textBytes = 1_000
  public static let totalTextBytes = 20_000
  /// Runs in one text layer.
  public static let textRuns = 100
  /// Different values one text from state takes over a scene's events and taps.
  public static let textVersions = 100
  /// Different layouts the state may give a scene (layout lengths from state).
  public static let layoutVersions = 100
  /// Layers measured while laying out a scene, every layout together: stacks nested deep and
  /// aligned by text baselines measure each other again at every level (2^depth), so a hostile
  /// file could otherwise lay out for hours. A million is about a second here; a scene of 2000
  /// layers in 100 layouts measures about 1.2 million.
  public static let layoutMeasures = 5_000_000
  /// Bytes of one `path` string, and of all a scene's path data (strings and files).
  public static let pathStringBytes = 1 << 20
  public static let totalPathDataBytes = 16 << 20
  /// Bytes of an image file, and of all a scene's image files (each file counted once).
  public static let imageFileBytes = 64 << 20
  public static let totalImageFileBytes = 256 << 20
  /// Pixels of a decoded image, and of all a scene's images: 24 M is a 6000 × 4000 photo
  /// (96 MB decoded).
  public static let imagePixels = 24 << 20
  public static let totalImagePixels = 64 << 20
  /// Bytes of one expression, and how deeply it may nest.
  public static let expressionBytes = 1_000
  public static let expressionNesting = 32
  /// The most work one frame may cost, in `RenderCost` units (about a nanosecond each on this
  /// project's 2-core test machine; BENCHMARKS.md): a few seconds of drawing.
  public static let frameWork = 4e9
  /// The most work a whole render may cost (frames × their cost): about ten minutes.
  public static let renderWork = 6e11
  /// The largest offscreen an isolated layer may need, in pixels: 32 M, about 700 MB with its
  /// mask and blur planes (21 bytes a pixel), held by each worker thread.
  public static let offscreenPixels = 1 << 25
}
