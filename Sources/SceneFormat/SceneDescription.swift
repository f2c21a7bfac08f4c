import Motion
import Raster
import SceneGraph
import Typeset

/// A scene file as read: everything checked that can be checked without fonts or a device. The
/// `SceneAssembler` turns it into a `Scene`. Units are points and seconds; expressions are kept
/// with the JSON path they came from, for errors found when they are computed.
struct SceneDescription {
  var canvas: CanvasDescription
  /// The appearance the named colours were resolved in (expressions resolve theirs the same).
  var colorScheme: ColorScheme = .light
  var state: [StateValue]
  var layers: [LayerDescription]
  var taps: [TapDescription]
  var tapHandlers: [TapHandler]
  var events: [TimedEvent]
  /// `duration`: seconds to render (the command line's `--duration` replaces it).
  var duration: Double? = nil
}

/// `canvas`: a device preset or a size, the scale and the background.
struct CanvasDescription {
  var device: Device?
  var width: Double?
  var height: Double?
  var safeTop: Double
  var safeBottom: Double
  var scale: Double?
  var background: Color
}

/// A layer's `matchedGeometryEffect`: its key (namespace and id) and what it matches.
struct MatchedGeometry {
  enum Properties: String, CaseIterable { case frame, position, size }
  var key: String
  var properties = Properties.frame
}

/// An expression and where it was written.
struct Bound {
  var expression: Expression
  var path: String
  var line: Int
  var column: Int
  /// The range every component must lie in, as the key's literal numbers must (nil: any finite
  /// value); an expression's value outside it is an error naming the key.
  var range: ClosedRange<Double>? = nil
  /// The keys the components were written under (a colour object's `red`, …, `opacity`), which
  /// an error about one component names after `path`; nil: the value is one key's.
  var componentKeys: [String]? = nil

  func error(_ message: String) -> SceneFileError {
    SceneFileError(path: path, message, line: line, column: column)
  }

  /// The value, which must have `count` components (any when nil).
  func evaluate(
    _ scope: ExpressionScope, count: Int?, what: String
  ) throws(SceneFileError)
    -> [Double]
  {
    let value: [Double]
    do { value = try expression.evaluate(scope) } catch { throw self.error(error.description) }
    if let count, value.count != count {
      throw self.error(
        "expected \(what), got \(value.count) component\(value.count == 1 ? "" : "s")")
    }
    guard value.allSatisfy(\.isFinite) else { throw self.error("the value is not finite") }
    if let range, let k = value.firstIndex(where: { !range.contains($0) }) {
      let message =
        "the expression gives \(JSONValue.format(value[k])) here; expected "
        + JSONField.describe(range)
      guard let keys = componentKeys, k < keys.count else { throw self.error(message) }
      throw SceneFileError(
        path: JSONField.join(path, keys[k]), message, line: line, column: column)
    }
    return value
  }

  static func constant(_ value: [Double], at field: JSONField) -> Bound {
    Bound(
      expression: .constant(value), path: field.path, line: field.value.line,
      column: field.value.column)
  }
}

/// A named `@State` value and its initial value.
struct StateValue {
  var name: String
  var initial: Bound
  /// Whether it starts as `true` or `false` (a Bool `@State`): a text interpolating it alone
  /// writes `true`/`false`, as Swift does.
  var isBoolean = false
}

/// A `set` entry: state name ← expression.
struct Assignment {
  var name: String
  var value: Bound
  /// Whether the value was written `true` or `false` (nil for an expression, a point or a
  /// colour): a Bool state takes only those, a number state only numbers.
  var isBooleanLiteral: Bool? = nil
}

/// A tap: where on the screen (points from the display's top left) and when.
struct TapDescription {
  var x: Bound
  var y: Bound
  var time: Double
}

/// `onTap`: what a tap on `layer` (anywhere when nil) sets, and how it animates.
struct TapHandler {
  var layer: String?
  /// Where `layer` is written.
  var layerLine: Int
  var layerColumn: Int
  var assignments: [Assignment]
  var animation: AnimationDescription
  var path: String
}

/// `events`: a state change at a time.
struct TimedEvent {
  var time: Double
  var assignments: [Assignment]
  var animation: AnimationDescription
}

