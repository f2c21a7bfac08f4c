#!/usr/bin/env python3
"""What Blend2D's fill speed owes to its flattening: the accuracy and time of Blend2D filling a
path as it flattens it, and filling the same path flattened beforehand into lines at given
tolerances (device pixels, Wang's bound for curves), against render-anim's fill, under the
protocol of `render-anim bench fill` (an S×S canvas, the view box mapped xMidYMid meet, opaque
black on white, nonzero).

The reference is render-anim's own exact-area fill (`render-anim path`) at K× the size, averaged
over K×K blocks: its flattening tolerance, 1/64 px there, is 1/(64·K) px here. Errors are the
mean and largest absolute difference over edge pixels (the reference strictly between 0 and 1,
or the render partial where the reference is not), in 1/255. Times are interleaved rounds (ours,
then each Blend2D case), min and median ms a fill. Needs the venv of `COMPARE=1 scripts/bench.sh`
(skia-python to read PNGs, blend2d-python, svg.path, numpy); never needed by the build or tests.

  $VENV/bin/python scripts/fill-accuracy.py --path-file fa-cat.svgpath --size 1024 --factor 4 \
      --binary .build/release/render-anim
"""
import argparse, json, math, subprocess, tempfile, time
import numpy as np
import skia, blend2d

def segments(path_file):
    from svg.path import parse_path
    return parse_path(open(path_file).read())

def meet(viewbox, size):
    x, y, w, h = viewbox
    s = min(size / w, size / h)
    return s, (size - w * s) / 2 - x * s, (size - h * s) / 2 - y * s

def flatten(segs, viewbox, size, tol):
    """Device-space polygons: lines as they are, cubics/quads by Wang's bound at `tol` px."""
    from svg.path import Move, Line, Close, CubicBezier, QuadraticBezier, Arc
    s, dx, dy = meet(viewbox, size)
    dev = lambda p: complex(p.real * s + dx, p.imag * s + dy)
    contours, cur = [], None
    for seg in segs:
        if isinstance(seg, Move):
            cur = [dev(seg.end)]; contours.append(cur)
        elif isinstance(seg, (Line, Close)):
            cur.append(dev(seg.end))
        elif isinstance(seg, CubicBezier):
            p0, p1, p2, p3 = map(dev, (seg.start, seg.control1, seg.control2, seg.end))
            m = max(abs(p0 - 2 * p1 + p2), abs(p1 - 2 * p2 + p3))
            n = max(1, math.ceil(math.sqrt(0.75 * m / tol)))
            for k in range(1, n + 1):
                t = k / n; u = 1 - t
                cur.append(u*u*u*p0 + 3*u*u*t*p1 + 3*u*t*t*p2 + t*t*t*p3)
        elif isinstance(seg, QuadraticBezier):
            p0, p1, p2 = map(dev, (seg.start, seg.control, seg.end))
            m = abs(p0 - 2 * p1 + p2)
            n = max(1, math.ceil(math.sqrt(0.25 * m / tol)))
            for k in range(1, n + 1):
                t = k / n; u = 1 - t
                cur.append(u*u*p0 + 2*u*t*p1 + t*t*p2)
        elif isinstance(seg, Arc):
            # Chords of an arc of radius r (px) stray r(1 - cos(θ/2)) ≈ rθ²/8 from it.
            r = max(seg.radius.real, seg.radius.imag) * s
            sweep = abs(seg.delta) * math.pi / 180
            n = max(1, math.ceil(sweep / (2 * math.acos(max(-1.0, 1 - tol / r)))))
            for k in range(1, n + 1):
                cur.append(dev(seg.point(k / n)))
    return contours

def blend2d_context(size):
    image = blend2d.BLImage(size, size, blend2d.BLFormat.PRGB32)
    ctx = blend2d.BLContext(image)
    ctx.set_fill_style((1.0, 1.0, 1.0, 1.0)); ctx.fill_all()
    return image, ctx

def blend2d_curves(segs, viewbox, size):
    from svg.path import Move, Line, Close, CubicBezier
    path = blend2d.BLPath()
    for seg in segs:
        if isinstance(seg, Move): path.move_to(seg.end.real, seg.end.imag)
        elif isinstance(seg, Close): path.close()
        elif isinstance(seg, Line): path.line_to(seg.end.real, seg.end.imag)
        elif isinstance(seg, CubicBezier):
            a, b, p = seg.control1, seg.control2, seg.end
            path.cubic_to(a.real, a.imag, b.real, b.imag, p.real, p.imag)
        elif type(seg).__name__ == "Arc":
            path.elliptic_arc_to(seg.radius.real, seg.radius.imag, seg.rotation * math.pi / 180,
                                 bool(seg.arc), bool(seg.sweep), seg.end.real, seg.end.imag)
        else: raise SystemExit("segment kind not handled: %r" % seg)
    image, ctx = blend2d_context(size)
    s, dx, dy = meet(viewbox, size)
    ctx.translate(dx, dy); ctx.scale(s, s)
    ctx.set_fill_style((0.0, 0.0, 0.0, 1.0))
    return image, ctx, path

