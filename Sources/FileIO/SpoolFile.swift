#if canImport(Glibc)
import Glibc
#endif

/// Bytes set aside while later ones decide what comes first: an unlinked temporary file (in
/// `TMPDIR`, else /tmp), or memory when none can be made. An APNG's frame count heads the file
/// but is known only after the last frame, so its frames wait here; memory stays flat however
/// many there are. The file vanishes when the spool is dropped (or the process ends).
public final class SpoolFile: ByteSink {
  private var descriptor: Int32?
  private var memory: [UInt8] = []
  /// Bytes written so far.
  public private(set) var count = 0

  public init() {
    let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((folder + "/render-anim-spool-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard fd >= 0 else { return }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    descriptor = fd
  }

  deinit { if let descriptor { close(descriptor) } }

  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    if let descriptor {
      try OutputFile.writeAll(bytes, to: descriptor, path: "temporary spool file")
    } else {
      memory.append(contentsOf: bytes)
    }
    count += bytes.count
  }

  /// Writes everything spooled so far to `sink`, in order, 64 KiB at a time.
  public func copy(to sink: any ByteSink) throws(FileError) {
    guard let descriptor else {
      try sink.write(memory)
      return
    }
    guard lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw FileError.system("temporary spool file", isOutput: true)
    }
    defer { lseek(descriptor, 0, SEEK_END) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { throw FileError.system("temporary spool file", isOutput: true) }
      if n == 0 { return }
      var failure: FileError?
      buffer.withUnsafeBytes { raw in
        do throws(FileError) { try sink.write(UnsafeRawBufferPointer(rebasing: raw[0..<n])) } catch
        {
          failure = error
        }
      }
      if let failure { throw failure }
    }
  }
}
