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
# The two demos: GIFs at 1× and frames 0, middle and last.
$tool cats --tap 300,500 --scale 1 --quiet -o docs/images/cats.gif
$tool cards --scale 1 --quiet -o docs/images/cards.gif
cats_frames=$($tool cats --tap 300,500 --scale 1 --quiet -o /tmp/render-anim-docs-cats/ --trace - | tail -n +2 | wc -l)
cards_frames=$($tool cards --scale 1 --quiet -o /tmp/render-anim-docs-cards/ --trace - | tail -n +2 | wc -l)
for frame in 0 $((cats_frames / 2)) $((cats_frames - 1)); do
  $tool cats --tap 300,500 --scale 1 --frame "$frame" --png-compression small -o "docs/images/cats-frame-$frame.png"
done
for frame in 0 $((cards_frames / 2)) $((cards_frames - 1)); do
  $tool cards --scale 1 --frame "$frame" --png-compression small -o "docs/images/cards-frame-$frame.png"
done
rm -rf /tmp/render-anim-docs-cats /tmp/render-anim-docs-cards
# The scene-file examples, at 2× and 30 fps.
for example in toggle banner progress strokes gradients effects colors symbols images backgrounds frames text typography safearea counter lift expand repeats toast tabs clock keyframes phases flip spin sticker environment taps animations; do
  $tool scene "Examples/$example.json" --fps 30 --quiet -o "docs/images/$example.gif"
done
echo "cats: $cats_frames frames, cards: $cards_frames frames"
