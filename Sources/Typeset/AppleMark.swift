import Raster

/// Our own drawing of an apple, standing in for U+F8FF (the Apple logo, which only Apple's fonts
/// draw) so " Card" never shows a missing-glyph box. Units: 1/1000 em, y down, origin on the
/// baseline at the left of its advance.
enum AppleMark {
  static let advance = 760.0

  static let path: Path = {
    let data = """
      M360 -560C420 -610 520 -620 590 -570C640 -535 665 -480 668 -430C620 -400 600 -360 610 -320\
      C620 -270 650 -240 690 -225C670 -140 620 -40 560 -10C520 10 480 0 440 -15\
      C400 -28 330 -28 290 -15C250 0 210 10 170 -10C90 -60 40 -180 40 -300\
      C40 -460 140 -590 270 -590C305 -590 335 -575 360 -560Z\
      M365 -615C365 -700 425 -760 495 -772C500 -690 445 -628 365 -615Z
      """
    return (try? PathDataParser.parse(data)) ?? .empty
  }()
}
