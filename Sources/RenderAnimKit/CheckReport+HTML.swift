extension CheckReport {
  /// The images of one failing frame, as paths relative to the page. `expected` and `diff` are
  /// nil when the frame had no golden to compare with (missing, unreadable, another size).
  public struct FrameImages: Sendable {
    public var expected: String?
    public var actual: String
    public var diff: String?

    public init(expected: String?, actual: String, diff: String?) {
      self.expected = expected
      self.actual = actual
      self.diff = diff
    }
  }

  /// A static HTML page (no server, no network: it opens from the file system): a summary, and
  /// for every failing frame its figures, the command that re-records it, and a viewer that
  /// shows expected, actual or the diff, or the two with a slider between them.
  /// `images(scene, frame)` gives the frame's images (nil: none were written).
  public func html(images: (Int, Frame) -> FrameImages?) -> String {
    let comparedText: String
    let legendText: String
    switch comparison {
    case .exact(let tolerance)?:
      comparedText = ", compared exactly (tolerance \(tolerance))"
      legendText = ""
    case .perceptual(let threshold)?:
      comparedText = ", compared perceptually (OKLab ΔE over \(threshold))"
      legendText = ", anti-aliased pixels excused in yellow"
    case nil:
      (comparedText, legendText) = ("", "")
    }
    // The counts `check` prints: re-recorded frames neither passed nor failed.
    let passed = scenes.reduce(0) { $0 + $1.passed }
    let rerecorded = scenes.reduce(0) { $0 + $1.rerecorded }
    let failed = failures
    var page = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>render-anim check: \(failed) failed</title>
      <style>
      body { font: 14px/1.45 -apple-system, system-ui, sans-serif; margin: 24px; color: #1c1c1e;
        background: #f2f2f7; }
      h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
      .summary { color: #3c3c43; margin-bottom: 16px; }
      .ok { color: #248a3d; } .bad { color: #d70015; }
      .frame { background: #fff; border-radius: 12px; padding: 14px 16px; margin: 12px 0;
        box-shadow: 0 1px 3px rgba(0,0,0,.08); }
      .frame h3 { font-size: 15px; margin: 0 0 6px; }
      .figures { font-family: ui-monospace, Menlo, monospace; font-size: 12px; color: #3c3c43;
        white-space: pre-wrap; word-break: break-all; }
      code { display: block; background: #f2f2f7; border-radius: 6px; padding: 6px 8px;
        margin: 8px 0; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
      .modes button { font: inherit; border: 1px solid #c7c7cc; background: #fff; padding: 3px 10px;
        border-radius: 6px; cursor: pointer; margin-right: 4px; }
      .modes button.on { background: #007aff; border-color: #007aff; color: #fff; }
      .viewer { position: relative; display: inline-block; margin-top: 8px; max-width: 100%;
        background: repeating-conic-gradient(#e5e5ea 0% 25%, #fff 0% 50%) 0 0 / 16px 16px; }
      .viewer img { display: block; max-width: 100%; max-height: 80vh; width: auto; height: auto; }
      .viewer img.top { position: absolute; left: 0; top: 0; }
      .slider { width: 100%; max-width: 480px; display: none; }
      .problems li { color: #d70015; }
      </style></head><body>
      <h1>render-anim check</h1>
      <div class="summary"><span class="\(failed == 0 ? "ok" : "bad")">\(passed) passed, \
      \(failed) failed</span>\(rerecorded > 0 ? ", \(rerecorded) re-recorded" : "") in \
      \(scenes.count) scene\(scenes.count == 1 ? "" : "s")\(comparedText)</div>
      <div class="figures">Diff: pixels that count as different in magenta\(legendText), over \
      a faded copy of the expected image. Slider: expected on the left, actual on the right.</div>

      """
    var viewer = 0
    for (s, scene) in scenes.enumerated() {
      let mark = scene.failures == 0 ? "ok" : "bad"
      page +=
        "<h2>\(Self.escape(scene.name)) <span class=\"\(mark)\">— \(scene.passed) passed, "
        + "\(scene.failures) failed</span></h2>\n"
        + "<div class=\"figures\">goldens: \(Self.escape(scene.golden))</div>\n"
      if scene.failures > 0 {
        page += "<code>\(Self.escape(scene.rerecord))</code>\n"
      }
      if !scene.problems.isEmpty {
        page +=
          "<ul class=\"problems\">"
          + scene.problems.map { "<li>\(Self.escape($0))</li>" }.joined() + "</ul>\n"
      }
      for frame in scene.frames where frame.result == .failed {
        viewer += 1
        let id = "v\(viewer)"
        page += "<div class=\"frame\"><h3>\(SceneExporter.frameName(frame.index))</h3>\n"
        page += "<div class=\"figures\">\(Self.escape(frame.reason))</div>\n"
        guard let files = images(s, frame) else {
          page += "</div>\n"
          continue
        }
        guard let expected = files.expected, let diff = files.diff else {
          // No diff: the golden is of another size (both shown), or there is none to read.
          if let expected = files.expected {
            page += """
              <div class="figures">expected, then actual (another size: no diff):</div>
              <div class="viewer"><img src="\(Self.escape(expected))" alt="expected"></div> \
              <div class="viewer"><img src="\(Self.escape(files.actual))" alt="actual"></div></div>

              """
          } else {
            page += """
              <div class="figures">actual (no golden image to compare it with):</div>
              <div class="viewer"><img src="\(Self.escape(files.actual))" alt="actual"></div></div>

              """
          }
          continue
        }
        page += """
          <div class="modes" data-viewer="\(id)">\
          <button data-mode="expected">Expected</button><button data-mode="actual">Actual</button>\
          <button data-mode="diff" class="on">Diff</button><button data-mode="slider">Slider</button>\
          </div>
          <input class="slider" id="\(id)-slider" type="range" min="0" max="100" value="50" \
          aria-label="Expected on the left, actual on the right">
          <div class="viewer" id="\(id)">\
          <img class="base" src="\(Self.escape(diff))" data-expected="\(Self.escape(expected))" \
          data-actual="\(Self.escape(files.actual))" data-diff="\(Self.escape(diff))" alt="diff">\
          <img class="top" src="\(Self.escape(files.actual))" alt="actual" style="display:none">\
          </div></div>

          """
      }
    }
    page += """
      <script>
      document.querySelectorAll('.modes').forEach(function (modes) {
        var viewer = document.getElementById(modes.dataset.viewer);
        var base = viewer.querySelector('img.base'), top = viewer.querySelector('img.top');
        var slider = document.getElementById(modes.dataset.viewer + '-slider');
        function clip() { top.style.clipPath = 'inset(0 0 0 ' + slider.value + '%)'; }
        slider.addEventListener('input', clip);
        modes.querySelectorAll('button').forEach(function (button) {
          button.addEventListener('click', function () {
            modes.querySelectorAll('button').forEach(function (b) { b.classList.remove('on'); });
            button.classList.add('on');
            var mode = button.dataset.mode;
            base.src = mode === 'slider' ? base.dataset.expected : base.dataset[mode];
            top.style.display = mode === 'slider' ? 'block' : 'none';
            slider.style.display = mode === 'slider' ? 'block' : 'none';
            clip();
          });
        });
        // report.html#expected, #actual, #diff or #slider opens every viewer in that mode.
        var start = modes.querySelector('button[data-mode="' + location.hash.slice(1) + '"]');
        if (start) start.click();
      });
      </script>
      </body></html>

      """
    return page
  }
}
