import RenderAnimKit

#if canImport(Glibc)
import Glibc
#endif

/// Scenes that hit a finding already reported (Fuzz/README.md), so the scene targets can carry
/// on looking for new ones. FUZZ_STRICT=1 turns the filters off, to replay findings/scene-*;
/// remove each filter once its finding is fixed.
public enum KnownFindings {
  public static let strict = getenv("FUZZ_STRICT") != nil

  /// Known finding 3: a fluid spring whose damping c makes c·(1/300 s) reach about 2. The
  /// integrator's velocity factor 1 − c·dt then passes −1 and the value grows until it
  /// overflows to ±inf and NaN.
  public static func hasDivergingSpring(_ scene: Scene) -> Bool {
    !strict
      && animations(scene).contains { animation in
        if case .fluidSpring(let spring) = animation { return spring.damping / 300 >= 1.9 }
        return false
      }
  }

  /// Known finding 4: an interpolating spring without damping (`"damping": 0` or `-0`) settles
  /// after ±inf seconds, and `Scene.frameCount` traps converting that to an Int.
  public static func hasUndampedSpring(_ scene: Scene) -> Bool {
    !strict
      && animations(scene).contains { animation in
        if case .interpolatingSpring(let spring) = animation { return !(spring.damping > 0) }
        return false
      }
  }

  static func animations(_ scene: Scene) -> [Animation] {
    scene.channels.values.flatMap { $0.changes.map(\.animation) }
  }
}
