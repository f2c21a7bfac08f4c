import Raster
import SceneGraph
import Typeset

/// Text layers' runs turned into styled text, and the paints their glyphs and lines are drawn in.
extension SceneAssembler {
  /// Where a run's glyphs, underline and strikethrough take their colours: indices into
  /// `textPaints`.
  struct RunPaints {
    var glyphs: Int
    var underline: Int
    var strikethrough: Int
  }

  /// A text layer's paints — nil for the layer's own colour (paint 0), then each colour a run,
  /// an underline or a strikethrough gives, in the order met — and each run's.
  static func textPaints(_ layer: LayerDescription) -> (paints: [Bound?], runs: [RunPaints]) {
    guard case .text(let runs, _) = layer.content else { return ([nil], []) }
    var paints: [Bound?] = [nil]
    func index(_ bound: Bound?, or fallback: Int) -> Int {
      guard let bound else { return fallback }
      paints.append(bound)
      return paints.count - 1
    }
    let outer = layer.textOptions.styling
    let assigned = runs.map { run in
      let styling = run.styling.over(outer)
      let glyphs = index(run.color, or: 0)
      return RunPaints(
        glyphs: glyphs, underline: index(styling.underlineColor, or: glyphs),
        strikethrough: index(styling.strikethroughColor, or: glyphs))
    }
    return (paints, assigned)
  }

  /// Each run's characters: its own, or its text from state in the current state.
  func textOfRuns(
    _ layer: LayerDescription, _ runs: [TextRun], in state: ExpressionScope? = nil
  ) throws(SceneFileError) -> [String] {
    var strings: [String] = []
    for run in runs {
      guard let template = run.template else {
        strings.append(run.text)
        continue
      }
      do {
        strings.append(try template.evaluate(state ?? textScope ?? scope, booleans: booleanStates))
      } catch {
        throw SceneFileError(
          path: run.path, error.description, line: layer.line, column: layer.column)
      }
    }
    return strings
  }

  /// The layer's runs as styled text: each run's font (its own or the layer's) at its size,
  /// weight and slant — the face's own italic, or a synthesized oblique where the family has
  /// none — with fallback fonts for the characters it lacks, SF Pro's tracking by size unless
  /// a tracking is given, and the layer's styling under the run's.
  mutating func styledText(
    _ layer: LayerDescription, _ runs: [TextRun]
  ) throws(SceneFileError) -> StyledText {
    let paints = Self.textPaints(layer).runs
    let outer = layer.textOptions.styling
    let strings = try textOfRuns(layer, runs)
    var text = StyledText()
    for (i, run) in runs.enumerated() {
      let request = run.font
      let styling = run.styling.over(outer)
      let size = request.size ?? request.style.size
      let designFamily = request.family == nil ? request.design?.family : nil
      let family = request.family ?? designFamily ?? TextStyle.family(forSize: size)
      let weight = request.weight ?? request.style.weight
      let italic = styling.italic ?? false
      let font = try face(layer, family: family, weight: weight, italic: italic)
      // SF Pro's tracking by size is SF Pro's: the other designs' stand-ins carry their own.
      let sfPro = request.family == nil && designFamily == nil
      let fontTracking = request.tracking ?? (sfPro ? TextStyle.tracking(forSize: size) : 0)
      var span = TextSpan(
        font: font, fallbacks: fonts.fallbacks, weight: weight, italic: italic, size: size,
        tracking: styling.tracking ?? fontTracking, kerning: styling.kerning ?? 0,
        noLigatures: (styling.tracking ?? 0) != 0,
        monospacedDigit: styling.monospacedDigit ?? false,
        oblique: italic && !font.isItalic ? TextSpan.syntheticOblique : 0,
        underline: styling.underline ?? false, strikethrough: styling.strikethrough ?? false,
        paint: paints[i].glyphs, underlinePaint: paints[i].underline,
        strikethroughPaint: paints[i].strikethrough)
      span.underlinePattern = styling.underlinePattern ?? .solid
      span.strikethroughPattern = styling.strikethroughPattern ?? .solid
      text.append(strings[i], span)
    }
    return text
  }
}
