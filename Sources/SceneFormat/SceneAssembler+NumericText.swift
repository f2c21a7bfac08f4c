import Motion
import Raster
import SceneGraph

/// `contentTransition(.numericText())` per character: when a one-line text from state changes,
/// the characters that stay keep their glyphs and slide to their new places, and only the ones
/// that change roll — the old ones up and out, the new ones up from below (down with
/// `countsDown`), each fading and blurring as it goes (docs/SEMANTICS.md, "Type").
extension SceneAssembler {
  /// One character of a version's line: what it is and the band of the line its advance takes
  /// (node space, points, from its left edge to the next character's).
  struct CharacterCell: Equatable {
    var character: Character
    var minX: Double
    var maxX: Double
  }

  /// The characters of the text in `scope` laid out in `box` as `content(_:frame:…)` lays it
  /// out, or nil when it is not one line holding every character (wrapped or truncated text rolls
  /// whole).
  mutating func characterCells(
    _ placed: PlacedTemplate, _ runs: [TextRun], box: Rect
  ) throws(SceneFileError) -> [CharacterCell]? {
    let text = try paragraph(
      placed.layer, width: wrapWidth(placed.layer, box.width),
      height: textHeight(placed.layer, box.height))
    let string = try textOfRuns(placed.layer, runs).joined()
    guard text.lines.count == 1, text.lines[0].text == string, !string.isEmpty else { return nil }
    let layout = text.lines[0].layout
    let w = textSize(text, placed.layer).width
    let midX = (box.minX + box.maxX) / 2
    // The line's left end, as `content` places it.
    let left =
      switch placed.layer.textOptions.alignment {
      case .leading: midX - w / 2
      case .center: midX - layout.width / 2
      case .trailing: midX + w / 2 - layout.width
      }
    var cells: [CharacterCell] = []
    var offset = 0
    for character in string {
      let bytes = String(character).utf8.count
      let spans = layout.glyphSpans.filter { $0.cluster >= offset && $0.cluster < offset + bytes }
      offset += bytes
      guard let low = spans.map(\.minX).min(), let high = spans.map(\.maxX).max() else {
        return nil  // a character without a glyph of its own (inside another's cluster)
      }
      cells.append(CharacterCell(character: character, minX: left + low, maxX: left + high))
    }
    // Sorted along the line (the cells of right-to-left text run backwards).
    guard zip(cells, cells.dropFirst()).allSatisfy({ $0.minX <= $1.minX + 1e-9 }) else {
      return nil
    }
    return cells
  }

  /// Which characters of `old` and `new` stay: the same character at the same place when both
  /// have as many, else the common beginning and end (the rest changes). Pairs of indices.
  static func keptCharacters(_ old: [Character], _ new: [Character]) -> [(Int, Int)] {
    if old.count == new.count {
      return old.indices.filter { old[$0] == new[$0] }.map { ($0, $0) }
    }
    var prefix = 0
    while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(old.count, new.count) - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    return (0..<prefix).map { ($0, $0) }
      + (0..<suffix).map { (old.count - suffix + $0, new.count - suffix + $0) }
  }

  /// `rect` grown by `margin` points on every side.
  static func grown(_ rect: Rect, by margin: Double) -> Rect {
    Rect(
      minX: rect.minX - margin, minY: rect.minY - margin, maxX: rect.maxX + margin,
      maxY: rect.maxY + margin)
  }

  /// A channel that starts at `initial` and takes each change, named `name`.
  mutating func scalarChannel(
    _ name: String, initial: Double, _ changes: [ChannelTimeline.Change]
  ) throws(SceneFileError) -> ScalarBinding {
    try countChanges(changes.count)
    channels.append(
      Channel(
        name: name, bound: Bound(expression: .constant([0]), path: name, line: 0, column: 0),
        initial: [initial], traced: [], changes: changes,
        lastTarget: changes.last?.target ?? [initial]))
    return .channel(name, component: 0)
  }

