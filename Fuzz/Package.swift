// swift-tools-version: 6.0
// libFuzzer targets for render-anim: a package of its own, so the root package and its build
// folder stay untouched. Build and run with ../scripts/fuzz.sh; see README.md.

import PackageDescription

/// The render-anim library products, from the repository root.
func kit(_ product: String) -> Target.Dependency {
  .product(name: product, package: "render-anim")
}

let package = Package(
  name: "render-anim-fuzz",
  dependencies: [
    .package(name: "render-anim", path: "..")
  ],
  targets: [
    .target(name: "FuzzSupport"),

    .executableTarget(name: "fuzz-pathdata", dependencies: ["FuzzSupport", kit("Raster")]),
    .executableTarget(
      name: "fuzz-scene-load", dependencies: ["FuzzSupport", kit("RenderAnimKit")]),
    .executableTarget(
      name: "fuzz-scene-render",
      dependencies: ["FuzzSupport", kit("RenderAnimKit")]),
    .executableTarget(
      name: "fuzz-png-decode", dependencies: ["FuzzSupport", kit("Codecs"), kit("Raster")]),
    .executableTarget(
      name: "fuzz-jpeg-decode", dependencies: ["FuzzSupport", kit("Codecs"), kit("Raster")]),
  ],
  swiftLanguageModes: [.v6]
)
