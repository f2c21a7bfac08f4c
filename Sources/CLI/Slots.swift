import Synchronization

/// Values filled in from worker threads, one slot each, read back in order afterwards.
final class Slots<Value: Sendable>: Sendable {
  private let values: Mutex<[Value?]>

  init(count: Int) { values = Mutex([Value?](repeating: nil, count: count)) }

  func store(_ value: Value, at index: Int) { values.withLock { $0[index] = value } }

  /// The slot's value; nil when nothing was stored there.
  func take(_ index: Int) -> Value? { values.withLock { $0[index] } }
}
