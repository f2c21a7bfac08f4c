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

  /// The whole of `path`, or nil when it holds more than `limit` bytes. With `regularFileOnly`
  /// (files a scene names, unless files outside its folder are allowed: then a pipe from the
  /// caller's shell is theirs to give), a FIFO, device or socket is refused before anything is
  /// read, so that a named pipe nobody writes cannot stall the render.
  public static func read(
    _ path: String, atMost limit: Int, regularFileOnly: Bool = false
  ) throws(FileError) -> [UInt8]? {
    let input = try InputFile(path, regularFileOnly: regularFileOnly)
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

  /// Opens `path` for reading (`-` is standard input). A folder is refused, and with
  /// `regularFileOnly` anything but a regular file: it is opened without blocking (opening a FIFO
  /// otherwise waits for a writer) and refused by what `fstat` says it is.
  /// `otherwise` is what the refusal of a file that is not regular adds (how to allow one).
  public init(
    _ path: String, regularFileOnly: Bool = false,
    otherwise: String = "; --allow-files-outside allows one"
  ) throws(FileError) {
    self.path = path
    let flags = O_RDONLY | O_CLOEXEC | (regularFileOnly ? O_NONBLOCK | O_NOCTTY : 0)
    let fd = path == "-" && !regularFileOnly ? STDIN_FILENO : open(path, flags)
    guard fd >= 0 else {
      throw errno == ENOENT
        ? FileError(path: path, "no such file") : FileError.system(path)
    }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      if fd != STDIN_FILENO { close(fd) }
      throw FileError(path: path, "is a folder, not a file")
    }
    if regularFileOnly, (info.st_mode & S_IFMT) != S_IFREG {
      close(fd)
      throw FileError(
        path: path,
        "is not a regular file (a pipe, device or socket\(otherwise))")
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
