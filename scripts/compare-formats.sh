#!/usr/bin/env bash
# Bytes of render-anim's APNG and animated WebP against ffmpeg's APNG encoder and libwebp's
# img2webp -lossless on the same PNG frames, for the two demos (BENCHMARKS.md, issue #17).
# Needs ffmpeg and webp (img2webp) from Debian: apt-get install ffmpeg webp. Also checks that
# each of our files decodes (ffmpeg for APNG, Pillow when present) and that two runs give
# the same bytes.
#
#   scripts/compare-formats.sh [path/to/render-anim]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:-.build/release/render-anim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fps=50
printf '%-6s %12s %12s %8s %12s %12s %8s\n' demo "APNG (ours)" ffmpeg ratio "WebP (ours)" img2webp ratio
for demo in cats cards; do
  args=("$demo" --quiet)
  if [[ $demo == cats ]]; then args+=(--tap 300,500); fi
  "$tool" "${args[@]}" -o "$work/$demo-frames/"
  "$tool" "${args[@]}" -o "$work/$demo.apng"
  "$tool" "${args[@]}" -o "$work/$demo-again.apng" --threads 1
  "$tool" "${args[@]}" -o "$work/$demo.webp"
  "$tool" "${args[@]}" -o "$work/$demo-again.webp" --threads 1
  cmp "$work/$demo.apng" "$work/$demo-again.apng"
  cmp "$work/$demo.webp" "$work/$demo-again.webp"
  ffmpeg -v error -y -framerate $fps -i "$work/$demo-frames/frame-%04d.png" -plays 0 -f apng \
    "$work/$demo-ffmpeg.apng"
  img2webp -lossless -loop 0 -d $((1000 / fps)) "$work/$demo-frames"/frame-*.png \
    -o "$work/$demo-img2webp.webp" >/dev/null 2>&1
  size() { stat -c %s "$1"; }
  a=$(size "$work/$demo.apng"); f=$(size "$work/$demo-ffmpeg.apng")
  w=$(size "$work/$demo.webp"); i=$(size "$work/$demo-img2webp.webp")
  printf '%-6s %12d %12d %8.3f %12d %12d %8.3f\n' "$demo" "$a" "$f" \
    "$(echo "$a / $f" | bc -l)" "$w" "$i" "$(echo "$w / $i" | bc -l)"
done
