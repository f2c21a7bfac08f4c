// The crowded bands' deposit of the rasterizer (Raster's CoverageAccumulator), in C for its SSE2
// and AVX vectors: Swift's SIMD arithmetic on Float is a loop over the lanes that the compiler
// vectorizes or not, and did not there. AVX is used where the processor has it (chosen at run
// time; the build stays baseline x86-64), with the same results: no fused multiply-adds.
#ifndef RENDER_ANIM_CSCANKERNELS_H
#define RENDER_ANIM_CSCANKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// A line as the deposit takes it; the layout of Raster's `CoverageAccumulator.Edge` (checked by
/// its tests): ends relative to the region, the upper end first (y0 < y1 unless horizontal), the
/// direction the outline runs (+1 down, -1 up), dx/dy, the owner id, and the rows it reaches
/// (firstRow ..< endRow, relative to the region).
typedef struct {
  float x0, y0, x1, y1, dxdy, direction;
  int32_t owner, firstRow, endRow;
} csk_edge;

/// A line of a path (Raster's `Line`): device pixels, as flattened.
typedef struct {
  float x0, y0, x1, y1;
} csk_line;

/// A stroke piece (Raster's `PieceGroup`).
typedef struct {
  int32_t id, partner;
} csk_group;

/// Where a band's deposits go (Raster's `CoverageAccumulator.DepositTarget` with its
/// `BandLayout`): the band's cells and owners (`stride` a row) and touched bits (`words_per_row`
/// a row), its rows `row_start ..< row_end` (relative to the region, at most 32), and what the
/// claims consult: the path's lines, the line of each owner id, and the lines' stroke pieces
/// (NULL for a plain fill). `prefetch` is the address of the pixel the sweep will blend for the
/// band's first row and cell 0 (`prefetch_row_bytes` bytes a row, 1 << `prefetch_pixel_shift`
/// bytes a pixel): each piece's first pixel is prefetched, a hint that changes nothing (NULL: the
/// piece's own cell is, so that the loop has no branch for it).
typedef struct {
  float *cells;
  int32_t *owners;
  uint64_t *bits;
  ptrdiff_t stride, words_per_row;
  int32_t row_start, row_end;
  const csk_line *lines;
  const int32_t *owner_lines;
  const csk_group *groups;
  const void *prefetch;
  ptrdiff_t prefetch_row_bytes;
  int32_t prefetch_pixel_shift;
} csk_band_target;

/// Raster's `CoverageAccumulator.deposit(_:groups:layout:marked:)` for `count` edges (line
/// `indices[i]` for edge i): each line's area row by row by the same expressions, to the same
/// sums bit for bit, the touched bits of the cells it writes, and its claims of the pixels it
/// passes through. Returns `marked` with the band rows in which a pixel was claimed by two
/// unconnected lines. Its twin is that Swift function's loop (`depositsInC` off).
uint32_t csk_deposit_claimed(
    const csk_band_target *target, const csk_edge *edges, const int32_t *indices, ptrdiff_t count,
    uint32_t marked);

/// A line's part within one pixel row as Raster's `ExactRowResolver` cuts it (its `Piece`, whose
/// layout this is): the upper end (x0, y0) and dx/dy of the line, the lower end's y (pixels,
/// relative to the region), and its winding.
typedef struct {
  float x0, y0, dxdy, y1;
  int32_t winding;
} csk_piece;

/// The crossings inside the row from `top` to `bottom` of `count` pieces, as
/// ExactRowResolver.collectEvents finds them (its Swift loop is the plain twin): for every pair
/// i < j, the height where their lines cross, by the same expressions, when it lies strictly
/// inside the part of the row both pieces span. Written to `out`, which has room for
/// count · (count − 1) / 2, in the order of the pairs; returns how many. Four pairs at a time in
/// SSE2 vectors for at most 512 pieces (the rows the resolver takes), one at a time beyond.
ptrdiff_t csk_row_crossings(
    const csk_piece *pieces, ptrdiff_t count, float top, float bottom, float *out);

/// Deposits the signed areas of `count` edges into the cells of the band of rows
/// `row_start ..< row_end` (relative to the region; `cells` is the band's first row, `stride`
/// cells a row), edge after edge, each row's piece by the expressions of Raster's
/// `CoverageAccumulator.depositPiece` (its plain twin), so that every cell gets the same sums to
/// the bit. Adds 0 to cells past the band: there must be `7 * stride + 4` more cells after its
/// rows. Every edge's x must lie in 0 ... stride - 2.
void csk_deposit_band(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end);

/// csk_deposit_band piece by piece, without vectors (its plain twin in C).
void csk_deposit_band_plainly(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end);

#if defined(__x86_64__)
/// csk_deposit_band four rows at a time in SSE2 vectors: what it does without AVX.
void csk_deposit_band_sse2(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end);

/// csk_deposit_band eight rows at a time in AVX vectors (only where csk_has_avx()): what it
/// does with AVX.
void csk_deposit_band_avx(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end);

/// Whether the processor and the system run AVX.
int csk_has_avx(void);
#endif

/// Raster's `CoverageAccumulator.sweepRows` with the nonzero rule into a solid colour
/// (`SolidColorRow`), its plain twin, to the same pixels bit for bit: each of `rows` rows of a
/// band (`cells` and `owners` `stride` a row, touched bits `words_per_row` a row, of which
/// `cell_words` hold cells and the next, set, stops the scan) is summed left to right; a touched
/// cell's pixel is blended on its own, but the last of a run, which goes out with the stretch
/// after it as one span of constant coverage. Pixel p of coverage c becomes
/// scaled[c] + scale(p, 255 - scaled[c] >> 24) (`Kernels.scale`'s rounding); a span whose source
/// is opaque is filled. A run's pixels are blended four at a time in SSE2 where four pixels lie
/// in the region (those past the run written back unchanged: coverage 0). Leaves the cells,
/// owners and bits zero. `pixels` is the region's first pixel in the band's first row,
/// `row_pixels` pixels a row; the region is `width` pixels wide; `scaled` holds 256 packed
/// pixels (`CoverageScaledColor.entries`, whose entry 0 is 0).
void csk_sweep_solid(
    float *cells, int32_t *owners, uint64_t *bits, ptrdiff_t stride, ptrdiff_t words_per_row,
    ptrdiff_t cell_words, ptrdiff_t rows, ptrdiff_t width, uint32_t *pixels,
    ptrdiff_t row_pixels, const uint32_t *scaled);

#endif
