import CFileSystem

#if canImport(Glibc)
import Glibc
#endif

/// A folder of output files (PNG frames) that is replaced as a whole: the files are written into
/// a hidden sibling folder, and `commit()` swaps it with the destination in one rename
/// (renameat2's exchange), then deletes the old contents. Until then the destination keeps
/// exactly what it held, whatever happens to the run — an error, a full disk, a signal
/// (the sibling is registered with `Temporaries`).
///
/// To keep a mistyped `-o ~/` from deleting anything, an existing destination may hold only
/// names that `isReplaceable` accepts (earlier frames); anything else is an error and nothing is
/// written. A symbolic link to a folder is written through. Missing folders above the
/// destination are created.
public final class OutputFolder: PendingOutput {
  /// The destination as the user named it.
  public let path: String
  /// The folder the files go to (the link-resolved destination).
  private let target: String
  /// The hidden sibling being filled.
  public let temporary: String
  private var state = State.writing
  /// Whether the destination is the working directory or holds it (`-o ./`, `--golden .`):
  /// then its files are replaced one by one instead (each file whole, the set not at once), so
  /// that the caller's shell is not left in a deleted folder. `oldNames` are the files it held.
  private let holdsWorkingDirectory: Bool
  private var oldNames: [String] = []

  private enum State { case writing, committed, discarded }

  /// `contents` names what the folder holds, for the error when it holds anything else
  /// (`frames`, `a report's files`).
  public init(
    _ path: String, contents: String = "frames", isReplaceable: (String) -> Bool
  ) throws(FileError) {
    self.path = path
    let trimmed = OutputPath.withoutDots(OutputPath.trimmingTrailingSlashes(path))
    let target = try OutputPath.followingLinks(trimmed, isFolder: true)
    var info = stat()
    if stat(target, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw FileError(path: path, "is a file, not a folder", isOutput: true)
      }
      let names = FolderListing.names(in: target)
      let foreign = names.filter { !isReplaceable($0) }.sorted()
      guard foreign.isEmpty else {
        let shown = foreign.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        throw FileError(
          path: path,
          "holds files that are not \(contents) (\(shown)\(foreign.count > 3 ? ", …" : "")); "
            + "give an empty or new folder (or one this command wrote before), so nothing "
            + "else is replaced", isOutput: true)
      }
      // Its old files are removed once the new ones are in place: refused now, before any
      // rendering, if they cannot be (else they would be left in a hidden folder beside it).
      guard names.isEmpty || access(target, W_OK | X_OK) == 0 else {
        throw FileError(
          path: path,
          "permission denied: its old files cannot be removed, so it cannot be "
            + "replaced", isOutput: true)
      }
    } else {
      guard errno == ENOENT || errno == ENOTDIR else {
        throw FileError.system(path, isOutput: true)
      }
      try OutputPath.createFolders(OutputPath.parent(of: target), for: path)
    }
    self.target = target
    var working = false
    if let here = FileConfinement.realPath("."), let there = FileConfinement.realPath(target) {
      working = here == there || here.hasPrefix(there == "/" ? "/" : there + "/")
    }
    holdsWorkingDirectory = working
    if working { oldNames = FolderListing.names(in: target) }
    temporary = OutputPath.temporarySibling(of: target)
    guard mkdir(temporary, 0o755) == 0 else { throw FileError.system(path, isOutput: true) }
    Temporaries.register(temporary, isFolder: true)
  }

  deinit { discard() }

  /// Writes one file of the folder.
  public func write(_ bytes: [UInt8], name: String) throws(FileError) {
    Temporaries.waitIfInterrupted()
    let file = temporary + "/" + name
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError.system(path + name, isOutput: true) }
    do throws(FileError) {
      try OutputFile.writeAll(bytes, to: fd, path: path + name)
    } catch {
      close(fd)
      throw error
    }
    guard close(fd) == 0 else { throw FileError.system(path + name, isOutput: true) }
  }

  public func finishWriting() throws(FileError) {
    guard state == .writing else { return }
    // The files were written with plain writes: flush them (and the folder) before the swap.
    let fd = open(temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw FileError.system(path, isOutput: true) }
    defer { close(fd) }
    cfs_sync_file_system(fd)
  }

  /// Puts the new folder in place of the destination.
  public func publish() throws(FileError) {
    Temporaries.waitIfInterrupted()
    guard state == .writing else { return }
    var info = stat()
    let exists = lstat(target, &info) == 0
    if exists, holdsWorkingDirectory {
      let names = FolderListing.names(in: temporary)
      for name in names where rename(temporary + "/" + name, target + "/" + name) != 0 {
        throw failure()
      }
      state = .committed
      let written = Set(names)
      for name in oldNames where !written.contains(name) { unlink(target + "/" + name) }
      Temporaries.removeFolder(temporary)
      Temporaries.unregister(temporary)
      return
    }
    if !exists {
      guard rename(temporary, target) == 0 else { throw failure() }
    } else if cfs_rename_exchange(temporary, target) != 0 {
      // No atomic exchange here (an old kernel or file system): move the old folder aside, the
      // new one in, and delete the old one.
      let aside = OutputPath.temporarySibling(of: target)
      guard rename(target, aside) == 0 else { throw failure() }
      Temporaries.register(aside, isFolder: true)
      guard rename(temporary, target) == 0 else {
        let error = failure()
        rename(aside, target)
        Temporaries.unregister(aside)
        throw error
      }
      Temporaries.unregister(temporary)
      state = .committed
      Temporaries.removeFolder(aside)
      Temporaries.unregister(aside)
      return
    }
    state = .committed
    // After the exchange the temporary name holds the old frames (or nothing, after a rename).
    if exists { Temporaries.removeFolder(temporary) }
    Temporaries.unregister(temporary)
  }

  public func commit() throws(FileError) {
    try finishWriting()
    try publish()
  }

  /// Drops the files written; the destination keeps what it held.
  public func discard() {
    guard state == .writing else { return }
    state = .discarded
    Temporaries.removeFolder(temporary)
    Temporaries.unregister(temporary)
  }

  private func failure() -> FileError {
    let error = FileError.system(path, isOutput: true)
    discard()
    return error
  }
}
