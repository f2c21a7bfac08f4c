/// One shard of a suite of scenes split across machines: shard `index` (1-based, as
/// Playwright's `--shard 2/3`) of `count`.
///
/// A scene belongs to the shard its path's stable hash picks (64-bit FNV-1a of the path's
/// UTF-8 bytes, modulo the count): the choice depends on nothing but the path and the count, so
/// adding or removing a scene moves no other scene, and every machine agrees without talking.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
  public static let maximumCount = 10_000

  public var index: Int
  public var count: Int

  public init?(index: Int, count: Int) {
    guard (1...Self.maximumCount).contains(count), (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  public var description: String { "\(index)/\(count)" }

  /// Why a shard could not be worked out, naming the option or variable.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// `i/n`.
  public static func parse(_ text: String) throws(Problem) -> Shard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
      throw Problem("expected i/n, such as 2/3 (shards count from 1)")
    }
    guard let shard = Shard(index: i, count: n) else {
      throw Problem("the index must be 1 to n, and n 1 to \(maximumCount)")
    }
    return shard
  }

  /// The shard the engines people run give through the environment, when `--shard` is not given:
  /// a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` or an AWS Batch array job's
  /// `AWS_BATCH_JOB_ARRAY_INDEX` (both 0-based) with `shards` (`--shards n`), or Bazel's
  /// `TEST_SHARD_INDEX` (0-based) and `TEST_TOTAL_SHARDS`. Nil when none applies.
  public static func fromEnvironment(
    _ environment: [String: String], shards: Int?
  ) throws(Problem)
    -> Shard?
  {
    func index(_ name: String) throws(Problem) -> Int? {
      guard let text = environment[name] else { return nil }
      guard let value = Int(text), value >= 0 else {
        throw Problem("\(name)=\(text) is not a 0-based index")
      }
      return value
    }
    if let shards {
      if let totalText = environment["TEST_TOTAL_SHARDS"], totalText != String(shards) {
        throw Problem("TEST_TOTAL_SHARDS=\(totalText) and --shards \(shards) disagree: give one")
      }
      var found: (name: String, index: Int)?
      for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "TEST_SHARD_INDEX"] {
        guard let i = try index(name) else { continue }
        // Two engines' indices that disagree: which one is meant cannot be told.
        if let other = found, other.index != i {
          throw Problem(
            "\(other.name)=\(other.index) and \(name)=\(i) are both set: unset one, or give "
              + "--shard i/n")
        }
        found = found ?? (name, i)
      }
      if let (name, i) = found {
        guard let shard = Shard(index: i + 1, count: shards) else {
          throw Problem("\(name)=\(i) is past the last of --shards \(shards) (it counts from 0)")
        }
        return shard
      }
      throw Problem(
        "--shards \(shards) needs the shard's index: JOB_COMPLETION_INDEX (Kubernetes), "
          + "AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch) or TEST_SHARD_INDEX (Bazel), or give --shard i/n"
      )
    }
    guard let totalText = environment["TEST_TOTAL_SHARDS"] else {
      // An index alone would otherwise check every scene in every shard without a word.
      if environment["TEST_SHARD_INDEX"] != nil {
        throw Problem("TEST_SHARD_INDEX is set without TEST_TOTAL_SHARDS (or --shards n)")
      }
      for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]
      where environment[name] != nil {
        throw Problem(
          "\(name) is set without --shards n: give the number of shards (the job's size) to "
            + "split the scenes, or unset it to check them all")
      }
      return nil
    }
    guard let total = Int(totalText), total >= 1 else {
      throw Problem("TEST_TOTAL_SHARDS=\(totalText) is not a count")
    }
    guard let i = try index("TEST_SHARD_INDEX") else {
      throw Problem("TEST_TOTAL_SHARDS is set without TEST_SHARD_INDEX")
    }
    guard let shard = Shard(index: i + 1, count: total) else {
      if i < total {
        throw Problem(
          "TEST_TOTAL_SHARDS=\(total) is more shards than the \(Shard.maximumCount) a check splits into"
        )
      }
      throw Problem("TEST_SHARD_INDEX=\(i) is past TEST_TOTAL_SHARDS=\(total) (it counts from 0)")
    }
    return shard
  }

  /// Throws when an index or count in the environment names another shard than `self` (given
  /// as `--shard i/n`): which one is meant cannot be told.
  public func checkAgrees(with environment: [String: String]) throws(Problem) {
    for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "TEST_SHARD_INDEX"] {
      guard let text = environment[name] else { continue }
      guard Int(text) == index - 1 else {
        throw Problem(
          "\(name)=\(text) names another shard than --shard \(self) (it counts from 0): give one")
      }
    }
    if let total = environment["TEST_TOTAL_SHARDS"], Int(total) != count {
      throw Problem("TEST_TOTAL_SHARDS=\(total) and --shard \(self) disagree: give one")
    }
  }

  /// Whether the scene at `path` is this shard's (the path as `normalized` writes it, so
  /// `./a.json`, `a.json` and `dir//a.json`, `dir/a.json` are one scene on every machine).
  public func contains(_ path: String) -> Bool {
    Int(Self.stableHash(Self.normalized(path)) % UInt64(count)) == index - 1
  }

  /// `path` with empty and `.` components left out (`./a//b/` → `a/b`); a leading `/` kept.
  public static func normalized(_ path: String) -> String {
    let parts = path.split(separator: "/").filter { $0 != "." }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : joined.isEmpty ? "." : joined
  }

  /// 64-bit FNV-1a of the UTF-8 bytes.
  public static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }
}