def blend2d_polygon(contours, size):
    path = blend2d.BLPath()
    for c in contours:
        path.move_to(c[0].real, c[0].imag)
        for p in c[1:]: path.line_to(p.real, p.imag)
        path.close()
    image, ctx = blend2d_context(size)
    ctx.set_fill_style((0.0, 0.0, 0.0, 1.0))
    return image, ctx, path

def coverage_of_blend2d(image, ctx):
    ctx.flush()
    a = np.array(image.getDataAsNumPy(), copy=True).reshape(image.height, image.width, 4)
    return 1.0 - a[:, :, 0].astype(np.float64) / 255.0

def read_png_coverage(path):
    img = skia.Image.open(path).convert(alphaType=skia.kUnpremul_AlphaType, colorType=skia.kRGBA_8888_ColorType)
    a = np.array(img)
    return 1.0 - a[:, :, 0].astype(np.float64) / 255.0

def errors(reference, actual):
    edge = ((reference > 0) & (reference < 1)) | ((actual > 0) & (actual < 1))
    d = np.abs(reference - actual)[edge] * 255
    return float(d.mean()), float(d.max()), int(edge.sum())

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--path-file", required=True)
    ap.add_argument("--viewbox", default="0,0,576,512")
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--factor", type=int, default=8)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--tolerances", default="0.015625,0.03125,0.0625,0.125,0.25")
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    vb = [float(v) for v in a.viewbox.split(",")]
    S, K = a.size, a.factor
    segs = segments(a.path_file)
    scratch = tempfile.TemporaryDirectory()  # removed when it is collected at exit
    tmp = scratch.name
    # The reference: the view box widened to the square the meet shows, at K×.
    s, dx, dy = meet(vb, S)
    side = S / s
    ref_vb = "%r,%r,%r,%r" % (vb[0] - dx / s, vb[1] - dy / s, side, side)
    subprocess.run([a.binary, "path", a.path_file, "--viewbox", ref_vb, "--size", "%dx%d" % (S * K, S * K),
                    "--fill", "#000000", "--png-compression", "fast", "-o", tmp + "/ref.png"], check=True)
    big = read_png_coverage(tmp + "/ref.png")
    reference = big.reshape(S, K, S, K).mean(axis=(1, 3))
    subprocess.run([a.binary, "bench", "fill", "--path-file", a.path_file, "--viewbox", a.viewbox,
                    "--size", str(S), "--iters", "1", "--out", tmp + "/ours.png"], check=True, capture_output=True)
    rows = []
    ours = read_png_coverage(tmp + "/ours.png")
    rows.append(("render-anim", None, errors(reference, ours)))
    image, ctx, path = blend2d_curves(segs, vb, S)
    ctx.fill_path(path)
    rows.append(("blend2d (its flattening)", None, errors(reference, coverage_of_blend2d(image, ctx))))
    polys = {}
    for tol in [float(t) for t in a.tolerances.split(",")]:
        contours = flatten(segs, vb, S, tol)
        polys[tol] = contours
        image, ctx, path = blend2d_polygon(contours, S)
        ctx.fill_path(path)
        rows.append(("blend2d on lines at %g px" % tol, sum(len(c) for c in contours),
                     errors(reference, coverage_of_blend2d(image, ctx))))
    for name, lines, (mean, mx, n) in rows:
        print(json.dumps({"renderer": name, "size": S, "lines": lines, "mean_edge_error": round(mean, 3),
                          "max_error": round(mx, 2), "edge_pixels": n}))
    # Time, interleaved: ours (bench fill), Blend2D on curves, Blend2D on each polygon.
    times = {}
    makers = [("blend2d (its flattening)", lambda: blend2d_curves(segs, vb, S))] + [
        ("blend2d on lines at %g px" % t, (lambda c: (lambda: blend2d_polygon(c, S)))(polys[t])) for t in polys]
    for _ in range(a.rounds):
        out = subprocess.run([a.binary, "bench", "fill", "--path-file", a.path_file, "--viewbox", a.viewbox,
                              "--size", str(S), "--iters", str(a.iters)], check=True, capture_output=True, text=True).stdout
        times.setdefault("render-anim", []).append(json.loads(out)["sec_per_iter"])
        for name, make in makers:
            image, ctx, path = make()
            ctx.fill_path(path); ctx.flush()
            t0 = time.perf_counter()
            for _ in range(a.iters): ctx.fill_path(path)
            ctx.flush()
            times.setdefault(name, []).append((time.perf_counter() - t0) / a.iters)
    for name, ts in times.items():
        ts.sort()
        print(json.dumps({"renderer": name, "size": S, "ms_min": round(ts[0] * 1e3, 4),
                          "ms_median": round(ts[len(ts) // 2] * 1e3, 4)}))

main()
