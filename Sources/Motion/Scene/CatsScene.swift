import Raster

/// The cats demo as a `Scene` (seed: "Tap anywhere to move the cats").
///
/// Layout as SwiftUI does it on the device: the background fills the screen; a GeometryReader and
/// its VStack fill the safe area; the header is `Text(...).font(.headline).padding()` at the top
/// left; the ZStack of three cats is placed with `.position(position)` inside the space the VStack
/// gives it, below the header. `position` starts at the screen's centre (`UIScreen` bounds / 2); a
/// tap sets it to the tap's location in the VStack (the safe area), with the seed's clamp
/// `min(y, geometry.height − safeAreaBottom)`, animated by `.spring()`.
public enum CatsScene {
  public static let headerText = "Tap anywhere to move the cats"

  public static func make(
    device: Device, scale: Double, swiftUI: SwiftUIVersion, taps: [Tap], fonts: DemoFonts,
    frameRate: Double, hold: Double
  ) -> Scene {
    let header = fonts.headlineLayout(headerText)
    // A one-line Text is as tall as ascender + descender, rounded up to the pixel grid.
    let textHeight = (header.lineHeight * scale).rounded(.up) / scale
    let padding = 16.0
    let headerHeight = textHeight + 2 * padding
    let containerTop = device.safeTop + headerHeight
    let changes = taps.sorted { $0.time < $1.time }.map { tap in
      let localY = tap.y - device.safeTop
      let y = min(localY, device.safeHeight - device.safeBottom)
      return ChannelTimeline.Change(
        time: tap.time, target: [tap.x, y], animation: .fluidSpring(swiftUI.defaultSpring))
    }
    let position = ChannelTimeline(
      initial: [device.width / 2, device.height / 2], changes: changes, frameRate: frameRate)
    let cats = [(0.9, 0.3), (0.95, 0.5), (1.0, 1.0)].map { (s, o) in
      SceneNode("cat \(s)", .layer(CatGlyph.view(scale: s, opacity: o).layer))
    }
    let stack = SceneNode(
      "cats", .group(cats), centerX: .channel("position", component: 0),
      centerY: .channel("position", component: 1))
    let container = SceneNode(
      "position container", .group([stack]), centerY: .constant(containerTop))
    let title = SceneNode(
      "header", .fill(header.path, .black, .nonzero), centerX: .constant(padding),
      centerY: .constant(device.safeTop + padding + header.ascender))
    return Scene(
      width: device.width, height: device.height, scale: scale, background: DemoPalette.sky,
      root: SceneNode("screen", .group([title, container])),
      channels: ["position": position],
      traceColumns: [
        TraceColumn("position.x", channel: "position", component: 0),
        TraceColumn("position.y", channel: "position", component: 1),
      ],
      frameRate: frameRate, hold: hold)
  }
}
