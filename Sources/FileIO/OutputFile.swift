#if canImport(Glibc)
import Glibc
#endif

/// Where bytes go as they are made: an output file, or memory.
public protocol ByteSink: AnyObject {
  func write(_ bytes: UnsafeRawBufferPointer) throws(FileError)
}

extension ByteSink {
  public func write(_ bytes: [UInt8]) throws(FileError) {
    var failure: FileError?
    bytes.withUnsafeBytes { raw in
      do throws(FileError) { try write(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}

/// Bytes collected in memory.
public final class MemorySink: ByteSink {
  public private(set) var bytes: [UInt8] = []

  public init() {}

  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    self.bytes.append(contentsOf: bytes)
  }
}

/// An output that is complete or absent, never half written: bytes go to a temporary file
/// beside the destination, and `commit()` renames it into place.
///
/// - A symbolic link is written through: its target is replaced (with a temporary beside the
///   target), the link stays. A link to nothing is an error.
/// - `-` is standard output: the bytes are kept in an unlinked temporary file (in memory when
///   none can be made) and copied out on commit, so a failed run writes nothing there either;
///   so are `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1`.
/// - Devices and pipes (`/dev/null`, a FIFO) are written directly; they cannot be replaced.
/// - A file that is replaced keeps its permission bits; a new one is 0644 less the umask.
///
/// Until it is committed or discarded its temporary is registered with `Temporaries`, so an
/// interrupted run removes it. Dropping an uncommitted output discards it.
public final class OutputFile: ByteSink, PendingOutput {
  /// The destination as the user named it.
  public let path: String
  private var destination: Destination
  private var state = State.writing
  /// Standard output's bytes when no spool file could be made.
  private var memory: [UInt8] = []

  private enum Destination {
    /// Bytes for standard output, in an unlinked temporary file (or, when none can be made, in
    /// `memory`).
    case standardOutput(spool: Int32?)
    /// A device or pipe, written directly.
    case device(descriptor: Int32)
    /// A regular file: the temporary beside the (link-resolved) target.
    case file(target: String, temporary: String, descriptor: Int32)
  }

  private enum State { case writing, finished, committed, discarded }

  /// Opens the output for `path`, creating missing folders above it; fails at once when it
  /// cannot be written (a file where a folder should be, a folder in the way, a link to nothing,
  /// no permission).
  public init(_ path: String) throws(FileError) {
    self.path = path
    if path == "-" || Self.standardOutputNames.contains(path) {
      destination = .standardOutput(spool: Self.spoolFile())
      return
    }
    switch try OutputPath.resolveFile(path) {
    case .device(let device):
      let fd = open(device, O_WRONLY | O_CLOEXEC | O_NOCTTY)
      guard fd >= 0 else { throw FileError.system(path, isOutput: true) }
      destination = .device(descriptor: fd)
    case .file(let target, let mode):
      let temporary = OutputPath.temporarySibling(of: target)
      let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw FileError.system(path, isOutput: true) }
      Temporaries.register(temporary, isFolder: false)
      if let mode { fchmod(fd, mode) }
      destination = .file(target: target, temporary: temporary, descriptor: fd)
    }
  }

  deinit { discard() }

  /// The names of this process's standard output, written as `-` is (a pipe behind them has no
  /// name a link could lead to).
  static let standardOutputNames: Set<String> = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]

  /// Whether `path` names standard output (`-` or one of its device names).
  public static func isStandardOutput(_ path: String) -> Bool {
    path == "-" || standardOutputNames.contains(path)
  }

  /// Writes `bytes` to `path` in one go, atomically.
  public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
    let file = try OutputFile(path)
    try file.write(bytes)
    try file.commit()
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    Temporaries.waitIfInterrupted()
    guard case .writing = state else { return }
    switch destination {
    case .standardOutput(let spool):
      if let spool {
        try Self.writeAll(bytes, to: spool, path: path)
      } else {
        memory.append(contentsOf: bytes)
      }
    case .device(let fd): try Self.writeAll(bytes, to: fd, path: path)
    case .file(_, _, let fd): try Self.writeAll(bytes, to: fd, path: path)
    }
  }

  /// Writes the bytes out and renames the file into place.
  public func commit() throws(FileError) {
    try finishWriting()
    try publish()
  }