/// The animation names a scene file knows, as SwiftUI spells them.
enum AnimationType: String, CaseIterable {
  case none, spring, interpolatingSpring, interactiveSpring, smooth, snappy, bouncy
  case `default`, easeIn, easeOut, easeInOut, linear, timingCurve

  /// The parameters an object of this type may give besides `type` and `delay`.
  var parameters: [String] {
    switch self {
    case .spring:
      return ["response", "dampingFraction", "duration", "bounce", "mass", "stiffness", "damping"]
    case .interpolatingSpring: return ["duration", "bounce", "mass", "stiffness", "damping"]
    case .smooth, .snappy, .bouncy, .easeIn, .easeOut, .easeInOut, .linear: return ["duration"]
    case .timingCurve: return ["controlPoints", "duration"]
    case .none, .interactiveSpring, .default: return []
    }
  }
}

/// An animation as written; some SwiftUI names mean different springs by SDK.
struct AnimationDescription {
  enum Kind {
    case none
    /// `.spring()` / `.spring`: the SDK's default spring.
    case defaultSpring
    /// `Animation.default`: the default spring on the iOS 17 SDK, easeInOut before.
    case `default`
    case interactiveSpring
    case fluid(Spring)
    case interpolating(Spring)
    case curve(TimingCurve)
  }

  var kind: Kind
  var delay: Double
  /// `.speed(_:)`: how many times as fast it plays (each iteration of a repetition).
  var speed = 1.0
  /// `.repeatCount(_:autoreverses:)` / `.repeatForever(autoreverses:)`.
  var repetition: Animation.Repetition? = nil
  /// Where it was written, for messages.
  var path = ""

  /// SwiftUI's animation: `base.speed(speed).repeat…(…)`, its `delay` applied once, before the
  /// first iteration (the change starts late).
  func resolve(_ swiftUI: SwiftUIVersion) -> Animation {
    let base = resolveBase(swiftUI).speed(speed)
    guard let repetition, base != .none else { return base }
    return .repeated(base, repetition)
  }

  private func resolveBase(_ swiftUI: SwiftUIVersion) -> Animation {
    switch kind {
    case .none: return .none
    case .defaultSpring: return .fluidSpring(swiftUI.defaultSpring)
    case .default:
      return swiftUI == .ios17 ? .fluidSpring(swiftUI.defaultSpring) : .curve(.easeInOut())
    case .interactiveSpring:
      return .fluidSpring(
        swiftUI == .ios17
          ? Spring(duration: 0.15, bounce: 0.15) : Spring(response: 0.15, dampingFraction: 0.86))
    case .fluid(let spring): return .fluidSpring(spring)
    case .interpolating(let spring): return .interpolatingSpring(spring)
    case .curve(let curve): return .curve(curve)
    }
  }
}

/// A text's font: a SwiftUI text style, adjusted.
struct FontRequest {
  var style: TextStyle
  var family: String?
  /// `Font.system(_:design:weight:)`'s design (nil: the default, SF Pro); a family wins over it.
  var design: FontDesign?
  var size: Double?
  var weight: FontWeight?
  var tracking: Double?
}

/// The `Text` modifiers that set glyphs, their spacing and their lines, on a text layer or one of
/// its runs; nil where not given (a run takes its layer's).
struct TextStyling {
  /// `.italic()`.
  var italic: Bool? = nil
  /// `.underline(_:color:)`: whether, and in which colour (nil: the text's).
  var underline: Bool? = nil
  var underlineColor: Bound? = nil
  /// `.strikethrough(_:color:)`.
  var strikethrough: Bool? = nil
  var strikethroughColor: Bound? = nil
  /// `pattern:` of either line.
  var underlinePattern: LinePattern? = nil
  var strikethroughPattern: LinePattern? = nil
  /// `.monospacedDigit()`.
  var monospacedDigit: Bool? = nil
  /// `.kerning(_:)` and `.tracking(_:)`, points.
  var kerning: Double? = nil
  var tracking: Double? = nil

