import TestSupport
import Testing

@testable import Raster

/// Approximate element-wise equality: relative forms add coordinates, so they may differ from the
/// absolute form in the last bits.
func assertSamePath(
  _ a: Path, _ b: Path, tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(a.elements.count == b.elements.count, sourceLocation: sourceLocation)
  for (x, y) in zip(a.elements, b.elements) {
    #expect(close(x, y, tolerance), "\(x) vs \(y)", sourceLocation: sourceLocation)
  }
}

private func close(_ a: PathElement, _ b: PathElement, _ tolerance: Double) -> Bool {
  func near(_ p: Point, _ q: Point) -> Bool { (p - q).length <= tolerance }
  switch (a, b) {
  case (.move(let p), .move(let q)), (.line(let p), .line(let q)): return near(p, q)
  case (.quad(let c, let p), .quad(let d, let q)): return near(c, d) && near(p, q)
  case (.cubic(let c1, let c2, let p), .cubic(let d1, let d2, let q)):
    return near(c1, d1) && near(c2, d2) && near(p, q)
  case (.close, .close): return true
  default: return false
  }
}

private func parse(_ text: String) throws -> Path { try PathDataParser.parse(text) }

@Suite struct PathDataTests {
  /// Pairs that must parse to the same path: a verbose form and a compact or alternative one.
  static let equivalentForms: [(String, String, String)] = [
    ("moveto then lineto", "M 10 20 L 30 40", "M10,20L30,40"),
    ("implicit lineto after moveto", "M 10 20 L 30 40 L 50 60", "M10 20 30 40 50 60"),
    ("implicit relative lineto after m", "m 10 20 l 30 40", "m10 20 30 40"),
    ("implicit repeat of L", "M0 0 L 1 1 L 2 2", "M0 0L1 1 2 2"),
    ("numbers glued by a second dot", "M 1.5 0.5 L 0.25 0.75", "M1.5.5L.25.75"),
    ("numbers glued by a minus sign", "M -1 -2 L 3 -4", "M-1-2L3-4"),
    ("exponents", "M 0.001 150 L 50 0.5", "M1e-3 1.5E2L+.5e+2 5e-1"),
    ("positive signs", "M 1 2 L 3 4", "M+1+2L+3+4"),
    ("trailing dot", "M 1 2 L 3 4", "M1.,2.L3.,4."),
    ("every kind of whitespace", "M 1 2 L 3 4", "\t\nM\r\n1\u{0C}2\n\nL 3\t4 \n"),
    ("commas with spaces", "M 1 2 L 3 4", "M 1 , 2 L 3 ,4"),
    ("comma between pairs", "M 1 2 L 3 4 L 5 6", "M1 2L3 4,5 6"),
    ("H and V", "M 1 2 L 5 2 L 5 7", "M1 2H5V7"),
    ("relative h and v", "M 1 2 L 5 2 L 5 7", "M1 2h4v5"),
    ("repeated H", "M 0 0 L 1 0 L 2 0", "M0 0H1 2"),
    ("relative cubic", "M 10 10 C 11 12 13 14 15 16", "M10 10c1 2 3 4 5 6"),
    ("relative quad", "M 10 10 Q 11 12 13 14", "M10 10q1 2 3 4"),
    ("S reflects after C", "M 0 0 C 1 2 3 4 5 5 C 7 6 8 9 10 10", "M0 0C1 2 3 4 5 5S8 9 10 10"),
    (
      "S after S reflects", "M0 0C1 2 3 4 5 5C7 6 8 9 10 10C12 11 13 14 15 15",
      "M0 0C1 2 3 4 5 5S8 9 10 10 13 14 15 15"
    ),
    ("S without C uses current point", "M 0 0 C 0 0 3 4 5 5", "M0 0S3 4 5 5"),
    ("S after Q does not reflect", "M0 0Q1 2 3 3C3 3 4 4 5 5", "M0 0Q1 2 3 3S4 4 5 5"),
    ("T reflects after Q", "M 0 0 Q 1 2 3 3 Q 5 4 6 6", "M0 0Q1 2 3 3T6 6"),
    ("T after T reflects", "M0 0Q1 2 3 3Q5 4 6 6Q7 8 9 9", "M0 0Q1 2 3 3T6 6T9 9"),
    ("T without Q uses current point", "M 0 0 Q 0 0 6 6", "M0 0T6 6"),
    ("T after C does not reflect", "M0 0C1 1 2 2 3 3Q3 3 6 6", "M0 0C1 1 2 2 3 3T6 6"),
    (
      "relative after Z starts at the subpath start", "M 10 10 L 20 10 Z M 10 10 L 15 15",
      "M10 10L20 10zl5 5"
    ),
    (
      "drawing after Z restarts at the subpath start", "M 10 10 L 20 10 Z M 10 10 L 30 30",
      "M10 10L20 10Z L30 30"
    ),
    ("lower-case z", "M 0 0 L 1 1 Z", "M0 0L1 1z"),
    ("zero radius arc is a line", "M 0 0 L 10 10", "M0 0A0 5 0 0 1 10 10"),
    ("relative zero radius arc", "M 0 0 L 10 10", "M0 0a5 0 0 0 1 10 10"),
    ("arc to the same point draws nothing", "M 5 5 L 6 6", "M5 5A10 10 0 1 1 5 5L6 6"),
    ("negative radii are made positive", "M0 0A5 5 0 0 1 10 0", "M0 0A-5 -5 0 0 1 10 0"),
    ("compact arc flags", "M 0 0 A 1 1 0 0 0 1 1", "M0 0a1 1 0 001 1"),
    ("compact arc flags with sign", "M 0 0 A 1 1 0 1 1 -1 1", "M0 0a1 1 0 11-1 1"),
    ("repeated arcs", "M0 0A1 1 0 0 1 2 0A1 1 0 0 1 4 0", "M0 0A1 1 0 0 1 2 0 1 1 0 0 1 4 0"),
  ]

