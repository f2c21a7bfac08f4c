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
    allowsFilesOutside: Bool = false, colorScheme: ColorScheme? = nil, duration: Double? = nil
  ) {
    self.allowsFilesOutside = allowsFilesOutside
    self.colorScheme = colorScheme
    self.duration = duration
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
  /// The files the scene read besides itself (its `image`s and `pathFile`s), as resolved paths:
  /// an output must not replace one of them.
  public var files: [String] = []
}

extension SceneSettings {
  /// The frame rates a scene renders at (`--fps`): 1 to 120 frames a second.
  public static let frameRates: ClosedRange<Double> = 1...120

  /// What is wrong with a frame rate, a hold and a duration (the settings' or a scene's), if
  /// anything: the field, its value and what is expected — a frame rate in `frameRates`, a hold
  /// within `SceneLimits.time` seconds, a duration more than 0 and within it.
  public static func timingProblem(
    frameRate: Double, hold: Double, duration: Double?
  ) -> (field: String, value: Double, expected: String)? {
    guard frameRates.contains(frameRate) else {
      return ("frameRate", frameRate, "1 to 120 frames a second")
    }
    guard (0...SceneLimits.time).contains(hold) else {
      return ("hold", hold, "0 to \(Int(SceneLimits.time)) seconds")
    }
    if let duration, !(duration > 0 && duration <= SceneLimits.time) {
      return ("duration", duration, "more than 0 and at most \(Int(SceneLimits.time)) seconds")
    }
    return nil
  }

  /// Refuses settings the command line's options could not give, so that an embedding program
  /// gets an error naming the setting instead of a scene that cannot render: a scale of 1, 2
  /// or 3 pixels per point (what a scene file's `canvas.scale` and `--scale` take), a frame rate
  /// in `frameRates`, a hold and a duration within `SceneLimits.time` seconds (a duration more
  /// than 0), taps with finite coordinates at finite times from 0, and a device whose screen is
  /// 1 to `SceneLimits.canvasSide` points a side with safe-area insets from 0 that leave a safe
  /// area, as a scene file's `canvas` must be. (Taps outside the screen are refused once the
  /// screen is known: `refuseTapsOutside(width:height:)`.)
  public func validate() throws(SceneFileError) {
    func refuse(_ setting: String, _ value: Double, _ expected: String) -> SceneFileError {
      SceneFileError(path: "", "SceneSettings.\(setting) is \(value): expected \(expected)")
    }
    if let scale, ![1, 2, 3].contains(scale) {
      throw refuse("scale", scale, "1, 2 or 3 pixels per point")
    }
    if let device {
      let sides = 1...SceneLimits.canvasSide
      let side = "1 to \(Int(SceneLimits.canvasSide)) points"
      if !sides.contains(device.width) { throw refuse("device.width", device.width, side) }
      if !sides.contains(device.height) { throw refuse("device.height", device.height, side) }
      for (name, inset) in [("safeTop", device.safeTop), ("safeBottom", device.safeBottom)]
      where !(0...SceneLimits.canvasSide).contains(inset) {
        throw refuse("device.\(name)", inset, "0 to \(Int(SceneLimits.canvasSide)) points")
      }
      if device.safeTop + device.safeBottom >= device.height {
        throw SceneFileError(
          path: "",
          "SceneSettings.device.safeTop + safeBottom is \(device.safeTop + device.safeBottom): "
            + "expected less than device.height, \(device.height), to leave a safe area")
      }
    }
    if let problem = Self.timingProblem(frameRate: frameRate, hold: hold, duration: duration) {
      throw refuse(problem.field, problem.value, problem.expected)
    }
    for (i, tap) in (taps ?? []).enumerated() {
      guard tap.x.isFinite, tap.y.isFinite, tap.time.isFinite, tap.time >= 0 else {
        throw SceneFileError(
          path: "",
          "SceneSettings.taps[\(i)] is (\(tap.x), \(tap.y)) at \(tap.time) s: expected finite "
            + "points at a time of 0 s or later")
      }
    }
  }

  /// Refuses taps outside a screen `width` × `height` points (the scene's, known once it is
  /// read), as `--tap` refuses them: a tap there hits nothing a user could touch.
  public func refuseTapsOutside(width: Double, height: Double) throws(SceneFileError) {
    for (i, tap) in (taps ?? []).enumerated()
    where !(0...width).contains(tap.x) || !(0...height).contains(tap.y) {
      throw SceneFileError(
        path: "",
        "SceneSettings.taps[\(i)] is (\(tap.x), \(tap.y)): outside the \(width)×\(height) pt "
          + "screen")
    }
  }
}
