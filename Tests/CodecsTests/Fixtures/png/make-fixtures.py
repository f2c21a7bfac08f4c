#!/usr/bin/python3
# Writes the PNG fixtures of PNGFastDecoderTests with Pillow (run once; the files are checked
# in, the tests never run Python). Usage: /usr/bin/python3 make-fixtures.py  (Pillow 9.4)
import struct, zlib
from PIL import Image, PngImagePlugin

W, H = 61, 17

def pixel(x, y):
    # Smooth gradients (Up, Average and Paeth win) with noisy columns (Sub, None win).
    n = (x * 7919 + y * 104729) % 251
    r = (x * 4 + y) % 256
    g = n if x % 9 < 3 else (y * 15) % 256
    b = (x * y) % 256
    a = 255 if y % 4 else (x * 37) % 256
    return (r, g, b, a)

rgba = Image.new("RGBA", (W, H))
rgba.putdata([pixel(x, y) for y in range(H) for x in range(W)])
rgb = rgba.convert("RGB")
for level in (0, 1, 6, 9):
    rgba.save(f"pillow-rgba-level{level}.png", compress_level=level)
    rgb.save(f"pillow-rgb-level{level}.png", compress_level=level)
rgba.save("pillow-rgba-optimized.png", optimize=True)

def with_chunk(name, kind, data):
    info = PngImagePlugin.PngInfo()
    info.add(kind, data)
    rgba.save(name, pnginfo=info)

with_chunk("pillow-rgba-gama-srgb.png", b"gAMA", struct.pack(">I", 45455))
with_chunk("pillow-rgba-gama-linear.png", b"gAMA", struct.pack(">I", 100000))
with_chunk("pillow-rgba-srgb.png", b"sRGB", b"\x00")
rgba.convert("P").save("pillow-palette.png")
rgba.convert("L").save("pillow-grey.png")
rgba.convert("LA").save("pillow-grey-alpha.png")
rgba.convert("I").convert("I;16").save("pillow-grey16.png")
rgb.save("pillow-rgb-transparent-key.png", transparency=(0, 0, 0))
