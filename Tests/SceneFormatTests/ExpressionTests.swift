import Testing

@testable import SceneFormat

@Suite struct ExpressionTests {
  let scope = ExpressionScope([
    "on": [1], "off": [0], "p": [10, 20], "screen.width": [390], "tap": [3, 4],
  ])

  func value(_ text: String) throws -> [Double] {
    try ExpressionParser.parse(text).evaluate(scope)
  }

  static let values: [(String, [Double])] = [
    ("1 + 2 * 3", [7.0]),
    ("(1 + 2) * 3", [9]),
    ("-2 - -3", [1]),
    ("10 / 4", [2.5]),
    ("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 4 == false", [1]),
    ("on ? -400 : -40", [-400]),
    ("off ? -400 : -40", [-40]),
    ("!on || off", [0]),
    ("on != off", [1]),
    ("off ? 1 : on ? 2 : 3", [2]),
    ("p", [10, 20]),
    ("p.y - p.x", [10]),
    ("p * 2 + 1", [21, 41]),
    ("[tap.x, tap.y * 2]", [3, 8]),
    ("min(tap.y - 47, 729)", [-43]),
    ("max(1, 5, 3)", [5]),
    ("clamp(15, 0, 10)", [10]),
    ("abs(-2) + round(2.5) + floor(1.7) + ceil(1.2) + sqrt(9)", [2 + 3 + 1 + 2 + 3]),
    ("mix(#000000, #FFFFFF, 0.5)", [0.5, 0.5, 0.5, 1]),
    ("#FF000080", [1, 0, 0, 128.0 / 255]),
    ("screen.width / 2", [195]),
    ("1e2 + .5", [100.5]),
  ]

  @Test(arguments: values)
  func computes(text: String, expected: [Double]) throws {
    let result = try value(text)
    #expect(result.count == expected.count)
    for (a, b) in zip(result, expected) { #expect(abs(a - b) < 1e-12) }
  }

  @Test(arguments: [
    ("on ? 1", "expected ':' at column 7"),
    ("1 +", "expected a value at column 4"),
    ("(1", "expected ')'"),
    ("1 2", "expected an operator at column 3"),
    ("foo(1)", "unknown function 'foo'"),
    ("min(1)", "min() takes 2 to 16 arguments, not 1"),
    ("#GG0000", "invalid colour"),
    ("[1]", "2 to 4 numbers"),
  ])
  func syntaxErrorsSayWhere(text: String, message: String) {
    #expect {
      _ = try ExpressionParser.parse(text)
    } throws: { error in
      (error as? ExpressionError)?.description.contains(message) == true
    }
  }

  @Test(arguments: [
    ("onn", "unknown name 'onn' (did you mean 'on'?)"),
    ("of", "unknown name 'of' (did you mean 'off' or 'on'?)"),
    ("p + tap + [1, 2, 3]", "needs values of the same size, got 2 and 3"),
    ("p ? 1 : 2", "a condition must be a single number"),
    ("mix(p, [1, 2, 3], 0.5)", "mix() needs values of the same size, got 3 and 2 components"),
    ("max(p, [1, 2, 3])", "max() needs values of the same size"),
    ("1 / off", "division by zero"),
  ])
  func evaluationErrorsSayWhat(text: String, message: String) {
    #expect {
      _ = try value(text)
    } throws: { error in
      (error as? ExpressionError)?.description.contains(message) == true
    }
  }

  /// A name like none of them lists the scene's own names and only counts the colour names,
  /// which would bury them.
  @Test func farNamesListTheSceneNamesFirst() {
    let scope = ExpressionScope([
      "on": [0], "position": [1, 2], "red": [1, 0, 0, 1], "teal": [0, 1, 1, 1],
    ])
    #expect {
      _ = try ExpressionParser.parse("zzzzz").evaluate(scope)
    } throws: { error in
      (error as? ExpressionError)?.description.contains(
        "unknown name 'zzzzz' (known: on, position; and 2 colour names)") == true
    }
  }

  /// Every name of a modifier's expression is checked when the scene loads, not only those the
  /// states reach: a misspelt name in a branch no state takes passed unseen (found by a
  /// review); a point's components (`p.x`) and the screen's names are names.
  @Test func namesInBranchesNoStateTakesAreChecked() throws {
    let layer =
      #"{"shape": "circle", "frame": {"width": 10, "height": 10}, "opacity": "=on ? opc : 1"}"#
    let text =
      #"{"canvas": {"width": 50, "height": 50}, "state": {"on": false}, "layers": [\#(layer)]}"#
    #expect {
      _ = try SceneFile.load(text: text, settings: SceneSettings(scale: 1, hold: 0))
    } throws: { error in
      "\(error)".contains("layers[0].opacity: unknown name 'opc'")
    }
    let points = #"""
      {"canvas": {"width": 100, "height": 100}, "state": {"p": {"x": 1, "y": 2}, "on": false},
       "layers": [{"shape": "circle", "frame": {"width": 10, "height": 10},
                   "offset": {"x": "=p.x * 10", "y": "=on ? p.y : screen.width / 10"}}],
       "events": [{"at": 0, "set": {"p": {"x": 3, "y": 4}}}]}
      """#
    _ = try SceneFile.load(text: points, settings: SceneSettings(scale: 1, hold: 0))
  }

  /// A point's component reads the point: `p.x` reads state `p`.
  @Test func componentsReadTheirPoint() throws {
    #expect(try ExpressionParser.parse("p.x * 50").reads(anyOf: ["p"]))
    #expect(try ExpressionParser.parse("[p.x, q.y]").reads(anyOf: ["q"]))
    #expect(try !ExpressionParser.parse("screen.width").reads(anyOf: ["p", "screen"]))
    #expect(try !ExpressionParser.parse("tap.y + 1").reads(anyOf: ["p"]))
  }

  @Test func namesAreCollected() throws {
    let e = try ExpressionParser.parse("on ? min(p.x, screen.width) : tap.y")
    #expect(e.names == ["on", "p.x", "screen.width", "tap.y"])
  }
}
