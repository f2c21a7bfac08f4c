import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The temporary files and folders outputs are written into before they are renamed into place,
/// so that an interrupted run removes them: `removeOnSignals()` makes SIGINT, SIGTERM and SIGHUP
/// delete every one still registered, then end the process as the signal would have.
public enum Temporaries {
  private static let registered = Mutex<[String: Bool]>([:])
  private static let sources = Mutex<[any DispatchSourceSignal]>([])

  /// Remembers a temporary file (`isFolder` false) or folder of flat files.
  static func register(_ path: String, isFolder: Bool) {
    registered.withLock { $0[path] = isFolder }
  }

  /// Forgets a temporary that was renamed into place or removed.
  static func unregister(_ path: String) {
    _ = registered.withLock { $0.removeValue(forKey: path) }
  }

  /// Removes every registered temporary now.
  public static func removeAll() {
    let all = registered.withLock { paths in
      defer { paths = [:] }
      return paths
    }
    for (path, isFolder) in all {
      if isFolder { removeFolder(path) } else { unlink(path) }
    }
  }

  /// Installs the signal handling described above (once; later calls do nothing). Also ignores
  /// SIGPIPE, so a closed pipe is an error the run reports and cleans up after, not a silent
  /// death.
  public static func removeOnSignals() {
    sources.withLock { sources in
      guard sources.isEmpty else { return }
      signal(SIGPIPE, SIG_IGN)
      for number in [SIGINT, SIGTERM, SIGHUP] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
          removeAll()
          signal(number, SIG_DFL)
          raise(number)
        }
        source.resume()
        sources.append(source)
      }
    }
  }

  /// Deletes a folder of plain files (what output folders hold), then the folder.
  static func removeFolder(_ path: String) {
    for name in FolderListing.names(in: path) { unlink(path + "/" + name) }
    rmdir(path)
  }
}

/// The names in a folder (without `.` and `..`), in no particular order.
enum FolderListing {
  static func names(in path: String) -> [String] {
    guard let folder = opendir(path) else { return [] }
    defer { closedir(folder) }
    var names: [String] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// Folders: listing one and creating one with the folders above it.
public enum Folders {
  /// The names in `path`, or nil when it is not a readable folder.
  public static func names(in path: String) -> [String]? {
    guard let folder = opendir(path) else { return nil }
    closedir(folder)
    return FolderListing.names(in: path)
  }

  /// Creates `path` and any missing folders above it; an existing folder is fine.
  public static func create(_ path: String) throws(FileError) {
    try OutputPath.createFolders(OutputPath.trimmingTrailingSlashes(path), for: path)
  }
}
