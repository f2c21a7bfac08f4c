#if canImport(Glibc)
import Glibc
#endif

/// Where a path leads, as an absolute path, for telling whether an output and an input are one
/// file or one lies in the other, and for naming a folder output without `.` and `..` parts.
public enum OutputPlace {
  /// The real path of `path`'s longest existing part (links followed), then the parts that do
  /// not exist yet, taken part by part: `.` is skipped and `..` goes up (from a folder that does
  /// not exist, which cannot be a link). Nil when not even its first folder resolves.
  public static func of(_ path: String) -> String? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let absolute = path.hasPrefix("/")
    for existing in stride(from: parts.count, through: 0, by: -1) {
      let candidate =
        existing == 0
        ? (absolute ? "/" : ".")
        : (absolute ? "/" : "") + parts[0..<existing].joined(separator: "/")
      guard let base = FileConfinement.realPath(candidate) else { continue }
      var result = base == "/" ? [] : base.split(separator: "/").map(String.init)
      for part in parts[existing...] where part != "." {
        if part == ".." {
          _ = result.popLast()
        } else {
          result.append(part)
        }
      }
      return "/" + result.joined(separator: "/")
    }
    return nil
  }
}
