#!/usr/bin/env python3
"""Decodes an animated GIF with Pillow (an independent decoder) and writes each shown frame as
straight RGBA, one after the other, after a header line per frame: "frame W H DURATION_MS".
Used by TransparentGIFTests; Pillow comes from Debian's python3-pil (scripts/setup.sh)."""
import sys

from PIL import Image, ImageSequence

gif = Image.open(sys.argv[1])
with open(sys.argv[2], "wb") as out:
    for frame in ImageSequence.Iterator(gif):
        rgba = frame.convert("RGBA")
        out.write(b"frame %d %d %d\n" % (rgba.size[0], rgba.size[1], frame.info.get("duration", 0)))
        out.write(rgba.tobytes())
