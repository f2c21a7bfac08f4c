// swift-tools-version: 6.0
// render-anim: renders UI animations to PNG frames and animated GIFs with its own CPU rasterizer.

import PackageDescription

/// Release builds only: exclusivity checks cost a few percent in the scanline loops and guard
/// nothing there that tests do not already cover in debug builds.
let releaseSpeed: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "render-anim",
  products: [
    .executable(name: "render-anim", targets: ["render-anim"]),
    .library(name: "Raster", targets: ["Raster"]),
    .library(name: "Codecs", targets: ["Codecs"]),
    .library(name: "Typeset", targets: ["Typeset"]),
    .library(
      name: "RenderAnimKit",
      targets: ["RenderAnimKit", "SceneFormat", "Motion", "Raster", "FileIO", "Codecs", "Typeset"]),
  ],
  targets: [
    // MARK: - C libraries (Debian packages, found by pkg-config)
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    .systemLibrary(
      name: "CGIF",
      pkgConfig: "libgif",
      providers: [.apt(["libgif-dev"])]
    ),

    .systemLibrary(
      name: "CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"])]
    ),
    .systemLibrary(
      name: "CHarfBuzz",
      pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"])]
    ),
    .systemLibrary(
      name: "CFontconfig",
      pkgConfig: "fontconfig",
      providers: [.apt(["libfontconfig-dev"])]
    ),

    // MARK: - C helpers
    .target(name: "CFileSystem"),

    // MARK: - Library modules
    .target(
      name: "FileIO",
      dependencies: ["CFileSystem"]
    ),
    .target(
      name: "Raster",
      swiftSettings: releaseSpeed,
      linkerSettings: [.linkedLibrary("m")]
    ),
    .target(
      name: "Codecs",
      dependencies: ["Raster", "FileIO", "CPNG", "CGIF"]
    ),
    .target(
      name: "Typeset",
      dependencies: ["Raster", "CFreeType", "CHarfBuzz", "CFontconfig"]
    ),
    .target(
      name: "Motion",
      dependencies: ["Raster", "Typeset"]
    ),
    .target(
      name: "SceneFormat",
      dependencies: ["Raster", "FileIO", "Typeset", "Motion"]
    ),
    .target(
      name: "RenderAnimKit",
      dependencies: ["Raster", "FileIO", "Codecs", "Typeset", "Motion", "SceneFormat"]
    ),
    .target(
      name: "CLI",
      dependencies: [
        "Raster", "FileIO", "Codecs", "Typeset", "Motion", "SceneFormat", "RenderAnimKit",
      ]
    ),

    // MARK: - Executable
    .executableTarget(
      name: "render-anim",
      dependencies: ["CLI", "FileIO"]
    ),

    .executableTarget(
      name: "embed-example",
      dependencies: ["RenderAnimKit"],
      path: "Examples/EmbedExample"
    ),

    // MARK: - Tests
    .testTarget(
      name: "RasterTests",
      dependencies: ["Raster", "Codecs"]
    ),
    .testTarget(
      name: "CodecsTests",
      dependencies: ["Codecs", "FileIO", "Raster", "Typeset"]
    ),
    .testTarget(
      name: "TypesetTests",
      dependencies: ["Typeset", "Raster"]
    ),
    .testTarget(
      name: "MotionTests",
      dependencies: ["Motion", "Raster", "Typeset"]
    ),
    .testTarget(
      name: "ComposeTests",
      dependencies: ["Raster", "Typeset", "Motion", "Codecs", "SceneFormat"],
      exclude: ["Goldens"]
    ),
    .testTarget(
      name: "SceneFormatTests",
      dependencies: ["SceneFormat", "Motion", "Raster", "Typeset"]
    ),
    .testTarget(
      name: "CLITests",
      dependencies: ["CLI", "Codecs", "Raster", "RenderAnimKit", "Motion", "SceneFormat"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
