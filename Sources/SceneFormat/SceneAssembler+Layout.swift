import Raster
import SceneGraph
import Typeset

/// Layout, as SwiftUI does it for the views a scene file can hold: a parent proposes a size,
/// the child answers with its own, and the parent places it.
///
/// - Text is as large as its line (advance × ascender + descender), rounded up to the pixel grid.
/// - Shapes, rings and paths without a `frame` take what they are offered.
/// - `frame` fixes a size; `padding` adds to it; `.position` makes the layer take the whole
///   offer and puts its centre at that point of the offered area.
/// - A ZStack is as large as its largest child and centres them; a VStack or HStack stacks its
///   children with `spacing` between them, the flexible ones sharing what the others leave.
///
/// Every node's own space has its laid-out box centred on the origin.
extension SceneAssembler {
  /// A length rounded up to whole device pixels, in points.
  func roundedUp(_ length: Double) -> Double { (length * scale).rounded(.up) / scale }

  /// `origin + offset` with the offset rounded to whole device pixels, as SwiftUI places views
  /// on the pixel grid.
  func snapped(_ origin: Double, _ offset: Double) -> Double {
    origin + (offset * scale).rounded() / scale
  }

  /// `box` with each of its four edges on the pixel grid of `area` (whose top-left corner is on
  /// the screen's grid): a distance from that corner rounded to the nearest device pixel, a half
  /// up, and the size what lies between the rounded edges — SwiftUI's
  /// `CGRect.roundCoordinatesToNearestOrUp(toMultipleOf: pixelLength)`, which it applies to every
  /// view's frame. Two views that share an edge keep sharing it, so children of a stack whose
  /// sizes are not whole pixels (three equal shares of 100 pt) leave no seam between them.
  ///
  /// SwiftUI rounds frames after layout, so rounding never changes how a view's content is laid
  /// out; here a layer's content is laid out in its box. So a box whose content lays itself out
  /// (`keepingSize`: text, a symbol, a stack) is never made smaller than it was measured: where
  /// rounding would take from it, its far edge goes to the next pixel instead (it may then
  /// overlap its neighbour by a pixel, where SwiftUI leaves them touching). An edge already on
  /// the grid but for floating-point rounding (thirds of a point at 3×) keeps its value.
  func onGrid(_ box: Rect, in area: Rect, keepingSize: Bool = false) -> Rect {
    func edge(_ value: Double, from origin: Double, up: Bool = false) -> Double {
      let pixels = (value - origin) * scale
      let whole = up ? (pixels - 1e-9).rounded(.up) : (pixels + 0.5).rounded(.down)
      return abs(whole - pixels) <= 1e-9 * max(1, abs(pixels)) ? value : origin + whole / scale
    }
    guard box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite,
      area.minX.isFinite, area.minY.isFinite
    else { return box }
    let minX = edge(box.minX, from: area.minX)
    let minY = edge(box.minY, from: area.minY)
    var maxX = max(minX, edge(box.maxX, from: area.minX))
    var maxY = max(minY, edge(box.maxY, from: area.minY))
    if keepingSize, maxX - minX < box.width - 1e-9 {
      maxX = edge(minX + box.width, from: area.minX, up: true)
    }
    if keepingSize, maxY - minY < box.height - 1e-9 {
      maxY = edge(minY + box.height, from: area.minY, up: true)
    }
    return Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
  }

  /// Whether `layer`'s content lays itself out in its box (text, a symbol, a stack), so that
  /// rounding its box to the grid must not make it smaller (`onGrid`'s `keepingSize`); a shape,
  /// a path, an image or a spacer is drawn to whatever box it is given.
  static func laysItselfOut(_ layer: LayerDescription) -> Bool {
    switch layer.content {
    case .text, .symbol, .stack: return true
    case .image, .path, .shape, .ring, .spacer: return false
    }
  }

  /// The layer's text broken into lines at most `width` points wide (nil: only at `\n`), with
  /// its line limit, and as many lines as fit `height` points (nil or +∞: any number): SwiftUI's
  /// `Text` fits its lines to the proposed height, the last one it shows ending in "…" by its
  /// truncation mode, and never shows fewer than one line.
  mutating func paragraph(
    _ layer: LayerDescription, width: Double?, height: Double? = nil
  ) throws(SceneFileError) -> Paragraph {
    let height = height.flatMap { $0.isFinite ? $0 : nil }
    let whole = try paragraph(
      layer, width: width, lineLimit: layer.textOptions.lineLimit, height: height)
    guard let height else { return whole }
    let spacing = layer.textOptions.lineSpacing
    var fitting = whole.linesFitting(height: height, lineSpacing: spacing)
    guard whole.lines.count > fitting else { return whole }
    // The last line kept is cut around its "…", which may change its height (a taller run cut
    // off, or one coming in): fewer lines until the cut text fits too.
    while true {
      let cut = try paragraph(layer, width: width, lineLimit: fitting, height: height)
      if fitting == 1 || cut.linesFitting(height: height, lineSpacing: spacing) >= cut.lines.count {
        return cut
      }
      fitting -= 1
    }
  }

  /// `paragraph(_:width:height:)` with the line limit `lineLimit` (nil: none), shrunk by
  /// `minimumScaleFactor` so as to fit `height` points too (nil: any height).
  private mutating func paragraph(
    _ layer: LayerDescription, width: Double?, lineLimit: Int?, height: Double?
  ) throws(SceneFileError) -> Paragraph {
    var key =
      layer.path + "@" + (width.map { String($0) } ?? "-") + "@"
      + (lineLimit.map { String($0) } ?? "-") + "@" + (height.map { String($0) } ?? "-")
    if case .text(let runs, _) = layer.content, runs.contains(where: { $0.template != nil }) {
      key += "@" + (try textOfRuns(layer, runs).joined(separator: "\u{0}"))
    }
    if let cached = texts[key] { return cached }
    guard case .text(let runs, _) = layer.content else {
      return Paragraph("", font: try face(layer, family: "Inter", weight: .regular), size: 17)
    }
    let text = try styledText(layer, runs)
    let options = layer.textOptions
    // A hair of slack: a width measured from these lines and rounded up to the pixel grid must
    // hold them again.
    func set(_ scale: Double) -> Paragraph {
      Paragraph(
        scale == 1 ? text : text.scaled(by: scale), maxWidth: width.map { $0 + 1e-9 },
        lineLimit: lineLimit, truncation: options.truncation)
    }
    /// Whether a paragraph must shrink: it is cut, a word of it broken, or its lines are
    /// taller than the height offered.
    func overflows(_ p: Paragraph) -> Bool {
      p.isTruncated || p.breaksWords
        || height.map { p.height(lineSpacing: options.lineSpacing) > $0 + 1e-7 } ?? false
    }
    var paragraph = set(1)
    // `.minimumScaleFactor`: the largest size, down to the factor, at which the text is neither
    // cut, broken inside a word nor taller than its height (found to 1/64 of the range), else
    // the smallest.
    if options.minimumScaleFactor < 1, overflows(paragraph) {
      var low = options.minimumScaleFactor
      var high = 1.0
      var best = set(low)
      if !overflows(best) {
        for _ in 0..<6 {
          let mid = (low + high) / 2
          let candidate = set(mid)
          if overflows(candidate) {
            high = mid
          } else {
            (low, best) = (mid, candidate)
          }
        }
      }
      paragraph = best
    }
    texts[key] = paragraph
    return paragraph
  }

  /// The width a text layer's lines wrap to inside `width` points of frame: none under a
  /// horizontal `fixedSize`, unless its frame has a width, which it proposes to the text
  /// (`fixedSize` applies to the framed layer, `.frame(width: 80).fixedSize()`, as `measure`
  /// takes it), or an `idealWidth`, which it is then offered (within the frame's bounds).
  func wrapWidth(_ layer: LayerDescription, _ width: Double) -> Double? {
    Self.textOffer(width, fixed: layer.fixedWidth, frame: layer.frameWidth, flex: layer.flexWidth)
  }

  /// The height a text layer's lines must fit inside `height` points of frame: none under a
  /// vertical `fixedSize`, unless its frame has a height or an ideal height, which it proposes
  /// to the text.
  func textHeight(_ layer: LayerDescription, _ height: Double) -> Double? {
    Self.textOffer(
      height, fixed: layer.fixedHeight, frame: layer.frameHeight, flex: layer.flexHeight)
  }

  /// What a text is offered on one axis inside `length` points of frame (`wrapWidth`,
  /// `textHeight`): the length, unless `fixedSize` takes the offer away and no fixed frame
  /// length gives one back; then the frame's ideal length, or nothing (nil).
  static func textOffer(
    _ length: Double, fixed: Bool, frame: Double?, flex: LayerDescription.FrameBounds?
  ) -> Double? {
    guard fixed, frame == nil else { return length }
    let proposal = unproposed(flex)
    return proposal.isFinite ? proposal : nil
  }

