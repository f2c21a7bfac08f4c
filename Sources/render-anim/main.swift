import CLI

#if canImport(Glibc)
import Glibc
#endif

exit(RenderAnim.main(Array(CommandLine.arguments.dropFirst())))
