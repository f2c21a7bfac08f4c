#!/usr/bin/env bash
# Time and peak memory of each hostile input issue #11 lists, with what the tool answered:
#
#   scripts/bench-hardening.sh [BINARY]     (default: .build/release/render-anim)
#
# Inputs are made in a temporary folder (Python 3 for the PNGs and the large files). Each row
# is: the case, the exit status, wall seconds, peak resident MB, and the first line of stderr.
# Needs GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-.build/release/render-anim}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 - <<'EOF'
import random, struct, zlib

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def png(width, height, rows, depth=8, colour=6):
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))

one = png(1, 1, b"\x00\xff\xff\xff\xff")
open("one.png", "wb").write(one)
# 44 bytes: a tEXt chunk declaring 2^31 - 1 bytes after the header.
open("text-bomb.png", "wb").write(one[:33] + b"\x7f\xff\xff\xff" + b"tEXt" + b"\x00\x00\x00")
# 74 bytes: a 16384x16384 header and 17 bytes of image data.
open("huge-header.png", "wb").write(
    b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16384, 16384, 1, 0, 0, 0, 0))
    + chunk(b"IDAT", b"\x00" * 17) + chunk(b"IEND", b""))
# Two 16384x16384 1-bit images differing in one pixel (about 33 KB each).
side = 16384
blank = b"\x00" + b"\x00" * (side // 8)
open("big-a.png", "wb").write(png(side, side, blank * side, depth=1, colour=0))
open("big-b.png", "wb").write(
    png(side, side, b"\x00\x80" + b"\x00" * (side // 8 - 1) + blank * (side - 1), depth=1, colour=0))
# A 200 MB scene: one layer, then spaces.
with open("scene-200mb.json", "w") as f:
    f.write('{"canvas": {"width": 10, "height": 10}, "layers": [{"shape": "circle"}]}')
    f.write(" " * (200 << 20))
# 2000 shadowed layers on the full canvas.
layers = ",".join(
    '{"shape": "roundedRectangle", "cornerRadius": 8, "frame": {"width": 300, "height": 600},'
    ' "shadow": {"radius": 20}}' for _ in range(2000))
open("shadows.json", "w").write(
    '{"canvas": {"width": 390, "height": 844, "scale": 3}, "layers": [' + layers + "]}")
# A 4096x4096-pixel GIF: a circle moving across the canvas.
open("gif-4096.json", "w").write(
    '{"canvas": {"width": 4096, "height": 4096, "scale": 1, "background": "#ffffff"},'
    ' "state": {"on": false},'
    ' "layers": [{"shape": "circle", "fill": "#3366cc", "frame": {"width": 1500, "height": 1500},'
    ' "offset": {"x": "=on ? 1000 : -1000", "y": 0}}],'
    ' "events": [{"at": 0, "set": {"on": true}, "animation": {"type": "easeInOut", "duration": 0.5}}]}')
# A path of 1,000,000 random line segments on a 1000x1000 view box (9.8 MB), and 8.4 MB zigzags
# across a 4096-pixel canvas, one horizontal and one vertical.
random.seed(1)
with open("random-1m.svgpath", "w") as f:
    f.write("M500 500")
    for _ in range(1_000_000):
        f.write(" L%d %d" % (random.randrange(1000), random.randrange(1000)))
    f.write(" Z")
def zigzag(name, vertical, count):
    with open(name, "w") as f:
        f.write("M0 0")
        for i in range(1, count + 1):
            far, along = (4096 if i % 2 else 0), 4096 * i / count
            f.write(" L%.3f %d" % (along, far) if vertical else " L%d %.3f" % (far, along))
        f.write(" Z")
zigzag("hzig.svgpath", False, 700_000)
zigzag("vzig.svgpath", True, 700_000)
EOF
mkdir -p inside
printf '{"canvas": {"width": 20, "height": 20}, "layers": [{"pathFile": "/dev/zero", "viewBox": [0, 0, 1, 1]}]}' \
  >inside/zero-pathfile.json
printf '{"canvas": {"width": 20, "height": 20}, "layers": [{"pathFile": "../../../../etc/shadow", "viewBox": [0, 0, 1, 1]}]}' \
  >inside/escape.json

row() {
  local name=$1
  shift
  local status=0
  /usr/bin/time -f "%e %M" -o time.txt "$bin" "$@" >out.txt 2>err.txt </dev/null || status=$?
  read -r seconds kilobytes < <(tail -n 1 time.txt)
  printf '| %s | %s | %s | %d | %s |\n' "$name" "$status" "$seconds" $((kilobytes / 1024)) \
    "$(head -n 1 err.txt | cut -c1-150 | sed 's/|/\\|/g')"
}

echo "| case | exit | s | peak MB | stderr (first line) |"
echo "|---|---|---|---|---|"
row "diff of a 44-byte PNG with a 2 GiB tEXt" diff text-bomb.png one.png
row "diff of a 74-byte PNG declaring 16384²" diff huge-header.png one.png
row "path /dev/zero" path /dev/zero --viewbox 0,0,1,1 --size 4x4 -o p.png
row "scene /dev/zero" scene /dev/zero -o s.gif
row "pathFile /dev/zero (--allow-files-outside)" scene inside/zero-pathfile.json --allow-files-outside -o z.gif
row "pathFile ../../../../etc/shadow" scene inside/escape.json -o e.gif
row "diff x.png /dev/zero" diff one.png /dev/zero
row "a 200 MB scene" scene scene-200mb.json -o big.gif
row "2000 shadowed layers" scene shadows.json --frame 0 -o shadows.png
row "1 M random segments at 1000²" path random-1m.svgpath --viewbox 0,0,1000,1000 --size 1000x1000 -o r.png
row "8.4 MB horizontal zigzag at 4096²" path hzig.svgpath --viewbox 0,0,4096,4096 --size 4096x4096 -o h.png
row "8.4 MB vertical zigzag at 4096²" path vzig.svgpath --viewbox 0,0,4096,4096 --size 4096x4096 -o v.png
row "4096² GIF, --threads 2" scene gif-4096.json --fps 20 --threads 2 -o g2.gif
row "4096² GIF, --threads 64" scene gif-4096.json --fps 20 --threads 64 -o g64.gif
row "diff of two 16384² images, one pixel apart" diff big-a.png big-b.png
row "the same with a triptych" diff big-a.png big-b.png --diff-out d.png --diff-style triptych
