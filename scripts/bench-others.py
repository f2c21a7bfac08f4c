#!/usr/bin/env python3
"""Fills or strokes a path with other rasterizers under the protocol of `render-anim bench fill`
(and, with --stroke-width, of `render-anim bench stroke`: butt caps, miter joins limited at 4,
the width in device pixels).

An S×S canvas cleared once to opaque white; ITERS anti-aliased nonzero fills of the path in opaque
black, source-over, the viewBox mapped xMidYMid meet; no clear between calls. Each round prints
one JSON line {"library": …, "size": S, "sec_per_iter": t}.

Libraries, each used when it is installed (measurement only; the project needs none of them):
  skia   skia-python (pip install skia-python): SkCanvas::drawPath with an anti-aliased paint
  cairo  pycairo (pip install pycairo; needs libcairo2-dev): cairo_fill with the default
         anti-aliasing
  blend2d  blend2d-python (pip install blend2d-python): BLContext fill_path / stroke_path
         (butt caps, JOIN_MITER_BEVEL: beyond the limit a bevel, as SVG's miter), colours as
         floats 0...1 (integer tuples are read otherwise and draw almost nothing)
Path data is read with svg.path (pip install svg.path). Elliptical arcs go to Skia as arcTo and to
cairo as 32 chords each (cairo has no elliptical arc).

  scripts/bench-others.py --path-file F --viewbox x,y,w,h --size S --iters K [--rounds R]
                         [--libraries skia,cairo,blend2d] [--stroke-width W]
"""

import argparse
import json
import math
import time

from svg.path import Arc, Close, CubicBezier, Line, Move, QuadraticBezier, parse_path


def segments(path_file):
    with open(path_file) as f:
        return list(parse_path(f.read()))


def meet(viewbox, size):
    """Scale and translation of xMidYMid meet: device = user · scale + offset."""
    x, y, w, h = viewbox
    scale = min(size / w, size / h)
    return scale, (size - w * scale) / 2 - x * scale, (size - h * scale) / 2 - y * scale


def replay(segs, move, line, cubic, close, arc):
    """Calls one function a segment; quadratics arrive as the cubics they equal."""
    for s in segs:
        if isinstance(s, Move):
            move(s.end)
        elif isinstance(s, Close):
            close()
        elif isinstance(s, Line):
            line(s.end)
        elif isinstance(s, CubicBezier):
            cubic(s.control1, s.control2, s.end)
        elif isinstance(s, QuadraticBezier):
            cubic(
                s.start + (s.control - s.start) * 2 / 3, s.end + (s.control - s.end) * 2 / 3, s.end)
        elif isinstance(s, Arc):
            arc(s)


def skia_fill(segs, viewbox, size, stroke=None):
    import skia

    path = skia.Path()

    def arc(s):
        path.arcTo(
            s.radius.real, s.radius.imag, s.rotation,
            skia.Path.ArcSize.kLarge_ArcSize if s.arc else skia.Path.ArcSize.kSmall_ArcSize,
            skia.PathDirection.kCW if s.sweep else skia.PathDirection.kCCW, s.end.real, s.end.imag)

    replay(
        segs,
        move=lambda p: path.moveTo(p.real, p.imag),
        line=lambda p: path.lineTo(p.real, p.imag),
        cubic=lambda a, b, p: path.cubicTo(a.real, a.imag, b.real, b.imag, p.real, p.imag),
        close=path.close,
        arc=arc)
    surface = skia.Surface(size, size)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorWHITE)
    scale, dx, dy = meet(viewbox, size)
    canvas.translate(dx, dy)
    canvas.scale(scale, scale)
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorBLACK)
    if stroke:
        paint.setStyle(skia.Paint.kStroke_Style)
        paint.setStrokeWidth(stroke / scale)
        paint.setStrokeCap(skia.Paint.kButt_Cap)
        paint.setStrokeJoin(skia.Paint.kMiter_Join)
        paint.setStrokeMiter(4)

    def fill():
        canvas.drawPath(path, paint)

    def finish():
        surface.flushAndSubmit()

    return fill, finish


