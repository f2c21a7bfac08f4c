import Raster

/// What layout decided for the layer a node draws: where it came from in the scene file, its
/// laid-out size in points (padding included, before render effects), and for text its lines.
/// The layout dump (`Scene.layout(at:)`) reads these.
public struct LayoutRecord: Hashable, Sendable {
  /// One line of text: its characters, its baseline's height and its width, in points in the
  /// node's own space (origin at the node's centre, y down).
  public struct Line: Hashable, Sendable {
    public var text: String
    public var baseline: Double
    public var width: Double

    public init(text: String, baseline: Double, width: Double) {
      self.text = text
      self.baseline = baseline
      self.width = width
    }
  }

  /// The layer's JSON path in the scene file (`layers[0].vstack[2]`).
  public var path: String
  public var id: String?
  public var width: Double
  public var height: Double
  public var lines: [Line]
  /// The size's channel (width, height) when layout animates it.
  public var animatedSize: [ScalarBinding]? = nil
  /// A text's lines in each of its layouts, and the channel that says which holds (a step), when
  /// they differ (a text from state, a text that rewraps).
  public var linesByLayout: [[Line]]? = nil
  public var linesShown: ScalarBinding? = nil

  public init(path: String, id: String?, width: Double, height: Double, lines: [Line] = []) {
    self.path = path
    self.id = id
    self.width = width
    self.height = height
    self.lines = lines
  }
}

/// A layer as laid out at one time: its frame on the screen in points (from the screen's top
/// left, before offset, rotation and scale), its children (stack children, background and
/// overlay content, a mask), and for text its lines with baselines on the screen.
public struct LayoutEntry: Hashable, Sendable {
  public var record: LayoutRecord
  public var frame: Rect
  public var lines: [LayoutRecord.Line]
  public var children: [LayoutEntry]

  /// `{"id", "path", "frame": {"x", "y", "width", "height"}, "children": […], "lines": […]}`:
  /// `id` only when the layer has one, `lines` only for text.
  func json(indent: String) -> String {
    let inner = indent + "  "
    var fields: [String] = []
    if let id = record.id { fields.append("\"id\": " + Self.string(id)) }
    fields.append("\"path\": " + Self.string(record.path))
    fields.append(
      "\"frame\": {\"x\": \(Self.number(frame.minX)), \"y\": \(Self.number(frame.minY)), "
        + "\"width\": \(Self.number(frame.width)), \"height\": \(Self.number(frame.height))}")
    if !lines.isEmpty {
      let items = lines.map {
        "{\"text\": \(Self.string($0.text)), \"baseline\": \(Self.number($0.baseline)), "
          + "\"width\": \(Self.number($0.width))}"
      }
      fields.append("\"lines\": [" + items.joined(separator: ", ") + "]")
    }
    fields.append("\"children\": " + Self.array(children, indent: inner))
    return "{\n" + fields.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent + "}"
  }

  static func array(_ entries: [LayoutEntry], indent: String) -> String {
    guard !entries.isEmpty else { return "[]" }
    let inner = indent + "  "
    return "[\n" + entries.map { inner + $0.json(indent: inner) }.joined(separator: ",\n") + "\n"
      + indent + "]"
  }

  /// Points to 1/1000 (the pixel grid at 3× is a third of a point), without trailing zeros.
  static func number(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
    return String(rounded)
  }

  /// A JSON string, escaped (quotes, backslashes, control characters); shared by the tool's
  /// JSON writers.
  public static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

extension Scene {
  /// The laid-out layers at `time` (seconds): each frame from the screen's top left in points,
  /// through the layout's placement only (a layer's `.position` may move with time; offsets,
  /// rotations and scales do not count, as they change no layout).
  public func layout(at time: Double) -> [LayoutEntry] {
    let values = values(at: time)
    return Self.entries(of: root, origin: .zero, values: values)
  }

  /// The layout dump as JSON: `{"layers": [entry, …]}` (`LayoutEntry`).
  public func layoutJSON(at time: Double) -> String {
    "{\n  \"layers\": " + LayoutEntry.array(layout(at: time), indent: "  ") + "\n}\n"
  }

  /// The entries at and below `node`, whose parent's centre is at `origin` on the screen.
  private static func entries(
    of node: SceneNode, origin: Point, values: [String: [Double]]
  ) -> [LayoutEntry] {
    // A conditional layer that is not there is not laid out.
    if let present = node.present, present.resolve(values) <= 0 { return [] }
    let centre = Point(
      origin.x + node.centerX.resolve(values), origin.y + node.centerY.resolve(values))
    var below: [LayoutEntry] = []
    if case .group(let children) = node.content {
      for child in children { below += entries(of: child, origin: centre, values: values) }
    }
    for mask in node.mask { below += entries(of: mask, origin: centre, values: values) }
    guard let record = node.layout else { return below }
    let size = record.animatedSize?.map { max(0, $0.resolve(values)) }
    let (width, height) = (size?[0] ?? record.width, size?[1] ?? record.height)
    let frame = Rect(
      x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
    var shown = record.lines
    if let all = record.linesByLayout, !all.isEmpty, let index = record.linesShown {
      shown = all[min(max(Int(index.resolve(values).rounded()), 0), all.count - 1)]
    }
    let lines = shown.map {
      LayoutRecord.Line(text: $0.text, baseline: centre.y + $0.baseline, width: $0.width)
    }
    return [LayoutEntry(record: record, frame: frame, lines: lines, children: below)]
  }
}
