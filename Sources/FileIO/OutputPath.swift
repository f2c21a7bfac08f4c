#if canImport(Glibc)
import Glibc
#endif

/// Where an output path really leads: symbolic links followed to their target, devices told
/// apart from files, and the temporary names written beside a destination.
enum OutputPath {
  enum FileTarget {
    /// A regular file (existing with its permission bits, or new).
    case file(String, mode: mode_t?)
    /// A character device, FIFO or socket: written in place.
    case device(String)
  }

  /// The destination of a file output named `path`.
  static func resolveFile(_ path: String) throws(FileError) -> FileTarget {
    let target = try followingLinks(path, isFolder: false)
    var info = stat()
    guard stat(target, &info) == 0 else {
      // Missing (or with a file where a folder should be: createFolders names it).
      guard errno == ENOENT || errno == ENOTDIR else {
        throw FileError.system(path, isOutput: true)
      }
      try createFolders(parent(of: target), for: path)
      return .file(target, mode: nil)
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: throw FileError(path: path, "is a folder; give a file name", isOutput: true)
    case S_IFREG: return .file(target, mode: info.st_mode & 0o7777)
    default: return .device(target)
    }
  }

  /// `path` with its symbolic links followed (the path itself when it is not a link or does not
  /// exist); a link whose target is missing is an error.
  static func followingLinks(_ path: String, isFolder: Bool) throws(FileError) -> String {
    if ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(path) {
      throw FileError(path: path, "is standard input, not an output", isOutput: true)
    }
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
    guard let resolved = realpath(path, nil) else {
      let target = linkTarget(path) ?? "?"
      if target.hasPrefix("pipe:") || target.hasPrefix("socket:")
        || target.hasPrefix("/proc/self/fd/")
      {
        // A descriptor's link to a pipe or a socket names no file (`pipe:[1234]`).
        throw FileError(
          path: path, "leads to a pipe or a socket ('\(target)') that has no name to write to",
          isOutput: true)
      }
      throw FileError(
        path: path, "is a symbolic link to '\(target)', which does not exist", isOutput: true)
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `path` without `.` and `..` parts (unchanged when it has none), as `OutputPlace.of` finds
  /// where it leads. A folder output named `./`, `out/..` or `new/sub/../` is replaced under its
  /// own name, which a rename onto `.` cannot do.
  static func withoutDots(_ path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard parts.contains(where: { $0 == "." || $0 == ".." }) else { return path }
    return OutputPlace.of(path) ?? path
  }

  /// Where the link at `path` points, as written in the link.
  static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The folder `path` is in ("." for a bare name), without a trailing slash.
  static func parent(of path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let folder = String(trimmed[..<slash])
    return folder.isEmpty ? "/" : folder
  }

  static func name(of path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) }
      ?? trimmed
  }

  static func trimmingTrailingSlashes(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.last == "/" { trimmed.removeLast() }
    return String(trimmed)
  }

  /// Creates `folder` and any missing folders above it (mode 0755 less the umask).
  static func createFolders(_ folder: String, for path: String) throws(FileError) {
    var info = stat()
    if stat(folder, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw FileError(path: path, "'\(folder)' is not a folder", isOutput: true)
      }
      return
    }
    let above = parent(of: folder)
    if above != folder { try createFolders(above, for: path) }
    guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
      throw FileError.system(path, isOutput: true, "cannot create '\(folder)'")
    }
  }

  /// A fresh hidden name beside `target`: `.name.PID.RANDOM.tmp`. Temporaries of the same
  /// target that a process killed outright (SIGKILL: a CI timeout, the OOM killer) left behind
  /// are removed first (`Temporaries.sweepAbandoned`).
  static func temporarySibling(of target: String) -> String {
    let folder = parent(of: target)
    let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let prefix = !target.contains("/") ? "" : folder == "/" ? "/" : folder + "/"
    let base = temporaryBase(of: target)
    Temporaries.sweepAbandoned(in: prefix, base: base)
    return "\(prefix).\(base).\(getpid()).\(random).tmp"
  }

  /// The start of the target's name a temporary keeps: at most `temporaryNameBytes` bytes of
  /// whole characters, so that a target whose name the file system takes (255 bytes) still has
  /// a temporary it takes.
  static func temporaryBase(of target: String) -> Substring {
    var base = Substring(name(of: target))
    while base.utf8.count > temporaryNameBytes { base.removeLast() }
    return base
  }

  /// Bytes of the target's name a temporary keeps: 255 less the dots, the process id (at most
  /// 10 digits), the random part (at most 13) and `.tmp`.
  static let temporaryNameBytes = 255 - 3 - 10 - 13 - 4
}