  /// `self` where given, else `outer`'s (a run's modifiers over its layer's).
  func over(_ outer: TextStyling) -> TextStyling {
    TextStyling(
      italic: italic ?? outer.italic, underline: underline ?? outer.underline,
      underlineColor: underline == nil ? outer.underlineColor : underlineColor,
      strikethrough: strikethrough ?? outer.strikethrough,
      strikethroughColor: strikethrough == nil ? outer.strikethroughColor : strikethroughColor,
      underlinePattern: underline == nil ? outer.underlinePattern : underlinePattern,
      strikethroughPattern: strikethrough == nil
        ? outer.strikethroughPattern : strikethroughPattern,
      monospacedDigit: monospacedDigit ?? outer.monospacedDigit,
      kerning: kerning ?? outer.kerning, tracking: tracking ?? outer.tracking)
  }
}

/// One run of a text layer (`Text("a") + Text("b").bold()`): its characters, its font, its
/// styling and its colour (nil: the layer's).
struct TextRun {
  var text: String
  /// Text from state (`"=\"\\(count) likes\""`): `text` is then taken from it in each state.
  var template: TextTemplate? = nil
  var font: FontRequest
  var styling: TextStyling
  var color: Bound?
  /// The JSON path of its characters (`layers[0].text[1].text`), for errors of its text from
  /// state.
  var path: String
}

/// How a text from state shows a change of its characters: SwiftUI's `ContentTransition`.
enum TextTransition: String, CaseIterable {
  /// The old text fades out as the new one fades in, with the change's animation (`.opacity`;
  /// `.interpolate` falls back to it).
  case opacity
  /// The new text at once (`.identity`).
  case identity
  /// `.interpolate`: as `.opacity` here.
  case interpolate
  /// `.numericText()`: the characters that change roll, the new ones in from below (from above
  /// counting down) as the old ones leave, each fading; the others stay.
  case numericText
  /// `.numericText(countsDown: true)`.
  case numericTextCountsDown
}

/// One layer: its content and its SwiftUI-shaped modifiers.
struct LayerDescription {
  enum Content {
    /// Text in runs (one for a plain string), with the layer's font.
    case text([TextRun], FontRequest)
    /// `Image("file")`: decoded pixels, its scale (pixels per point: 1, or 2 and 3 for
    /// `@2x`/`@3x` names) and how it is laid out and drawn.
    case image(RasterImage, scale: Double, ImageOptions)
    /// `Image(systemName:)`: an SF Symbol name, sized by the font, `imageScale`, or its frame
    /// when resizable.
    case symbol(String, FontRequest, scale: SymbolScale, resizable: Bool)
    case path(Path, viewBox: Rect?, rule: FillRule)
    case shape(ShapeKind, cornerRadius: Double, style: CornerStyle?)
    case ring(lineWidth: Bound, from: Bound, to: Bound, roundCaps: Bool)
    case stack(StackAxis, [LayerDescription], alignment: Alignment, spacing: Double)
    /// `Spacer(minLength:)`: grows along its stack's axis from `minLength` points (8, SwiftUI's
    /// default spacing, when none is given), draws nothing.
    case spacer(minLength: Double)
  }

  enum ShapeKind: String, CaseIterable {
    case rectangle, roundedRectangle, capsule, ellipse, circle, ring
  }

  enum StackAxis: String { case zstack, vstack, hstack }

  /// `.resizable()`, `.aspectRatio(contentMode:)`, `.interpolation(_:)`, `.renderingMode(_:)`.
  struct ImageOptions {
    enum ContentMode: String, CaseIterable { case fit, fill }
    enum RenderingMode: String, CaseIterable { case original, template }
    var resizable = false
    var contentMode: ContentMode?
    var interpolation = ImageInterpolation.medium
    var renderingMode = RenderingMode.original
  }

  /// `Image.Scale`: a symbol's size relative to its font.
  enum SymbolScale: String, CaseIterable {
    case small, medium, large

    /// The symbol's size relative to the medium scale (SF Symbols' small and large are about
    /// 0.78 and 1.29 of medium).
    var factor: Double {
      switch self {
      case .small: 0.783
      case .medium: 1
      case .large: 1.286
      }
    }
  }

  /// A ring's line caps (`StrokeStyle.lineCap`).
  enum RingCap: String, CaseIterable { case butt, round }

  /// `stroke` or `strokeBorder`: SwiftUI's `StrokeStyle` (constants) with the values that may
  /// be animated as expressions.
  struct Stroke {
    var style: StrokeStyle
    var color: Bound
    /// A gradient instead of the colour.
    var gradient: GradientDescription? = nil
    var lineWidth: Bound
    var dashPhase: Bound
    /// A multiple of the width, 1 to 1000.
    var miterLimit: Bound
    /// `strokeBorder`: the stroke lies inside the shape's frame.
    var inside: Bool
  }

