/// What the fuzz targets share. Each target defines libFuzzer's entry point,
///
///     @_cdecl("LLVMFuzzerTestOneInput")
///     public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32
///
/// in a file not named main.swift and has no `main` of its own: `swift build
/// --sanitize=fuzzer` compiles executables with -parse-as-library and links libFuzzer, whose
/// `main` parses the libFuzzer flags and calls the entry point. The entry returns 0, or -1 to keep
/// an input it skipped out of the corpus.

/// The input as an array (empty for a nil pointer).
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run as a crash with `message`, so libFuzzer saves the input as a reproducer. For
/// broken invariants, not for inputs the code rightly refuses.
public func fuzzFailure(
  _ message: String, file: StaticString = #fileID, line: UInt = #line
) -> Never {
  fatalError("fuzz invariant broken: \(message)", file: file, line: line)
}
