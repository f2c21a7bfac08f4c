// The compositor's row kernel (Raster's `Kernels.compositeRow`), in C for SSE2 and AVX2
// vectors: 16-bit lanes hold the pixels' channels, so one multiply scales eight channels (SSE2)
// or sixteen (AVX2). Pixels are premultiplied RGBA8 packed little-endian in a uint32_t (r in
// the low byte), as in Raster.
#ifndef RENDER_ANIM_CPIXELKERNELS_H
#define RENDER_ANIM_CPIXELKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// For `count` pixels: `src[i]` with a shadow of `color` at coverage `shadow[i]` beneath it,
/// scaled by `opacity`/255, source-over `dst[i]`, into `dst[i]`; all premultiplied (every
/// channel at most its pixel's alpha, `color` included), `opacity` 0...255. The same bytes as Raster's
/// `Kernels.compositeRowPlainly`, its twin: the shadowed pixel is `s + (color × c)·(1 − s.a)`
/// and the blend `S + d·(1 − S.a)`, each product rounded as `Kernels.scale` rounds it (v·k/255
/// to nearest).
///
/// Blocks of eight go through AVX2 (sixteen lanes, four pixels) where the processor has it
/// (`cpk_has_avx2`), else through SSE2; both give these bytes.
void cpk_composite_row(
    const uint32_t *src, const uint8_t *shadow, uint32_t color, uint32_t *dst, ptrdiff_t count,
    uint32_t opacity);

/// cpk_composite_row without AVX2 (for the tests of both paths).
void cpk_composite_row_sse2(
    const uint32_t *src, const uint8_t *shadow, uint32_t color, uint32_t *dst, ptrdiff_t count,
    uint32_t opacity);

/// The shadow resample's horizontal pass (Raster's `GaussianBlur.resampleRowPlainly`, its
/// twin): for each of `count` outputs, the low byte of the Float
/// (1 − weights[i])·line[taps[i]] + weights[i]·line[taps[i] + 1] + 2^23, each product and sum
/// rounded in turn (no fused multiply-add): the sample rounded to a whole level, for samples
/// in 0…255 and weights in 0…1. `line` must hold every taps[i] + 1. Eight at a time with AVX2
/// gathers where the processor has it (`cpk_has_avx2`).
void cpk_resample_row(
    const float *line, const int32_t *taps, const float *weights, uint8_t *out,
    ptrdiff_t count);

/// cpk_resample_row one output at a time (for the tests of both paths).
void cpk_resample_row_plain(
    const float *line, const int32_t *taps, const float *weights, uint8_t *out,
    ptrdiff_t count);

/// Whether the processor and the system run AVX2.
int cpk_has_avx2(void);

/// A palette's hash from colour (0xRRGGBB) to its first index (Codecs' `PaletteLookup`):
/// 1024 slots probed linearly from (colour · 0x9E3779B1) >> 22, a key of 0xFFFFFFFF empty.
typedef struct {
  const uint32_t *keys;
  const uint8_t *values;
} cpk_palette_lookup;

/// Where a GIF frame's changed rectangle is (Codecs' `GIFFrame.coded`): `x`, `y`, `width`,
/// `height` in pixels of a frame `frame_width` wide.
typedef struct {
  ptrdiff_t x, y, width, height, frame_width;
} cpk_gif_rect;

/// Codecs' `GIFFrame.coded(indices:…)` (its plain twin is that Swift loop): for each pixel of
/// `rect`, whether it is drawn — its palette index (`indices`, over the rectangle; 255: the
/// pixel did not change) names a colour other than the one shown (`shown`, over the frame,
/// 0xRRGGBB or above 0xFFFFFF for none) that is nearer its true colour (`pixels`, packed RGBA
/// over the frame) than the shown one, by squared distance — into `coded` the index drawn or
/// `blank`, into `alternates` the index drawn or the first index of the shown colour in
/// `lookup` (`blank` when none), and for a drawn pixel its colour into `shown`. Eight pixels at
/// a time where all eight are unchanged and show the colour last looked up, and, with AVX2, the
/// test of whether a pixel is drawn eight at a time in vectors. `colors` holds
/// `color_count` entries; an index past them counts as unchanged. Writes the bounds of the
/// drawn pixels (frame coordinates, inclusive) into `bounds` (min x, min y, max x, max y) and
/// returns whether any pixel is drawn.
int cpk_gif_coded(
    const uint8_t *indices, const uint32_t *pixels, const uint32_t *colors,
    ptrdiff_t color_count, uint32_t *shown, cpk_gif_rect rect, cpk_palette_lookup lookup,
    uint8_t blank, uint8_t *coded, uint8_t *alternates, ptrdiff_t bounds[4]);

#endif
