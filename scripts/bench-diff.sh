#!/usr/bin/env bash
# render-anim diff (exact and perceptual) beside ImageMagick's `compare -metric AE` on 1170×2532
# PNGs: the same pixels re-encoded, and two different frames. Interleaved rounds; each figure is
# the mean and the best of 20 whole-process runs, in ms. With a second argument, an older
# render-anim binary is timed in the same rounds, just before the new one (A B A B ...).
# Usage: [RENDER_ANIM=bin] scripts/bench-diff.sh [rounds] [old-render-anim]   (`apt-get install imagemagick` for compare)
set -euo pipefail
cd "$(dirname "$0")/.."
# RENDER_ANIM=path times that binary instead of building one.
R=${RENDER_ANIM:-.build/release/render-anim}
# Built as the README builds it (the Swift libraries linked in: start-up is a good part of a diff).
[[ -n ${RENDER_ANIM:-} ]] || swift build -c release --static-swift-stdlib --product render-anim >/dev/null
old=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The issue's pair: frame 20 of cats after a tap, re-encoded (`small`), and frame 21.
$R cats --tap 300,500 --scale 3 --frame 20 --quiet -o "$work/a.png"
$R cats --tap 300,500 --scale 3 --frame 20 --png-compression small --quiet -o "$work/a2.png"
$R cats --tap 300,500 --scale 3 --frame 21 --quiet -o "$work/b.png"
# "mean/best" of 20 runs in ms.
timed() {
  local best=999999999 total=0
  for _ in $(seq 20); do
    local s e
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    local t=$(((e - s) / 1000)); total=$((total + t)); ((t < best)) && best=$t
  done
  printf '%d.%d/%d.%d' $((total / 20000)) $((total / 2000 % 10)) $((best / 1000)) $((best / 100 % 10))
}
magick=$(command -v compare || true)
printf '%-6s %-24s %-14s %-14s %-14s %-14s %s\n' round "case" "old exact" "exact" "old percep." \
  "perceptual" "ImageMagick AE"
for round in $(seq 1 "${1:-2}"); do
  for pair in "a2:same pixels re-encoded" "b:different frames"; do
    other=${pair%%:*}; name=${pair#*:}
    oe=- op=- m=-
    [[ -n $old ]] && oe=$(timed "$old" diff "$work/a.png" "$work/$other.png")
    exact=$(timed $R diff "$work/a.png" "$work/$other.png")
    [[ -n $old ]] && op=$(timed "$old" diff "$work/a.png" "$work/$other.png" --compare perceptual)
    perceptual=$(timed $R diff "$work/a.png" "$work/$other.png" --compare perceptual)
    [[ -n $magick ]] && m=$(timed compare -metric AE "$work/a.png" "$work/$other.png" null:)
    printf '%-6s %-24s %-14s %-14s %-14s %-14s %s\n' "$round" "$name" "$oe" "$exact" "$op" \
      "$perceptual" "$m"
  done
done