  /// What a frame proposes to its content on an axis it is offered nothing on (`fixedSize`):
  /// its ideal length within its bounds, or nothing (+∞).
  static func unproposed(_ flex: LayerDescription.FrameBounds?) -> Double {
    guard let ideal = flex?.ideal else { return .infinity }
    return childProposal(ideal, fixed: nil, flex: flex)
  }

  /// A paragraph's laid-out size: its widest line by its lines' heights and the spacing between
  /// them, rounded up to the pixel grid.
  func textSize(_ p: Paragraph, _ layer: LayerDescription) -> Size {
    // (Strong negative kerning can make a line's advance negative: the text is then 0 wide.)
    Size(
      width: roundedUp(max(0, p.width)),
      height: roundedUp(p.height(lineSpacing: layer.textOptions.lineSpacing)))
  }

  func face(
    _ layer: LayerDescription, family: String, weight: FontWeight, italic: Bool = false
  ) throws(SceneFileError) -> FontFace {
    do { return try fonts.face(family: family, weight: weight, italic: italic) } catch {
      throw SceneFileError(path: layer.path + ".font", error.message)
    }
  }

  /// A symbol's side in points when it is not resizable: its font's size times the image scale,
  /// rounded up to whole pixels.
  func symbolSide(_ request: FontRequest, _ scale: LayerDescription.SymbolScale) -> Double {
    roundedUp((request.size ?? request.style.size) * scale.factor)
  }

  /// The symbol's outline and the placement that fills a square of `side` points centred at
  /// (midX, midY) with it: a Material icon's 20-unit live area, or the cat's bounds, fitted to
  /// the square.
  mutating func symbolPath(
    _ layer: LayerDescription, name: String, side: Double, midX: Double, midY: Double
  ) throws(SceneFileError) -> (Path, Transform) {
    let square = Rect(x: midX - side / 2, y: midY - side / 2, width: side, height: side)
    if SceneDecoder.catSymbols.contains(name) {
      let cat = (try? PathDataParser.parse(CatSymbol.pathData)) ?? .empty
      guard let box = cat.bounds else { return (.empty, .identity) }
      return (cat, .mapping(box, fittedInto: square))
    }
    let font: SymbolFont
    do { font = try fonts.symbols() } catch {
      throw SceneFileError(
        path: layer.path + ".symbol", error.message, line: layer.line, column: layer.column)
    }
    guard let outline = font.outline(of: name) else {
      throw SceneFileError(
        path: layer.path + ".symbol",
        "the installed \(SymbolFont.family) font has no glyph for \"\(name)\"", line: layer.line,
        column: layer.column)
    }
    // The icon's em square is 24 grid units, its live area the middle 20.
    let em = side * 24 / 20
    return (
      outline, Transform.scale(em, em).concatenating(.translation(midX - em / 2, midY - em / 2))
    )
  }

  // MARK: - Sizes

  /// The layer's size when offered `proposal`, padding included.
  mutating func measure(_ layer: LayerDescription, _ proposal: Size) throws(SceneFileError) -> Size
  {
    measures += 1
    guard measures <= SceneLimits.layoutMeasures else {
      throw SceneFileError(
        path: layer.path,
        "the layout needs more than \(SceneLimits.layoutMeasures) measurements of layers (stacks "
          + "nested deep, each aligned by text baselines or sized by its texts, measure the ones "
          + "inside them again at every level): nest fewer stacks",
        line: layer.line, column: layer.column)
    }
    if layer.position != nil { return proposal }
    return try ownSize(layer, proposal)
  }

  /// The size ignoring `.position`.
  private mutating func ownSize(
    _ layer: LayerDescription, _ proposal: Size
  ) throws(SceneFileError) -> Size {
    let p = layer.padding
    // `.fixedSize`: no size is proposed on the axis (+∞ stands for SwiftUI's nil proposal), so
    // the layer takes its ideal size there. A frame's `idealWidth`/`idealHeight` stands in for a
    // missing proposal, both to its content and to its own size (Apple's
    // `frame(minWidth:idealWidth:maxWidth:…)`: "with any unspecified dimensions in the proposal
    // replaced by the corresponding ideal dimensions").
    func offer(_ length: Double, fixed: Bool, ideal: Double?) -> Double {
      let offered = fixed ? .infinity : max(0, length)
      return offered.isFinite ? offered : ideal ?? offered
    }
    let offered = Size(
      width: offer(
        proposal.width - p.leading - p.trailing, fixed: layer.fixedWidth,
        ideal: layer.flexWidth?.ideal),
      height: offer(
        proposal.height - p.top - p.bottom, fixed: layer.fixedHeight,
        ideal: layer.flexHeight?.ideal))
    let inner = Size(
      width: Self.childProposal(offered.width, fixed: layer.frameWidth, flex: layer.flexWidth),
      height: Self.childProposal(offered.height, fixed: layer.frameHeight, flex: layer.flexHeight))
    if !rebuilding, case .text(let runs, _) = layer.content,
      runs.contains(where: { $0.template != nil })
    {
      // The widest offer it was measured with (its last may be a stack's sizing pass).
      if inner.width.isFinite {
        templateOffers[layer.path] = max(templateOffers[layer.path] ?? 0, inner.width)
      }
    }
    let natural = try naturalSize(layer, try aspectProposal(layer, inner))
    // Negative padding takes the edges in, never below nothing (SwiftUI's padding layout
    // outsets the child's size by the insets, at least 0).
    return Size(
      width: max(
        0,
        Self.frameLength(
          natural.width, offered: offered.width, fixed: layer.frameWidth, flex: layer.flexWidth)
          + p.leading + p.trailing),
      height: max(
        0,
        Self.frameLength(
          natural.height, offered: offered.height, fixed: layer.frameHeight,
          flex: layer.flexHeight)
          + p.top + p.bottom))
  }

  /// What `.aspectRatio` proposes to the content within `offer`: the largest size of the ratio
  /// inside it (`fit`) or the smallest around it (`fill`); on an axis with no offer, the size the
  /// other axis and the ratio give (Apple's `View.aspectRatio(_:contentMode:)`). Without a ratio,
  /// the content's ideal size's.
  mutating func aspectProposal(
    _ layer: LayerDescription, _ offer: Size
  ) throws(SceneFileError) -> Size {
    guard let aspect = layer.aspect else { return offer }
    var ratio = aspect.ratio ?? 1
    if aspect.ratio == nil {
      let ideal = try naturalSize(layer, Size(width: .infinity, height: .infinity))
      if ideal.width > 0, ideal.height > 0, ideal.width.isFinite, ideal.height.isFinite {
        ratio = ideal.width / ideal.height
      }
    }
    switch (offer.width.isFinite, offer.height.isFinite) {
    case (false, false): return offer
    case (true, false): return Size(width: offer.width, height: offer.width / ratio)
    case (false, true): return Size(width: offer.height * ratio, height: offer.height)
    case (true, true):
      let wider = offer.width / max(offer.height, 1e-12) > ratio
      let byHeight = aspect.mode == .fit ? wider : !wider
      return byHeight
        ? Size(width: offer.height * ratio, height: offer.height)
        : Size(width: offer.width, height: offer.width / ratio)
    }
  }

  /// What a frame proposes to its content on one axis, given what it is offered (points): a
  /// fixed length, or the offer clamped to a flexible frame's bounds (SwiftUI's flexible frame,
  /// as objc.io's "Thinking in SwiftUI" states it).
  static func childProposal(
    _ offered: Double, fixed: Double?, flex: LayerDescription.FrameBounds?
  ) -> Double {
    if let fixed { return fixed }
    // No offer (`fixedSize`): the frame offers none either, and the content takes its ideal size.
    guard offered.isFinite else { return offered }
    var length = offered
    if let low = flex?.min { length = max(length, low) }
    if let high = flex?.max { length = min(length, high) }
    return length
  }

  /// The frame's length on one axis: a fixed length; else the content's, with a minimum lifting
  /// it towards the offer (up to the minimum at least) and a maximum letting it grow to the offer
  /// (at most the maximum): `.frame(maxWidth: .infinity)` takes the whole offer, `.frame(minWidth:
  /// 100)` is 100 wide around a narrower text.
  static func frameLength(
    _ content: Double, offered: Double, fixed: Double?, flex: LayerDescription.FrameBounds?
  ) -> Double {
    if let fixed { return fixed }
    var length = content
    // Without an offer (`fixedSize`), the content's length within the bounds.
    let offer = offered.isFinite ? offered : content
    if let low = flex?.min { length = max(low, min(length, offer)) }
    if let high = flex?.max { length = min(high, max(length, offer)) }
    return length
  }

