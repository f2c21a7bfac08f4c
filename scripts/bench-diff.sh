#!/usr/bin/env bash
# render-anim diff (exact and perceptual) beside ImageMagick's `compare -metric AE` on 1170×2532
# PNGs: the same pixels re-encoded, and two different frames. Interleaved rounds, best of 7 each.
# Usage: scripts/bench-diff.sh [rounds]   (needs `apt-get install imagemagick` for compare)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product render-anim >/dev/null
R=.build/release/render-anim
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$R cats --scale 3 --frame 0 --quiet -o "$work/a.png"
$R cats --scale 3 --frame 0 --png-compression small --quiet -o "$work/a2.png"
$R cats --scale 3 --tap 300,500 --frame 30 --quiet -o "$work/b.png"
best() {
  local best=999999
  for _ in 1 2 3 4 5 6 7; do
    local s e
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    local t=$(((e - s) / 1000000)); ((t < best)) && best=$t
  done
  echo "$best"
}
printf '%-7s %-22s %-22s %-22s\n' round "case" "render-anim diff" "ImageMagick compare"
for round in $(seq 1 "${1:-2}"); do
  for pair in "a2:same pixels re-encoded" "b:different frames"; do
    other=${pair%%:*}; name=${pair#*:}
    exact=$(best $R diff "$work/a.png" "$work/$other.png")
    perceptual=$(best $R diff "$work/a.png" "$work/$other.png" --compare perceptual)
    magick=$(best compare -metric AE "$work/a.png" "$work/$other.png" null:)
    printf '%-7s %-22s exact %4s ms, perceptual %4s ms   %4s ms\n' "$round" "$name" "$exact" "$perceptual" "$magick"
  done
done
