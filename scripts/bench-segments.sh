#!/usr/bin/env bash
# Issue #18's segment scaling: fills of one closed polygon of N segments (scripts/make-long-path.py,
# a spiral band of fixed geometry) at 1000×1000, N = 1k … 1M. Prints, per N, the instructions a fill
# ((Ir of 3 fills − Ir of 1 fill) / 2, callgrind; needs valgrind) and the minimum and median ms of
# ROUNDS (default 3) timed runs. Release build; the paths are written to a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
swift build -c release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/ra" .build/release/render-anim  # valgrind cannot read the debug info
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/ra" bench fill --path-file "$1" \
    --viewbox 0,0,1000,1000 --size 1000 --iters "$2" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
}
echo "| segments | instructions a fill | per segment | min ms | median ms |"
echo "|---|---|---|---|---|"
for n in 1000 10000 100000 1000000; do
  python3 scripts/make-long-path.py "$n" >"$work/p.svgpath"
  per=$(( ($(ir "$work/p.svgpath" 3) - $(ir "$work/p.svgpath" 1)) / 2 ))
  iters=$((n >= 1000000 ? 5 : (n >= 100000 ? 10 : 50)))
  result=$(for _ in $(seq "$rounds"); do
    "$work/ra" bench fill --path-file "$work/p.svgpath" --viewbox 0,0,1000,1000 --size 1000 \
      --iters "$iters" | sed 's/.*: //; s/}//'
  done | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f", v[1] * 1000, v[int((NR + 1) / 2)] * 1000 }')
  echo "| $n | $((per / 1000)) k | $((per / n)) | ${result% *} | ${result#* } |"
done