  mutating func naturalSize(
    _ layer: LayerDescription, _ proposal: Size
  ) throws(SceneFileError) -> Size {
    switch layer.content {
    case .text:
      // Without an offered width (`fixedSize`) text keeps its lines whole.
      return textSize(
        try paragraph(
          layer, width: proposal.width.isFinite ? proposal.width : nil, height: proposal.height),
        layer)
    case .image(let image, let scale, let options):
      let natural = Size(width: Double(image.width) / scale, height: Double(image.height) / scale)
      guard options.resizable, proposal.width.isFinite, proposal.height.isFinite else {
        return natural
      }
      guard let mode = options.contentMode else { return proposal }
      let fitted = Self.aspectRect(
        natural, in: Rect(x: 0, y: 0, width: proposal.width, height: proposal.height), mode)
      return Size(width: fitted.width, height: fitted.height)
    case .symbol(_, let request, let scale, let resizable):
      if resizable, proposal.width.isFinite, proposal.height.isFinite { return proposal }
      let side = symbolSide(request, scale)
      return Size(width: side, height: side)
    case .path, .shape, .ring:
      // A shape's ideal size, where none is offered, is 10 points (SwiftUI's).
      return Size(
        width: proposal.width.isFinite ? proposal.width : 10,
        height: proposal.height.isFinite ? proposal.height : 10)
    case .spacer: return Size(width: 0, height: 0)
    case .stack(.zstack, let children, _, _):
      var size = Size(width: 0, height: 0)
      for child in children {
        let s = try measure(child, proposal)
        size = Size(width: max(size.width, s.width), height: max(size.height, s.height))
      }
      return size
    case .stack(let axis, let children, _, let spacing):
      stackProposals[layer.path] = proposal
      let sizes = try stackSizes(children, proposal, vertical: axis == .vstack, spacing: spacing)
      let gaps = spacing * Double(max(0, children.count - 1))
      // A negative spacing overlaps the children; the stack is never less than nothing.
      if axis == .vstack {
        return Size(
          width: sizes.map(\.width).max() ?? 0,
          height: max(0, sizes.map(\.height).reduce(0, +) + gaps))
      }
      let width = max(0, sizes.map(\.width).reduce(0, +) + gaps)
      guard case .stack(_, _, let alignment, _) = layer.content, alignment.isBaseline else {
        return Size(width: width, height: sizes.map(\.height).max() ?? 0)
      }
      let lifts = try baselineLifts(children, sizes, last: alignment == .lastTextBaseline)
      return Size(
        width: width,
        height: zip(lifts.drops, sizes).map { $0 + $1.height }.max() ?? 0)
    }
  }

  /// For an HStack aligned by text baselines: how far below the stack's top each child starts
  /// (its baseline on the line of the lowest-hanging one), and that line's height from the top.
  /// A child without text aligns its bottom edge, as SwiftUI gives views without text.
  mutating func baselineLifts(
    _ children: [LayerDescription], _ sizes: [Size], last: Bool
  ) throws(SceneFileError) -> (drops: [Double], line: Double) {
    Self.lifts(try childBaselines(children, sizes, last: last), sizes)
  }

  /// The drops and the line of `baselineLifts` from the children's own baselines (nil: no text,
  /// its bottom edge).
  static func lifts(_ own: [Double?], _ sizes: [Size]) -> (drops: [Double], line: Double) {
    let baselines = zip(own, sizes).map { $0 ?? $1.height }
    let line = baselines.max() ?? 0
    return (baselines.map { line - $0 }, line)
  }

  /// Each child's first (or last) text baseline at its size, nil for one without text: one
  /// call per child, so that nested stacks aligned by baselines cost linearly in their depth.
  mutating func childBaselines(
    _ children: [LayerDescription], _ sizes: [Size], last: Bool
  ) throws(SceneFileError) -> [Double?] {
    var baselines: [Double?] = []
    for (child, size) in zip(children, sizes) {
      baselines.append(try baseline(child, size: size, last: last))
    }
    return baselines
  }

  /// The layer's first (or last) text baseline in points below its top, at laid-out `size`
  /// (padding included), or nil when it holds no text. A text's is its first or last line's; a
  /// stack's is the top-most (or bottom-most) of its children's that hold text, where they are
  /// placed — Apple's `VerticalAlignment.firstTextBaseline`, "a guide that marks the top-most text
  /// baseline in a view", and `lastTextBaseline`, "the bottom-most"; children without text do not
  /// count (SwiftUI merges only its children's explicit values: OpenSwiftUI's
  /// `FirstTextBaselineAlignment._combineExplicit` takes the least, the last-baseline one the
  /// greatest). Where nothing holds text the caller takes the bottom edge, as SwiftUI does for
  /// "a view that contains no text".
  mutating func baseline(
    _ layer: LayerDescription, size: Size, last: Bool
  ) throws(SceneFileError) -> Double? {
    let p = layer.padding
    let inner = Size(
      width: max(0, size.width - p.leading - p.trailing),
      height: max(0, size.height - p.top - p.bottom))
    switch layer.content {
    case .text:
      let text = try paragraph(
        layer, width: wrapWidth(layer, inner.width), height: textHeight(layer, inner.height))
      let height = textSize(text, layer).height
      let offset = (inner.height - height) * (layer.frameAlignment?.vertical ?? 0.5)
      let index = last ? text.lines.count - 1 : 0
      return p.top + offset
        + text.baseline(ofLine: index, lineSpacing: layer.textOptions.lineSpacing)
    case .stack(let axis, let children, let alignment, let spacing) where !children.isEmpty:
      // The children at the sizes the stack was measured with, as they are placed.
      let proposal = placementProposal(layer, axis, size: inner)
      let sizes = try stackSizes(children, proposal, vertical: axis == .vstack, spacing: spacing)
      if axis == .hstack, alignment.isBaseline {
        // Every child with text sits on the one line.
        let own = try childBaselines(children, sizes, last: last)
        return own.contains { $0 != nil } ? p.top + Self.lifts(own, sizes).line : nil
      }
      var found: Double?
      var top = 0.0
      for (child, size) in zip(children, sizes) {
        let childTop =
          axis == .vstack ? top : (inner.height - size.height) * alignment.vertical
        if let b = try baseline(child, size: size, last: last) {
          let y = childTop + b
          found = found.map { last ? max($0, y) : min($0, y) } ?? y
        }
        top += size.height + spacing
      }
      return found.map { p.top + $0 }
    case .symbol(_, let request, let scale, false):
      // An SF Symbol sits on the text baseline of its font, centred on the cap height (Apple,
      // "Creating custom symbol images": symbols align to text by the baseline and are centred
      // between it and the cap height), at any image scale: its square's centre is half SF's
      // cap height (0.705 em) above the baseline.
      let side = symbolSide(request, scale)
      let offset = (inner.height - side) * (layer.frameAlignment?.vertical ?? 0.5)
      let fontSize = request.size ?? request.style.size
      return p.top + offset + side / 2 + Self.symbolCapHeight * fontSize / 2
    default:
      return nil
    }
  }

  /// SF Pro's cap height, in ems (docs/SEMANTICS.md, Symbols).
  static let symbolCapHeight = 0.705