def cairo_fill(segs, viewbox, size, stroke=None):
    import cairo

    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    scale, dx, dy = meet(viewbox, size)
    ctx.translate(dx, dy)
    ctx.scale(scale, scale)
    def arc(s):
        for i in range(1, 33):
            q = s.point(i / 32)
            ctx.line_to(q.real, q.imag)

    replay(
        segs,
        move=lambda p: ctx.move_to(p.real, p.imag),
        line=lambda p: ctx.line_to(p.real, p.imag),
        cubic=lambda a, b, p: ctx.curve_to(a.real, a.imag, b.real, b.imag, p.real, p.imag),
        close=ctx.close_path,
        arc=arc)
    path = ctx.copy_path()
    ctx.new_path()
    ctx.set_source_rgb(0, 0, 0)

    if stroke:
        ctx.set_line_width(stroke / scale)
        ctx.set_line_cap(cairo.LINE_CAP_BUTT)
        ctx.set_line_join(cairo.LINE_JOIN_MITER)
        ctx.set_miter_limit(4)

    def fill():
        ctx.append_path(path)
        if stroke:
            ctx.stroke()
        else:
            ctx.fill()

    def finish():
        surface.flush()

    return fill, finish


def blend2d_fill(segs, viewbox, size, stroke=None):
    import blend2d

    path = blend2d.BLPath()
    replay(
        segs,
        move=lambda p: path.move_to(p.real, p.imag),
        line=lambda p: path.line_to(p.real, p.imag),
        cubic=lambda a, b, p: path.cubic_to(a.real, a.imag, b.real, b.imag, p.real, p.imag),
        close=path.close,
        arc=lambda s: path.elliptic_arc_to(
            s.radius.real, s.radius.imag, s.rotation * math.pi / 180, bool(s.arc), bool(s.sweep),
            s.end.real, s.end.imag))
    image = blend2d.BLImage(size, size, blend2d.BLFormat.PRGB32)
    ctx = blend2d.BLContext(image)
    ctx.set_fill_style((1.0, 1.0, 1.0, 1.0))  # floats 0...1
    ctx.fill_all()
    scale, dx, dy = meet(viewbox, size)
    ctx.translate(dx, dy)
    ctx.scale(scale, scale)
    ctx.set_fill_style((0.0, 0.0, 0.0, 1.0))
    if stroke:
        ctx.set_stroke_style((0.0, 0.0, 0.0, 1.0))
        ctx.stroke_width = stroke / scale
        ctx.set_stroke_caps(blend2d.BLStrokeCap.CAP_BUTT)
        ctx.stroke_join = blend2d.BLStrokeJoin.JOIN_MITER_BEVEL
        ctx.stroke_miter_limit = 4

    def fill():
        if stroke:
            ctx.stroke_path(path)
        else:
            ctx.fill_path(path)

    def finish():
        ctx.flush()

    return fill, finish


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--path-file", required=True)
    parser.add_argument("--viewbox", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--iters", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--libraries", default="skia,cairo", help="comma-separated, of skia, cairo and blend2d")
    parser.add_argument("--stroke-width", type=float, help="stroke instead of fill, W pixels wide")
    args = parser.parse_args()
    wanted = args.libraries.split(",")
    viewbox = [float(v) for v in args.viewbox.split(",")]
    segs = segments(args.path_file)
    for name, make in (("skia", skia_fill), ("cairo", cairo_fill), ("blend2d", blend2d_fill)):
        if name not in wanted:
            continue
        try:
            fill, finish = make(segs, viewbox, args.size, args.stroke_width)
        except ImportError:
            continue
        fill()  # warm-up
        finish()
        for _ in range(args.rounds):
            start = time.perf_counter()
            for _ in range(args.iters):
                fill()
            finish()
            elapsed = (time.perf_counter() - start) / args.iters
            print(json.dumps({"library": name, "size": args.size, "sec_per_iter": elapsed}))


if __name__ == "__main__":
    main()
