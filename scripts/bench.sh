#!/usr/bin/env bash
# Reproduces BENCHMARKS.md: release build, one thread, the benchmark protocol of `render-anim
# bench`. Each figure is run ROUNDS times (default 7); the minimum and the median are printed,
# since this 2-core VM is noisy. Needs ../shared/refcases for the icon paths.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-7}
swift build -c release >/dev/null
tool=.build/release/render-anim
refcases=../shared/refcases
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

stats() {  # reads seconds, prints "min median" in ms
  sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f", v[1] * 1000, v[int((NR + 1) / 2)] * 1000 }'
}

echo "| path | size | min ms | median ms |"
echo "|---|---|---|---|"
paths=("cat:Assets/cat.svgpath:0,0,240,200")
# Font Awesome's cat, the path the targets are stated for, is not in the repository: set FA_CAT
# to a file holding the d attribute of Font Awesome Free 6's svgs/solid/cat.svg (viewBox 0 0 576 512).
[[ -n "${FA_CAT:-}" ]] && paths+=("fa-solid-cat:$FA_CAT:0,0,576,512")
for name in paw anchor bell feather; do
  file=$(ls "$refcases"/fa-*-"$name".svgpath 2>/dev/null | head -1) || true
  [[ -n "$file" ]] && paths+=("$name:$file:$(cat "${file%.svgpath}.viewbox")")
done
for entry in "${paths[@]}"; do
  IFS=: read -r name file viewbox <<<"$entry"
  for size in 256 1024 2048; do
    iters=$((size >= 2048 ? 100 : 300))
    result=$(for _ in $(seq "$rounds"); do
      "$tool" bench fill --path-file "$file" --viewbox "$viewbox" --size "$size" --iters "$iters" |
        sed 's/.*: //; s/}//'
    done | stats)
    echo "| $name | $size | ${result% *} | ${result#* } |"
  done
done

# PNG encode of a 1170×2532 UI frame: the cat on the cats scene's background.
"$tool" path Assets/cat.svgpath --viewbox -200,-600,640,1385 --size 1170x2532 --fill '#FF9500' \
  --background '#e4f6ff' -o "$work/frame.png"
python3 - "$work/frame.png" "$work/frame.rgba" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        width, height = struct.unpack(">II", data[pos + 8:pos + 16])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
stride = width * 4
rows = [raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)] for y in range(height)]
assert all(raw[y * (stride + 1)] == 0 for y in range(height)), "expected unfiltered rows"
open(sys.argv[2], "wb").write(b"".join(rows))
PY
echo
echo "| PNG encode 1170×2532 | min ms | median ms | bytes |"
echo "|---|---|---|---|"
bytes=0
result=$(for _ in $(seq "$rounds"); do
  line=$("$tool" bench png --rgba "$work/frame.rgba" --width 1170 --height 2532 --iters 10)
  echo "$line" | sed 's/.*"sec_per_iter": \([^,]*\),.*/\1/'
done | stats)
bytes=$("$tool" bench png --rgba "$work/frame.rgba" --width 1170 --height 2532 --iters 1 |
  sed 's/.*"bytes": \([0-9]*\).*/\1/')
echo "| default | ${result% *} | ${result#* } | $bytes |"

# Other rasterizers side by side (COMPARE=1 and FA_CAT set; needs skia-python and/or pycairo, and
# svg.path): rounds of each library interleaved with ours, since the VM's speed drifts. OTHERS
# picks the libraries (default skia,cairo; blend2d too). The libraries come from PyPI into a venv
# of their own outside the repository (BENCH_VENV, default /tmp/render-anim-bench-venv), made on
# first use; the build and the tests never need them.
if [[ "${COMPARE:-}" == 1 && -n "${FA_CAT:-}" ]]; then
  venv=${BENCH_VENV:-/tmp/render-anim-bench-venv}
  if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q skia-python blend2d-python svg.path
  fi
  echo
  echo "| Font Awesome's cat | size | min ms | median ms |"
  echo "|---|---|---|---|"
  for size in 256 1024 2048; do
    for _ in $(seq "$rounds"); do
      "$tool" bench fill --path-file "$FA_CAT" --viewbox 0,0,576,512 --size "$size" --iters 300 |
        sed 's/^{/{"library": "render-anim", /'
      "$venv/bin/python" scripts/bench-others.py --path-file "$FA_CAT" --viewbox 0,0,576,512 --size "$size" \
        --iters 300 --libraries "${OTHERS:-skia,cairo}"
    done | python3 "$(dirname "$0")/bench-table.py" "$size"
  done
fi
