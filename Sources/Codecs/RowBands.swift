import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work over an image split into bands of rows, one a core: how many bands, and a slot for each
/// band's result, stored by the band's own thread and read in band order once all have finished
/// (so what is merged never depends on which thread ran first).
final class RowBands<Value: Sendable>: Sendable {
  /// One band a core, but none under 64 rows.
  static func count(rows: Int) -> Int {
    max(1, min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), rows / 64))
  }

  private let results: Mutex<[Value?]>

  init(count: Int) { results = Mutex([Value?](repeating: nil, count: count)) }

  func store(_ result: Value, at band: Int) { results.withLock { $0[band] = result } }

  /// The band's result; nil when nothing was stored there.
  func take(_ band: Int) -> Value? { results.withLock { $0[band] } }
}