  /// A stack's children's sizes when the stack is offered `proposal` (its content's proposal),
  /// by SwiftUI's stack algorithm (`StackLayout.sizeChildrenGenerallyWithConcreteMajorProposal`,
  /// as OpenSwiftUI reconstructs it): the children that ignore the offer along the axis take
  /// their size, then the others are offered in order of `layoutPriority` (highest first) and,
  /// within a priority, of flexibility (`LengthRange`, least flexible first), each an equal
  /// share of what is left, so that what one does not take goes to those after it. The first
  /// priority group leaves the later groups their minimum lengths; each later group gets back
  /// its own. A text is flexible across an HStack (its length ranges from its narrowest
  /// wrapping to its one-line width) and down a VStack (from one line to all of them), so next to
  /// a shape it is offered its share first and wraps, or is cut, to it, as in SwiftUI.
  private mutating func stackSizes(
    _ children: [LayerDescription], _ proposal: Size, vertical: Bool, spacing: Double
  ) throws(SceneFileError) -> [Size] {
    var sizes = [Size?](repeating: nil, count: children.count)
    func along(_ size: Size) -> Double { vertical ? size.height : size.width }
    func offer(_ length: Double) -> Size {
      vertical
        ? Size(width: proposal.width, height: length) : Size(width: length, height: proposal.height)
    }
    var used = spacing * Double(max(0, children.count - 1))
    for (i, child) in children.enumerated() where !Self.isFlexible(child, vertical: vertical) {
      let s = try measure(child, proposal)
      sizes[i] = s
      used += along(s)
    }
    let main = vertical ? proposal.height : proposal.width
    var order: [(index: Int, range: LengthRange)] = []
    for (i, child) in children.enumerated() where sizes[i] == nil {
      order.append((i, try lengthRange(child, vertical: vertical, proposal: proposal)))
    }
    order.sort { a, b in
      let (pa, pb) = (children[a.index].layoutPriority, children[b.index].layoutPriority)
      if pa != pb { return pa > pb }
      if a.range < b.range { return true }
      if b.range < a.range { return false }
      return a.index < b.index
    }
    // Without an offer along the axis (`fixedSize`), each takes its ideal length (a spacer its
    // minimum).
    var available = main.isFinite ? main - used : .infinity
    var start = 0
    while start < order.count {
      let priority = children[order[start].index].layoutPriority
      var end = start
      while end < order.count, children[order[end].index].layoutPriority == priority { end += 1 }
      if start == 0 {
        available -= order[end...].reduce(0) { $0 + $1.range.min }
      } else {
        available += order[start..<end].reduce(0) { $0 + $1.range.min }
      }
      for k in start..<end {
        let i = order[k].index
        let share = max(0, available / Double(end - k))
        let size: Size
        if case .spacer(let minLength) = children[i].content, Self.isPlainSpacer(children[i]) {
          let length = max(minLength, share.isFinite ? share : 0)
          size = vertical ? Size(width: 0, height: length) : Size(width: length, height: 0)
        } else {
          size = try measure(children[i], offer(share))
        }
        sizes[i] = size
        available -= along(size)
      }
      start = end
    }
    return sizes.map { $0 ?? Size(width: 0, height: 0) }
  }

  /// What a stack's children are sized with where it is placed (or its baseline found): for an
  /// HStack or VStack, what its content was last offered when measured (its parent's final pass),
  /// so the children get the sizes the stack's own size came from; for a ZStack, or a stack not
  /// measured, `size`, the size it has.
  func placementProposal(
    _ layer: LayerDescription, _ axis: LayerDescription.StackAxis, size: Size
  ) -> Size {
    axis == .zstack ? size : stackProposals[layer.path] ?? size
  }

  /// Whether the layer is a spacer without a frame, which takes its share of a stack (at least
  /// its minimum length) and is nothing across it.
  static func isPlainSpacer(_ layer: LayerDescription) -> Bool {
    guard case .spacer = layer.content else { return false }
    return layer.frameWidth == nil && layer.frameHeight == nil && layer.flexWidth == nil
      && layer.flexHeight == nil
  }

  /// How far a layer's length along a stack's axis can range: from what it takes offered
  /// nothing to what it takes offered everything (points; `max` +∞ for a shape or a spacer).
  /// Ordered as SwiftUI orders its `_LayoutTraits.FlexibilityEstimate`: the smaller range is
  /// less flexible; of two unbounded ranges, the larger minimum is.
  struct LengthRange: Comparable {
    var min: Double
    var max: Double

    static func < (a: Self, b: Self) -> Bool {
      let (da, db) = (a.max - a.min, b.max - b.min)
      if da != db { return da < db }
      return (da == .infinity ? -a.min : 0) < (db == .infinity ? -b.min : 0)
    }
  }

  /// The layer's `LengthRange` along the axis with the stack offered `proposal`: a text's is
  /// measured (offered no width and any width); the others' come from their description (a
  /// frame, a shape, a stack as far as its most flexible child), so that nested stacks are not
  /// measured again at every level.
  mutating func lengthRange(
    _ layer: LayerDescription, vertical: Bool, proposal: Size
  ) throws(SceneFileError) -> LengthRange {
    if case .text = layer.content, !vertical, layer.position == nil, layer.frameWidth == nil,
      layer.flexWidth?.max == nil, !layer.fixedWidth
    {
      let narrowest = try measure(layer, Size(width: 0, height: proposal.height)).width
      let widest = try measure(layer, Size(width: .infinity, height: proposal.height)).width
      return LengthRange(min: narrowest, max: max(narrowest, widest))
    }
    if case .text = layer.content, vertical, layer.position == nil, layer.frameHeight == nil,
      layer.flexHeight?.max == nil, !layer.fixedHeight
    {
      // Down a VStack: from one line (offered no height) to all its lines at the width offered.
      let shortest = try measure(layer, Size(width: proposal.width, height: 0)).height
      let tallest = try measure(layer, Size(width: proposal.width, height: .infinity)).height
      return LengthRange(min: shortest, max: max(shortest, tallest))
    }
    if case .spacer(let minLength) = layer.content, Self.isPlainSpacer(layer) {
      return LengthRange(min: minLength, max: .infinity)
    }
    return LengthRange(min: 0, max: try flexibility(layer, vertical: vertical, proposal: proposal))
  }

  /// How far the layer's length along the axis can range (points; +∞ for a shape, a spacer or a
  /// frame without a finite maximum), by its description rather than by measuring it twice:
  /// SwiftUI measures the range (its length offered everything less its length offered nothing),
  /// which for nested stacks would multiply the measuring at every level. A flexible frame with
  /// a maximum ranges from its minimum to it; a stack as far as its most flexible child; a text
  /// across an HStack from its narrowest wrapping to its one-line width.
  mutating func flexibility(
    _ layer: LayerDescription, vertical: Bool, proposal: Size
  ) throws(SceneFileError) -> Double {
    if layer.position != nil { return .infinity }
    if (vertical ? layer.frameHeight : layer.frameWidth) != nil { return 0 }
    if let bounds = vertical ? layer.flexHeight : layer.flexWidth, let high = bounds.max {
      return high - (bounds.min ?? 0)
    }
    switch layer.content {
    case .text:
      guard !(vertical ? layer.fixedHeight : layer.fixedWidth) else { return 0 }
      let range = try lengthRange(layer, vertical: vertical, proposal: proposal)
      return range.max - range.min
    case .symbol(_, _, _, let resizable): return resizable ? .infinity : 0
    case .image(_, _, let options): return options.resizable ? .infinity : 0
    case .path, .shape, .ring, .spacer: return .infinity
    case .stack(let axis, let children, _, _):
      var most = 0.0
      for child in children where !Self.spacerAcross(child, in: axis, vertical: vertical) {
        most = max(most, try flexibility(child, vertical: vertical, proposal: proposal))
      }
      return most
    }
  }

  /// Whether the layer grows with what it is offered along the axis.
  static func isFlexible(_ layer: LayerDescription, vertical: Bool) -> Bool {
    if layer.position != nil { return true }
    if (vertical ? layer.frameHeight : layer.frameWidth) != nil { return false }
    if vertical ? layer.fixedHeight : layer.fixedWidth { return false }
    // A maximum above the minimum grows with the offer; a minimum alone leaves it to the content.
    if let high = (vertical ? layer.flexHeight : layer.flexWidth)?.max {
      return high > ((vertical ? layer.flexHeight : layer.flexWidth)?.min ?? 0)
    }
    switch layer.content {
    // A text wraps to the width it is offered and shows the lines that fit the height.
    case .text: return true
    case .symbol(_, _, _, let resizable): return resizable
    case .image(_, _, let options): return options.resizable
    case .path, .shape, .ring, .spacer: return true
    case .stack(let axis, let children, _, _):
      return children.contains {
        !spacerAcross($0, in: axis, vertical: vertical) && isFlexible($0, vertical: vertical)
      }
    }
  }

  /// Whether `child` is a spacer of a stack along `axis` asked about the other axis: an HStack's
  /// spacer is nothing tall, a VStack's nothing wide, whatever they are offered (SwiftUI's
  /// `Spacer` grows only along its stack's axis), so it makes the stack no more flexible there.
  static func spacerAcross(
    _ child: LayerDescription, in axis: LayerDescription.StackAxis, vertical: Bool
  ) -> Bool {
    guard isPlainSpacer(child) else { return false }
    return (axis == .hstack && vertical) || (axis == .vstack && !vertical)
  }

  // MARK: - Nodes

  /// The node for `layer` laid out in `box` (its parent's space; for a positioned layer, the
  /// whole area its position is measured in).
  mutating func node(_ layer: LayerDescription, box: Rect) throws(SceneFileError) -> SceneNode {
    var node = try unconditionalNode(layer, box: box)
    if let keyframes = layer.keyframes { node = try keyframed(node, layer, keyframes) }
    if let phases = layer.phases { node = try phased(node, layer, phases) }
    if layer.matched != nil, matchedPlacements[layoutVersion]?[node.name] == nil {
      matchedPlacements[layoutVersion, default: [:]][node.name] = MatchedPlacement(layer: layer)
    }
    if layer.condition != nil, conditionalLayers[node.name] == nil {
      conditionalLayers[node.name] = ConditionalLayer(
        name: layer.id ?? layer.path, transition: layer.transition,
        size: Self.laidOutSize(node) ?? Size(width: box.width, height: box.height))
    }
    return node
  }

