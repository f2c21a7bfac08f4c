import Typeset

/// The text styles a container passes down to every text inside it, as SwiftUI's environment
/// does (`VStack { … }.font(.title).bold().foregroundColor(.red)`): each is nil where no layer
/// around sets it. A nearer container's setting replaces a farther one's, and a text's own
/// modifier replaces both.
struct TextEnvironment {
  /// `.foregroundColor(_:)` / `.foregroundStyle(_:)` (a colour): also the colour of shapes,
  /// symbols and paths inside.
  var color: Bound? = nil
  /// `.font(_:)`: the font of texts (and symbols) that set none.
  var font: FontRequest? = nil
  /// `.fontWeight(_:)` / `.bold(_:)`: applied to the font a text ends up with, unless the text
  /// sets a weight itself; `.some(nil)` is `.bold(false)`, which takes an outer bold away.
  var weight: FontWeight?? = nil
  /// `.italic()`, `.underline()`, `.strikethrough()`, `.monospacedDigit()`, `.kerning(_:)`,
  /// `.tracking(_:)`.
  var styling = TextStyling()
  /// `.lineLimit(_:)`, `.multilineTextAlignment(_:)`, `.lineSpacing(_:)`,
  /// `.truncationMode(_:)`, `.minimumScaleFactor(_:)`.
  var lineLimit: Int? = nil
  var alignment: LayerDescription.TextOptions.Alignment? = nil
  var lineSpacing: Double? = nil
  var truncation: Paragraph.Truncation? = nil
  var minimumScaleFactor: Double? = nil
  /// `.contentTransition(_:)`, which a text from state takes.
  var transition: TextTransition? = nil
  /// `.imageScale(_:)`: the scale of symbols inside that set none.
  var imageScale: LayerDescription.SymbolScale? = nil

  /// `inner`'s settings where it has them, else `self`'s: the environment inside a container
  /// that sets `inner`.
  func with(_ inner: TextEnvironment) -> TextEnvironment {
    TextEnvironment(
      color: inner.color ?? color, font: inner.font ?? font, weight: inner.weight ?? weight,
      styling: inner.styling.over(styling), lineLimit: inner.lineLimit ?? lineLimit,
      alignment: inner.alignment ?? alignment, lineSpacing: inner.lineSpacing ?? lineSpacing,
      truncation: inner.truncation ?? truncation,
      minimumScaleFactor: inner.minimumScaleFactor ?? minimumScaleFactor,
      transition: inner.transition ?? transition, imageScale: inner.imageScale ?? imageScale)
  }

  /// The font of a text (or symbol) whose own `font` is `own` (nil: none given) and whose own
  /// `weight`/`bold` is `ownWeight` (nil: none given): its own font, else the environment's,
  /// else `.body`; its own weight, else its own font's, else the environment's weight, else the
  /// font's (`bold: false` keeps the font's own).
  func font(own: FontRequest?, ownWeight: FontWeight??) -> FontRequest {
    var request = own ?? font ?? FontRequest(style: .body)
    switch ownWeight {
    case .some(.some(let weight)): request.weight = weight
    case .some(.none): break  // `bold: false`: no weight modifier, the font's own weight
    case .none:
      if own?.weight == nil, case .some(.some(let weight)) = weight { request.weight = weight }
    }
    return request
  }
}
