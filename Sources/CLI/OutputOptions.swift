import FileIO

#if canImport(Glibc)
import Glibc
#endif

/// Checks on output paths made before any work: the extension matches what is written, and two
/// outputs of one run never land on the same file.
enum OutputOptions {
  /// An option that writes one PNG: `-`, a device, or a name ending in `.png`.
  static func checkPNG(_ path: String, option: String) throws(UsageError) {
    guard OutputFile.isStandardOutput(path) || path.lowercased().hasSuffix(".png") || isDevice(path)
    else {
      throw UsageError(
        "Invalid value '\(path)' for '\(option)': it writes a PNG; give a .png file name or -")
    }
  }

  /// Whether `path` is an existing device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named
  /// pipe): written directly, whatever its name.
  static func isDevice(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type != S_IFREG && type != S_IFDIR
  }

  /// Refuses a trace that would land on the image output: the same file, standard output twice,
  /// or a file inside the frames folder.
  static func checkApart(
    trace: String, from output: SceneOptions.Settings.Output
  ) throws(UsageError) {
    let image: String
    switch output {
    case .none: return
    case .animation(_, let path), .frame(let path): image = path
    case .frames(let folder):
      if let tracePlace = place(trace), let folderPlace = place(folder),
        tracePlace.hasPrefix(folderPlace.hasSuffix("/") ? folderPlace : folderPlace + "/")
      {
        throw UsageError(
          "'--trace' \(trace) is inside the frames folder '\(folder)', which is replaced as a whole"
        )
      }
      return
    }
    if OutputFile.isStandardOutput(trace) && OutputFile.isStandardOutput(image) {
      throw UsageError(
        "'--trace \(trace)' and '-o \(image)' would both write to standard output")
    }
    let same: Bool
    if let a = identity(trace), let b = identity(image) {
      same = a == b && !a.isNullDevice  // both exist
    } else {
      same = trace != "-" && image != "-" && place(trace) == place(image)
    }
    if same { throw UsageError("'--trace' and '-o' name the same file, '\(trace)'") }
  }

  /// The device and inode of an existing file (links followed; `-` is standard output).
  struct Identity: Equatable {
    var device: UInt
    var inode: UInt
    var isNullDevice: Bool
  }

  /// Refuses an output (`option` names it: `-o`, `--trace`) that would replace the input file
  /// `input` (the scene being read): the same path or the same file by another name.
  static func checkNotInput(_ output: String, option: String, input: String) throws(UsageError) {
    if replaces(output, input) {
      throw UsageError("'\(option)' \(output) is the scene file \(input): give another file")
    }
  }

  /// Refuses an output that is one of the files a scene read (`LoadedScene.files`, its images and
  /// path-data files), by name, through a link, or as the same file under another name: writing
  /// it would replace what the scene is drawn from.
  static func checkNotRead(
    _ output: String, option: String, files: [String], what: String = "a file the scene reads"
  ) throws(UsageError) {
    for file in files where replaces(output, file) {
      throw UsageError("'\(option)' \(output) is \(what) (\(file)): give another file")
    }
  }

  /// Refuses an output folder (`what` names it: "-o", "--golden") that holds, at any depth, a
  /// file the scene reads: writing the folder replaces it whole (frames) or re-records and
  /// removes files in it (goldens), which could replace or remove what the scene is drawn from.
  static func checkNotInside(
    _ folder: String, what: String, files: [String]
  ) throws(UsageError) {
    guard let root = place(folder) else { return }
    for file in files {
      guard let read = place(file), read == root || read.hasPrefix(root + "/") else { continue }
      throw UsageError(
        "'\(what)' \(folder) holds \(file), a file the scene reads, which writing the folder "
          + "could replace or remove: give another folder")
    }
  }

  /// Whether writing `output` would replace the file `input`: the same path, or the same file by
  /// another name or through a link. Standard output replaces nothing, and only a file that exists
  /// is read (`cats` is the built-in scene unless a file has the name); /dev/null is never one.
  static func replaces(_ output: String, _ input: String) -> Bool {
    guard output != "-", input != "-", let read = identity(input), !read.isNullDevice else {
      return false
    }
    let samePlace = place(output).map { $0 == place(input) } ?? false
    return samePlace || identity(output) == read
  }

  static func identity(_ path: String) -> Identity? {
    var info = stat()
    let found =
      OutputFile.isStandardOutput(path)
      ? fstat(STDOUT_FILENO, &info) == 0 : stat(path, &info) == 0
    guard found else { return nil }
    // /dev/null is character device 1, 3: any number of outputs may go there.
    let isNull = info.st_mode & S_IFMT == S_IFCHR && info.st_rdev == 0x103
    return Identity(device: UInt(info.st_dev), inode: UInt(info.st_ino), isNullDevice: isNull)
  }

  /// Where a path leads, as an absolute path without links (`OutputPlace.of`).
  static func place(_ path: String) -> String? { OutputPlace.of(path) }

  /// Refuses a folder output (`--report`, `--out-dir`) that is an existing file: a usage error
  /// (64), found before anything runs.
  static func checkFolder(_ option: String, _ path: String?) throws(UsageError) {
    guard let path else { return }
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      throw UsageError("'--\(option)' \(path) is a file, not a folder: give a folder")
    }
  }
}
