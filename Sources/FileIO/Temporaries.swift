import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The temporary files and folders outputs are written into before they are renamed into place,
/// so that an interrupted run removes them: `removeOnSignals()` makes SIGINT, SIGTERM and SIGHUP
/// delete every one still registered, then end the process as the signal would have.
public enum Temporaries {
  private static let registered = Mutex<[String: Bool]>([:])
  private static let sources = Mutex<[any DispatchSourceSignal]>([])
  /// Set once a signal has come: the handler is removing the temporaries and will end the
  /// process; the work in progress will fail on the missing files and must not report that.
  private static let interrupted = Atomic<Bool>(false)

  /// Remembers a temporary file (`isFolder` false) or folder of flat files.
  static func register(_ path: String, isFolder: Bool) {
    registered.withLock { $0[path] = isFolder }
  }

  /// Forgets a temporary that was renamed into place or removed.
  static func unregister(_ path: String) {
    _ = registered.withLock { $0.removeValue(forKey: path) }
  }

  /// Removes every registered temporary now. A folder is emptied until it can be removed: a
  /// writer may add one more file after the interruption (it stops at its next write), and on a
  /// loaded machine that thread may wait its turn a while, so this tries for up to 5 s (a full
  /// test run on two cores once left a folder behind after 0.5 s of tries).
  public static func removeAll() {
    let all = registered.withLock { paths in
      defer { paths = [:] }
      return paths
    }
    for (path, isFolder) in all {
      guard isFolder else {
        unlink(path)
        continue
      }
      for _ in 0..<500 where !removeFolder(path) { usleep(10_000) }
    }
  }

  /// Installs the signal handling described above (once; later calls do nothing). Also ignores
  /// SIGPIPE, so a closed pipe is an error the run reports and cleans up after, not a silent
  /// death.
  public static func removeOnSignals() {
    sources.withLock { sources in
      guard sources.isEmpty else { return }
      signal(SIGPIPE, SIG_IGN)
      for number in [SIGINT, SIGTERM, SIGHUP] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
          interrupted.store(true, ordering: .sequentiallyConsistent)
          removeAll()
          endAsIfBy(signal: number)
        }
        source.resume()
        sources.append(source)
      }
    }
  }

  /// Ends the process the way `number`'s default action does, so the parent sees a death by
  /// that signal. The signal may be blocked in every thread (libdispatch watches it through a
  /// signalfd, and a child inherits its parent's mask), so it is unblocked in this thread and
  /// raised here; should the process somehow survive, it exits with the shell's 128 + number.
  private static func endAsIfBy(signal number: Int32) -> Never {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(number)
    _exit(128 + number)
  }

  /// When a signal has come, waits for its handler to end the process (so the failures its
  /// cleanup causes are neither reported nor turned into an exit status); otherwise returns.
  public static func waitIfInterrupted() {
    guard interrupted.load(ordering: .sequentiallyConsistent) else { return }
    while true { pause() }
  }

  /// Removes the temporaries of one output (`.base.PID.RANDOM.tmp` in the folder `prefix`, ""
  /// for the working folder) whose process is gone: a process killed outright cannot clean up,
  /// and its temporaries (a GIF half written, a folder of frames) would stay for good. Only
  /// names of exactly that form, owned by this user, whose process id is not alive (`kill(pid,
  /// 0)` says there is no such process) are touched; a folder goes only if it holds plain files.
  static func sweepAbandoned(in prefix: String, base: Substring) {
    let folder = prefix.isEmpty ? "." : prefix
    let start = "." + base + "."
    for name in FolderListing.names(in: folder)
    where name.hasPrefix(start) && name.hasSuffix(".tmp") {
      let middle = name.dropFirst(start.count).dropLast(4).split(
        separator: ".", omittingEmptySubsequences: false)
      // The process id as this program writes it: digits only, no sign, no leading zero.
      guard middle.count == 2, middle[0].first != "0",
        middle[0].allSatisfy({ ("0"..."9").contains($0) }), let pid = Int32(middle[0]), pid > 0,
        pid != getpid(),
        !middle[1].isEmpty,
        middle[1].allSatisfy({ ("0"..."9").contains($0) || ("a"..."z").contains($0) })
      else { continue }
      guard kill(pid, 0) != 0, errno == ESRCH else { continue }
      let path = prefix + name
      var info = stat()
      guard lstat(path, &info) == 0, info.st_uid == getuid() else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFREG: unlink(path)
      case S_IFDIR: removeFolder(path)
      default: continue
      }
    }
  }

  /// Deletes a folder of plain files (what output folders hold), then the folder; whether it
  /// is gone.
  @discardableResult
  static func removeFolder(_ path: String) -> Bool {
    for name in FolderListing.names(in: path) { unlink(path + "/" + name) }
    return rmdir(path) == 0 || errno == ENOENT
  }
}
