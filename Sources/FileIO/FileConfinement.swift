#if canImport(Glibc)
import Glibc
#endif

/// Files that a document names (a scene's `pathFile`) resolved against the document's folder and
/// kept inside it: scene files may come from untrusted pull requests in docs pipelines, so by
/// default a name may not be absolute, climb out with `..`, or lead out through a symbolic link.
public struct FileConfinement: Hashable, Sendable {
  /// The folder names are relative to: the document's folder ("" is the working folder).
  public var folder: String
  /// Whether names may lead anywhere (`--allow-files-outside`).
  public var allowsOutside: Bool

  public init(folder: String, allowsOutside: Bool = false) {
    self.folder = folder
    self.allowsOutside = allowsOutside
  }

  /// Why a name was refused.
  public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    case absolute
    case outside(folder: String)
    case missing
    case unreadable(String)

    public var description: String {
      switch self {
      case .absolute:
        return "an absolute path; files a scene names must be inside its folder"
          + " (--allow-files-outside allows any)"
      case .outside(let folder):
        return "leads outside the scene's folder \(folder); files a scene names must be inside"
          + " it (--allow-files-outside allows any)"
      case .missing: return "no such file"
      case .unreadable(let why): return why
      }
    }
  }

  /// The path to open for `name`.
  public func resolve(_ name: String) -> Result<String, Refusal> {
    // C strings end at a NUL: "a.png\0../x" would open a.png.
    guard !name.utf8.contains(0) else {
      return .failure(.unreadable("holds a NUL character, which no file name can"))
    }
    // An empty name (or one of only slashes and dots) names the folder, not a file in it.
    guard name.contains(where: { $0 != "/" && $0 != "." }) || name.contains("..") else {
      return .failure(
        .unreadable(name.isEmpty ? "an empty file name" : "names a folder, not a file"))
    }
    let base = folder.isEmpty ? "." : folder
    let joined = name.hasPrefix("/") ? name : base + "/" + name
    if allowsOutside { return .success(joined) }
    guard !name.hasPrefix("/") else { return .failure(.absolute) }
    guard let root = Self.realPath(base) else {
      return .failure(.unreadable("cannot resolve the scene's folder \(base)"))
    }
    // A name that climbs out by its own `..` leads outside whether or not what it names exists
    // (saying "no such file" for some and "outside" for others would tell what is out there).
    guard Self.staysInside(name) else { return .failure(.outside(folder: root)) }
    guard let resolved = Self.realPath(joined) else {
      // A missing file is only "missing" if its name stays inside; otherwise say where it leads.
      let parentInside = Self.realPath(OutputPath.parent(of: joined)).map {
        Self.isInside($0, root)
      }
      return .failure(parentInside == false ? .outside(folder: root) : .missing)
    }
    guard Self.isInside(resolved, root) else { return .failure(.outside(folder: root)) }
    return .success(resolved)
  }

  /// Whether a relative name never climbs above its folder by its own components (`a/../b`
  /// stays, `a/../../b` and `../a` do not); links are for `realPath` to follow.
  static func staysInside(_ name: String) -> Bool {
    var depth = 0
    for part in name.split(separator: "/") where part != "." {
      depth += part == ".." ? -1 : 1
      if depth < 0 { return false }
    }
    return true
  }

  static func isInside(_ path: String, _ root: String) -> Bool {
    root == "/" || path == root || path.hasPrefix(root + "/")
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
