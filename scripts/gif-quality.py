#!/usr/bin/env python3
"""Measures an animated GIF against the truecolor PNG frames it was made from.

Usage: gif-quality.py FRAMES_DIR GIF [BACKGROUND_HEX]

PSNR (dB) over non-background pixels: pixels whose truecolor value differs from the background
colour (default e4f6ff, the cats scene), pooled over every frame. GIF frames are composed with
their disposal and transparency (Pillow), and each source frame is matched to the GIF frame shown
at its time, so merged identical frames and per-frame delays are accounted for. Needs Pillow and
numpy (pip).
"""
import glob, math, os, sys
import numpy as np
from PIL import Image, ImageSequence

frames_dir, gif_path = sys.argv[1], sys.argv[2]
background = np.array(list(bytes.fromhex(sys.argv[3] if len(sys.argv) > 3 else "e4f6ff")), dtype=np.int64)
sources = sorted(glob.glob(os.path.join(frames_dir, "frame-*.png")))
fps = float(os.environ.get("FPS", "50"))

gif = Image.open(gif_path)
shown = []  # (start time in cs, RGB array)
t = 0
for frame in ImageSequence.Iterator(gif):
    shown.append((t, np.asarray(frame.convert("RGB"), dtype=np.int64)))
    t += frame.info.get("duration", 20) // 10

squared, count = 0.0, 0
for i, path in enumerate(sources):
    truth = np.asarray(Image.open(path).convert("RGB"), dtype=np.int64)
    start = math.floor(100 * i / fps + 1e-9)
    image = [img for (s, img) in shown if s <= start][-1]
    mask = np.any(truth != background, axis=2)
    d = (truth - image)[mask]
    squared += float((d * d).sum())
    count += int(mask.sum()) * 3
mse = squared / max(count, 1)
psnr = float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)
print(f"{os.path.basename(gif_path)}: {os.path.getsize(gif_path)} bytes, PSNR {psnr:.2f} dB over non-background pixels ({len(sources)} frames, {len(shown)} GIF frames)")
