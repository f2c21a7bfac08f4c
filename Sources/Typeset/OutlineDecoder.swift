import CFreeType
import Raster

/// FreeType outlines to `Path`, through `FT_Outline_Decompose` with C callbacks.
enum OutlineDecoder {
  /// The outline in font units with y flipped to point down.
  static func path(of outline: inout FT_Outline) -> Path {
    var builder = PathBuilder()
    var funcs = FT_Outline_Funcs(
      move_to: { to, user in
        OutlineDecoder.builder(user).pointee.move(to: OutlineDecoder.point(to))
        return 0
      },
      line_to: { to, user in
        OutlineDecoder.builder(user).pointee.line(to: OutlineDecoder.point(to))
        return 0
      },
      conic_to: { control, to, user in
        OutlineDecoder.builder(user).pointee.quad(
          to: OutlineDecoder.point(to), control: OutlineDecoder.point(control))
        return 0
      },
      cubic_to: { c1, c2, to, user in
        OutlineDecoder.builder(user).pointee.cubic(
          to: OutlineDecoder.point(to), control1: OutlineDecoder.point(c1),
          control2: OutlineDecoder.point(c2))
        return 0
      },
      shift: 0, delta: 0)
    withUnsafeMutablePointer(to: &builder) { pointer in
      _ = FT_Outline_Decompose(&outline, &funcs, UnsafeMutableRawPointer(pointer))
    }
    builder.close()
    return builder.build() ?? .empty
  }

  private static func builder(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<PathBuilder>
  {
    user.unsafelyUnwrapped.assumingMemoryBound(to: PathBuilder.self)
  }

  private static func point(_ vector: UnsafePointer<FT_Vector>?) -> Point {
    guard let v = vector?.pointee else { return .zero }
    return Point(Double(v.x), -Double(v.y))
  }
}
