import Testing

@testable import SceneFormat

/// Bad scene files are refused with the JSON path, the problem and the line:column.
@Suite struct SceneFileErrorTests {
  static let canvas = #""canvas": {"width": 100, "height": 80}"#

  /// A file with `layers` as given (and the canvas above).
  static func file(_ layers: String, _ rest: String) -> String {
    "{\(canvas), \"layers\": [\(layers)]\(rest.isEmpty ? "" : ", " + rest)}"
  }

  func loadError(_ text: String) -> SceneFileError? {
    do {
      _ = try SceneFile.load(text: text, settings: SceneSettings())
      return nil
    } catch { return error }
  }

  @Test func theIssuesExample() throws {
    let text = Self.file(
      """
      {"shape": "circle"}, {"shape": "circle"},
      {"shape": "rectangle", "shadow": {"radius": "4"}}
      """, "")
    let error = try #require(loadError(text))
    #expect(error.path == "layers[2].shadow.radius")
    #expect(error.message == #"expected a number ≥ 0, got "4""#)
    #expect(
      error.description.hasPrefix(
        #"layers[2].shadow.radius: expected a number ≥ 0, got "4" (line 2:"#))
  }

  static let cases: [(String, String, String)] = [
    (
      file(#"{"shape": "circle", "ofset": {"x": 1}}"#, ""), "layers[0].ofset",
      #"unknown key "ofset" (did you mean "offset"?)"#
    ),
    (file("", #""evnets": []"#), "evnets", #"unknown key "evnets" (did you mean "events"?)"#),
    // A misspelt gradient is taken as a gradient, not a colour with an unknown key.
    (
      file(#"{"shape": "circle", "fill": {"linearGradiant": {"colors": ["red", "blue"]}}}"#, ""),
      "layers[0].fill.linearGradiant",
      #"unknown key "linearGradiant" (did you mean "linearGradient"?)"#
    ),
    (
      file(#"{"shape": "circle", "foregroundColor": {"radialGradient": {"colors": ["red"]}}}"#, ""),
      "layers[0].foregroundColor", #"foregroundColor takes a colour"#
    ),
    (
      file(#"{"shape": "circle", "aspectRatio": 1.5}"#, ""), "layers[0].aspectRatio",
      #"a ratio goes in {"ratio": 1.5, "contentMode": "fit"}"#
    ),
    // Every name as near as the nearest: keys, colours, state names in expressions.
    (
      file(#"{"shape": "circle", "frame": {"mixWidth": 5}}"#, ""), "layers[0].frame.mixWidth",
      #"(did you mean "minWidth" or "maxWidth"?)"#
    ),
    (
      file(#"{"shape": "circle", "fill": "pint"}"#, ""), "layers[0].fill",
      #"(did you mean "mint" or "pink"?)"#
    ),
    // A misspelt unit point is matched like other names.
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"], "startPoint": "topTrailin"}}}"#,
        ""),
      "layers[0].fill.linearGradient.startPoint", #"(did you mean "topTrailing"?)"#
    ),
    // Names as near as each other are all offered; an empty symbol name is called empty.
    (
      file(#"{"shape": "circle", "aspectRatio": "fil"}"#, ""), "layers[0].aspectRatio",
      #"(did you mean "fit" or "fill"?)"#
    ),
    (
      file(#"{"shape": "roundedRectangle", "cornerRadius": 8, "cornerStyle": "circula"}"#, ""),
      "layers[0].cornerStyle",
      #"(did you mean "circular"?)"#
    ),
    (file(#"{"symbol": ""}"#, ""), "layers[0].symbol", #"expected a symbol name"#),
    // An array of the wrong length says how long it was.
    (
      file(#"{"shape": "circle", "trim": [0.5]}"#, ""), "layers[0].trim",
      "got an array of 1 item"
    ),
    // A null beside the other colour key is named as the null, not as two colours.
    (
      file(#"{"shape": "circle", "fill": null, "foregroundColor": "red"}"#, ""), "layers[0].fill",
      "expected a colour or a gradient, got null (to give none, leave the key out)"
    ),
    (
      file(#"{"shape": "circle", "fill": "red", "opacity": null}"#, ""), "layers[0].opacity",
      "got null (to give none, leave the key out)"
    ),
    (
      file(#"{"shape": "circle", "foregroundStyle": "red"}"#, ""), "layers[0].foregroundStyle",
      #"(SwiftUI's foregroundStyle is "foregroundColor" for a colour, "fill" for a gradient)"#
    ),
    (
      file(
        #"{"shape": "circle", "clipShape": {"shape": "ellipse", "cornerStyle": "continuous"}}"#, ""),
      "layers[0].clipShape.cornerStyle",
      "cornerStyle applies to rectangle and roundedRectangle and capsule, not ellipse"
    ),
    (file(#"{"opacity": 0.5}"#, ""), "layers[0]", "missing the layer's content"),
    (
      file(
        #"{"shape": "ring", "lineWidth": 4, "fill": {"angularGradient": {"colors": ["red", "blue"]}}}"#,
        ""),
      "layers[0].fill", "a ring's fill is a colour; for a gradient ring stroke a circle"
    ),
    (
      file(#"{"text": "a", "shape": "circle"}"#, ""), "layers[0]",
      "more than one content (text, shape)"
    ),
    (file(#"{"shape": "hexagon"}"#, ""), "layers[0].shape", #"expected one of "rectangle""#),
    (
      file(#"{"shape": "circle", "opacity": 2}"#, ""), "layers[0].opacity",
      "expected a number from 0 to 1 or an \"=expression\", got 2"
    ),
    (file(##"{"shape": "circle", "fill": "#12345"}"##, ""), "layers[0].fill", "expected a colour"),
    (
      file(#"{"shape": "circle", "fill": "orange", "foregroundColor": "red"}"#, ""), "layers[0]",
      "not both"
    ),
    (
      file(#"{"text": "hi", "font": "huge"}"#, ""), "layers[0].font",
      #"expected one of "largeTitle""#
    ),
    (
      file(#"{"path": "M 0 0 L 10 x"}"#, ""), "layers[0].path",
      "invalid path data: expected a number at 1:12"
    ),
    (
      file(#"{"pathFile": "/no/such/file.svgpath"}"#, ""), "layers[0].pathFile",
      #""/no/such/file.svgpath": an absolute path; files a scene names must be inside its folder"#
    ),
    (
      file(#"{"pathFile": "no-such-file.svgpath"}"#, ""), "layers[0].pathFile",
      #""no-such-file.svgpath": no such file"#
    ),
    (
      file(#"{"shape": "circle", "offset": {"x": "=wobble"}}"#, ""), "layers[0].offset",
      "unknown name 'wobble'"
    ),
    (
      file(#"{"shape": "circle", "offset": "=3"}"#, ""), "layers[0].offset",
      "expected a point, got 1 component"
    ),
    (
      file(#"{"shape": "circle", "scaleEffect": "=1 +"}"#, ""), "layers[0].scaleEffect",
      #"in "=1 +": expected a value at column 4"#
    ),
    (
      file(#"{"id": "a", "shape": "circle"}, {"id": "a", "shape": "circle"}"#, ""), "layers[1].id",
      #"the id "a" is used twice"#
    ),
    (
      file(#"{"use": "nothing"}"#, #""definitions": {"dot": {"shape": "circle"}}"#),
      "layers[0].use", "expected the name of a definition (dot)"
    ),
    (file("", #""state": {"screen": 1}"#), "state.screen", "cannot name a state value"),
    (
      file("", #""state": {"on": false}, "events": [{"at": 1, "set": {"of": true}}]"#),
      "events[0].set.of", #"no state value is named "of" (did you mean 'on'?)"#
    ),
    (
      file("", #""state": {"p": {"x": 1, "y": 2}}, "events": [{"at": 1, "set": {"p": 3}}]"#),
      "events[0].set.p", "expected 2 components like its initial value"
    ),
    (
      file("", #""events": [{"at": 61, "set": {"a": 1}}]"#), "events[0].at",
      "expected a number from 0 to 60, got 61"
    ),
    (
      file(
        "", #""state": {"a": 0}, "events": [{"at": 1, "set": {"a": 1}, "animation": "wobbly"}]"#),
      "events[0].animation", #"expected one of "none""#
    ),
    (
      file(
        "",
        #""state": {"a": 0}, "events": [{"at": 1, "set": {"a": 1}, "animation": {"type": "easeIn", "bounce": 0.2}}]"#
      ), "events[0].animation.bounce", #""bounce" does not apply to a "easeIn" animation"#
    ),
    (
      file(
        "",
        #""state": {"a": 0}, "events": [{"at": 1, "set": {"a": 1}, "animation": {"type": "spring", "response": 0.3, "mass": 1}}]"#
      ), "events[0].animation", "give one form"
    ),
    (
      file(
        "",
        #""onTap": [{"layer": "ghost", "set": {"a": 1}}], "state": {"a": 0}, "taps": [{"x": 1, "y": 1}]"#
      ), "onTap[0].layer", #"no layer has the id "ghost""#
    ),
    (
      #"{"canvas": {"device": "iphone"}, "layers": []}"#, "canvas.device",
      #"unknown name "iphone": expected one of "se", "8plus""#
    ),
    (#"{"canvas": {"device": "14", "width": 10}, "layers": []}"#, "canvas", "not both"),
    (
      #"{"canvas": {"width": 100000, "height": 10}, "layers": []}"#, "canvas.width",
      "expected a number from 1 to 4096"
    ),
    (#"{"canvas": {"width": 100, "height": 10}}"#, "", #"missing the key "layers""#),
    // Hardening (#11): an unknown content key is named as one, with the keys a layer knows.
    (
      file(#"{"imag": "photo.png"}"#, ""), "layers[0].imag",
      #"unknown key "imag" (did you mean "image"?)"#
    ),
    // A Boolean or number written as a string says to drop the quotes.
    (
      file("", #""state": {"on": "false"}"#), "state.on",
      #"got the string "false": write false without quotes"#
    ),
    // Invisible characters are shown by code point.
    // (At the very start a byte order mark is skipped: `JSONParserTests`.)
    ("{\"layers\": \u{FEFF}[]}", "", "found '<U+FEFF>[]}'"),
    ("{\"a\": \u{0}}", "", "expected a value, found '<U+0000>}'"),
    (
      file(#"{"path": "M 0 0 L 1\u00a0x"}"#, ""), "layers[0].path",
      "found U+00A0 (a no-break space)"
    ),
    // An over-long expression is not echoed whole.
    (
      file(#"{"shape": "circle", "opacity": "=\#(String(repeating: "1+", count: 500))1"}"#, ""),
      "layers[0].opacity", "the expression is 1001 bytes long; at most 1000 are accepted"
    ),
    // Strokes and trims.
    (
      file(#"{"shape": "circle", "stroke": {"lineCap": "flat"}}"#, ""), "layers[0].stroke.lineCap",
      #"expected one of "butt""#
    ),
    (
      file(#"{"shape": "circle", "stroke": {"lineWidth": -1}}"#, ""),
      "layers[0].stroke.lineWidth", "expected a number from 0 to 4096"
    ),
    (
      file(#"{"shape": "circle", "strokeBorder": {"dash": [4, -1]}}"#, ""),
      "layers[0].strokeBorder.dash[1]", "expected a number from 0 to 4096, got -1"
    ),
    (
      file(#"{"shape": "circle", "stroke": {"colour": "red"}}"#, ""), "layers[0].stroke.colour",
      #"(did you mean "color"?)"#
    ),
    (
      file(#"{"shape": "circle", "stroke": 3}"#, ""), "layers[0].stroke",
      #"expected a colour, a gradient, or {"color""#
    ),
    (
      file(#"{"shape": "circle", "stroke": "blue", "strokeBorder": "red"}"#, ""), "layers[0]",
      #"give "stroke" or "strokeBorder", not both"#
    ),
    (
      file(#"{"path": "M 0 0 L 1 1", "strokeBorder": "red"}"#, ""), "layers[0].strokeBorder",
      #"unknown key "strokeBorder""#
    ),
    (
      file(#"{"shape": "ring", "stroke": "red"}"#, ""), "layers[0].stroke",
      "a ring is a stroke already"
    ),
    (
      file(#"{"shape": "circle", "trim": [0, 2]}"#, ""), "layers[0].trim[1]",
      "expected a number from 0 to 1"
    ),
    (file(#"{"path": "M 0 0 L 9 9", "trim": [0]}"#, ""), "layers[0].trim", "expected [from, to]"),
    (
      file(#"{"shape": "circle", "lineWidth": 3}"#, ""), "layers[0].lineWidth",
      #"applies to rings only; other shapes take it in "stroke""#
    ),
    (
      file(#"{"shape": "circle", "trim": [0, "=2"]}"#, ""), "layers[0].trim[1]",
      "the expression gives 2 here"
    ),
    // Clips, masks, blurs.
    (
      file(#"{"shape": "circle", "clipShape": "hexagon"}"#, ""), "layers[0].clipShape",
      #"expected one of "rectangle""#
    ),
    (
      file(#"{"shape": "circle", "clipShape": "ring"}"#, ""), "layers[0].clipShape",
      #"expected one of "rectangle""#
    ),
    (
      file(#"{"shape": "circle", "clipShape": {"shape": "circle", "path": "M0 0"}}"#, ""),
      "layers[0].clipShape", #"give "shape" or "path" (exactly one)"#
    ),
    (
      file(#"{"shape": "circle", "clipShape": {"path": "M 0 0 L 1", "style": "evenOdd"}}"#, ""),
      "layers[0].clipShape.path", "invalid path data"
    ),
    (
      file(#"{"shape": "circle", "clipShape": {"shape": "circle", "style": "winding"}}"#, ""),
      "layers[0].clipShape.style", #"expected one of "nonzero""#
    ),
    (
      file(#"{"text": "a", "clipShape": "circle", "clipped": true}"#, ""), "layers[0]",
      "give one clip: clipShape or clipped"
    ),
    (file(#"{"text": "a", "clipped": 0}"#, ""), "layers[0].clipped", "expected true or false"),
    (file(#"{"text": "a", "blur": -1}"#, ""), "layers[0].blur", "expected a number from 0 to 1000"),
    (
      file(#"{"text": "a", "blur": {"radius": 2, "opaque": "yes"}}"#, ""), "layers[0].blur.opaque",
      "expected true or false"
    ),
    (file(#"{"text": "a", "mask": "circle"}"#, ""), "layers[0].mask", "expected a layer object"),
    (
      file(#"{"text": "a", "mask": {"shape": "circle", "fill": "nope"}}"#, ""),
      "layers[0].mask.fill", "expected a colour"
    ),
    (
      file(#"{"shape": "circle", "cornerStyle": "continuous"}"#, ""), "layers[0]",
      "cornerStyle applies to rectangles and capsules only"
    ),
    // Colours.
    (
      file(#"{"shape": "circle", "fill": "systemBlu"}"#, ""), "layers[0].fill",
      #"(did you mean "systemBlue"?)"#
    ),
    (
      file(#"{"shape": "circle", "fill": {"white": 2}}"#, ""), "layers[0].fill.white",
      "expected a number from 0 to 1"
    ),
    (
      file(#"{"shape": "circle", "fill": {"white": 1, "red": 1, "green": 0, "blue": 0}}"#, ""),
      "layers[0].fill", #"expected one of {"white"}"#
    ),
    (
      file(#"{"shape": "circle", "fill": {"hue": 0.5, "saturation": 1}}"#, ""),
      "layers[0].fill", #"missing the key "brightness""#
    ),
    (
      #"{"canvas": {"width": 10, "height": 10, "colorScheme": "night"}, "layers": []}"#,
      "canvas.colorScheme", #"expected one of "light""#
    ),
    (
      file(#"{"text": "a", "grayscale": 2}"#, ""), "layers[0].grayscale",
      "expected a number from 0 to 1"
    ),
    (
      file(#"{"text": "a", "colorInvert": 1}"#, ""), "layers[0].colorInvert",
      "expected true or false"
    ),
    (
      file(#"{"text": "a", "colorMultiply": "purpel"}"#, ""), "layers[0].colorMultiply",
      #"(did you mean "purple"?)"#
    ),
    // Gradients.
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"], "startPoint": "topleft"}}}"#,
        ""),
      "layers[0].fill.linearGradient.startPoint", "expected one of bottom"
    ),
    (
      file(#"{"shape": "circle", "fill": {"radialGradient": {"colors": ["red", "blue"]}}}"#, ""),
      "layers[0].fill.radialGradient", #"missing "endRadius""#
    ),
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"], "stops": []}}}"#, ""),
      "layers[0].fill.linearGradient", #"give "colors" or "stops" (exactly one)"#
    ),
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"stops": [{"color": "red", "location": 1500}]}}}"#,
        ""),
      "layers[0].fill.linearGradient.stops[0].location", "expected a number from -1000 to 1000"
    ),
    (
      file(#"{"path": "M0 0 L9 9", "stroke": {"color": "red", "dash": ["=1", 4]}}"#, ""),
      "layers[0].stroke.dash[0]", "this value does not come from state"
    ),
    (
      file(
        #"{"shape": "circle", "overlay": {"color": "green"}}"#, ""),
      "layers[0].overlay", #"expected "opacity" beside "color""#
    ),
    (
      file(#"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red", "nope"]}}}"#, ""),
      "layers[0].fill.linearGradient.colors[1]", "expected a colour"
    ),
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"], "colorSpace": "lab"}}}"#,
        ""),
      "layers[0].fill.linearGradient.colorSpace", #"expected one of "device""#
    ),
    (
      file(
        #"{"shape": "circle", "fill": {"angularGradient": {"colors": ["red"], "angle": 3, "endAngle": 9}}}"#,
        ""),
      "layers[0].fill.angularGradient", #"give "angle" or "startAngle"/"endAngle", not both"#
    ),
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"]}, "radialGradient": {}}}"#,
        ""),
      "layers[0].fill", "give exactly one of linearGradient"
    ),
    (
      file(#"{"vstack": [], "fill": {"linearGradient": {"colors": ["red"]}}}"#, ""),
      "layers[0].fill", "a gradient fills a shape, a path, a symbol, text or a template image"
    ),
    (
      file(
        #"{"shape": "circle", "fill": {"linearGradient": {"colors": ["red"], "startPoint": [0, "=1e9"]}}}"#,
        ""),
      "layers[0].fill.linearGradient.startPoint", "the expression gives 1000000000 here"
    ),
    (
      file(
        #"{"text": "Hi", "overlay": {"alignment": "topRight", "content": {"shape": "circle"}}}"#,
        ""),
      "layers[0].overlay.alignment", #"expected one of "topLeading""#
    ),
    (
      file(#"{"text": "Hi", "background": {"alignment": "top"}}"#, ""),
      "layers[0].background", #"missing the key "content""#
    ),
    (
      file(#"{"text": "Hi", "background": {"content": {"shape": "blob"}}}"#, ""),
      "layers[0].background.content.shape", "expected one of"
    ),
    (
      file(#"{"text": "Hi", "background": 3}"#, ""),
      "layers[0].background", #"a colour, a gradient, or {"alignment", "content": {a layer}}"#
    ),
    (
      file(#"{"text": "Hi", "background": "blurple"}"#, ""),
      "layers[0].background", "blurple"
    ),
    (
      file(#"{"zstack": [], "alignment": "topLeft"}"#, ""),
      "layers[0].alignment", #"unknown name "topLeft": expected one of "topLeading""#
    ),
    (
      file(#"{"text": "Hi", "frame": {"width": 20, "maxWidth": 40}}"#, ""),
      "layers[0].frame", #"give "width" or "minWidth"/"idealWidth"/"maxWidth", not both"#
    ),
    (
      file(#"{"text": "Hi", "frame": {"idealWidth": 50, "maxWidth": 40}}"#, ""),
      "layers[0].frame.idealWidth", "idealWidth 50 is above maxWidth 40"
    ),
    (
      file(#"{"text": "Hi", "frame": {"minHeight": 50, "idealHeight": 40}}"#, ""),
      "layers[0].frame.idealHeight", "minHeight 50 is above idealHeight 40"
    ),
    (
      file(#"{"text": "Hi", "frame": {"minHeight": 50, "maxHeight": 40}}"#, ""),
      "layers[0].frame.maxHeight", "minHeight 50 is above maxHeight 40"
    ),
    (
      file(#"{"text": "Hi", "frame": {"maxWidth": "infinite"}}"#, ""),
      "layers[0].frame.maxWidth", #"a number of points, "infinity" or an "=expression""#
    ),
    (
      file(#"{"text": "Hi", "frame": {"minWidth": "infinity"}}"#, ""),
      "layers[0].frame.minWidth", "expected a number"
    ),
    (
      file(#"{"text": "Hi", "frame": {"alignment": "middle"}}"#, ""),
      "layers[0].frame.alignment", #"expected one of "topLeading""#
    ),
    (
      file(#"{"text": ["a", 3]}"#, ""),
      "layers[0].text[1]", #"expected a string or {"text", …}"#
    ),
    (
      file(#"{"text": [{"text": "a", "size": 3}]}"#, ""),
      "layers[0].text[0].size", #"unknown key "size""#
    ),
    (
      file(#"{"text": [{"bold": true}]}"#, ""),
      "layers[0].text[0]", #"missing the key "text""#
    ),
    (
      file(#"{"text": "Hi", "underline": 3}"#, ""),
      "layers[0].underline", #"expected true, false, a colour, or {"color", "pattern"}"#
    ),
    (
      file(#"{"text": ["a", {"text": "b", "strikethrough": "blurple"}]}"#, ""),
      "layers[0].text[1].strikethrough", "blurple"
    ),
    (
      file(#"{"text": "Hi", "underline": {"pattern": "wavy"}}"#, ""),
      "layers[0].underline.pattern", #"unknown name "wavy""#
    ),
    (
      file(#"{"text": "Hi", "kerning": 500}"#, ""),
      "layers[0].kerning", "expected a number from -100 to 100"
    ),
    (
      file(#"{"shape": "circle", "italic": true}"#, ""),
      "layers[0].italic", "italic"
    ),
    (
      file(#"{"text": "Hi", "ignoresSafeArea": "sideways"}"#, ""),
      "layers[0].ignoresSafeArea", #"unknown edge "sideways": expected one of "top""#
    ),
    (
      file(#"{"text": "Hi", "ignoresSafeArea": "topp"}"#, ""),
      "layers[0].ignoresSafeArea", #"unknown edge "topp" (did you mean "top"?)"#
    ),
    (
      file(#"{"text": "Hi", "ignoresSafeArea": ["top", 3]}"#, ""),
      "layers[0].ignoresSafeArea[1]", "expected a string"
    ),
    (
      file(#"{"text": "Hi", "ignoresSafeArea": 1}"#, ""),
      "layers[0].ignoresSafeArea", "true, false, an edge name, or an array of edge names"
    ),
    (
      file(#"{"text": "Hi", "lineLimit": 0}"#, ""),
      "layers[0].lineLimit", "expected a whole number from 1 to 1000"
    ),
    (
      file(#"{"text": "Hi", "multilineTextAlignment": "justified"}"#, ""),
      "layers[0].multilineTextAlignment", #"expected one of "leading", "center", "trailing""#
    ),
    (
      file(#"{"text": "Hi", "fixedSize": {"horizontal": true, "both": true}}"#, ""),
      "layers[0].fixedSize.both", #"unknown key "both""#
    ),
    (
      file(#"{"text": "Hi", "fixedSize": false}"#, ""),
      "layers[0].fixedSize", #"expected true, or {"horizontal", "vertical"}"#
    ),
    (
      file(#"{"text": "Hi", "truncationMode": "end"}"#, ""),
      "layers[0].truncationMode", #"expected one of "tail", "head", "middle""#
    ),
    (
      file(#"{"text": "Hi", "minimumScaleFactor": 0}"#, ""),
      "layers[0].minimumScaleFactor", "expected a number"
    ),
    (
      file(#"{"shape": "circle", "lineLimit": 2}"#, ""),
      "layers[0].lineLimit", #"unknown key "lineLimit""#
    ),
    (
      file(#"{"zstack": [], "alignment": "firstTextBaseline"}"#, ""),
      "layers[0].alignment", #"expected one of "topLeading""#
    ),
    (
      file(#"{"shape": "circle", "aspectRatio": {"ratio": 0}}"#, ""),
      "layers[0].aspectRatio.ratio", "expected a number"
    ),
    (
      file(#"{"shape": "circle", "aspectRatio": "stretch"}"#, ""),
      "layers[0].aspectRatio", #"expected one of "fit", "fill""#
    ),
    (
      file(#"{"text": "Hi", "layoutPriority": "high"}"#, ""),
      "layers[0].layoutPriority", "expected a number"
    ),
    (
      file(#"{"vstack": [], "alignment": "top"}"#, ""),
      "layers[0].alignment", #"expected one of "center", "leading", "trailing""#
    ),
    // Found by a walkthrough (2026-12-05): messages that said the wrong thing.
    (
      file(#"{"shape": "circle"}"#, #""state": {"a": 0}, "onTap": [{"set": {}}]"#),
      "onTap[0].set", "nothing to set: name at least one state value"
    ),
    (
      file(#"{"use": "nothing"}"#, ""),
      "layers[0].use", #"no definition is named "nothing": the file has no "definitions""#
    ),
    (
      file(#"{"shape": "circle", "opacity": "=clamp(2, 1, 0)"}"#, ""),
      "layers[0].opacity", "clamp(): the lower bound 1 is above the upper bound 0"
    ),
    // A state keeps its type, as a Swift property does.
    (
      file("", #""state": {"a": 0}, "events": [{"at": 0, "set": {"a": true}}]"#),
      "events[0].set.a", #""a" is a number (its initial value), not true or false"#
    ),
    (
      file("", #""state": {"on": false}, "events": [{"at": 0, "set": {"on": 0.5}}]"#),
      "events[0].set.on", #""on" is true or false (its initial value), not a number"#
    ),
    (
      file("", #""state": {"n": 2, "on": false}, "events": [{"at": 0, "set": {"n": "=!on"}}]"#),
      "events[0].set.n", #""n" is a number"#
    ),
    (
      file("", #""state": {"n": 2, "on": false}, "events": [{"at": 0, "set": {"on": "=n * 2"}}]"#),
      "events[0].set.on", #""on" is true or false"#
    ),
    // Checked when the scene loads, a tap's handler too, whether a tap runs it or not.
    (
      file(
        #"{"id": "b", "shape": "circle"}"#,
        #""state": {"n": 2, "on": false}, "onTap": [{"layer": "b", "set": {"on": "=n"}}]"#),
      "onTap[0].set.on", #""on" is true or false"#
    ),
    (
      file(
        "",
        #""state": {"n": 2, "on": false}, "events": [{"at": 0, "set": {"n": "=n > 0 ? n : on"}}]"#),
      "events[0].set.n", "the two sides of ?: differ"
    ),
    (
      file(#"{"shape": "circle", "keyframes": {"tracks": {"scaleEffect": []}}}"#, ""),
      "layers[0].keyframes.tracks.scaleEffect", "a track needs at least one keyframe"
    ),
    // A dense dash pattern under the dash limit whose round caps would make an outline of
    // tens of millions of points (the rest of it would not be drawn) is refused.
    (
      file(
        #"{"shape": "circle", "frame": {"width": 300, "height": 300}, "#
          + #""stroke": {"color": "red", "lineWidth": 2, "dash": [0, 0.001], "lineCap": "round"}}"#,
        ""),
      "layers[0]", "a stroke's outline would have about"
    ),
    (
      file(#"{"shape": "circle", "trim": [0, 0.5], "strokeBorder": {"lineWidth": 4}}"#, ""),
      "layers[0].trim", "a trimmed shape has no strokeBorder"
    ),
    (
      file(#"{"shape": "circle", "stroke": {"width": 3}}"#, ""), "layers[0].stroke.width",
      #"a stroke's width is "lineWidth""#
    ),
    // Stacks nested 24 deep on text baselines would measure each other 2^24 times: refused.
    (
      file(
        String(repeating: #"{"hstack": [{"text": "a"}, "#, count: 24) + #"{"text": "b"}"#
          + String(repeating: #"], "alignment": "firstTextBaseline"}"#, count: 24), ""),
      "layers[0]" + String(repeating: ".hstack[1]", count: 24),
      "the layout needs more than 5000000 measurements"
    ),
    // RoundedRectangle has no initializer without a radius.
    (
      file(#"{"shape": "roundedRectangle", "fill": "red"}"#, ""), "layers[0].shape",
      #"roundedRectangle needs a "cornerRadius""#
    ),
    (
      file(#"{"shape": "circle", "clipShape": "roundedRectangle"}"#, ""), "layers[0].clipShape",
      #"roundedRectangle needs a "cornerRadius""#
    ),
    (
      file(#"{"shape": "circle", "contentShape": {"shape": "roundedRectangle"}}"#, ""),
      "layers[0].contentShape.shape", #"roundedRectangle needs a "cornerRadius""#
    ),
    // `Spacer()` or `Spacer(minLength:)`.
    (
      file(#"{"spacer": false}"#, ""), "layers[0].spacer",
      #"expected true or {"minLength": points}"#
    ),
    (
      file(#"{"spacer": {"minLength": -1}}"#, ""), "layers[0].spacer.minLength",
      "expected a number from 0 to 4096"
    ),
    (file(#"{"spacer": {"min": 1}}"#, ""), "layers[0].spacer.min", #"unknown key "min""#),
    // `true` and `false` written in an expression are Bools too.
    (
      file("", #""state": {"n": 2}, "events": [{"at": 0, "set": {"n": "=n > 0 ? 1 : false"}}]"#),
      "events[0].set.n",
      #"the two sides of ?: differ, one true or false and one a number: "n" takes a number"#
    ),
    (
      file("", #""state": {"n": 2}, "events": [{"at": 0, "set": {"n": "=true"}}]"#),
      "events[0].set.n", #""n" is a number (its initial value), not true or false"#
    ),
    // A Bool state is not a number, as Swift's `.opacity(on)` would not compile.
    (
      file(#"{"shape": "circle", "opacity": "=on"}"#, #""state": {"on": false}"#),
      "layers[0].opacity", "expected a number, not true or false"
    ),
    // A layer inside a mask takes no taps; an id is not empty.
    (
      file(
        #"{"id": "box", "shape": "rectangle", "mask": {"id": "hole", "shape": "circle"}}"#,
        #""state": {"n": 0}, "onTap": [{"layer": "hole", "set": {"n": 1}}]"#),
      "onTap[0].layer", #"the layer "hole" is inside a mask, which takes no taps"#
    ),
    (file(#"{"id": "", "shape": "circle"}"#, ""), "layers[0].id", "at least one character"),
    // Where Swift needs a Bool, a number is refused.
    (
      file(#"{"shape": "circle", "if": "=n"}"#, #""state": {"n": 1}"#),
      "layers[0].if", #""if" is true or false, not a number"#
    ),
    (
      file(#"{"shape": "circle", "allowsHitTesting": "=n * 2"}"#, #""state": {"n": 1}"#),
      "layers[0].allowsHitTesting", "allowsHitTesting is true or false, not a number"
    ),
    (
      file(#"{"text": "=n ? \"a\" : \"b\""}"#, #""state": {"n": 1}"#),
      "layers[0].text", "the condition of a choice of texts is true or false"
    ),
    // A choice of numbers is a number (`on ? 1 : 0`), and one of a number and a Bool is
    // neither (found by a walkthrough: both were taken as conditions).
    (
      file(#"{"shape": "circle", "if": "=on ? 1 : 0"}"#, #""state": {"on": false}"#),
      "layers[0].if", #""if" is true or false, not a number"#
    ),
    (
      file(#"{"shape": "circle", "allowsHitTesting": "=on ? 2 : 3"}"#, #""state": {"on": false}"#),
      "layers[0].allowsHitTesting", "allowsHitTesting is true or false, not a number"
    ),
    (
      file(#"{"shape": "circle", "if": "=on ? 1 : false"}"#, #""state": {"on": false}"#),
      "layers[0].if", "the two sides of its ?: differ"
    ),
    (
      file(#"{"shape": "circle", "opacity": "=on ? true : 0.5"}"#, #""state": {"on": false}"#),
      "layers[0].opacity", "the two sides of a ?: differ"
    ),
    (
      file(
        "",
        #""state": {"on": false, "n": 0}, "events": [{"at": 0, "set": {"on": "=n > 0 ? 1 : 0"}}]"#),
      "events[0].set.on", #""on" is true or false (its initial value), not a number"#
    ),
    // A state whose initial value is a comparison is true or false.
    (
      file(
        "", #""state": {"wide": "=screen.width > 100"}, "events": [{"at": 0, "set": {"wide": 5}}]"#),
      "events[0].set.wide", #""wide" is true or false"#
    ),
  ]

  @Test(arguments: cases)
  func namesThePathAndTheProblem(text: String, path: String, message: String) throws {
    let error = try #require(loadError(text), "accepted: \(text)")
    #expect(error.path == path)
    #expect(error.message.contains(message), "\(error)")
    #expect(error.line != nil)
  }

  /// Every layer depth the format allows fits the JSON nesting limit (31 nested zstacks were
  /// refused as "nested deeper than 64 levels"); one more is a layer-depth error.
  @Test func theJSONNestingLimitAdmitsEveryLegalLayerDepth() throws {
    func nested(_ depth: Int) -> String {
      var layer =
        #"{"shape": "circle", "shadow": {"radius": 1}, "frame": {"width": 4, "height": 4}}"#
      for _ in 1..<depth { layer = #"{"zstack": [\#(layer)]}"# }
      return Self.file(layer, "")
    }
    #expect(loadError(nested(SceneLimits.layerNesting)) == nil)
    let deeper = try #require(loadError(nested(SceneLimits.layerNesting + 1)))
    #expect(deeper.message.contains("layers nested more than 32 deep"), "\(deeper)")
  }

  /// The message for an over-long expression is short.
  @Test func anOverLongExpressionIsNotEchoed() throws {
    let text = Self.file(
      #"{"shape": "circle", "opacity": "=\#(String(repeating: "1+", count: 5000))1"}"#, "")
    let error = try #require(loadError(text))
    #expect(error.description.count < 200, "\(error.description.count) characters")
  }

  @Test func sizesAndCountsAreBounded() throws {
    let many = Array(repeating: #"{"shape": "circle"}"#, count: 2_001).joined(separator: ",")
    #expect(loadError(Self.file(many, ""))?.message.contains("at most 2000") == true)
    let long = String(repeating: "a", count: 1_001)
    #expect(
      loadError(Self.file(#"{"text": "\#(long)"}"#, ""))?.message.contains("at most 1000") == true)
    let texts = Array(repeating: #"{"text": "\#(String(repeating: "x", count: 1000))"}"#, count: 21)
    #expect(
      loadError(Self.file(texts.joined(separator: ","), ""))?.message.contains("more than 20000")
        == true)
    // 200 animated layers moved by 101 events: 20,200 changes to simulate.
    let dots = Array(
      repeating:
        #"{"shape": "circle", "frame": {"width": 2, "height": 2}, "offset": {"x": "=x", "y": 0}}"#,
      count: 200
    ).joined(separator: ",")
    let events = (1...101).map { #"{"at": \#(Double($0) / 10), "set": {"x": \#($0)}}"# }
    let busy = Self.file(dots, #""state": {"x": 0}, "events": [\#(events.joined(separator: ","))]"#)
    #expect(loadError(busy)?.message.contains("at most 20000") == true)
    let huge = #"{"canvas": {"width": 4000, "height": 4000, "scale": 3}, "layers": []}"#
    #expect(loadError(huge)?.message.contains("at most 8192 a side") == true)
  }
}