  /// How a text fills its lines: `.lineLimit`, `.multilineTextAlignment`, `.lineSpacing`.
  struct TextOptions {
    enum Alignment: String, CaseIterable { case leading, center, trailing }
    var lineLimit: Int? = nil
    var alignment = Alignment.leading
    /// Points between one line's descent and the next one's ascent.
    var lineSpacing = 0.0
    var truncation = Paragraph.Truncation.tail
    /// How far the font may shrink (`.minimumScaleFactor`) so that the text fits its lines.
    var minimumScaleFactor = 1.0
    /// The layer's own `italic`, `underline`, … (its runs' take precedence).
    var styling = TextStyling()
    /// `contentTransition` of a text from state.
    var transition = TextTransition.opacity
    /// Whether the text gave `contentTransition` itself (a container's passes down silently).
    var ownTransition = false
  }

  /// A layout length that may be an expression of state (`"frame": {"height": "=open ? 200 :
  /// 80"}`): layout runs again for each state it takes, and the frames it gives animate.
  enum LayoutSlot: Hashable, CaseIterable {
    case width, height, minWidth, idealWidth, maxWidth, minHeight, idealHeight, maxHeight
    case paddingTop, paddingLeading, paddingBottom, paddingTrailing, spacing
  }

  /// A flexible frame's bounds on one axis, points; `max` may be +∞ (`.infinity`).
  struct FrameBounds {
    var min: Double?
    /// What the frame proposes, and measures against, where it is offered no size (`fixedSize`
    /// or an ideal-size query), as `.frame(idealWidth:)`.
    var ideal: Double? = nil
    var max: Double?
  }

  /// `.background(alignment:content:)` or `.overlay(alignment:content:)`: a layer offered the
  /// decorated layer's laid-out size (padding included) and placed in it by `alignment`.
  struct Decoration {
    var alignment: Alignment
    var layer: LayerDescription
    /// An alignment from state (`"=on ? topTrailing : center"`), which layout evaluates in
    /// each state into `alignment`.
    var alignmentBound: Bound? = nil
  }

  /// `.shadow(color:radius:x:y:)`, every part animatable: the colour (straight RGBA, its alpha
  /// already times `opacity`), the radius and the offset in points.
  struct Shadow {
    var color: Bound
    var radius: Bound
    var x: Bound
    var y: Bound
  }

