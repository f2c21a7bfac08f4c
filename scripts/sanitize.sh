#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (with LeakSanitizer) and ThreadSanitizer, each in a
# build folder of its own. Not part of CI (about 15 minutes on 2 cores); run it before a release
# and after changes to unsafe code or threading.
#
#   scripts/sanitize.sh            both
#   scripts/sanitize.sh address    one of them
#   scripts/sanitize.sh thread
#
# Suppressions, each with its reason, are in scripts/sanitizers/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
here=$(pwd)
kinds=("${@:-address thread}")
status=0
for kind in ${kinds[@]}; do
  echo "== sanitize=$kind" >&2
  build=".build/sanitize-$kind"
  swift build --build-tests --sanitize="$kind" --scratch-path "$build"
  case "$kind" in
  address)
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
    export LSAN_OPTIONS="suppressions=$here/scripts/sanitizers/lsan.supp:print_suppressions=0"
    ;;
  thread)
    export TSAN_OPTIONS="suppressions=$here/scripts/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1"
    ;;
  esac
  export SWIFT_BACKTRACE=enable=no
  if ! swift test --skip-build --disable-xctest --sanitize="$kind" --scratch-path "$build"; then
    echo "sanitize=$kind: FAILED" >&2
    status=1
  fi
done
exit $status
