import Codecs
import SceneFormat
import SceneGraph

/// A check's results as a JSON file (`check --results FILE.json`), which `merge-results` reads
/// back to make one report of many shards:
///
/// `{"renderAnimCheckResults": 1, "shard": "2/3", "compare": "exact" | "perceptual",
/// "tolerance" | "threshold", "scenes": [{"name", "golden", "rerecord",
/// "seconds", "problems": [..], "error", "problemFailures", "frames": [{"index", "result",
/// "reason", "golden", "differingPixels", "maximumDelta", "pixels", "actual", "diff",
/// "unwritten"}]}]}` — the
/// shard only when the run was one, the comparison only where the report says it, the error only for a scene that could not be checked, the
/// figures and artifact paths only where a frame has them.
extension CheckReport {
  public static let resultsVersion = 1
  /// The most bytes a results file may have.
  public static let maximumResultsBytes = 256 << 20

  public func resultsJSON(shard: Shard?) -> String {
    let string = LayoutEntry.string
    var json = "{\"renderAnimCheckResults\": \(Self.resultsVersion)"
    if let shard { json += ", \"shard\": \(string(shard.description))" }
    switch comparison {
    case .exact(let tolerance)?: json += ", \"compare\": \"exact\", \"tolerance\": \(tolerance)"
    case .perceptual(let threshold)?:
      json += ", \"compare\": \"perceptual\", \"threshold\": \(threshold)"
    case nil: break
    }
    json += ", \"scenes\": ["
    json += scenes.map { scene in
      var s = "\n  {\"name\": \(string(scene.name)), \"golden\": \(string(scene.golden)), "
      s += "\"rerecord\": \(string(scene.rerecord)), \"seconds\": \(scene.seconds), "
      s += "\"problems\": [\(scene.problems.map(string).joined(separator: ", "))], "
      if let error = scene.error { s += "\"error\": \(string(error)), " }
      s += "\"problemFailures\": \(scene.problemFailures), \"frames\": ["
      s += scene.frames.map { frame in
        var f = "{\"index\": \(frame.index), \"result\": \"\(frame.result.rawValue)\", "
        f += "\"reason\": \(string(frame.reason)), \"golden\": \(string(frame.golden))"
        if let figures = frame.figures {
          if let pixels = figures.differingPixels { f += ", \"differingPixels\": \(pixels)" }
          f += ", \"maximumDelta\": \(figures.maximumDelta), \"pixels\": \(figures.pixels)"
        }
        if let written = frame.artifacts {
          f += ", \"actual\": \(string(written.actual))"
          if let diff = written.diff { f += ", \"diff\": \(string(diff))" }
        }
        if frame.unwritten { f += ", \"unwritten\": true" }
        return f + "}"
      }.joined(separator: ", ")
      return s + "]}"
    }.joined(separator: ",")
    return json + "\n]}\n"
  }

