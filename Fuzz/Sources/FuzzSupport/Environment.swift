#if canImport(Glibc)
import Glibc
#endif

/// Settings the fuzz script passes through the environment.
public enum FuzzEnvironment {
  /// Where scene files' relative `pathFile` names are looked up (FUZZ_SCENE_FOLDER; fuzz.sh sets
  /// it to the repository's Assets). Without it, relative names are looked up in a folder that
  /// does not exist, so runs do not depend on the working directory.
  public static let sceneFolder: String = {
    if let value = getenv("FUZZ_SCENE_FOLDER") { return String(cString: value) }
    return "/nonexistent-render-anim-fuzz"
  }()
}