  /// The nodes of a numeric text whose versions are each one line: the first version whole
  /// until the first change; then, for each change from version a to version b, b's kept
  /// characters (sliding from where a had them), a's changed characters rolling out by `rise`
  /// above (fading out, blurring) and b's rolling in from `rise` below (fading in, sharpening),
  /// all with the change's animation, until the next change. Each part is its version's whole
  /// text clipped to its characters' bands, cut on the pixel grid, so at rest the parts add up
  /// to the whole text.
  mutating func rollCharacters(
    _ placed: PlacedTemplate, shown: [Int], boxes: [Rect], contents: [SceneNode.Content],
    cells: [[CharacterCell]], rise: Double
  ) throws(SceneFileError) -> [SceneNode] {
    let base = placed.name + ".text"
    // The blur radius a rolling character reaches (our choice: a twelfth of the line height).
    let blur = abs(rise) / 6
    var changeTimes: [Double] = []
    var changeIndices: [Int] = []
    for i in snapshots.indices where shown[i + 1] != shown[i] {
      changeTimes.append(snapshotChange(i, at: placed.layer.path).time)
      changeIndices.append(i)
    }
    var nodes: [SceneNode] = []
    func node(
      _ name: String, _ version: Int, opacity: ScalarBinding, clip: [Rect]
    ) -> SceneNode {
      var node = SceneNode(name, contents[version], opacity: opacity)
      node.fillColor = placed.animatedColor
      var path = PathBuilder()
      for rect in clip { path.add(Path.rect(rect)) }
      node.clip = ClipBinding(.path(path.build() ?? .empty))
      return node
    }
    // The bands of a version's characters, cut at their boundaries on the pixel grid, the first
    // and last reaching well past the box (glyphs may overhang their advances).
    func bands(_ version: Int) -> [Rect] {
      let line = cells[version]
      let box = boxes[version]
      let margin = box.height + abs(rise)
      let edges =
        [box.minX - margin] + line.dropFirst().map { snapped(0, $0.minX) } + [box.maxX + margin]
      return line.indices.map { i in
        Rect(
          x: edges[i], y: box.minY - margin, width: edges[i + 1] - edges[i],
          height: box.height + 2 * margin)
      }
    }
    // Before the first change: the first version whole.
    let first = try scalarChannel(
      base + ".rest.opacity", initial: 1,
      changeTimes.first.map { [.init(time: $0, target: [0], animation: .none)] } ?? [])
    var whole = SceneNode(base + ".rest", contents[shown[0]], opacity: first)
    whole.fillColor = placed.animatedColor
    nodes.append(whole)
    for (n, i) in changeIndices.enumerated() {
      let (a, b) = (shown[i], shown[i + 1])
      let time = changeTimes[n]
      let animation = snapshotChange(i, at: placed.layer.path).animation
      let next = n + 1 < changeTimes.count ? changeTimes[n + 1] : nil
      let name = base + ".change[\(n)]"
      let kept = Self.keptCharacters(cells[a].map(\.character), cells[b].map(\.character))
      let keptOld = Set(kept.map(\.0))
      let keptNew = Set(kept.map(\.1))
      let (bandsA, bandsB) = (bands(a), bands(b))
      // Shown from the change until the next one.
      func shownFromChange(_ animation: Animation) -> [ChannelTimeline.Change] {
        [.init(time: time, target: [1], animation: animation)]
          + (next.map { [.init(time: $0, target: [0], animation: .none)] } ?? [])
      }
      // a's changed characters leave.
      let leaving = cells[a].indices.filter { !keptOld.contains($0) }.map { bandsA[$0] }
      if !leaving.isEmpty {
        var out = node(
          name + ".out", a,
          opacity: try scalarChannel(
            name + ".out.opacity", initial: 0,
            [
              .init(time: time - 1e-9, target: [1], animation: .none),
              .init(time: time, target: [0], animation: animation),
            ]), clip: leaving)
        out.offsetY = try scalarChannel(
          name + ".out.roll", initial: 0,
          [.init(time: time, target: [-rise], animation: animation)])
        out.blur = BlurBinding(
          radius: try scalarChannel(
            name + ".out.blur", initial: 0,
            [.init(time: time, target: [blur], animation: animation)]),
          opaque: false, bounds: Self.grown(boxes[a], by: abs(rise) + 3 * blur))
        nodes.append(out)
      }
      // b's changed characters arrive.
      let arriving = cells[b].indices.filter { !keptNew.contains($0) }.map { bandsB[$0] }
      if !arriving.isEmpty {
        var into = node(
          name + ".in", b,
          opacity: try scalarChannel(name + ".in.opacity", initial: 0, shownFromChange(animation)),
          clip: arriving)
        into.offsetY = try scalarChannel(
          name + ".in.roll", initial: rise, [.init(time: time, target: [0], animation: animation)])
        into.blur = BlurBinding(
          radius: try scalarChannel(
            name + ".in.blur", initial: blur,
            [.init(time: time, target: [0], animation: animation)]),
          opaque: false, bounds: Self.grown(boxes[b], by: abs(rise) + 3 * blur))
        nodes.append(into)
      }
      // b's kept characters, in runs that move together, from where a drew them.
      var runs: [[(Int, Int)]] = []
      for pair in kept.sorted(by: { $0.1 < $1.1 }) {
        if let last = runs.last?.last, last.0 + 1 == pair.0, last.1 + 1 == pair.1 {
          runs[runs.count - 1].append(pair)
        } else {
          runs.append([pair])
        }
      }
      for (r, run) in runs.enumerated() {
        let shift = cells[a][run[0].0].minX - cells[b][run[0].1].minX
        var stay = node(
          name + ".kept[\(r)]", b,
          opacity: try scalarChannel(
            name + ".kept[\(r)].opacity", initial: 0, shownFromChange(.none)),
          clip: run.map { bandsB[$0.1] })
        if abs(shift) > 1e-9 {
          stay.offsetX = try scalarChannel(
            name + ".kept[\(r)].slide", initial: 0,
            [
              .init(time: time - 1e-9, target: [shift], animation: .none),
              .init(time: time, target: [0], animation: animation),
            ])
        }
        nodes.append(stay)
      }
    }
    return nodes
  }
}
