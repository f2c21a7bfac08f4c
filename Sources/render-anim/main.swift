import CLI
import FileIO

#if canImport(Glibc)
import Glibc
#endif

// An interrupted run removes the temporary files and folders its outputs were being written to.
Temporaries.removeOnSignals()
let status = RenderAnim.main(Array(CommandLine.arguments.dropFirst()))
Temporaries.waitIfInterrupted()
exit(status)
