/// A number in a scene: fixed, or one component of an animated channel.
public enum ScalarBinding: Hashable, Sendable {
  case constant(Double)
  case channel(String, component: Int)

  public func resolve(_ values: [String: [Double]]) -> Double {
    switch self {
    case .constant(let v): return v
    case .channel(let name, let component):
      guard let vector = values[name], component < vector.count else { return 0 }
      return vector[component]
    }
  }
}
