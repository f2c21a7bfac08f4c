import Synchronization

/// Values filled in from worker threads, one slot each, read back in order afterwards.
final class Slots<Value: Sendable>: Sendable {
  private let values: Mutex<[Value?]>

  init(count: Int) { values = Mutex([Value?](repeating: nil, count: count)) }

  func store(_ value: Value, at index: Int) { values.withLock { $0[index] = value } }

  /// The slot's value; nil when nothing was stored there.
  func take(_ index: Int) -> Value? { values.withLock { $0[index] } }

  /// The slot's value, left empty: the caller then holds the only copy, so mutating it (an
  /// array's buffer) copies nothing.
  func remove(_ index: Int) -> Value? {
    values.withLock { slots in
      defer { slots[index] = nil }
      return slots[index]
    }
  }
}
