#!/usr/bin/env python3
"""Regenerates the seed corpora in Fuzz/Corpus from the repository's tests, examples and assets.

Run from anywhere: python3 Fuzz/Tools/make-seeds.py. Seeds are named by the SHA-1 of their
bytes (as libFuzzer names corpus files), so running it again adds nothing twice. PNG seeds of the
colour types and bit depths the repository's own images lack are made here with zlib.
"""
import hashlib, json, os, re, struct, sys, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def save(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def swift_files(folder):
    for base, _, names in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.relpath(os.path.join(base, name), ROOT)


def unescape(s):
    s = re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), s)
    return s.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\\\", "\\")


def literals(text):
    """Swift string literals: raw single-line #"…"#, plain "…" and multi-line blocks."""
    for m in re.finditer(r'(#+)"""\n(.*?)\n[ \t]*"""\1', text, re.S):
        yield dedent(m.group(2))
    for m in re.finditer(r'(?<!#)"""\n(.*?)\n[ \t]*"""', text, re.S):
        if "\\(" not in m.group(1):
            yield unescape(dedent(m.group(1)))
    for m in re.finditer(r'(#+)"(?!"")(.*?)"\1', text):
        yield m.group(2)
    for m in re.finditer(r'(?<![#"])"((?:[^"\\\n]|\\.)*)"(?!#)', text):
        if "\\(" not in m.group(1):
            yield unescape(m.group(1))


def dedent(block):
    lines = block.split("\n")
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    return "\n".join(l[indent:] for l in lines)


# MARK: - Path data

PATH_RE = re.compile(r"^\s*[Mm][\s\d.,+\-eEMmLlHhVvCcSsQqTtAaZz\u00e9]*$")
paths = {read("Assets/cat.svgpath")}
for file in swift_files("Tests"):
    for s in literals(read(file)):
        if re.search(r"\d", s) and (PATH_RE.match(s) or re.match(r"^[Ll5,][\s\d.,+\-LlMm]*$", s)):
            paths.add(s)


def collect_paths(value):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "path" and isinstance(v, str):
                paths.add(v)
            collect_paths(v)
    elif isinstance(value, list):
        for v in value:
            collect_paths(v)


# MARK: - Scenes

scenes = []
for name in sorted(os.listdir(os.path.join(ROOT, "Examples"))):
    if name.endswith(".json"):
        scenes.append(read(os.path.join("Examples", name)))
for file in swift_files("Tests"):
    for s in literals(read(file)):
        if s.lstrip().startswith("{") and ('"canvas"' in s or '"layers"' in s):
            try:
                json.loads(s)
            except ValueError:
                continue
            scenes.append(s)
for text in scenes:
    collect_paths(json.loads(text))

# Hand-made small scenes for what the tests above reach only on large canvases.
scenes += [
    '{"canvas": {"width": 40, "height": 60, "scale": 1}, "layers": [{"shape": "circle"}]}',
    json.dumps({
        "canvas": {"width": 64, "height": 48, "scale": 1, "background": "#F2F2F7"},
        "state": {"on": False, "p": {"x": 0, "y": 0}},
        "definitions": {"dot": {"shape": "ellipse", "frame": {"width": 8, "height": 6}}},
        "layers": [
            {"id": "cat", "pathFile": "cat.svgpath", "viewBox": [0, 0, 240, 200],
             "fillRule": "evenodd", "frame": {"width": 30, "height": 25}, "fill": "orange",
             "offset": "=p", "rotationEffect": "=on ? 15 : 0"},
            {"hstack": [{"use": "dot"}, {"spacer": True},
                        {"use": "dot", "scaleEffect": "=on ? 1.5 : 1", "zIndex": 2}],
             "spacing": 2, "padding": {"horizontal": 4}, "alignment": "bottom"},
            {"shape": "ring", "lineWidth": 3, "trim": [0, "=on ? 1 : 0.25"], "lineCap": "round",
             "frame": {"width": 20, "height": 20}, "foregroundColor": "blue",
             "shadow": {"color": "black", "opacity": 0.3, "radius": 2, "y": 1}},
            {"text": "Hi", "font": {"size": 9, "weight": "bold"}, "tracking": 0.5,
             "opacity": "=on ? 1 : 0.4"},
        ],
        "events": [
            {"at": 0.1, "set": {"on": True}, "animation": "bouncy"},
            {"at": 0.3, "set": {"p": {"x": 5, "y": -3}},
             "animation": {"type": "timingCurve", "controlPoints": [0.2, 0, 0.2, 1], "duration": 0.3}},
            {"at": 0.6, "set": {"on": False},
             "animation": {"type": "spring", "response": 0.2, "dampingFraction": 0.6}},
        ],
        "taps": [{"at": 0.2, "x": 20, "y": 20}],
    }, indent=1),
]


