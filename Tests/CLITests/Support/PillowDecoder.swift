import Foundation
import Testing

/// Animated files decoded by Pillow (Debian's python3-pil, installed by scripts/setup.sh): an
/// independent decoder for our APNG and WebP. Each frame is the whole canvas after it is
/// composed, straight RGBA8, with its duration in milliseconds.
struct PillowDecoded {
  var format: String
  var width: Int
  var height: Int
  var loop: Int?
  var frames: [(rgba: [UInt8], milliseconds: Double)]

  static let script = """
    import sys
    from PIL import Image
    im = Image.open(sys.argv[1])
    out = sys.argv[2]
    n = getattr(im, "n_frames", 1)
    lines = [f"{im.format} {im.size[0]} {im.size[1]} {n} {im.info.get('loop', -1)}"]
    for i in range(n):
        im.seek(i)
        frame = im.convert("RGBA")
        with open(f"{out}/{i}.rgba", "wb") as f:
            f.write(frame.tobytes())
        lines.append(str(float(im.info.get("duration", 0))))
    print("\\n".join(lines))
    """

  /// Debian's interpreter, where python3-pil installs Pillow, before whatever `python3` comes
  /// first on PATH (a pyenv shim there has no Pillow); the arguments that run it.
  static func interpreter(_ arguments: [String]) -> (executable: URL, arguments: [String]) {
    let debian = "/usr/bin/python3"
    if FileManager.default.isExecutableFile(atPath: debian) {
      return (URL(fileURLWithPath: debian), arguments)
    }
    return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
  }

  /// Whether python3 with Pillow can run here.
  static let isAvailable: Bool = {
    (try? run(["-c", "import PIL.Image"]).status) == 0
  }()

  /// Nil (after recording an issue under CI, where the decoder must be present) when Pillow
  /// is missing; outside CI such a test is skipped with a note on stderr.
  static func decode(_ path: String) throws -> PillowDecoded? {
    guard isAvailable else {
      if ProcessInfo.processInfo.environment["CI"] != nil {
        Issue.record("python3 with Pillow (python3-pil) is missing: run scripts/setup.sh")
      } else {
        FileHandle.standardError.write(
          Data("note: Pillow is missing; the independent-decoder check was skipped\n".utf8))
      }
      return nil
    }
    let folder = ToolRun.scratchFolder("pillow")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (status, output) = try run(["-c", script, path, folder])
    guard status == 0 else {
      Issue.record("Pillow could not decode \(path): \(output)")
      return nil
    }
    let lines = output.split(separator: "\n").map(String.init)
    let head = lines[0].split(separator: " ").map(String.init)
    var decoded = PillowDecoded(
      format: head[0], width: Int(head[1]) ?? 0, height: Int(head[2]) ?? 0,
      loop: Int(head[4]).flatMap { $0 < 0 ? nil : $0 }, frames: [])
    for (i, line) in lines.dropFirst().enumerated() {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(i).rgba"))
      decoded.frames.append((Array(bytes), Double(line) ?? 0))
    }
    return decoded
  }

  /// The decoded frame shown at `milliseconds` from the start.
  func frame(at milliseconds: Double) -> [UInt8]? {
    var start = 0.0
    for frame in frames {
      if milliseconds + 1e-6 < start + frame.milliseconds { return frame.rgba }
      start += frame.milliseconds
    }
    return frames.last?.rgba
  }

  private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    (process.executableURL, process.arguments) = interpreter(arguments)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// Straight RGBA8 with every fully transparent pixel as 0, 0, 0, 0: what a viewer shows is the
/// same whatever colour a transparent pixel keeps.
func visible(_ rgba: [UInt8]) -> [UInt8] {
  var out = rgba
  for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] == 0 {
    out[i] = 0
    out[i + 1] = 0
    out[i + 2] = 0
  }
  return out
}
