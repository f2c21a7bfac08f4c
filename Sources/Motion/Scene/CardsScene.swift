import Raster

/// The wallet demo as a `Scene` (Ben Scheirman's "SwiftUI Transforms and Animations").
///
/// Three `CardView`s in a ZStack centred in the safe area, back to front Walmart (blue), Target
/// (red) and " Card" (black). Collapsed: Walmart `.offset(y: -40).scaleEffect(0.90)`, Target
/// `.offset(y: -20).scaleEffect(0.95)`; expanded: −400 and −200 at scale 1, and the whole stack
/// `.offset(y: 150)`. Every change runs on `.spring(mass: 1, stiffness: 100, damping: 20)`, an
/// interpolating spring. Only a tap on the black card, where it is drawn at that moment, toggles.
public enum CardsScene {
  /// The animated values: name, collapsed, expanded.
  static let channels: [(name: String, collapsed: Double, expanded: Double)] = [
    ("walmart.offsetY", -40, -400), ("walmart.scale", 0.90, 1), ("target.offsetY", -20, -200),
    ("target.scale", 0.95, 1), ("stack.offsetY", 0, 150),
  ]

  /// The scene, and one line for each tap that missed the black card.
  public static func make(
    device: Device, scale: Double, swiftUI: SwiftUIVersion, taps: [Tap]?, fonts: DemoFonts,
    frameRate: Double, hold: Double
  ) -> (scene: Scene, notes: [String]) {
    let center = Point(device.width / 2, device.safeTop + device.safeHeight / 2)
    let animation = Animation.interpolatingSpring(.wallet)
    var changes: [String: [ChannelTimeline.Change]] = [:]
    var expanded = false
    var notes: [String] = []
    func timeline(_ name: String, _ initial: Double) -> ChannelTimeline {
      ChannelTimeline(initial: [initial], changes: changes[name] ?? [], frameRate: frameRate)
    }
    for tap in (taps ?? [Tap(x: center.x, y: center.y, time: 0)]).sorted(by: { $0.time < $1.time })
    {
      // Where the black card is drawn at the tap: the stack's offset moves it.
      let stackY = timeline("stack.offsetY", 0).value(at: tap.time)[0]
      let (w, h) = CardView.size
      let hit = abs(tap.x - center.x) <= w / 2 && abs(tap.y - (center.y + stackY)) <= h / 2
      guard hit else {
        notes.append(
          "tap at \(tap.x),\(tap.y)@\(tap.time) misses the top card; nothing changes")
        continue
      }
      expanded.toggle()
      for channel in channels {
        changes[channel.name, default: []].append(
          .init(
            time: tap.time, target: [expanded ? channel.expanded : channel.collapsed],
            animation: animation))
      }
    }
    let style = swiftUI.cornerStyle
    func card(_ title: String, _ color: Color) -> Layer {
      CardView(title: fonts.largeTitleLayout(title), color: color, cornerStyle: style).layer
    }
    let walmart = SceneNode(
      "walmart", .layer(card("Walmart", DemoPalette.blue)),
      offsetY: .channel("walmart.offsetY", component: 0),
      scale: .channel("walmart.scale", component: 0))
    let target = SceneNode(
      "target", .layer(card("Target", DemoPalette.red)),
      offsetY: .channel("target.offsetY", component: 0),
      scale: .channel("target.scale", component: 0))
    let apple = SceneNode("card", .layer(card("\u{F8FF} Card", .black)))
    let stack = SceneNode(
      "stack", .group([walmart, target, apple]), centerX: .constant(center.x),
      centerY: .constant(center.y),
      offsetY: .channel("stack.offsetY", component: 0))
    var timelines: [String: ChannelTimeline] = [:]
    for channel in channels { timelines[channel.name] = timeline(channel.name, channel.collapsed) }
    let scene = Scene(
      width: device.width, height: device.height, scale: scale, background: .white,
      root: SceneNode("screen", .group([stack])), channels: timelines,
      traceColumns: channels.map { TraceColumn($0.name, channel: $0.name) }, frameRate: frameRate,
      hold: hold)
    return (scene, notes)
  }
}