  /// A rectangle of `size` (at most `box`'s) centred in `box`.
  static func centred(_ size: Size, in box: Rect) -> Rect {
    let (w, h) = (min(size.width, box.width), min(size.height, box.height))
    return Rect(
      x: (box.minX + box.maxX - w) / 2, y: (box.minY + box.maxY - h) / 2, width: w, height: h)
  }

  /// A node's laid-out size: its own record's, or a positioned layer's (its container's one
  /// child's).
  static func laidOutSize(_ node: SceneNode) -> Size? {
    (node.layout ?? positionedChild(of: node)?.layout).map {
      Size(width: $0.width, height: $0.height)
    }
  }

  /// The one child of a positioned layer's container (`.position(p)`: a node without a layout
  /// record at its area's top left, holding the layer's node at p); nil for any other node.
  static func positionedChild(of node: SceneNode) -> SceneNode? {
    guard node.layout == nil, case .group(let children) = node.content, children.count == 1,
      children[0].layout != nil
    else { return nil }
    return children[0]
  }

  private mutating func unconditionalNode(
    _ layer: LayerDescription, box: Rect
  ) throws(SceneFileError) -> SceneNode {
    let name = layer.id ?? layer.path
    let size = Size(width: box.width, height: box.height)
    guard let position = layer.position else {
      return try placed(
        layer, centerX: .constant((box.minX + box.maxX) / 2),
        centerY: .constant((box.minY + box.maxY) / 2), size: size)
    }
    // `.position(p)`: the centre at p, measured from the offered area's top left.
    let inner = try ownSize(layer, size)
    let p = try bind(position, name + ".position", count: 2, what: "a point")
    let content = try placed(layer, centerX: p[0], centerY: p[1], size: inner)
    return SceneNode(
      name + ".container", .group([content]), centerX: .constant(box.minX),
      centerY: .constant(box.minY))
  }

  /// The node with its modifiers, centred at (centerX, centerY), of laid-out `size`.
  private mutating func placed(
    _ layer: LayerDescription, centerX: ScalarBinding, centerY: ScalarBinding, size: Size
  ) throws(SceneFileError) -> SceneNode {
    let name = layer.id ?? layer.path
    let p = layer.padding
    // Inside the padding, on the grid of the laid-out box (whose corner is on the screen's).
    let outer = Rect(
      minX: -size.width / 2, minY: -size.height / 2, maxX: size.width / 2,
      maxY: size.height / 2)
    let frame = onGrid(
      Rect(
        minX: outer.minX + p.leading, minY: outer.minY + p.top, maxX: outer.maxX - p.trailing,
        maxY: outer.maxY - p.bottom), in: outer, keepingSize: Self.laysItselfOut(layer))
    // A constant colour is drawn as it is; an animated one comes from its channel each frame.
    // A shape that is only stroked has no fill colour.
    let filled = (layer.stroke == nil || layer.fillsUnderStroke) && layer.fillGradient == nil
    let (color, animatedColor) =
      filled ? try colorBinding(layer.color, name + ".fill") : (Color.black, nil)
    // With an alignment or a flexible frame, the content takes its own size in the frame, placed
    // by the alignment (SwiftUI's frames do both); otherwise it is drawn in the frame as it was.
    var contentBox = frame
    // A stack in a fixed frame is as large as its children and centred in it, as SwiftUI's
    // `VStack { … }.frame(width:height:)` is (not laid out from the frame's top).
    var isStack = false
    if case .stack = layer.content { isStack = true }
    if layer.frameAlignment != nil || layer.flexWidth != nil || layer.flexHeight != nil
      || layer.aspect != nil || (isStack && (layer.frameWidth != nil || layer.frameHeight != nil))
    {
      // Proposed as when measured: nothing on a `fixedSize` axis, or the frame's ideal length.
      let natural = try naturalSize(
        layer,
        try aspectProposal(
          layer,
          Size(
            width: layer.fixedWidth ? Self.unproposed(layer.flexWidth) : frame.width,
            height: layer.fixedHeight ? Self.unproposed(layer.flexHeight) : frame.height)))
      let alignment = layer.frameAlignment ?? .center
      contentBox = onGrid(
        Rect(
          x: snapped(frame.minX, (frame.width - natural.width) * alignment.horizontal),
          y: snapped(frame.minY, (frame.height - natural.height) * alignment.vertical),
          width: natural.width, height: natural.height), in: frame,
        keepingSize: Self.laysItselfOut(layer))
    }
    if rebuilding, case .text(let runs, _) = layer.content,
      runs.contains(where: { $0.template != nil })
    {
      templateBoxes[name, default: [:]][layoutVersion] = contentBox
    } else if case .text(let runs, _) = layer.content, runs.contains(where: { $0.template != nil })
    {
      textTemplates.append(
        PlacedTemplate(
          name: name, layer: layer, frame: frame, box: contentBox, color: color,
          animatedColor: animatedColor,
          holder: !layer.backgrounds.isEmpty || !layer.overlays.isEmpty || layer.keepsDecorations
            ? name + ".content" : name))
    }
    var content = try self.content(
      layer, frame: contentBox, color: color, animatedColor: animatedColor, name: name)
    // Where the layer takes taps itself (`HitTest`): a text or a symbol in its own bounds (its
    // lines' block, the symbol's square, centred as drawn — not the whole of a larger frame),
    // an image, a shape, a path or a ring where it draws, a stack or a spacer nowhere (its
    // children do).
    let hitArea: HitArea?
    switch layer.content {
    case .text:
      let text = try paragraph(
        layer, width: wrapWidth(layer, contentBox.width),
        height: textHeight(layer, contentBox.height))
      hitArea = .rect(Self.centred(textSize(text, layer), in: contentBox))
    case .symbol(_, let request, let scale, let resizable):
      let side = symbolSide(request, scale)
      hitArea = .rect(
        resizable ? contentBox : Self.centred(Size(width: side, height: side), in: contentBox))
    case .image, .path, .shape, .ring: hitArea = .drawn
    case .stack, .spacer: hitArea = nil
    }
    // A template image is tinted by the foreground colour: a colour map before every other
    // effect, of the image's own pixels only (not its background's or overlay's, which
    // `renderingMode(.template)` does not reach).
    var tinted: ColorEffectBinding?
    if case .image(_, _, let options) = layer.content, options.renderingMode == .template,
      layer.fillGradient == nil
    {
      let rgba = [color.red, color.green, color.blue, color.alpha]
      let tint: [ScalarBinding] =
        animatedColor.map { channel in (0..<4).map { .channel(channel, component: $0) } }
        ?? rgba.map { .constant($0) }
      tinted = .template(tint)
    }
    let decorated = !layer.backgrounds.isEmpty || !layer.overlays.isEmpty || layer.keepsDecorations
    if decorated {
      // Backgrounds, the content, overlays: each decoration offered the whole laid-out box
      // (padding included) and placed in it by its alignment; the content keeps its colour.
      let box = Rect(
        x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height)
      func decorations(
        _ list: [LayerDescription.Decoration]
      ) throws(SceneFileError) -> [SceneNode] {
        var nodes: [SceneNode] = []
        for d in list {
          nodes.append(
            try self.node(
              d.layer, box: try alignedBox(of: d.layer, in: box, alignment: d.alignment)))
        }
        return nodes
      }
      var own = SceneNode(name + ".content", content)
      own.fillColor = animatedColor
      own.hitArea = hitArea
      if let tinted { own.colorEffects.append(tinted) }
      content = .group(
        try decorations(layer.backgrounds) + [own] + (try decorations(layer.overlays)))
    }
    let offset = try bind(layer.offset, name + ".offset", count: 2, what: "a point")
    var node = SceneNode(
      name, content, centerX: centerX, centerY: centerY, offsetX: offset[0], offsetY: offset[1],
      scale: layer.scaleY != nil
        ? .constant(1)
        : try bind(layer.scale, name + ".scaleEffect", count: 1, what: "a number")[0],
      opacity: try bind(layer.opacity, name + ".opacity", count: 1, what: "a number")[0])
    if let s = layer.shadow {
      // Each part a constant, or a channel that moves with the changes' animations.
      let color = try bind(s.color, name + ".shadow.color", count: 4, what: "a colour")
      let radius = try bind(s.radius, name + ".shadow.radius", count: 1, what: "a number")[0]
      let x = try bind(s.x, name + ".shadow.x", count: 1, what: "a number")[0]
      let y = try bind(s.y, name + ".shadow.y", count: 1, what: "a number")[0]
      let initial = try s.color.evaluate(scope, count: 4, what: "a colour")
      node.shadow = Shadow(
        color: Color(red: initial[0], green: initial[1], blue: initial[2], alpha: initial[3]),
        radius: try s.radius.evaluate(scope, count: 1, what: "a number")[0],
        offset: Point(
          try s.x.evaluate(scope, count: 1, what: "a number")[0],
          try s.y.evaluate(scope, count: 1, what: "a number")[0]))
      if color.contains(where: { if case .channel = $0 { true } else { false } }) {
        node.shadowColor = color
      }
      if case .channel = radius { node.shadowRadius = radius }
      if case .channel = x { node.shadowOffsetX = x }
      if case .channel = y { node.shadowOffsetY = y }
    }
    node.rotation = try bind(layer.rotation, name + ".rotationEffect", count: 1, what: "a number")[
      0]
    if let y = layer.scaleY {
      // `.scaleEffect(x:y:)`: each axis its own channel.
      node.scale = try bind(layer.scale, name + ".scaleEffect.x", count: 1, what: "a number")[0]
      node.scaleY = try bind(y, name + ".scaleEffect.y", count: 1, what: "a number")[0]
    }
    // The scale's and rotation's anchors: unit points of the frame, fixed or channels when they
    // read state (they animate with the change, as SwiftUI's do); kept as bindings, so that
    // `animateLayout` can tie them to the frame's size where it changes with state.
    func anchor(_ bound: Bound?, _ channel: String) throws(SceneFileError) -> AnchorBinding? {
      guard let bound else { return nil }
      let unit = try bind(bound, channel, count: 2, what: "a unit point")
      return AnchorBinding(x: unit[0], y: unit[1], width: size.width, height: size.height)
    }
    node.scaleAnchorBinding = try anchor(layer.scaleAnchor, name + ".scaleEffect.anchor")
    node.rotationAnchorBinding = try anchor(layer.rotationAnchor, name + ".rotationEffect.anchor")
    if let turn = layer.rotation3D {
      node.rotation3D = Rotation3DBinding(
        degrees: try bind(turn.degrees, name + ".rotation3DEffect", count: 1, what: "a number")[0],
        axis: turn.axis, unitAnchor: Point(turn.anchor.x, turn.anchor.y), anchorZ: turn.anchorZ,
        perspective: turn.perspective, width: size.width, height: size.height)
    }
    node.fillColor = decorated ? nil : animatedColor
    if !decorated { node.hitArea = hitArea }
    if !decorated, let tinted { node.colorEffects.append(tinted) }
    try addEffects(layer, to: &node, size: size, name: name)
    var lines: [LayoutRecord.Line] = []
    if case .text = layer.content {
      // As `content` draws them: each baseline an ascender below its line's top.
      let text = try paragraph(
        layer, width: wrapWidth(layer, contentBox.width),
        height: textHeight(layer, contentBox.height))
      let top = (contentBox.minY + contentBox.maxY) / 2 - textSize(text, layer).height / 2
      let baselines = text.baselines(lineSpacing: layer.textOptions.lineSpacing)
      lines = zip(text.lines, baselines).map { line, baseline in
        LayoutRecord.Line(text: line.text, baseline: top + baseline, width: line.layout.width)
      }
    }
    node.layout = LayoutRecord(
      path: layer.path, id: layer.id, width: size.width, height: size.height, lines: lines)
    return node
  }

