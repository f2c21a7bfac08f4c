/// How a state change moves a value to its new target.
public enum Animation: Hashable, Sendable {
  /// No animation: the value jumps at the change.
  case none
  /// SwiftUI's `.spring()` family (FluidSpringAnimation): a retargetable spring that keeps its
  /// position and velocity when the target changes, removed once it is still (docs/SEMANTICS.md, Springs).
  case fluidSpring(Spring)
  /// `interpolatingSpring` / the 2019 `spring(mass:stiffness:damping:)`: a fixed-length curve
  /// scaled to the change; overlapping changes add (docs/SEMANTICS.md, Springs).
  case interpolatingSpring(Spring)
  /// `easeIn`, `easeOut`, `easeInOut`, `linear`, `timingCurve`: a Bézier curve of fixed duration
  /// scaled to the change; overlapping changes add, as with interpolating springs.
  case curve(TimingCurve)
}
