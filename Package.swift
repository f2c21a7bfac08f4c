// swift-tools-version: 6.0
// render-anim: renders UI animations to PNG frames and animated GIFs with its own CPU rasterizer.

import PackageDescription

let package = Package(
  name: "render-anim",
  products: [
    .executable(name: "render-anim", targets: ["render-anim"]),
    .library(name: "Raster", targets: ["Raster"]),
    .library(name: "Codecs", targets: ["Codecs"]),
    .library(name: "Typeset", targets: ["Typeset"]),
    .library(
      name: "RenderAnimKit",
      targets: [
        "RenderAnimKit", "SceneFormat", "SceneGraph", "Motion", "Raster", "FileIO", "Codecs",
        "Typeset",
      ]),
    // Golden frames in Swift Testing suites: `expectGoldenFrames(of:times:golden:compare:)`.
    .library(name: "RenderAnimTesting", targets: ["RenderAnimTesting"]),
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

    // zlib's deflate for the APNG writer (row filtering is ours, PNGRowFilter).
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // libdeflate's whole-buffer zlib decompression for the PNG decoder's fast path.
    .systemLibrary(
      name: "CDeflate",
      pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"])]
    ),
    // libwebp's animation encoder (WebPAnimEncoder, in libwebpmux) for animated WebP.
    .systemLibrary(
      name: "CWebP",
      pkgConfig: "libwebpmux",
      providers: [.apt(["libwebp-dev"])]
    ),
    .systemLibrary(
      name: "CJPEG",
      pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg62-turbo-dev"])]
    ),
    // Little CMS 2: an image's embedded ICC profile converted to sRGB.
    .systemLibrary(
      name: "CLCMS2",
      pkgConfig: "lcms2",
      providers: [.apt(["liblcms2-dev"])]
    ),
    .systemLibrary(
      name: "CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"])]
    ),
    .systemLibrary(
      name: "CUnibreak",
      pkgConfig: "libunibreak",
      providers: [.apt(["libunibreak-dev"])]
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
    .systemLibrary(
      name: "CFribidi",
      pkgConfig: "fribidi",
      providers: [.apt(["libfribidi-dev"])]
    ),

    // MARK: - C helpers
    .target(name: "CFileSystem"),
    // The crowded bands' deposit (SSE2, AVX chosen at run time). For callgrind (valgrind 3.19
    // reads DWARF 4, not 5) build with `-Xcc -gdwarf-4`: no unsafe flags here, so the package can
    // be a versioned dependency.
    .target(name: "CScanKernels"),
    // The compositor's row kernel (SSE2; AVX2 chosen at run time).
    .target(name: "CPixelKernels"),
    // libjpeg's setjmp error handling, kept inside C.
    .target(name: "CJPEGDecoder", dependencies: ["CJPEG"]),

    // MARK: - Library modules
    .target(
      name: "FileIO",
      dependencies: ["CFileSystem"]
    ),
    .target(
      name: "Raster",
      dependencies: ["CScanKernels", "CPixelKernels"],
      linkerSettings: [.linkedLibrary("m")]
    ),
    .target(
      name: "Codecs",
      dependencies: [
        "Raster", "FileIO", "CPNG", "CGIF", "CZlib", "CDeflate", "CWebP", "CJPEGDecoder",
        "CPixelKernels", "CLCMS2",
      ]
    ),
    .target(
      name: "Typeset",
      dependencies: ["Raster", "CFreeType", "CHarfBuzz", "CFontconfig", "CUnibreak", "CFribidi"]
    ),
    .target(
      name: "Motion"
    ),
    .target(
      name: "SceneGraph",
      dependencies: ["Raster", "Motion"]
    ),
    .target(
      name: "SceneFormat",
      dependencies: ["Raster", "FileIO", "Codecs", "Typeset", "Motion", "SceneGraph"]
    ),
    .target(
      name: "RenderAnimKit",
      dependencies: ["Raster", "FileIO", "Codecs", "Motion", "SceneGraph", "SceneFormat"]
    ),
    .target(
      name: "RenderAnimTesting",
      dependencies: ["RenderAnimKit", "Codecs", "SceneGraph", "SceneFormat", "FileIO", "Raster"]
    ),
    .target(
      name: "CLI",
      dependencies: [
        "Raster", "FileIO", "Codecs", "SceneGraph", "SceneFormat", "RenderAnimKit",
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
    // What several test targets share (a seeded generator); not a product.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "RasterTests",
      dependencies: ["Raster", "Codecs", "CScanKernels", "CPixelKernels", "TestSupport"],
      exclude: ["Refcases"]
    ),
    // CLCMS2 makes the ICC profiles the colour-management tests embed.
    .testTarget(
      name: "CodecsTests",
      dependencies: ["Codecs", "FileIO", "Raster", "TestSupport", "CLCMS2"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "TypesetTests",
      dependencies: ["Typeset", "Raster"]
    ),
    .testTarget(
      name: "MotionTests",
      dependencies: ["Motion"]
    ),
    .testTarget(
      name: "SceneGraphTests",
      dependencies: ["SceneGraph", "Motion", "Raster"]
    ),
    .testTarget(
      name: "ComposeTests",
      dependencies: ["Raster", "Typeset", "SceneGraph", "Codecs", "SceneFormat"],
      exclude: ["Goldens"]
    ),
    .testTarget(
      name: "SceneFormatTests",
      dependencies: [
        "SceneFormat", "SceneGraph", "Motion", "Raster", "Typeset", "Codecs", "FileIO",
        "TestSupport",
      ]
    ),
    .testTarget(
      name: "RenderAnimTestingTests",
      dependencies: ["RenderAnimTesting", "RenderAnimKit", "Codecs", "SceneFormat", "SceneGraph"],
      exclude: ["Goldens"]
    ),
    .testTarget(
      name: "CLITests",
      dependencies: ["CLI", "Codecs", "Raster", "RenderAnimKit", "SceneGraph", "SceneFormat"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
