/// Why frames could not be made.
public struct RenderError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
