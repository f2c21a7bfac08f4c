#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for SECONDS (default 60), one after another,
# on one core. Exits 1 if any target found a crash, leak, timeout or out-of-memory input (the
# reproducer's path is printed), 2 if the build failed.
#
#   scripts/fuzz.sh [SECONDS]
#
# Environment:
#   FUZZ_TARGETS  targets to run, space-separated (default: pathdata scene-load scene-render
#                 png-decode jpeg-decode)
#   FUZZ_ARGS     extra libFuzzer flags for every target, e.g. "-seed=1 -use_value_profile=1"
#   FUZZ_WORK     where corpora, artifacts and logs go (default: Fuzz/.work, ignored by git)
#
# Needs what scripts/setup.sh installs and the Swift toolchain: its libFuzzer and ASan runtimes
# (usr/lib/clang/*/lib/linux/libclang_rt.{fuzzer,asan}-x86_64.a) and llvm-symbolizer.
set -euo pipefail

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]   (seconds per target, default 60)" >&2
  exit 64
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fuzz="$root/Fuzz"
work=${FUZZ_WORK:-$fuzz/.work}
read -r -a targets <<<"${FUZZ_TARGETS:-pathdata scene-load scene-render png-decode jpeg-decode}"
read -r -a extra <<<"${FUZZ_ARGS:-}"

# MARK: - Build
# SwiftPM's --sanitize=fuzzer makes it compile the executables with -parse-as-library (each
# target defines LLVMFuzzerTestOneInput; libFuzzer's main runs) and link libFuzzer. The
# instrumentation comes from -Xswiftc: the driver keeps only the last -sanitize= it is given, so
# `--sanitize=fuzzer --sanitize=address` would build without coverage; one combined flag does
# both, for every module of both packages.
echo "fuzz: building the fuzz targets (release, -sanitize=fuzzer,address)" >&2
started=$SECONDS
build=(swift build --package-path "$fuzz" --scratch-path "$fuzz/.build" -c release
  --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
# gold warns about an ASan symbol on every link; the warning is harmless.
if ! "${build[@]}" > >(grep -v --line-buffered "__asan_extra_spill_area" >&2) 2>&1; then
  echo "fuzz: the build failed" >&2
  exit 2
fi
bin=$("${build[@]}" --show-bin-path)
echo "fuzz: built in $((SECONDS - started)) s; binaries in $bin" >&2

# MARK: - Run
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:symbolize=1:detect_stack_use_after_return=0}
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
if [[ -x $swift_bin/llvm-symbolizer ]]; then
  export ASAN_SYMBOLIZER_PATH=$swift_bin/llvm-symbolizer
fi
# Relative `pathFile` names in scene inputs resolve here (the seeds use cat.svgpath).
export FUZZ_SCENE_FOLDER=$root/Assets

failed=()
for target in "${targets[@]}"; do
  case $target in
    pathdata) options=(-max_len=65536 -timeout=10 -dict="$fuzz/Dictionaries/pathdata.dict") ;;
    scene-load) options=(-max_len=65536 -timeout=10 -dict="$fuzz/Dictionaries/scene.dict") ;;
    scene-render) options=(-max_len=65536 -timeout=20 -dict="$fuzz/Dictionaries/scene.dict") ;;
    png-decode) options=(-max_len=1048576 -timeout=10 -dict="$fuzz/Dictionaries/png.dict") ;;
    jpeg-decode) options=(-max_len=262144 -timeout=10) ;;
    *)
      echo "fuzz: unknown target '$target'" >&2
      exit 64
      ;;
  esac
  corpus="$work/corpus/$target"
  artifacts="$work/artifacts/$target"
  log="$work/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$work/logs"
  status=0
  # The findings first: each reproducer in Fuzz/findings/<target> must now pass.
  findings=("$fuzz/findings/$target"/*)
  if [[ -e ${findings[0]} ]]; then
    echo "fuzz: $target replays ${#findings[@]} findings" >&2
    if ! (cd "$work" && "$bin/fuzz-$target" -rss_limit_mb=2048 "${findings[@]}" </dev/null \
      >"$work/logs/$target-findings.log" 2>&1); then
      failed+=("$target")
      echo "fuzz: $target FAILED on a former finding; see $work/logs/$target-findings.log" >&2
      grep -E '^Running:|Fatal error|fuzz invariant broken|ERROR' \
        "$work/logs/$target-findings.log" | tail -n 3 | sed 's/^/  /' >&2 || true
      continue
    fi
  fi
  echo "fuzz: $target for $seconds s (log: $log)" >&2
  # New inputs go to the first folder; the committed seeds are only read. Standard input is
  # empty so a scene's `"pathFile": "-"` cannot wait on a terminal.
  (cd "$work" && "$bin/fuzz-$target" "${options[@]}" -rss_limit_mb=2048 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" \
    ${extra[@]+"${extra[@]}"} "$corpus" "$fuzz/Corpus/$target" </dev/null >"$log" 2>&1) \
    || status=$?
  # The last status line (cov, ft, corpus, exec/s) and libFuzzer's final statistics.
  grep -E '^#[0-9]+' "$log" | tail -n 1 | sed 's/^/  /' >&2 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" \
    | sed 's/^/  /' >&2 || true
  if ((status != 0)); then
    failed+=("$target")
    echo "fuzz: $target FAILED (exit $status):" >&2
    grep -E '^(SUMMARY|==[0-9]+==ERROR)|Fatal error|fuzz invariant broken' "$log" | head -n 5 \
      | sed 's/^/  /' >&2 || true
    reproducers=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
    for reproducer in $reproducers; do
      echo "  reproducer: $reproducer" >&2
      echo "  replay:     (cd $work && FUZZ_SCENE_FOLDER=$FUZZ_SCENE_FOLDER $bin/fuzz-$target $reproducer)" >&2
    done
    [[ -n $reproducers ]] || echo "  no reproducer written; see $log" >&2
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings in ${targets[*]} (${seconds} s each)" >&2