  /// A clip (`clipShape`, `clipped`, `cornerRadius`) or a `contentShape` in the layer's
  /// laid-out `box` (the node's space, padding included): a shape of the box, maybe with a
  /// corner radius from state, or a path placed in it. `key` names it in channels and errors.
  private mutating func clipBinding(
    _ clip: EffectsDescription.Clip, box: Rect, key: String, layer: LayerDescription,
    name: String
  ) throws(SceneFileError) -> ClipBinding {
    switch clip {
    case .shape(let kind, let radius, let style, let rule):
      let bound = try radius.map { r throws(SceneFileError) in
        try bind(r, name + "." + key + ".cornerRadius", count: 1, what: "a number")[0]
      }
      if let bound, case .channel = bound {
        // An animated radius: resolved each frame (only rectangles take one).
        return ClipBinding(
          .roundedFrame(box, radius: bound, style: style ?? settings.swiftUI.cornerStyle),
          rule: rule)
      }
      let r = bound?.resolve([:]) ?? 0
      return ClipBinding(
        .shape(InsettableShape(insettableKind(kind, radius: r, style: style), frame: box)),
        rule: rule)
    case .path(let path, let viewBox, let rule):
      guard ClipBinding.place(path, viewBox: viewBox, in: box) != nil else {
        throw SceneFileError(
          path: layer.path + "." + key, "the path placed in its frame leaves the finite range",
          line: layer.line, column: layer.column)
      }
      // Placed in the frame of the moment when it is drawn, so it follows a frame that layout
      // changes or animates.
      return ClipBinding(.placedPath(path, viewBox: viewBox, frame: box), rule: rule)
    case .frame: return ClipBinding(.shape(InsettableShape(.rectangle, frame: box)))
    case .cornerRadius(let radius):
      return ClipBinding(
        .roundedFrame(
          box, radius: try bind(radius, name + ".cornerRadius", count: 1, what: "a number")[0],
          style: settings.swiftUI.cornerStyle))
    }
  }

