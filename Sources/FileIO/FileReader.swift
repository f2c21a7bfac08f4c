#if canImport(Glibc)
import Glibc
#endif

/// Reads files, standard input and pipes with a bound: at most `limit + 1` bytes are ever read,
/// so `/dev/zero`, an endless pipe or a huge file costs no more than the limit.
public enum FileReader {
  /// The whole of `path` (`-` is standard input), refused once it passes `limit` bytes.
  /// `kind` names the input in the message about the limit ("scene files").
  public static func read(_ path: String, limit: Int, kind: String) throws(FileError) -> [UInt8] {
    guard let bytes = try read(path, atMost: limit) else {
      throw tooLarge(path, limit: limit, kind: kind)
    }
    return bytes
  }

  /// The whole of `path`, or nil when it holds more than `limit` bytes.
  public static func read(_ path: String, atMost limit: Int) throws(FileError) -> [UInt8]? {
    let input = try InputFile(path)
    if let size = input.regularFileSize, size > limit { return nil }
    let bytes = try input.read(upTo: limit + 1)
    return bytes.count <= limit ? bytes : nil
  }

  static func tooLarge(_ path: String, limit: Int, kind: String) -> FileError {
    FileError(path: path, "larger than \(byteCountText(limit)), the limit for \(kind)")
  }
}

/// An open input (a file, standard input or a pipe) read piece by piece, for formats whose
/// structure tells how much is left to read.
public final class InputFile {
  public let path: String
  private let descriptor: Int32
  /// The size of a regular file; nil for pipes, devices and standard input.
  public let regularFileSize: Int?
  /// Bytes read so far.
  public private(set) var offset = 0

  /// Opens `path` for reading (`-` is standard input). A folder is refused.
  public init(_ path: String) throws(FileError) {
    self.path = path
    let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw errno == ENOENT
        ? FileError(path: path, "no such file") : FileError.system(path)
    }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      if fd != STDIN_FILENO { close(fd) }
      throw FileError(path: path, "is a folder, not a file")
    }
    descriptor = fd
    regularFileSize = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
  }

  deinit { if descriptor != STDIN_FILENO { close(descriptor) } }

  /// Up to `count` more bytes; fewer only at the end of the input.
  public func read(upTo count: Int) throws(FileError) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: min(1 << 16, max(count, 1)))
    while result.count < count {
      let want = min(buffer.count, count - result.count)
      let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, want) }
      if n < 0 {
        if errno == EINTR { continue }
        throw FileError.system(path)
      }
      if n == 0 { break }
      result.append(contentsOf: buffer[0..<n])
      offset += n
    }
    return result
  }
}
