#if canImport(Glibc)
import Glibc
#endif

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

/// Whether a path names something.
public enum FileStatus {
  /// Whether anything (a file, a folder, a link — even a dangling one) is at `path`.
  public static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }
}
