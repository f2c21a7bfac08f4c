#!/usr/bin/env python3
"""Writes SVG path data of one closed polygon with N segments for the segment-scaling benchmark
(issue #18): a band 4 units wide along an Archimedean spiral of T turns (default 4) in the view box
0 0 1000 1000, out along the inner edge and back along the outer one. Its total length and the
area it covers do not depend on N, so the work that grows with N is the work per segment.
Deterministic: the same N gives the same bytes.

usage: make-long-path.py N [T] > spiral.svgpath
"""
import math
import sys

segments = int(sys.argv[1])
half = segments // 2
turns = float(sys.argv[2]) if len(sys.argv) > 2 else 4.0
out = []
for side, offset in ((0, 0.0), (1, 4.0)):
    for i in range(half):
        t = i / (half - 1)
        if side == 1:
            t = 1.0 - t
        angle = 2.0 * math.pi * turns * t
        radius = 10.0 + 470.0 * t + offset
        x = 500.0 + radius * math.cos(angle)
        y = 500.0 + radius * math.sin(angle)
        out.append(("M" if not out else "") + f"{x:.2f} {y:.2f}")
sys.stdout.write(" ".join(out) + "Z\n")
