#!/usr/bin/env bash
# The README's test command: installs the system packages, builds, runs every test, then checks
# that another package can depend on this one. What CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The tool and the tests, optimised: the suites (rendering whole demos, pixel locks, accuracy
# against supersampled references) run about ten times faster than in a debug build.
swift build -c release --build-tests -Xswiftc -enable-testing
# The debug binary, which a test holds to the same bytes as the release one.
swift build --product render-anim
swift test -c release --skip-build --disable-xctest -Xswiftc -enable-testing
scripts/check-dependents.sh
