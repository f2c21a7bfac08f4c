#!/usr/bin/env bash
# Interleaved rounds of `render-anim bench fill|stroke` for several builds of render-anim (before
# and after a change) and, with OTHERS (e.g. skia,blend2d), of scripts/bench-others.py in the venv
# that `COMPARE=1 scripts/bench.sh` makes: ROUNDS rounds, each running every binary, then the
# others, once. Prints the minimum and median ms per call of each. The path is FA_CAT (Font
# Awesome's cat, viewBox 0 0 576 512, not in the repository); strokes are 2 px wide.
#   FA_CAT=cat.svgpath ROUNDS=15 OTHERS=skia scripts/bench-ab.sh stroke 1024 300 old/render-anim new/render-anim
set -euo pipefail
mode=$1 size=$2 iters=$3
shift 3
rounds=${ROUNDS:-7}
python=${BENCH_VENV:-/tmp/render-anim-bench-venv}/bin/python
others=$(dirname "$0")/bench-others.py
extra=()
[[ $mode == stroke ]] && extra=(--stroke-width 2)
for _ in $(seq "$rounds"); do
  for tool in "$@"; do
    if [[ $mode == stroke ]]; then
      line=$("$tool" bench stroke --path-file "$FA_CAT" --viewbox 0,0,576,512 --size "$size" --width 2 --iters "$iters")
    else
      line=$("$tool" bench fill --path-file "$FA_CAT" --viewbox 0,0,576,512 --size "$size" --iters "$iters")
    fi
    echo "{\"library\": \"$tool\", ${line#\{}"
  done
  if [[ -n "${OTHERS:-}" ]]; then
    "$python" "$others" --path-file "$FA_CAT" --viewbox 0,0,576,512 --size "$size" --iters "$iters" \
      --libraries "$OTHERS" "${extra[@]}"
  fi
done | python3 "$(dirname "$0")/bench-table.py" "$mode" "$size"
