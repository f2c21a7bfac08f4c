#!/usr/bin/env bash
# Builds the API documentation of the library modules with the toolchain's docc, from the
# symbol graphs the compiler dumps. Output: .build/docs (open .build/docs/index.html through a
# web server, or browse .build/docs/data).
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs
mkdir -p "$graphs"
swift build -c release -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >/dev/null
# Keep the library modules' graphs only.
find "$graphs" -name '*.symbols.json' | grep -vE '/(RenderAnimKit|SceneFormat|Motion|Raster|Codecs|Typeset)(@[A-Za-z]+)?\.symbols\.json$' | xargs -r rm
docc convert --additional-symbol-graph-dir "$graphs" --output-path .build/docs \
  --fallback-display-name RenderAnim --fallback-bundle-identifier org.render-anim.RenderAnim \
  --fallback-bundle-version 1.0 >/dev/null
echo "API docs in .build/docs ($(find .build/docs -name '*.json' | wc -l) pages)"