  /// Why a results file was refused: its path, where in it, and what.
  public struct ResultsProblem: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Reads a results file's text (`source` names it in errors).
  public static func results(
    _ text: String, source: String
  ) throws(ResultsProblem)
    -> CheckReport
  {
    func fail(_ path: String, _ what: String) -> ResultsProblem {
      ResultsProblem(description: "\(source): \(path.isEmpty ? "" : path + ": ")\(what)")
    }
    let root: JSONValue
    do { root = try JSONParser.parse(text) } catch {
      throw fail("", "not a results file: \(error)")
    }
    func members(_ value: JSONValue, _ path: String) throws(ResultsProblem) -> [String: JSONValue] {
      guard case .object(let list) = value.kind else { throw fail(path, "expected an object") }
      var out: [String: JSONValue] = [:]
      for member in list { out[member.key] = member.value }
      return out
    }
    func field<T>(
      _ o: [String: JSONValue], _ key: String, _ path: String, _ what: String,
      _ take: (JSONValue.Kind) -> T?
    ) throws(ResultsProblem) -> T {
      guard let value = o[key], let taken = take(value.kind) else {
        throw fail(path + "." + key, "expected \(what)")
      }
      return taken
    }
    func string(_ kind: JSONValue.Kind) -> String? {
      if case .string(let s) = kind { s } else { nil }
    }
    func integer(_ kind: JSONValue.Kind) -> Int? {
      if case .number(let n) = kind, n.rounded() == n, abs(n) < 1e15 { Int(n) } else { nil }
    }
    func number(_ kind: JSONValue.Kind) -> Double? {
      if case .number(let n) = kind { n } else { nil }
    }
    func array(_ kind: JSONValue.Kind) -> [JSONValue]? {
      if case .array(let a) = kind { a } else { nil }
    }
    let top = try members(root, "")
    let version: Int = try field(top, "renderAnimCheckResults", "", "a version number", integer)
    guard version == resultsVersion else {
      throw fail(
        "renderAnimCheckResults", "version \(version); this render-anim reads \(resultsVersion)")
    }
    var shard: Shard?
    if top["shard"] != nil {
      let text = try field(top, "shard", "", "a shard i/n", string)
      do { shard = try Shard.parse(text) } catch { throw fail("shard", error.description) }
    }
    var scenes: [Scene] = []
    for (s, value) in try field(top, "scenes", "", "an array of scenes", array).enumerated() {
      let path = "scenes[\(s)]"
      let o = try members(value, path)
      var frames: [Frame] = []
      for (f, frameValue) in try field(o, "frames", path, "an array", array).enumerated() {
        let fp = "\(path).frames[\(f)]"
        let fo = try members(frameValue, fp)
        let resultText: String = try field(fo, "result", fp, "a result", string)
        guard let result = Frame.Result(rawValue: resultText) else {
          throw fail(fp + ".result", "unknown result \"\(resultText)\"")
        }
        var frame = Frame(
          index: try field(fo, "index", fp, "a frame index", integer), result: result,
          reason: try field(fo, "reason", fp, "a string", string),
          golden: try field(fo, "golden", fp, "a path", string))
        if fo["maximumDelta"] != nil {
          frame.figures = GoldenComparison.Figures(
            differingPixels: fo["differingPixels"].flatMap { integer($0.kind) },
            maximumDelta: try field(fo, "maximumDelta", fp, "a number", integer),
            pixels: try field(fo, "pixels", fp, "a number", integer))
        }
        if fo["actual"] != nil {
          frame.artifacts = GoldenComparison.Artifacts(
            actual: try field(fo, "actual", fp, "a path", string),
            diff: fo["diff"] == nil ? nil : try field(fo, "diff", fp, "a path", string))
        }
        if let value = fo["unwritten"] {
          guard case .bool(let unwritten) = value.kind else {
            throw fail(fp + ".unwritten", "expected true or false")
          }
          frame.unwritten = unwritten
        }
        frames.append(frame)
      }
      var problems: [String] = []
      for (p, problem) in try field(o, "problems", path, "an array", array).enumerated() {
        guard let text = string(problem.kind) else {
          throw fail("\(path).problems[\(p)]", "expected a string")
        }
        problems.append(text)
      }
      scenes.append(
        Scene(
          name: try field(o, "name", path, "a name", string),
          golden: try field(o, "golden", path, "a path", string),
          rerecord: try field(o, "rerecord", path, "a command", string), frames: frames,
          problems: problems,
          problemFailures: try field(o, "problemFailures", path, "a count", integer),
          seconds: try field(o, "seconds", path, "seconds", number),
          error: o["error"] == nil ? nil : try field(o, "error", path, "a string", string)))
    }
    var comparison: ComparisonMethod?
    switch top["compare"].map({ string($0.kind) }) {
    case nil: break
    case "exact"?:
      let tolerance: Int = try field(top, "tolerance", "", "a tolerance", integer)
      guard (0...255).contains(tolerance) else { throw fail("tolerance", "expected 0 to 255") }
      comparison = .exact(tolerance: UInt8(tolerance))
    case "perceptual"?:
      let threshold: Double = try field(top, "threshold", "", "a threshold", number)
      guard threshold >= 0, threshold.isFinite else { throw fail("threshold", "expected ≥ 0") }
      comparison = .perceptual(threshold: threshold)
    default: throw fail("compare", "expected \"exact\" or \"perceptual\"")
    }
    return CheckReport(scenes: scenes, shard: shard, comparison: comparison)
  }
}