  @Test(arguments: equivalentForms)
  func equivalentFormsParseAlike(name: String, verbose: String, compact: String) throws {
    assertSamePath(try parse(verbose), try parse(compact))
  }

  @Test func emptyAndWhitespaceOnlyDataDrawNothing() throws {
    for text in ["", " ", "\n\t\r ", "\u{0C}"] {
      #expect(try parse(text).isEmpty)
    }
  }

  @Test func absoluteElements() throws {
    let path = try parse("M1 2 L3 4 Q5 6 7 8 C9 10 11 12 13 14 Z")
    #expect(
      path.elements == [
        .move(Point(1, 2)), .line(Point(3, 4)), .quad(Point(5, 6), Point(7, 8)),
        .cubic(Point(9, 10), Point(11, 12), Point(13, 14)), .close,
      ])
  }

  @Test func semicircleArcEndpointsAndCentre() throws {
    // Half a circle of radius 5 from (0,0) to (10,0), sweeping through y < 0 (sweep flag 1 in
    // y-down space goes clockwise on screen, i.e. through negative y first? SVG: positive angle
    // direction). Check that every cubic end lies on the circle around (5, 0).
    let path = try parse("M0 0A5 5 0 0 1 10 0")
    var last = Point.zero
    for element in path.elements {
      if case .cubic(_, _, let p) = element {
        #expect(abs((p - Point(5, 0)).length - 5) < 1e-9)
        last = p
      }
    }
    #expect(last == Point(10, 0))
  }

  @Test func tooSmallRadiiAreScaledUp() throws {
    // Radius 1 cannot reach from (0,0) to (10,0): scaled to 5, giving a half circle.
    assertSamePath(try parse("M0 0A1 1 0 0 1 10 0"), try parse("M0 0A5 5 0 0 1 10 0"))
  }

  @Test func largeArcFlagPicksTheLongWayRound() throws {
    let small = try parse("M0 0A10 10 0 0 1 10 0")
    let large = try parse("M0 0A10 10 0 1 1 10 0")
    let smallHeight = try #require(small.bounds).height
    let largeHeight = try #require(large.bounds).height
    #expect(largeHeight > smallHeight * 5)
  }

  @Test func arcsApproximateTheirCircleClosely() throws {
    // A full circle as two arcs; every flattened point lies within 1e-3 of radius 100.
    let path = try parse("M0 100A100 100 0 1 1 200 100A100 100 0 1 1 0 100Z")
    let lines = Flattener(width: 400, height: 400, tolerance: 0.001)
      .lines(of: path, transform: .translation(100, 100))
    for line in lines {
      let r = (Point(Double(line.x0), Double(line.y0)) - Point(200, 200)).length
      #expect(abs(r - 100) < 0.002)
    }
  }

  // MARK: - Errors

  static let errors: [(String, PathDataError.Problem, Int, Int, Int)] = [
    // text, problem, byte offset, line, column
    ("L 1 2", .expectedMoveTo, 0, 1, 1),
    ("5 5", .expectedMoveTo, 0, 1, 1),
    ("M 10 20 L 30 x", .expectedNumber, 13, 1, 14),
    ("M 10", .expectedNumber, 4, 1, 5),
    ("M 10,", .expectedNumber, 5, 1, 6),
    ("M 1 2,", .expectedNumber, 6, 1, 7),
    ("M 1 2 L", .expectedNumber, 7, 1, 8),
    ("M,1 2", .expectedNumber, 1, 1, 2),
    ("M 1 2 X 3 4", .expectedCommand, 6, 1, 7),
    ("M 1 2 Z 3 4", .expectedCommand, 8, 1, 9),
    ("M 1 2\nL 3 4\nA 1 1 0 2 1 5 5", .expectedFlag, 20, 3, 9),
    ("M 0 0 A 1 1 0 0", .expectedFlag, 15, 1, 16),
    ("M 1e999 0", .numberOutOfRange, 2, 1, 3),
    ("M 1 2 L 3 -", .expectedNumber, 10, 1, 11),
    ("M 1 2 L 3 .", .expectedNumber, 10, 1, 11),
    ("M 1 2 L 3 4e", .expectedCommand, 11, 1, 12),
    ("M 1 2 ,L 3 4", .expectedNumber, 7, 1, 8),
    ("M 1 2 L 3 4 é", .expectedCommand, 12, 1, 13),
    ("M 1 2 L é 4", .expectedNumber, 8, 1, 9),
    ("M é 2 L 5 x", .expectedNumber, 2, 1, 3),
    ("M 0 0 L 1 1 é L 2 x", .expectedCommand, 12, 1, 13),
  ]

  @Test(arguments: errors)
  func errorsCarryTheirPosition(
    text: String, problem: PathDataError.Problem, offset: Int, line: Int, column: Int
  ) {
    #expect(throws: PathDataError.self) { try parse(text) }
    do {
      _ = try PathDataParser.parse(text)
    } catch {
      #expect(error.problem == problem, "\(text)")
      #expect(error.offset == offset, "\(text)")
      #expect(error.line == line, "\(text)")
      #expect(error.column == column, "\(text)")
    }
  }

  @Test func columnsCountCharactersNotBytes() {
    do {
      _ = try PathDataParser.parse("M 0 0 L 1 1 é L 2 x")
    } catch {
      // "é" is two bytes; the x is at byte 19 but column 19 of 19 characters... check the pair.
      #expect(error.offset == 12)
    }
    do {
      _ = try PathDataParser.parse("M é")
    } catch {
      #expect(error.found == "'é'")
    }
    do {
      _ = try PathDataParser.parse("M1 2L3 4 é x")
    } catch {
      #expect(error.column == 10)
    }
  }

  @Test func errorMessageNamesTheProblemAndPosition() {
    do {
      _ = try PathDataParser.parse("M 10 20 L 30 x")
      Issue.record("accepted invalid data")
    } catch {
      #expect(error.description == "expected a number at 1:14 (byte offset 13), found 'x'")
    }
  }

  @Test func unicodeAfterErrorIsDescribed() {
    do {
      _ = try PathDataParser.parse("M 1 2 L 3 4 é")
    } catch {
      #expect(error.description.hasSuffix("found 'é'"))
    }
  }

  @Test func longInputIsRefusedNotParsed() {
    let long = [UInt8](repeating: 0x20, count: PathDataParser.maximumLength + 1)
    #expect(throws: PathDataError.self) { try PathDataParser.parse(utf8: long) }
  }

  @Test func numbersAreCorrectlyRounded() throws {
    let path = try parse("M0.1 0.2L1e-7 123456789.123456789")
    #expect(path.elements[0] == .move(Point(0.1, 0.2)))
    #expect(path.elements[1] == .line(Point(1e-7, 123456789.123456789)))
  }

  /// Literals of every shape the grammar allows (signs, leading and trailing zeros, no integer or
  /// no fraction part, exponents, up to 20 digits) parse to the Double that `Double(String)`
  /// gives, bit for bit (the short ones take a fast path; the parser adds the origin, +0 for
  /// absolute commands, so −0 comes out as +0 either way).
  @Test func numbersMatchDoubleParsingBitForBit() throws {
    var random = SeededGenerator(seed: 31)
    func pick(_ options: [String]) -> String {
      options[Int.random(in: 0..<options.count, using: &random)]
    }
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
    }
    var literals = [
      "0", "-0", "+0", "0.0", "-0.0", ".0", "0.", "1e22", "1e23", "1e-22", "1e-23",
      "999999999999999", "9999999999999999", "123456789012345e7", "0.000000000000000000001",
      "4.35", "0.3", "-2.675", "1.0000000000000000001",
    ]
    for _ in 0..<20_000 {
      let integer = digits(Int.random(in: 0...10, using: &random))
      let fraction = digits(Int.random(in: 0...10, using: &random))
      var literal = pick(["", "-", "+"]) + integer
      if !fraction.isEmpty || integer.isEmpty {
        literal += "." + (fraction.isEmpty ? "5" : fraction)
      }
      if Bool.random(using: &random) {
        literal +=
          pick(["e", "E"]) + pick(["", "-", "+"])
          + String(Int.random(in: 0...30, using: &random))
      }
      literals.append(literal)
    }
    for literal in literals {
      let path = try parse("M\(literal) 0L0 1")
      guard case .move(let p) = path.elements.first, let expected = Double(literal) else {
        Issue.record("\(literal) did not parse")
        continue
      }
      #expect(p.x.bitPattern == (expected + 0).bitPattern, "\(literal)")
    }
  }
}