  /// The clip, mask and blur, in the node's own space: they apply to its whole laid-out box
  /// (padding included), as modifiers after `.padding` do in SwiftUI.
  private mutating func addEffects(
    _ layer: LayerDescription, to node: inout SceneNode, size: Size, name: String
  ) throws(SceneFileError) {
    let box = Rect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height)
    let effects = layer.effects
    if let clip = effects.clip {
      node.clip = try clipBinding(clip, box: box, key: "clipShape", layer: layer, name: name)
    }
    if let shape = layer.contentShape {
      node.contentShape = try clipBinding(
        shape, box: box, key: "contentShape", layer: layer, name: name)
    }
    if let allows = layer.allowsHitTesting {
      // Not animated: it changes with the state, at once (as `if` does).
      node.allowsHitTesting = try bind(
        allows, name + ".allowsHitTesting", count: 1, what: "true or false", animated: false)[0]
    }
    if let mask = effects.mask.first {
      // Laid out like an overlay: offered the layer's size, centred in it.
      node.mask = [try self.node(mask, box: try centredBox(of: mask, in: box))]
    }
    for (key, value) in effects.colors {
      let channel = name + "." + key
      func amount() throws(SceneFileError) -> ScalarBinding {
        guard let value else { return .constant(0) }
        return try bind(value, channel, count: 1, what: "a number")[0]
      }
      switch key {
      case "saturation": node.colorEffects.append(.saturation(try amount()))
      case "brightness": node.colorEffects.append(.brightness(try amount()))
      case "contrast": node.colorEffects.append(.contrast(try amount()))
      case "grayscale": node.colorEffects.append(.grayscale(try amount()))
      case "hueRotation": node.colorEffects.append(.hueRotation(try amount()))
      case "colorMultiply":
        guard let value else { continue }
        node.colorEffects.append(
          .colorMultiply(try bind(value, channel, count: 4, what: "a colour")))
      default: node.colorEffects.append(.colorInvert)
      }
    }
    if let blur = effects.blur {
      node.blur = BlurBinding(
        radius: try bind(blur.radius, name + ".blur", count: 1, what: "a number")[0],
        opaque: blur.opaque, bounds: box)
    }
  }

  /// Where a ZStack puts a child offered `area`: its measured size centred on the pixel grid
  /// (a positioned child takes the whole area).
  mutating func centredBox(of child: LayerDescription, in area: Rect) throws(SceneFileError) -> Rect
  {
    try alignedBox(of: child, in: area, alignment: .center)
  }

  /// Where a child offered `area` goes: its measured size placed by `alignment` (the spare room
  /// split by the alignment's fractions, on the pixel grid); a positioned child takes the whole
  /// area.
  mutating func alignedBox(
    of child: LayerDescription, in area: Rect, alignment: Alignment
  ) throws(SceneFileError) -> Rect {
    guard child.position == nil else { return area }
    let s = try measure(child, Size(width: area.width, height: area.height))
    return onGrid(
      Rect(
        x: snapped(area.minX, (area.width - s.width) * alignment.horizontal),
        y: snapped(area.minY, (area.height - s.height) * alignment.vertical), width: s.width,
        height: s.height), in: area, keepingSize: Self.laysItselfOut(child))
  }

  /// A box of `size`'s aspect ratio centred in `area`: inside it (`fit`) or covering it
  /// (`fill`), as `.aspectRatio(contentMode:)` scales a resizable image.
  static func aspectRect(
    _ size: Size, in area: Rect, _ mode: LayerDescription.ImageOptions.ContentMode
  ) -> Rect {
    guard size.width > 0, size.height > 0 else { return area }
    let (sx, sy) = (area.width / size.width, area.height / size.height)
    let s = mode == .fit ? min(sx, sy) : max(sx, sy)
    let (w, h) = (size.width * s, size.height * s)
    return Rect(
      x: (area.minX + area.maxX - w) / 2, y: (area.minY + area.maxY - h) / 2, width: w, height: h)
  }

  /// The insettable shape a shape kind draws (a ring's is its circle).
  func insettableKind(
    _ kind: LayerDescription.ShapeKind, radius: Double, style: CornerStyle?
  ) -> InsettableShape.Kind {
    switch kind {
    case .rectangle:
      return radius > 0
        ? .roundedRectangle(cornerRadius: radius, style: style ?? settings.swiftUI.cornerStyle)
        : .rectangle
    case .roundedRectangle:
      return .roundedRectangle(cornerRadius: radius, style: style ?? settings.swiftUI.cornerStyle)
    case .capsule: return .capsule
    case .ellipse: return .ellipse
    case .circle, .ring: return .circle
    }
  }

  /// A colour as a constant, or the channel that animates it.
  mutating func colorBinding(
    _ bound: Bound, _ name: String
  ) throws(SceneFileError) -> (Color, String?) {
    var rgba = [0.0, 0, 0, 0]
    var channel: String?
    for (i, binding) in try bind(bound, name, count: 4, what: "a colour").enumerated() {
      switch binding {
      case .constant(let v): rgba[i] = v
      case .channel(let name, _): channel = name
      case .difference: break  // not made for a colour
      }
    }
    return (Color(red: rgba[0], green: rgba[1], blue: rgba[2], alpha: rgba[3]), channel)
  }

  /// A gradient with its stops, points, radii and angles bound; unit points resolve in `frame`.
  private mutating func gradientBinding(
    _ g: GradientDescription, frame: Rect, name: String
  ) throws(SceneFileError) -> GradientBinding {
    var colors: [[ScalarBinding]] = []
    var locations: [ScalarBinding] = []
    for (i, stop) in g.stops.enumerated() {
      colors.append(try bind(stop.color, name + ".stops[\(i)].color", count: 4, what: "a colour"))
      locations.append(
        try bind(stop.location, name + ".stops[\(i)].location", count: 1, what: "a number")[0])
    }
    func point(_ bound: Bound, _ key: String) throws(SceneFileError) -> [ScalarBinding] {
      try bind(bound, name + "." + key, count: 2, what: "a unit point [x, y]")
    }
    func number(_ bound: Bound, _ key: String) throws(SceneFileError) -> ScalarBinding {
      try bind(bound, name + "." + key, count: 1, what: "a number")[0]
    }
    let geometry: GradientBinding.Geometry
    switch g.kind {
    case .linear(let start, let end):
      geometry = .linear(start: try point(start, "startPoint"), end: try point(end, "endPoint"))
    case .radial(let center, let r0, let r1):
      geometry = .radial(
        center: try point(center, "center"), startRadius: try number(r0, "startRadius"),
        endRadius: try number(r1, "endRadius"))
    case .angular(let center, let a0, let a1):
      geometry = .angular(
        center: try point(center, "center"), startAngle: try number(a0, "startAngle"),
        endAngle: try number(a1, "endAngle"))
    }
    return GradientBinding(
      geometry: geometry, colors: colors, locations: locations, colorSpace: g.colorSpace,
      frame: frame)
  }

  /// A shape, path or text with a stroke, a trim or a gradient: what it fills and strokes, with
  /// its bindings. `frame` is the unit space of its gradients.
  private mutating func drawing(
    _ outline: ShapeDrawing.Outline, _ layer: LayerDescription, color: Color,
    animatedColor: String?, rule: FillRule, frame: Rect, name: String
  ) throws(SceneFileError) -> SceneNode.Content {
    var fill: PaintBinding?
    if let gradient = layer.fillGradient {
      fill = .gradient(try gradientBinding(gradient, frame: frame, name: name + ".fill"))
    } else if layer.stroke == nil || layer.fillsUnderStroke {
      fill = .color(color, channel: animatedColor)
    }
    var drawing = ShapeDrawing(outline, fill: fill, rule: rule)
    if let radius = layer.shapeCornerRadius {
      drawing.cornerRadius =
        try bind(radius, name + ".cornerRadius", count: 1, what: "a number")[0]
    }
    if let trim = layer.trim {
      drawing.trimFrom = try bind(trim.from, name + ".trim.from", count: 1, what: "a number")[0]
      drawing.trimTo = try bind(trim.to, name + ".trim.to", count: 1, what: "a number")[0]
    }
    if let stroke = layer.stroke {
      let key = name + (stroke.inside ? ".strokeBorder" : ".stroke")
      let paint: PaintBinding
      if let gradient = stroke.gradient {
        paint = .gradient(try gradientBinding(gradient, frame: frame, name: key + ".color"))
      } else {
        let (strokeColor, channel) = try colorBinding(stroke.color, key + ".color")
        paint = .color(strokeColor, channel: channel)
      }
      drawing.stroke = ShapeDrawing.StrokeDrawing(
        style: stroke.style, paint: paint,
        lineWidth: try bind(stroke.lineWidth, key + ".lineWidth", count: 1, what: "a number")[0],
        dashPhase: try bind(stroke.dashPhase, key + ".dashPhase", count: 1, what: "a number")[0],
        miterLimit: try bind(
          stroke.miterLimit, key + ".miterLimit", count: 1, what: "a number")[0],
        inside: stroke.inside)
    }
    return .drawing(drawing)
  }

  /// A path drawing whose outline is `path` in its own units, placed by `placement` (a scale and
  /// a translation) when it is drawn: layout can then animate the placement with the frame.
  static func placed(
    _ content: SceneNode.Content, _ path: Path, _ placement: Transform
  ) -> SceneNode.Content {
    guard case .drawing(var drawing) = content else { return content }
    drawing.outline = .path(path)
    drawing.placement = [placement.a, placement.d, placement.tx, placement.ty].map {
      .constant($0)
    }
    return .drawing(drawing)
  }

  mutating func content(
    _ layer: LayerDescription, frame f: Rect, color: Color, animatedColor: String?, name: String
  ) throws(SceneFileError) -> SceneNode.Content {
    let drawn =
      layer.stroke != nil || layer.trim != nil || layer.fillGradient != nil
      || layer.shapeCornerRadius != nil
    let (midX, midY) = ((f.minX + f.maxX) / 2, (f.minY + f.maxY) / 2)
    switch layer.content {
    case .text:
      let text = try paragraph(
        layer, width: wrapWidth(layer, f.width), height: textHeight(layer, f.height))
      let size = textSize(text, layer)
      let (w, h) = (size.width, size.height)
      // Each line at its baseline, placed in the text's width by its multiline alignment.
      let baselines = text.baselines(lineSpacing: layer.textOptions.lineSpacing).map {
        midY - h / 2 + $0
      }
      func origin(_ i: Int) -> Transform {
        let line = text.lines[i].layout.width
        let x =
          switch layer.textOptions.alignment {
          case .leading: midX - w / 2
          case .center: midX - line / 2
          case .trailing: midX + w / 2 - line
          }
        return .translation(x, baselines[i])
      }
      let multiPaint = text.lines.contains { $0.layout.pieces.contains { $0.paint != 0 } }
      let hasImages = text.lines.contains { !$0.layout.images.isEmpty }
      guard text.lines.count > 1 || layer.fillGradient != nil || multiPaint || hasImages else {
        return .shape(text.lines[0].layout.path, color, .nonzero, origin(0))
      }
      // Each paint's outlines over all lines: paint 0 in the layer's colour or gradient, the
      // others in their runs' colours, drawn after it in the order met.
      var builders: [Int: PathBuilder] = [:]
      var order: [Int] = [0]
      for (i, line) in text.lines.enumerated() {
        let pieces = multiPaint ? line.layout.pieces : [.init(paint: 0, path: line.layout.path)]
        for piece in pieces {
          guard let placed = piece.path.applying(origin(i)) else { continue }
          if builders[piece.paint] == nil, !order.contains(piece.paint) {
            order.append(piece.paint)
          }
          builders[piece.paint, default: PathBuilder()].add(placed)
        }
      }
      func own(_ paint: Int) -> Path { builders[paint]?.build() ?? .empty }
      let frame = Rect(x: midX - w / 2, y: midY - h / 2, width: w, height: h)
      let first: SceneNode.Content =
        layer.fillGradient == nil
        ? .shape(own(0), color, .nonzero, .identity)
        : try drawing(
          .path(own(0)), layer, color: color, animatedColor: animatedColor, rule: .nonzero,
          frame: frame, name: name)
      guard multiPaint || hasImages else { return first }
      let paints = Self.textPaints(layer).paints
      var base = SceneNode(name + ".text", first)
      base.fillColor = animatedColor
      var nodes = [base]
      for paint in order.dropFirst() where multiPaint {
        guard let bound = paints[paint] else { continue }
        let (runColor, runChannel) = try colorBinding(bound, name + ".runs[\(paint)]")
        var node = SceneNode(
          name + ".runs[\(paint)]", .shape(own(paint), runColor, .nonzero, .identity))
        node.fillColor = runChannel
        nodes.append(node)
      }
      // Colour glyphs (emoji) in their own colours, resampled from the font's bitmaps.
      for (i, line) in text.lines.enumerated() {
        let t = origin(i)
        for (k, glyph) in line.layout.images.enumerated() {
          let rect = Rect(
            x: glyph.rect.minX + t.tx, y: glyph.rect.minY + t.ty, width: glyph.rect.width,
            height: glyph.rect.height)
          nodes.append(SceneNode(name + ".emoji[\(i)][\(k)]", .image(glyph.image, rect, .medium)))
        }
      }
      return .group(nodes)
    case .image(let image, let scale, let options):
      let natural = Size(width: Double(image.width) / scale, height: Double(image.height) / scale)
      let rect: Rect
      if !options.resizable {
        rect = Rect(
          x: midX - natural.width / 2, y: midY - natural.height / 2, width: natural.width,
          height: natural.height)
      } else if let mode = options.contentMode {
        rect = Self.aspectRect(natural, in: f, mode)
      } else {
        rect = f
      }
      guard options.renderingMode == .template, layer.fillGradient != nil else {
        return .image(image, rect, options.interpolation)
      }
      // `.foregroundStyle(gradient)` on a template image: the gradient, its unit points in the
      // image's rectangle, seen through the image's alpha.
      var tinted = SceneNode(
        name + ".template",
        try drawing(
          .path(Path.rect(rect)), layer, color: color, animatedColor: animatedColor,
          rule: .nonzero, frame: rect, name: name))
      tinted.mask = [SceneNode(name + ".alpha", .image(image, rect, options.interpolation))]
      return .group([tinted])
    case .symbol(let symbol, let request, let scale, let resizable):
      let side = resizable ? min(f.width, f.height) : symbolSide(request, scale)
      var (path, placement) = try symbolPath(
        layer, name: symbol, side: side, midX: midX, midY: midY)
      var box = Rect(x: midX - side / 2, y: midY - side / 2, width: side, height: side)
      if resizable, side > 0, f.width != f.height {
        // `resizable()` stretches an image to its frame, a symbol's too (Apple, `Image`);
        // `aspectRatio` keeps its shape (the frame then has the symbol's square ratio).
        let stretch = Transform.translation(-midX, -midY)
          .concatenating(.scale(f.width / side, f.height / side))
          .concatenating(.translation(midX, midY))
        placement = placement.concatenating(stretch)
        box = f
      }
      if path.applying(placement) == nil { (path, placement) = (.empty, .identity) }
      // The outline in its own units, placed by a transform that layout may animate.
      guard layer.fillGradient != nil else { return .shape(path, color, .nonzero, placement) }
      return Self.placed(
        try drawing(
          .path(path), layer, color: color, animatedColor: animatedColor, rule: .nonzero,
          frame: box, name: name), path, placement)
    case .path(let path, let viewBox, let rule):
      let placement: Transform
      if layer.frameWidth != nil || layer.frameHeight != nil {
        // Without a viewBox, the path's own extent (its curves', not their control points').
        let box = viewBox ?? path.curveBounds ?? Rect(x: 0, y: 0, width: 1, height: 1)
        // A path that is one point (`M10 10 L10 10`, a dot when stroked with round caps) has no
        // size to fit: it goes to the frame's centre as it is.
        placement =
          box.width > 0 || box.height > 0
          ? .mapping(box, fittedInto: f)
          : .translation((f.minX + f.maxX) / 2 - box.minX, (f.minY + f.maxY) / 2 - box.minY)
      } else {
        placement = .translation(f.minX, f.minY)
      }
      guard drawn else { return .shape(path, color, rule, placement) }
      // Stroked or trimmed in points, after the path is placed, as SwiftUI strokes a shape's
      // path(in:).
      guard path.applying(placement) != nil else {
        throw SceneFileError(
          path: layer.path, "the path placed in its frame leaves the finite range",
          line: layer.line, column: layer.column)
      }
      return Self.placed(
        try drawing(
          .path(path), layer, color: color, animatedColor: animatedColor, rule: rule, frame: f,
          name: name), path, placement)
    case .shape(let kind, let radius, let style):
      // An animated radius: a rounded rectangle whose radius the drawing sets each frame.
      let kindDrawn =
        layer.shapeCornerRadius != nil
        ? .roundedRectangle(cornerRadius: 0, style: style ?? settings.swiftUI.cornerStyle)
        : insettableKind(kind, radius: radius, style: style)
      let shape = InsettableShape(kindDrawn, frame: f)
      // A frame that may animate is the drawing's, which draws the shape in it each frame.
      guard drawn || animatesLayout else { return .shape(shape.path(), color, .nonzero, .identity) }
      return try drawing(
        .shape(shape), layer, color: color, animatedColor: animatedColor, rule: .nonzero,
        frame: f, name: name)
    case .ring(let lineWidth, let from, let to, let roundCaps):
      let width = try bind(lineWidth, name + ".lineWidth", count: 1, what: "a number")[0]
      let ring = RingShape(
        diameter: min(f.width, f.height), lineWidth: max(0, width.resolve([:])),
        roundCaps: roundCaps)
      let trim = (
        try bind(from, name + ".trim.from", count: 1, what: "a number")[0],
        try bind(to, name + ".trim.to", count: 1, what: "a number")[0]
      )
      var animatedWidth: ScalarBinding?
      if case .channel = width { animatedWidth = width }
      let content = SceneNode.Content.ring(
        ring, color, from: trim.0, to: trim.1, lineWidth: animatedWidth)
      guard midX != 0 || midY != 0 else { return content }
      var inner = SceneNode(
        name + ".ring", content, centerX: .constant(midX), centerY: .constant(midY))
      inner.fillColor = animatedColor
      return .group([inner])
    case .spacer: return .group([])
    case .stack(let axis, let children, let alignment, let spacing):
      let proposal = placementProposal(layer, axis, size: Size(width: f.width, height: f.height))
      var nodes: [(node: SceneNode, z: Double)] = []
      if axis == .zstack {
        for child in children {
          let box = try alignedBox(of: child, in: f, alignment: alignment)
          nodes.append((try node(child, box: box), child.zIndex))
        }
      } else {
        let vertical = axis == .vstack
        let sizes = try stackSizes(children, proposal, vertical: vertical, spacing: spacing)
        var cursor = vertical ? f.minY : f.minX
        // Text baselines on one line: each child dropped from the top by its baseline's lift.
        let drops =
          !vertical && alignment.isBaseline
          ? try baselineLifts(children, sizes, last: alignment == .lastTextBaseline).drops : []
        for (index, (child, s)) in zip(children, sizes).enumerated() {
          // Along the stack: the cursor; across it: the stack's alignment.
          let (crossStart, crossLength, crossSize) =
            vertical ? (f.minX, f.width, s.width) : (f.minY, f.height, s.height)
          let fraction = vertical ? alignment.horizontal : alignment.vertical
          let cross =
            !drops.isEmpty
            ? snapped(crossStart, drops[index])
            : fraction == 0
              ? crossStart
              : fraction == 1
                ? crossStart + crossLength - crossSize
                : snapped(crossStart, (crossLength - crossSize) / 2)
          let box = onGrid(
            vertical
              ? Rect(x: cross, y: cursor, width: s.width, height: s.height)
              : Rect(x: cursor, y: cross, width: s.width, height: s.height), in: f,
            keepingSize: Self.laysItselfOut(child))
          cursor += (vertical ? s.height : s.width) + spacing
          nodes.append((try node(child, box: box), child.zIndex))
        }
      }
      return .group(Self.byZIndex(nodes))
    }
  }
}