  /// Flushes and closes the temporary (the step that can fail on a full disk).
  public func finishWriting() throws(FileError) {
    guard case .writing = state else { return }
    if case .file(_, let temporary, let fd) = destination {
      let synced = fsync(fd) == 0 || errno == EINVAL
      let failure = synced ? nil : FileError.system(path, isOutput: true)
      guard close(fd) == 0, failure == nil else {
        let error = failure ?? FileError.system(path, isOutput: true)
        unlink(temporary)
        Temporaries.unregister(temporary)
        state = .discarded
        throw error
      }
    }
    state = .finished
  }

  /// Puts the finished bytes in place: renames the temporary over the target, or copies the
  /// spool to standard output.
  public func publish() throws(FileError) {
    Temporaries.waitIfInterrupted()
    guard case .finished = state else { return }
    state = .committed
    switch destination {
    case .standardOutput(let spool):
      if let spool {
        defer { close(spool) }
        try Self.copy(spool, toStandardOutput: path)
      } else {
        try Self.writeAll(memory, to: STDOUT_FILENO, path: path)
      }
    case .device(let fd): close(fd)
    case .file(let target, let temporary, _):
      defer { Temporaries.unregister(temporary) }
      guard rename(temporary, target) == 0 else {
        let failure = FileError.system(path, isOutput: true)
        unlink(temporary)
        throw failure
      }
    }
  }

  /// Copied to standard output or written to a device when published.
  public var publishesByCopying: Bool {
    if case .file = destination { return false }
    return true
  }

  /// Drops what was written; the destination keeps what it held.
  public func discard() {
    switch state {
    case .committed, .discarded: return
    case .writing, .finished: break
    }
    let wasOpen = state == .writing
    state = .discarded
    switch destination {
    case .standardOutput(let spool): if let spool { close(spool) }
    case .device(let fd): close(fd)
    case .file(_, let temporary, let fd):
      if wasOpen { close(fd) }
      unlink(temporary)
      Temporaries.unregister(temporary)
    }
  }

  // MARK: - Private

  /// An unlinked temporary file for standard output's bytes, or nil.
  private static func spoolFile() -> Int32? {
    let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((folder + "/render-anim-stdout-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard fd >= 0 else { return nil }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    return fd
  }

  private static func copy(_ spool: Int32, toStandardOutput path: String) throws(FileError) {
    guard lseek(spool, 0, SEEK_SET) == 0 else { throw FileError.system(path, isOutput: true) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(spool, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { throw FileError.system(path, isOutput: true) }
      if n == 0 { return }
      try writeAll(Array(buffer[0..<n]), to: STDOUT_FILENO, path: path)
    }
  }

  static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(FileError) {
    var failure: FileError?
    bytes.withUnsafeBytes { raw in
      do throws(FileError) { try writeAll(raw, to: fd, path: path) } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  static func writeAll(
    _ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String
  ) throws(FileError) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.write(fd, base + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw FileError.system(path, isOutput: true)
      }
      offset += n
    }
  }
}

/// An output written in full before any of a group is put in place (`Outputs.commit`).
public protocol PendingOutput: AnyObject {
  /// Completes the writing: the step that can fail for lack of space.
  func finishWriting() throws(FileError)
  /// Moves the written output into place.
  func publish() throws(FileError)
  /// Drops it, leaving the destination as it was.
  func discard()
  /// Whether publishing copies it to standard output (or a device): a step that can still fail
  /// (a full disk, a closed pipe), where putting a file in place cannot be taken back.
  var publishesByCopying: Bool { get }
}

extension PendingOutput {
  public var publishesByCopying: Bool { false }
}

/// Several outputs that land together or not at all (a GIF and its trace).
public enum Outputs {
  /// Finishes every output, then publishes each: first those copied to standard output or a
  /// device, which can still fail, then the files renamed into place. If any cannot be finished
  /// or copied, the rest are discarded and no file is replaced.
  public static func commit(_ outputs: [any PendingOutput]) throws(FileError) {
    do {
      for output in outputs { try output.finishWriting() }
      for output in outputs where output.publishesByCopying { try output.publish() }
    } catch {
      for output in outputs { output.discard() }
      throw error
    }
    for output in outputs where !output.publishesByCopying { try output.publish() }
  }
}
