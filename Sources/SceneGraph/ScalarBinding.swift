/// A number in a scene: fixed, one component of an animated channel, or the difference of two
/// numbers (a view's position in its parent where the view and its parent move on the screen
/// with different animations: its position on the screen less its parent's).
public indirect enum ScalarBinding: Hashable, Sendable {
  case constant(Double)
  case channel(String, component: Int)
  case difference(ScalarBinding, ScalarBinding)

  public func resolve(_ values: [String: [Double]]) -> Double {
    switch self {
    case .constant(let v): return v
    case .channel(let name, let component):
      guard let vector = values[name], component < vector.count else { return 0 }
      return vector[component]
    case .difference(let a, let b): return a.resolve(values) - b.resolve(values)
    }
  }

  /// The channels it reads.
  public var channelNames: Set<String> {
    switch self {
    case .constant: return []
    case .channel(let name, _): return [name]
    case .difference(let a, let b): return a.channelNames.union(b.channelNames)
    }
  }
}
