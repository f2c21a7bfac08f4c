#!/usr/bin/env bash
# The README's test command: installs the system packages, then builds and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release   # the tests compare its output with the debug build's
swift build --build-tests
swift test --skip-build --disable-xctest
