#!/usr/bin/env bash
# Installs the Debian packages render-anim builds and tests with, skipping those already present.
# Idempotent and non-interactive; safe to run on every CI run. Needs root (or sudo) only when
# something is missing.
set -euo pipefail

packages=(
  pkg-config   # SwiftPM finds the C libraries through it
  libpng-dev   # PNG codec (simplified png_image API)
  libgif-dev   # GIF encoder
  zlib1g-dev   # deflate for the APNG writer (row filters are ours)
  libdeflate-dev  # whole-buffer zlib decompression: the PNG decoder's fast path
  libwebp-dev  # animated WebP (WebPAnimEncoder, libwebpmux)
  python3-pil  # Pillow: the independent decoder the GIF, APNG and WebP tests read our files with
  libjpeg62-turbo-dev  # JPEG decoder (libjpeg-turbo)
  liblcms2-dev       # Little CMS 2: embedded ICC profiles of images converted to sRGB
  libfreetype-dev    # glyph outlines
  libharfbuzz-dev    # text shaping
  libfontconfig-dev  # finding fonts by family and weight
  libunibreak-dev    # line-break opportunities (UAX #14) for wrapped text
  libfribidi-dev     # embedding levels (UAX #9) for right-to-left and mixed-direction text
  unicode-data       # LineBreakTest.txt, which the line-break test reads when present
  fonts-inter        # Inter and Inter Display: the stand-in for SF Pro
  fonts-jetbrains-mono  # JetBrains Mono: the stand-in for SF Mono (font design monospaced)
  fonts-quicksand    # Quicksand: the stand-in for SF Pro Rounded (font design rounded)
  fonts-dejavu-core  # the fallback when Inter is missing
  fonts-noto-core    # fallback fonts per character: Greek, Cyrillic, Hebrew, Arabic, Indic, symbols
  fonts-noto-cjk     # fallback fonts per character: Chinese, Japanese, Korean
  fonts-noto-color-emoji  # colour emoji (CBDT bitmaps)
  fonts-material-design-icons-iconfont  # Material Icons: the glyphs of SF Symbol names
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift 6 toolchain is not on PATH; install it from swift.org, then run this again" >&2
  exit 1
fi