  var path: String
  /// Where the layer's object starts in the file.
  var line: Int
  var column: Int
  var id: String?
  var content: Content
  var frameWidth: Double?
  var frameHeight: Double?
  /// `.frame(minWidth:maxWidth:minHeight:maxHeight:alignment:)`: the bounds of a flexible frame
  /// on each axis (an axis has these or a fixed length, not both).
  var flexWidth: FrameBounds? = nil
  var flexHeight: FrameBounds? = nil
  /// Where the content sits in its frame (nil: centred, as before any alignment was given).
  var frameAlignment: Alignment? = nil
  var padding: EdgeInsets
  var position: Bound?
  var offset: Bound
  var scale: Bound
  var rotation: Bound
  /// `scaleEffect: {"x", "y", "anchor"}`: the vertical factor (nil: uniform, `scale`).
  var scaleY: Bound? = nil
  /// The anchors of the scale and the rotation, unit points of the layer's frame (two numbers;
  /// nil: the centre). They may read state, and then animate.
  var scaleAnchor: Bound? = nil
  var rotationAnchor: Bound? = nil
  /// `rotation3DEffect`.
  var rotation3D: Rotation3D? = nil
  var opacity: Bound
  var shadow: Shadow?
  /// The fill or foreground colour, four components.
  var color: Bound
  /// The stroke of a shape or path.
  var stroke: Stroke? = nil
  /// `fill` as a gradient (shapes, paths and text).
  var fillGradient: GradientDescription? = nil
  /// Whether a stroked shape is filled too (`fill` given beside `stroke`).
  var fillsUnderStroke = false
  /// A rectangle's corner radius given as an expression (animated).
  var shapeCornerRadius: Bound? = nil
  /// Clip, mask and blur.
  var effects = EffectsDescription()
  /// `trim: [from, to]` of a shape or path (a ring keeps its own).
  var trim: (from: Bound, to: Bound)? = nil
  var zIndex: Double
  /// `.ignoresSafeArea(edges:)`: the edges on which a top-level layer is laid out to the
  /// screen's edge rather than the safe area's.
  var ignoresSafeArea: EdgeSet
  /// A text's line options.
  var textOptions = TextOptions()
  /// `.aspectRatio(_:contentMode:)` on any layer: the ratio (width over height; nil: the
  /// content's ideal size's) and whether the content fits inside the offer or fills it.
  var aspect: (ratio: Double?, mode: ImageOptions.ContentMode)? = nil
  /// `.layoutPriority(_:)`: a stack offers higher priorities their room first.
  var layoutPriority = 0.0
  /// `.fixedSize(horizontal:vertical:)`: the axes on which the layer takes its ideal size
  /// whatever it is offered.
  var fixedWidth = false
  var fixedHeight = false
  /// `"if"`: the layer is there only while this is true (nil: always).
  var condition: Bound? = nil
  /// `.allowsHitTesting(_:)`: taps pass through the layer and its children while this is false
  /// (nil: true).
  var allowsHitTesting: Bound? = nil
  /// `.animation(_:value:)`, innermost first (as the modifiers are chained): when a change of
  /// state changes one's value, the layer's and its children's changes animate with its
  /// animation instead of the change's own.
  var valueAnimations: [ValueAnimation] = []
  /// `.contentShape(_:)`: where the layer takes taps, in its laid-out box (nil: where it draws).
  var contentShape: EffectsDescription.Clip? = nil
  /// How it comes and goes when `condition` changes (SwiftUI's default, `.opacity`).
  var transition = TransitionDescription(both: TransitionState(opacity: 0))
  /// `keyframeAnimator`: tracks that drive its scale, rotation, opacity and offset.
  var keyframes: KeyframesDescription? = nil
  /// `phaseAnimator`: phases of scale, rotation, opacity and offset.
  var phases: PhasesDescription? = nil
  /// `.matchedGeometryEffect(id:in:properties:)`: the namespace and id it shares with another
  /// conditional layer, and what is matched (`frame`, `position` or `size`).
  var matched: MatchedGeometry? = nil
  /// Whether it draws its content in a group with its backgrounds and overlays even when none
  /// is there (its decorations are conditional), so that every layout has the same nodes.
  var keepsDecorations = false
  /// The layout lengths given as expressions; the fields they set hold a placeholder until
  /// `SceneAssembler.resolvingLayout` evaluates them.
  var layoutBounds: [LayoutSlot: Bound] = [:]
  /// Alignments from state, as `.frame(alignment: on ? .trailing : .leading)`: expressions of
  /// unit points (the names `leading`, `topTrailing`, … stand for theirs) that layout evaluates
  /// in each state, as it does `layoutBounds` — the frame's, and a stack's.
  var alignmentBounds: [AlignmentSlot: Bound] = [:]

  enum AlignmentSlot: Hashable, CaseIterable { case frame, stack }
  /// Drawn behind the content, and in front of it (each at most one).
  var backgrounds: [Decoration] = []
  var overlays: [Decoration] = []
}

extension LayerDescription {
  /// `rotation3DEffect: {"degrees", "axis", "anchor", "anchorZ", "perspective"}` as decoded: the
  /// angle may be animated, the rest is fixed.
  struct Rotation3D {
    var degrees: Bound
    var axis: (x: Double, y: Double, z: Double)
    var anchor: (x: Double, y: Double)
    var anchorZ: Double
    var perspective: Double
  }
}

/// A 3D turn's fixed parts: the axis, the anchor (a unit point of the view's frame) and its
/// depth (points), and the perspective (the eye at max(width, height) / perspective points).
struct Rotation3DGeometry {
  var axis: (x: Double, y: Double, z: Double)
  var anchor: (x: Double, y: Double)
  var anchorZ: Double
  var perspective: Double
}

/// `.animation(_:value:)`: an animation for the changes of a layer and its children whenever
/// `value` changes.
struct ValueAnimation {
  var value: Bound
  var animation: AnimationDescription
}
