#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File input and output that never leaves a half-written file behind: output goes to a
/// temporary file beside the destination, is flushed, and is renamed over it only when complete.
/// The path `-` means standard input or output.
public enum AtomicFile {
  /// The largest file `read` accepts, in bytes.
  public static let maximumReadSize = 1 << 30

  /// Writes `bytes` to `path` atomically (mode 0644 before the umask); `-` writes to stdout.
  public static func write(_ bytes: [UInt8], to path: String) throws(CodecError) {
    if path == "-" {
      try writeAll(bytes, to: STDOUT_FILENO, path: "standard output")
      return
    }
    let temporary = temporaryPath(for: path)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw systemError(.write, path) }
    do throws(CodecError) {
      try writeAll(bytes, to: fd, path: path)
      guard fsync(fd) == 0 || errno == EINVAL else { throw systemError(.write, path) }
      guard close(fd) == 0 else {
        unlink(temporary)
        throw systemError(.write, path)
      }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let failure = systemError(.write, path)
      unlink(temporary)
      throw failure
    }
  }

  /// Reads the whole of `path` (`-` reads stdin); refuses files over `maximumReadSize`.
  public static func read(_ path: String) throws(CodecError) -> [UInt8] {
    let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw systemError(.read, path) }
    defer { if fd != STDIN_FILENO { close(fd) } }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw CodecError(.read, path: path, message: "is a directory")
    }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw systemError(.read, path)
      }
      if n == 0 { break }
      result.append(contentsOf: chunk[0..<n])
      guard result.count <= maximumReadSize else {
        throw CodecError(.read, path: path, message: "larger than \(maximumReadSize) bytes")
      }
    }
    return result
  }

  // MARK: - Private

  private static func temporaryPath(for path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let random = UInt64.random(in: 0...UInt64.max)
    return "\(directory).\(name).\(getpid()).\(String(random, radix: 36)).tmp"
  }

  private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(CodecError) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw systemError(.write, path)
      }
      offset += n
    }
  }

  private static func systemError(_ operation: CodecError.Operation, _ path: String) -> CodecError {
    CodecError(operation, path: path, message: String(cString: strerror(errno)))
  }
}
