import SceneGraph

/// What the command line (or an embedding program) decides about a scene file's rendering; the
/// file's own canvas and taps apply where these are nil.
public struct SceneSettings: Sendable {
  /// Replaces the file's canvas size and safe area.
  public var device: Device?
  /// Pixels per point; the file's, or 2.
  public var scale: Double?
  public var swiftUI: SwiftUIVersion
  public var frameRate: Double
  /// Seconds of still frames after the last animation ends.
  public var hold: Double
  /// Replace the file's `taps`.
  public var taps: [Tap]?
  /// A font file for every text, instead of fontconfig's Inter.
  public var fontFile: String?
  /// Whether files the scene names may lie outside its folder (`--allow-files-outside`); by
  /// default they may not, since scene files may come from untrusted sources.
  public var allowsFilesOutside: Bool
  /// The appearance (`--color-scheme`); nil: the file's `canvas.colorScheme`, else light.
  public var colorScheme: ColorScheme? = nil
  /// Seconds to render whatever the animations do (`--duration`; replaces the file's
  /// `duration`): what a scene that never settles needs.
  public var duration: Double? = nil

  public init(
    device: Device? = nil, scale: Double? = nil, swiftUI: SwiftUIVersion = .ios17,
    frameRate: Double = 50, hold: Double = 0.5, taps: [Tap]? = nil, fontFile: String? = nil,
    allowsFilesOutside: Bool = false
  ) {
    self.allowsFilesOutside = allowsFilesOutside
    self.device = device
    self.scale = scale
    self.swiftUI = swiftUI
    self.frameRate = frameRate
    self.hold = hold
    self.taps = taps
    self.fontFile = fontFile
  }
}

/// A scene built from a file, and notes for the user (font fallbacks, taps that hit nothing).
public struct LoadedScene: Sendable {
  public var scene: Scene
  public var notes: [String]
}
