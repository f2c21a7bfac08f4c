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

#endif
