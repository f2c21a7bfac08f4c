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

  /// Known finding 5: a shadow's blur works on an offscreen as large as the canvas grown by
  /// 3σ on every side, σ being the radius times the layer's scale, so a small scene with a
  /// large `scaleEffect` needs gigabytes (21 bytes a pixel). True when some frame in `frames`
  /// would need more than `pixels` pixels for one shadow.
  public static func hasHugeShadow(_ scene: Scene, frames: [Int], pixels: Int = 1 << 24) -> Bool {
    guard !strict else { return false }
    let (width, height) = (Double(scene.pixelWidth), Double(scene.pixelHeight))
    func huge(_ layer: Layer, _ parent: Transform) -> Bool {
      let t = layer.transform.concatenating(parent)
      if let shadow = layer.shadow, shadow.color.alpha > 0 {
        let reach = 2 * (3 * shadow.radius * abs(t.determinant).squareRoot() + 2)
        if !((width + reach) * (height + reach) <= Double(pixels)) { return true }
      }
      if case .group(let children) = layer.content {
        return children.contains { huge($0, t) }
      }
      return false
    }
    return frames.contains {
      huge(scene.layer(at: scene.time(ofFrame: $0)), .scale(scene.scale, scene.scale))
    }
  }

  static func animations(_ scene: Scene) -> [Animation] {
    scene.channels.values.flatMap { $0.changes.map(\.animation) }
  }
}