def shrink(text):
    """A variant at 1 px per point, at most 96×96, so the render target draws it."""
    scene = json.loads(text)
    canvas = scene.get("canvas")
    if not isinstance(canvas, dict):
        return None
    small = dict(canvas)
    small.pop("device", None)
    small["scale"] = 1
    small["width"] = min(96, canvas.get("width", 96) if isinstance(canvas.get("width"), (int, float)) else 96)
    small["height"] = min(96, canvas.get("height", 96) if isinstance(canvas.get("height"), (int, float)) else 96)
    scene["canvas"] = small
    return json.dumps(scene, indent=1, ensure_ascii=False)


for text in scenes:
    save("scene-load", text)
    save("scene-render", text)
    variant = shrink(text)
    if variant:
        save("scene-render", variant)
        save("scene-load", variant)
for p in sorted(paths):
    save("pathdata", p)

# MARK: - PNG


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, depth, color, rows, extra=(), interlace=0):
    head = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + b"".join(extra)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def row_bytes(width, depth, channels, y):
    bits = depth * channels
    n = (width * bits + 7) // 8
    return bytes((x * 37 + y * 11) & 0xFF for x in range(n))


W, H = 7, 5
for color, channels, depths in [(0, 1, (1, 2, 4, 8, 16)), (2, 3, (8, 16)), (3, 1, (1, 2, 4, 8)),
                                (4, 2, (8, 16)), (6, 4, (8, 16))]:
    for depth in depths:
        rows = [row_bytes(W, depth, channels, y) for y in range(H)]
        extra = []
        if color == 3:
            extra.append(chunk(b"PLTE", bytes(i & 0xFF for i in range(0, 3 * (1 << depth) * 7, 7))))
            extra.append(chunk(b"tRNS", bytes([0, 128, 255])))
        if color == 0 and depth == 8:
            extra.append(chunk(b"tRNS", struct.pack(">H", 37)))
        if color == 2 and depth == 8:
            extra += [chunk(b"gAMA", struct.pack(">I", 45455)), chunk(b"tRNS", struct.pack(">HHH", 1, 2, 3))]
        if color == 6 and depth == 8:
            extra.append(chunk(b"sRGB", b"\x00"))
        save("png-decode", png(W, H, depth, color, rows, extra))
# Adam7 interlaced 8-bit RGBA: seven sub-images, rows of each filtered with type 0.
passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
raw = b""
for x0, y0, dx, dy in passes:
    xs = range(x0, W, dx)
    for y in range(y0, H, dy):
        if xs:
            raw += b"\x00" + bytes((x * 40 + y * 9 + c * 60) & 0xFF for x in xs for c in range(4))
head = struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 1)
save("png-decode", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw))
     + chunk(b"IEND", b""))
# Every filter type once, on a 4×5 RGB image.
rows = [bytes([f]) + bytes((x * 50 + f * 30) & 0xFF for x in range(12)) for f in range(5)]
save("png-decode", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 5, 8, 2, 0, 0, 0))
     + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
# The repository's small PNGs (the goldens; docs images under 20 KB).
for folder, limit in [("Tests/ComposeTests/Goldens", 1 << 30), ("docs/images", 20000)]:
    for base, _, names in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(names):
            path = os.path.join(base, name)
            if name.endswith(".png") and os.path.getsize(path) <= limit:
                with open(path, "rb") as f:
                    save("png-decode", f.read())

for target in sorted(os.listdir(CORPUS)):
    folder = os.path.join(CORPUS, target)
    if os.path.isdir(folder):
        files = os.listdir(folder)
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
        print(f"{target}: {len(files)} seeds, {size} bytes", file=sys.stderr)
