#!/usr/bin/env python3
"""Looks at animated GIFs the way browsers and tools show them (issue #17); not needed by the
build or the tests.

  scripts/gif-in-browsers.py decoders FILE.gif
      Decodes FILE.gif with three independent decoders — Pillow, ffmpeg and headless Chromium
      (WebCodecs' ImageDecoder) — and reports frame by frame whether they show the same pixels
      (RGBA, every transparent pixel taken as 0,0,0,0); exit 1 when they differ.
  scripts/gif-in-browsers.py pages OUT.png LIGHT.gif DARK.gif [FRACTION ...]
      Screenshots transparent GIFs on a light and a dark page in headless Chromium: the frames at
      the given fractions of each GIF's length (default 0.2 and 1), decoded by Chromium itself and
      drawn on the page. LIGHT.gif is shown on white and on #0D1117, DARK.gif (made with
      --matte '#0D1117') on #0D1117.

Needs Pillow, ffmpeg, chromium (Debian: python3-pil, ffmpeg, chromium) and websocket-client
(pip install websocket-client). Chromium is reached on loopback only.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import HTTPServer, SimpleHTTPRequestHandler

from PIL import Image, ImageSequence

PAGE = """<!doctype html><html><body style="margin:0;font:13px sans-serif;display:grid;
grid-template-columns:repeat(3,auto);width:max-content" id=grid></body></html>"""


def fnv(rgba):
    """Counts of opaque, clear and partial pixels and an FNV-1a hash of the pixels."""
    h, opaque, clear, partial = 2166136261, 0, 0, 0
    for k in range(0, len(rgba), 4):
        a = rgba[k + 3]
        if a == 255:
            opaque += 1
        elif a == 0:
            clear += 1
        else:
            partial += 1
        for b in (0, 0, 0, 0) if a == 0 else rgba[k:k + 4]:
            h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return (opaque, clear, partial, h)


def pillow(path):
    return [fnv(f.convert("RGBA").tobytes()) for f in ImageSequence.Iterator(Image.open(path))]


def ffmpeg(path):
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["ffmpeg", "-loglevel", "error", "-i", path, "-vsync", "0", "-pix_fmt",
                        "rgba", os.path.join(folder, "f%05d.png")], check=True)
        return [fnv(Image.open(os.path.join(folder, name)).convert("RGBA").tobytes())
                for name in sorted(os.listdir(folder))]


DECODE = """(async () => {
  const bytes = Uint8Array.from(atob('%s'), c => c.charCodeAt(0));
  const decoder = new ImageDecoder({data: bytes, type: 'image/gif'});
  await decoder.tracks.ready;
  const frames = [];
  for (let i = 0; i < decoder.tracks.selectedTrack.frameCount; i++) {
    const {image} = await decoder.decode({frameIndex: i});
    const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
    canvas.getContext('2d').drawImage(image, 0, 0);
    frames.push(Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data));
    image.close();
  }
  return JSON.stringify(frames);
})()"""


PAGES = """(async () => {
  const decode = async (b64) => {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const d = new ImageDecoder({data: bytes, type: 'image/gif'});
    await d.tracks.ready;
    return d;
  };
  const light = await decode('%s'), dark = await decode('%s');
  const fractions = %s;
  const panels = [['light page, --matte white (default)', '#ffffff', '#000', light],
                  ['dark page, --matte #0D1117', '#0D1117', '#ccc', dark],
                  ['dark page, white matte: a pale fringe', '#0D1117', '#ccc', light]];
  for (const f of fractions) {
    for (const [label, bg, fg, dec] of panels) {
      const n = dec.tracks.selectedTrack.frameCount;
      const {image} = await dec.decode({frameIndex: Math.min(n - 1, Math.floor(f * n))});
      const div = document.createElement('div');
      div.style = `background:${bg};color:${fg};padding:12px`;
      div.textContent = label + ' — ' + Math.round(f * 100) + ' %%';
      const c = document.createElement('canvas');
      c.width = image.displayWidth; c.height = image.displayHeight;
      c.style = `display:block;width:${image.displayWidth / 2}px`;
      c.getContext('2d').drawImage(image, 0, 0);
      image.close();
      div.appendChild(c);
      document.getElementById('grid').appendChild(div);
    }
  }
  const r = document.getElementById('grid').getBoundingClientRect();
  return JSON.stringify([r.width, r.height]);
})()"""


class Chromium:
    """Headless Chromium on a page served from loopback (a secure context, where WebCodecs'
    ImageDecoder exists), driven through the DevTools protocol."""

    def __init__(self):
        import websocket  # pip install websocket-client

        folder = tempfile.mkdtemp()
        open(os.path.join(folder, "index.html"), "w").write(PAGE)
        handler = lambda *a: SimpleHTTPRequestHandler(*a, directory=folder)  # noqa: E731
        self.server = HTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/index.html" % self.server.server_port
        port = 9000 + os.getpid() % 900
        self.browser = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--window-size=1600,1200", "--remote-debugging-port=%d" % port, url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(150):
            try:
                tabs = json.load(urllib.request.urlopen("http://127.0.0.1:%d/json" % port))
                page = [t for t in tabs if t["type"] == "page" and t["url"] == url][0]
                break
            except Exception:
                time.sleep(0.2)
        time.sleep(1.0)  # the page's load
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], suppress_origin=True)
        self.calls = 0

    def call(self, method, params):
        self.calls += 1
        self.ws.send(json.dumps({"id": self.calls, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.calls:
                return message["result"]

    def evaluate(self, expression):
        """The value of an async expression that returns a string."""
        result = self.call("Runtime.evaluate", {
            "expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            sys.exit("chromium: " + result["exceptionDetails"]["text"])
        return result["result"]["value"]

    def close(self):
        self.browser.terminate()
        self.server.shutdown()


def chromium(path):
    browser = Chromium()
    try:
        gif = base64.b64encode(open(path, "rb").read()).decode()
        return [fnv(bytes(frame)) for frame in json.loads(browser.evaluate(DECODE % gif))]
    finally:
        browser.close()


def decoders(path):
    results = {"pillow": pillow(path), "ffmpeg": ffmpeg(path), "chromium": chromium(path)}
    counts = {name: len(frames) for name, frames in results.items()}
    print("frames:", ", ".join("%s %d" % item for item in counts.items()))
    differing = 0
    for i in range(max(counts.values())):
        seen = {name: frames[i] if i < len(frames) else None for name, frames in results.items()}
        if len(set(seen.values())) != 1:
            differing += 1
            print("frame %d differs:" % i, seen)
    print("frames where the decoders differ: %d" % differing)
    return 1 if differing else 0


def pages(out, light, dark, fractions):
    browser = Chromium()
    try:
        b64 = lambda p: base64.b64encode(open(p, "rb").read()).decode()  # noqa: E731
        width, height = json.loads(browser.evaluate(
            PAGES % (b64(light), b64(dark), json.dumps(fractions or [0.2, 1.0]))))
        shot = browser.call("Page.captureScreenshot", {"format": "png", "clip": {
            "x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        open(out, "wb").write(base64.b64decode(shot["data"]))
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "decoders":
        sys.exit(decoders(sys.argv[2]))
    if len(sys.argv) >= 5 and sys.argv[1] == "pages":
        sys.exit(pages(sys.argv[2], sys.argv[3], sys.argv[4], [float(f) for f in sys.argv[5:]]))
    sys.exit(__doc__)
