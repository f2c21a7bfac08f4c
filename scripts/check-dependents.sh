#!/usr/bin/env bash
# Builds and runs a throwaway package that depends on render-anim the two ways others do: by
# path, and by a git URL at a version tag (`from:`), which SwiftPM allows only for packages
# without unsafe build flags. The program (scripts/dependent/main.swift) imports RenderAnimKit
# beside names SwiftUI also has and renders a frame. Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
version=$(sed -n 's/^public let version = "\(.*\)"$/\1/p' Sources/RenderAnimKit/SceneExporter.swift)
work=$(mktemp -d "${TMPDIR:-/tmp}/render-anim-dependents.XXXXXX")
trap 'rm -rf "$work"' EXIT

# SwiftPM names a package by the last part of its path or URL: "render-anim", as a clone has it.
mkdir -p "$work/checkout" "$work/git"
ln -s "$root" "$work/checkout/render-anim"
# A tagged repository of the committed tree (CI checks out a commit; locally, HEAD).
git clone --quiet --no-hardlinks "$root" "$work/git/render-anim"
git -C "$work/git/render-anim" tag "$version"

consumer() {  # name, dependency clause
  mkdir -p "$work/$1/Sources/Consumer"
  cp scripts/dependent/main.swift "$work/$1/Sources/Consumer/main.swift"
  cat > "$work/$1/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "$1",
  dependencies: [$2],
  targets: [
    .executableTarget(
      name: "Consumer",
      dependencies: [.product(name: "RenderAnimKit", package: "render-anim")])
  ]
)
SWIFT
  echo "== a package depending on render-anim by $1" >&2
  (cd "$work/$1" && swift build --product Consumer 2>&1 | tail -3 && swift run --skip-build Consumer)
}

consumer path ".package(path: \"$work/checkout/render-anim\")"
consumer url ".package(url: \"file://$work/git/render-anim\", from: \"$version\")"
echo "check-dependents: both builds render" >&2
