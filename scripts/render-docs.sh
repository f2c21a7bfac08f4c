#!/usr/bin/env bash
# Renders the README's pictures with the tool itself (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release >/dev/null
tool=.build/release/render-anim
$tool path Assets/cat.svgpath --viewbox 0,0,240,200 --size 480x400 --fill '#FF9500' \
  --background '#e4f6ff' -o docs/images/cat.png
printf 'M50 3L79 94L2 37H98L21 94Z' > /tmp/render-anim-star.svgpath
$tool path /tmp/render-anim-star.svgpath --viewbox 0,0,100,100 --size 200x200 \
  --fill '#007AFF' -o docs/images/star-nonzero.png
$tool path /tmp/render-anim-star.svgpath --viewbox 0,0,100,100 --size 200x200 \
  --fill '#007AFF' --fill-rule evenodd -o docs/images/star-evenodd.png
$tool bench fill --path-file Assets/cat.svgpath --viewbox 0,0,240,200 --size 256 --iters 1 \
  --out docs/images/bench-fill-cat.png >/dev/null
for element in cat cats walmart target card; do
  $tool still "$element" --scale 2 --png-compression small -o "docs/images/still-$element.png"
done
$tool still card --scale 2 --corner-style circular --png-compression small -o docs/images/still-card-circular.png
$tool bench blur --path-file Assets/cat.svgpath --viewbox 0,0,240,200 --size 300 --pad 24 --sigma 6 \
  --iters 1 --out docs/images/bench-blur-cat.png >/dev/null
