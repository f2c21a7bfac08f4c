#include "cscankernels.h"

#include <wchar.h>

_Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wmemset must store 32-bit pixels");

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Every expression below is the one of the Swift code it mirrors, in the same order, in float:
// the cells must get the same sums to the bit. No contraction into fused multiply-adds (there
// are none in baseline x86-64 anyway) and every literal a float.
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

// MARK: - One piece (the plain twin: CoverageAccumulator.depositPiece)

/// ⌊v⌋ for 0 ≤ v < 2^22: truncation.
static inline ptrdiff_t floor_nonnegative(float v) { return (ptrdiff_t)v; }

/// ⌈v⌉ for 0 ≤ v < 2^22.
static inline ptrdiff_t ceil_nonnegative(float v) {
  ptrdiff_t n = (ptrdiff_t)v;
  return (float)n < v ? n + 1 : n;
}

/// `v` limited to `low ... high` (low ≤ high; no NaN here): CoverageAccumulator.clamp.
static inline float clamp(float v, float low, float high) {
  float below = v < high ? v : high;
  return below > low ? below : low;
}

/// A piece of edge from x = `x` at the top of a slab of one row to x = `x_next` at its bottom,
/// `d` tall (signed by the edge's direction): CoverageAccumulator.depositPiece with
/// depositOnePixel, depositTwoPixels, endAreas and depositWidePiece. Writes cells
/// ⌊min⌋ ... ⌈max⌉.
static inline __attribute__((always_inline)) void deposit_piece(float x, float x_next, float d, float *cells) {
  float xa = x < x_next ? x : x_next;
  float xb = x < x_next ? x_next : x;
  ptrdiff_t ia = floor_nonnegative(xa);
  float ia_float = (float)ia;
  if (xb <= ia_float + 1.0f) {
    float mid = 0.5f * (x + x_next) - ia_float;
    cells[ia] += d - d * mid;
    cells[ia + 1] += d * mid;
    return;
  }
  float s = 1.0f / (xb - xa);
  float xa_fraction = xa - ia_float;
  float first = 0.5f * s * (1.0f - xa_fraction) * (1.0f - xa_fraction);
  if (xb <= ia_float + 2.0f) {
    float xb_fraction = xb - (float)(ia + 2) + 1.0f;
    float last = 0.5f * s * xb_fraction * xb_fraction;
    cells[ia] += d * first;
    cells[ia + 1] += d * (1.0f - first - last);
    cells[ia + 2] += d * last;
    return;
  }
  ptrdiff_t ib = ceil_nonnegative(xb);
  float xb_fraction = xb - (float)ib + 1.0f;
  float last = 0.5f * s * xb_fraction * xb_fraction;
  cells[ia] += d * first;
  float second = s * (1.5f - xa_fraction);
  cells[ia + 1] += d * (second - first);
  float step = d * s;
  for (ptrdiff_t xi = ia + 2; xi < ib - 1; xi++) cells[xi] += step;
  float before_last = second + (float)(ib - ia - 3) * s;
  cells[ib - 1] += d * (1.0f - before_last - last);
  cells[ib] += d * last;
}

/// Where an edge crosses the rows of the band: the first row, the row count, the crossing at the
/// top (of the edge or of its first row) and at the bottom (of the edge or of its last row),
/// as CoverageAccumulator.deposit computes them.
typedef struct {
  ptrdiff_t first_row, rows;
  float row_top, top, first_x, bottom, last_x, low_x, high_x;
} edge_rows;

static inline int rows_of(const csk_edge *e, int32_t row_start, int32_t row_end, edge_rows *r) {
  if (!(e->y0 < e->y1)) return 0;
  int32_t first = e->firstRow > row_start ? e->firstRow : row_start;
  int32_t end = e->endRow < row_end ? e->endRow : row_end;
  if (first >= end) return 0;
  r->first_row = first;
  r->rows = end - first;
  r->low_x = e->x0 < e->x1 ? e->x0 : e->x1;
  r->high_x = e->x0 < e->x1 ? e->x1 : e->x0;
  r->row_top = (float)first;
  r->top = r->row_top < e->y0 ? e->y0 : r->row_top;
  r->first_x = r->row_top <= e->y0
                   ? e->x0
                   : clamp(e->x0 + (r->row_top - e->y0) * e->dxdy, r->low_x, r->high_x);
  float last_boundary = r->row_top + (float)r->rows;
  r->bottom = e->y1 < last_boundary ? e->y1 : last_boundary;
  r->last_x = r->bottom == e->y1
                  ? e->x1
                  : clamp(e->x0 + (r->bottom - e->y0) * e->dxdy, r->low_x, r->high_x);
  return 1;
}

/// One edge, piece by piece.
static inline void deposit_edge_plainly(
    const csk_edge *e, const edge_rows *r, float *cells, ptrdiff_t stride) {
  float upper_x = r->first_x;
  float upper_y = r->top;
  float boundary = r->row_top;
  for (ptrdiff_t k = 1; k < r->rows; k++) {
    boundary += 1.0f;
    float x = clamp(e->x0 + (boundary - e->y0) * e->dxdy, r->low_x, r->high_x);
    deposit_piece(upper_x, x, (boundary - upper_y) * e->direction, cells);
    upper_x = x;
    upper_y = boundary;
    cells += stride;
  }
  deposit_piece(upper_x, r->last_x, (r->bottom - upper_y) * e->direction, cells);
}

// MARK: - A band's lines with touched bits and claims (CoverageAccumulator.deposit)

/// CoverageAccumulator.connected(_:_:lines:ownerLines:groups:) without its `allMarked` slot:
/// whether the line of owner id `previous` is connected to line `line` — of an adjoining stroke
/// piece (PieceGroup.adjoins), or sharing an end point (connected(_:_:) on two lines).
__attribute__((noinline)) static int claimed_lines_connected(
    int32_t previous, ptrdiff_t line, const csk_band_target *t) {
  ptrdiff_t other = t->owner_lines[previous];
  if (t->groups) {
    csk_group a = t->groups[other], b = t->groups[line];
    int32_t d = (int32_t)((uint32_t)a.id - (uint32_t)b.id);
    if ((d >= -1 && d <= 1) || a.partner == b.id || b.partner == a.id) return 1;
  }
  csk_line a = t->lines[other], b = t->lines[line];
  int same_start = a.x0 == b.x0 && a.y0 == b.y0;
  int same_end = a.x1 == b.x1 && a.y1 == b.y1;
  return (a.x1 == b.x0 && a.y1 == b.y0) || (a.x0 == b.x1 && a.y0 == b.y1) ||
         (same_start != same_end);
}

/// The wide case (three pixels or more) of one piece: deposit_piece, the touched bits of cells
/// ⌊min⌋ ... ⌈max⌉ (CoverageAccumulator.markTouched) and the claims of ⌊min⌋ ..< ⌈max⌉. Out of
/// line, as in Swift.
/// CoverageAccumulator.mayBeUnconnected for owner ids of 0 or more (as every owner is): whether
/// owner id `previous` (0: none) is neither none, nor `owner`, nor a neighbouring id. None counts
/// as the owner itself, so that the test is one compare.
static inline int may_be_unconnected_id(int32_t previous, int32_t owner) {
  const int32_t other = previous != 0 ? previous : owner;
  return (uint32_t)other - (uint32_t)owner + 1u > 2u;
}

__attribute__((noinline)) static int deposit_wide_claimed(
    float x, float x_next, float d, ptrdiff_t ia, float *cells, uint64_t *bits, int32_t *owners,
    int32_t owner, ptrdiff_t line, int settled, const csk_band_target *t) {
  deposit_piece(x, x_next, d, cells);
  ptrdiff_t ib = ceil_nonnegative(x < x_next ? x_next : x);
  ptrdiff_t word = ia >> 6, last_word = ib >> 6;
  uint64_t mask = ~(uint64_t)0 << (ia & 63);
  while (word < last_word) {
    bits[word] |= mask;
    word++;
    mask = ~(uint64_t)0;
  }
  bits[word] |= mask & (~(uint64_t)0 >> (63 - (ib & 63)));
  // The claims of cells ia ..< ib (CoverageAccumulator.claim's): every owner becomes `owner`;
  // the cells whose previous owner may not be connected (may_be_unconnected_id) are tested
  // until one is not (whether the piece meets an unconnected line is all that is returned).
  int unconnected = 0;
  ptrdiff_t cell = ia;
#if defined(__x86_64__)
  // Four at a time: none (0) counts as the owner itself, and the unsigned test
  // other - owner + 1 > 2 is a signed one with the sign bit flipped.
  const __m128i own = _mm_set1_epi32(owner), flip = _mm_set1_epi32(INT32_MIN);
  const __m128i one = _mm_set1_epi32(1), two = _mm_set1_epi32(INT32_MIN + 2);
  for (; cell + 4 <= ib; cell += 4) {
    const __m128i previous = _mm_loadu_si128((const __m128i *)(owners + cell));
    _mm_storeu_si128((__m128i *)(owners + cell), own);
    const __m128i none = _mm_cmpeq_epi32(previous, _mm_setzero_si128());
    const __m128i other =
        _mm_or_si128(_mm_and_si128(none, own), _mm_andnot_si128(none, previous));
    const __m128i offset = _mm_add_epi32(_mm_sub_epi32(other, own), one);
    int lanes = _mm_movemask_ps(
        _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_xor_si128(offset, flip), two)));
    if (lanes != 0 && !unconnected) {
      int32_t prior[4];
      _mm_storeu_si128((__m128i *)prior, previous);
      while (lanes != 0) {
        const int lane = __builtin_ctz((unsigned)lanes);
        lanes &= lanes - 1;
        if (settled || !claimed_lines_connected(prior[lane], line, t)) {
          unconnected = 1;
          break;
        }
      }
    }
  }
#endif
  for (; cell < ib; cell++) {
    const int32_t previous = owners[cell];
    owners[cell] = owner;
    if (!unconnected && may_be_unconnected_id(previous, owner) &&
        (settled || !claimed_lines_connected(previous, line, t)))
      unconnected = 1;
  }
  return unconnected;
}

/// A claim of the loop below whose previous owner may not be connected (`may_be_unconnected_id`):
/// the previous owner id and the line's rows in the band after the claim's (`rows_after`), tested
/// once the line's pieces are deposited.
typedef struct {
  int32_t previous, rows_after;
} claim_candidate;

/// A piece of three pixels or more of the loop below, deposited once the line's other pieces
/// are: its ends at the top and bottom of its row, its height, ⌊min⌋ and the line's rows in the
/// band after its own (`rows_after`).
typedef struct {
  float x, x_next, d;
  int32_t ia, rows_after;
} wide_piece;

/// csk_deposit_claimed with the prefetched pixels `1 << prefetch_shift` bytes apart (inlined
/// with the shift a constant where it is 2). A line's pieces are taken row by row with no call
/// in the loop, so that its values stay in registers: its pieces through three pixels or more
/// and its claims that meet a line that may not be connected are kept and done after its last
/// row. That changes nothing: they are the line's own pieces in other rows (each row's cells,
/// bits and owners are its own), and whether two lines are connected depends on the lines
/// only (`settled` is taken once a line, as before).
static inline __attribute__((always_inline)) uint32_t deposit_claimed(
    const csk_band_target *t, const csk_edge *edges, const int32_t *indices, ptrdiff_t count,
    uint32_t marked, const unsigned prefetch_shift) {
  const int32_t row_start = t->row_start, row_end = t->row_end;
  const ptrdiff_t stride = t->stride, words_per_row = t->words_per_row;
  const uint32_t all_rows = ((uint32_t)1 << (uint32_t)(row_end - row_start)) - 1u;
  uint32_t complex_rows = marked;
  // Without pixels to prefetch, the band's own cells are (a harmless hint): no branch per piece.
  const uintptr_t prefetch_base = t->prefetch ? (uintptr_t)t->prefetch : (uintptr_t)t->cells;
  const uintptr_t prefetch_row = t->prefetch ? (uintptr_t)t->prefetch_row_bytes
                                             : (uintptr_t)stride * sizeof(float);
  // At most 32 rows a band, two claims a row.
  claim_candidate candidates[64];
  wide_piece wides[32];
  for (ptrdiff_t i = 0; i < count; i++) {
    const csk_edge *e = &edges[i];
    const float x0 = e->x0, y0 = e->y0, x1 = e->x1, y1 = e->y1;
    if (!(y0 < y1)) continue;
    const int32_t first = e->firstRow > row_start ? e->firstRow : row_start;
    const int32_t end = e->endRow < row_end ? e->endRow : row_end;
    if (first >= end) continue;
    const float dxdy = e->dxdy, direction = e->direction;
    const int32_t owner = e->owner;
    const float low_x = x0 < x1 ? x0 : x1;
    const float high_x = x0 < x1 ? x1 : x0;
    const ptrdiff_t rows = end - first;
    // The crossings of the row boundaries as CoverageAccumulator.deposit computes them (its
    // `Crossing`s), each as the loop reaches it.
    const float row_top = (float)first;
    float upper_y = row_top < y0 ? y0 : row_top;
    float upper_x = row_top <= y0 ? x0 : clamp(x0 + (row_top - y0) * dxdy, low_x, high_x);
    ptrdiff_t upper_floor = floor_nonnegative(upper_x);
    const float last_boundary = row_top + (float)rows;
    const float bottom = y1 < last_boundary ? y1 : last_boundary;
    const float last_x = bottom == y1 ? x1 : clamp(x0 + (bottom - y0) * dxdy, low_x, high_x);
    const ptrdiff_t first_row = first - row_start;
    float *cells = t->cells + first_row * stride;
    int32_t *owners = t->owners + first_row * stride;
    uint64_t *bits = t->bits + first_row * words_per_row;
    // Only ever prefetched: integer arithmetic, so that no pointer leaves its object.
    uintptr_t pixels = prefetch_base + (uintptr_t)first_row * prefetch_row;
    float boundary = row_top;
    ptrdiff_t n_candidates = 0, n_wides = 0;
    // Rows left after this one: the last row's piece ends at the line's bottom.
    ptrdiff_t left = rows - 1;
    for (;;) {
      float lower_x, lower_y;
      if (left > 0) {
        boundary += 1.0f;
        lower_x = clamp(x0 + (boundary - y0) * dxdy, low_x, high_x);
        lower_y = boundary;
      } else {
        lower_x = last_x;
        lower_y = bottom;
      }
      const ptrdiff_t lower_floor = floor_nonnegative(lower_x);
      const ptrdiff_t ia = upper_floor < lower_floor ? upper_floor : lower_floor;
      const float high = upper_x < lower_x ? lower_x : upper_x;
      const float ia_float = (float)ia;
      const float d = (lower_y - upper_y) * direction;
      __builtin_prefetch((const void *)(pixels + ((uintptr_t)ia << prefetch_shift)), 1, 3);
      if (high <= ia_float + 1.0f) {
        float mid = 0.5f * (upper_x + lower_x) - ia_float;
        cells[ia] += d - d * mid;
        cells[ia + 1] += d * mid;
        ptrdiff_t word = ia >> 6;
        unsigned bit = (unsigned)(ia & 63);
        bits[word] |= (uint64_t)3 << bit;
        if (bit == 63) bits[word + 1] |= 1;
        const int32_t previous = owners[ia];
        owners[ia] = owner;
        if (may_be_unconnected_id(previous, owner)) {
          candidates[n_candidates].previous = previous;
          candidates[n_candidates].rows_after = (int32_t)left;
          n_candidates++;
        }
      } else if (high <= ia_float + 2.0f) {
        float xa = upper_x < lower_x ? upper_x : lower_x;
        float xb = upper_x < lower_x ? lower_x : upper_x;
        float s = 1.0f / (xb - xa);
        float xa_fraction = xa - ia_float;
        float first_area = 0.5f * s * (1.0f - xa_fraction) * (1.0f - xa_fraction);
        float xb_fraction = xb - (float)(ia + 2) + 1.0f;
        float last_area = 0.5f * s * xb_fraction * xb_fraction;
        cells[ia] += d * first_area;
        cells[ia + 1] += d * (1.0f - first_area - last_area);
        cells[ia + 2] += d * last_area;
        ptrdiff_t word = ia >> 6;
        unsigned bit = (unsigned)(ia & 63);
        bits[word] |= (uint64_t)7 << bit;
        if (bit >= 62) bits[word + 1] |= (uint64_t)7 >> (64 - bit);
        const int32_t previous = owners[ia], next = owners[ia + 1];
        owners[ia] = owner;
        owners[ia + 1] = owner;
        if (may_be_unconnected_id(previous, owner)) {
          candidates[n_candidates].previous = previous;
          candidates[n_candidates].rows_after = (int32_t)left;
          n_candidates++;
        }
        if (may_be_unconnected_id(next, owner)) {
          candidates[n_candidates].previous = next;
          candidates[n_candidates].rows_after = (int32_t)left;
          n_candidates++;
        }
      } else {
        wides[n_wides].x = upper_x;
        wides[n_wides].x_next = lower_x;
        wides[n_wides].d = d;
        wides[n_wides].ia = (int32_t)ia;
        wides[n_wides].rows_after = (int32_t)left;
        n_wides++;
      }
      if (left == 0) break;
      left--;
      upper_x = lower_x;
      upper_y = lower_y;
      upper_floor = lower_floor;
      pixels += prefetch_row;
      cells += stride;
      owners += stride;
      bits += words_per_row;
    }
    if ((n_candidates | n_wides) == 0) continue;
    const ptrdiff_t line = indices[i];
    const int settled = complex_rows == all_rows;
    for (ptrdiff_t w = 0; w < n_wides; w++) {
      const wide_piece p = wides[w];
      const ptrdiff_t at = first_row + rows - 1 - (ptrdiff_t)p.rows_after;
      if (deposit_wide_claimed(
              p.x, p.x_next, p.d, p.ia, t->cells + at * stride, t->bits + at * words_per_row,
              t->owners + at * stride, owner, line, settled, t))
        complex_rows |= (uint32_t)1 << (uint32_t)at;
    }
    for (ptrdiff_t c = 0; c < n_candidates; c++) {
      if (settled || !claimed_lines_connected(candidates[c].previous, line, t))
        complex_rows |=
            (uint32_t)1 << (uint32_t)(first_row + rows - 1 - (ptrdiff_t)candidates[c].rows_after);
    }
  }
  return complex_rows;
}

uint32_t csk_deposit_claimed(
    const csk_band_target *t, const csk_edge *edges, const int32_t *indices, ptrdiff_t count,
    uint32_t marked) {
  // The pixels the solid-colour sink blends are 4 bytes, as are the cells prefetched without.
  if (!t->prefetch || t->prefetch_pixel_shift == 2)
    return deposit_claimed(t, edges, indices, count, marked, 2u);
  return deposit_claimed(t, edges, indices, count, marked, (unsigned)t->prefetch_pixel_shift);
}

// MARK: - Crossings in an exact row (ExactRowResolver.collectEvents)

/// One pair of csk_row_crossings, by the expressions of the Swift loop: the common part of the
/// row, then where the lines cross. Returns whether that lies strictly inside it (in `*y`).
static inline int row_crossing(csk_piece p, csk_piece q, float top, float bottom, float *y) {
  float lo = p.y0 > q.y0 ? p.y0 : q.y0;
  lo = lo > top ? lo : top;
  float hi = p.y1 < q.y1 ? p.y1 : q.y1;
  hi = hi < bottom ? hi : bottom;
  if (!(lo < hi) || !(p.dxdy != q.dxdy)) return 0;
  *y = (q.x0 - q.y0 * q.dxdy - p.x0 + p.y0 * p.dxdy) / (p.dxdy - q.dxdy);
  return *y > lo && *y < hi;
}

/// The pieces a row holds at most for the vector loop (ExactRowResolver.maximumPieces).
enum { crossing_pieces = 512 };

ptrdiff_t csk_row_crossings(
    const csk_piece *pieces, ptrdiff_t count, float top, float bottom, float *out) {
  ptrdiff_t found = 0;
#if defined(__x86_64__)
  if (count <= crossing_pieces) {
    // Per piece, in arrays padded to whole vectors: its span of the row (the common part of
    // two pieces' is the larger top and the smaller bottom: max(max(a, b), top) is
    // max(max(a, top), max(b, top)), and only comparisons read it), dx/dy, and the two terms
    // of the Swift numerator that belong to one piece each, by its own operations:
    // q.x0 - q.y0 * q.dxdy (as `lead`) and p.y0 * p.dxdy (as `trail`). Padding spans nothing.
    float low[crossing_pieces + 4], high[crossing_pieces + 4], slope[crossing_pieces + 4];
    float lead[crossing_pieces + 4];
    for (ptrdiff_t k = 0; k < count; k++) {
      const csk_piece q = pieces[k];
      low[k] = q.y0 > top ? q.y0 : top;
      high[k] = q.y1 < bottom ? q.y1 : bottom;
      slope[k] = q.dxdy;
      lead[k] = q.x0 - q.y0 * q.dxdy;
    }
    for (ptrdiff_t k = count; k < count + 4; k++) {
      low[k] = __builtin_inff();
      high[k] = -__builtin_inff();
      slope[k] = 0.0f;
      lead[k] = 0.0f;
    }
    for (ptrdiff_t i = 0; i + 1 < count; i++) {
      const __m128 p_low = _mm_set1_ps(low[i]), p_high = _mm_set1_ps(high[i]);
      const __m128 p_slope = _mm_set1_ps(pieces[i].dxdy);
      const __m128 p_x0 = _mm_set1_ps(pieces[i].x0);
      const __m128 p_trail = _mm_set1_ps(pieces[i].y0 * pieces[i].dxdy);
      for (ptrdiff_t j = i + 1; j < count; j += 4) {
        const __m128 lo = _mm_max_ps(p_low, _mm_loadu_ps(low + j));
        const __m128 hi = _mm_min_ps(p_high, _mm_loadu_ps(high + j));
        const __m128 q_slope = _mm_loadu_ps(slope + j);
        const __m128 open = _mm_and_ps(_mm_cmplt_ps(lo, hi), _mm_cmpneq_ps(p_slope, q_slope));
        if (_mm_movemask_ps(open) == 0) continue;
        const __m128 y = _mm_div_ps(
            _mm_add_ps(_mm_sub_ps(_mm_loadu_ps(lead + j), p_x0), p_trail),
            _mm_sub_ps(p_slope, q_slope));
        const __m128 inside =
            _mm_and_ps(open, _mm_and_ps(_mm_cmpgt_ps(y, lo), _mm_cmplt_ps(y, hi)));
        int mask = _mm_movemask_ps(inside);
        if (mask == 0) continue;
        float ys[4];
        _mm_storeu_ps(ys, y);
        while (mask != 0) {
          out[found++] = ys[__builtin_ctz((unsigned)mask)];
          mask &= mask - 1;
        }
      }
    }
    return found;
  }
#endif
  for (ptrdiff_t i = 0; i < count; i++) {
    for (ptrdiff_t j = i + 1; j < count; j++) {
      float y;
      if (row_crossing(pieces[i], pieces[j], top, bottom, &y)) out[found++] = y;
    }
  }
  return found;
}

#if defined(__x86_64__)
#include <immintrin.h>

/// Whether the edge is steeper than 1 : 2 from horizontal: its pieces then run through at most
/// three pixels, but for rounding.
static inline int e_is_steep(const csk_edge *e) { return e->dxdy < 2.0f && e->dxdy > -2.0f; }

/// deposit_piece for pieces `0 ..< count`, piece l in the row of cells from `cells + l * stride`.
/// Out of line: it is rarely needed, and the vector loops keep more in registers without it.
__attribute__((noinline)) static void deposit_pieces(
    const float *x, const float *x_next, const float *d, int count, float *cells,
    ptrdiff_t stride) {
  for (int l = 0; l < count; l++) deposit_piece(x[l], x_next[l], d[l], cells + l * stride);
}

// MARK: - Four rows at a time (SSE2)

/// `mask ? a : b` lane by lane.
static inline __m128 select_ps(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/// Adds `values` to the four cells from `p`.
static inline void add_four(float *p, __m128 values) {
  _mm_storeu_ps(p, _mm_add_ps(_mm_loadu_ps(p), values));
}

/// Four pieces, lane l in the row of cells from `cells + l * stride`: deposit_piece for each.
/// Where all four run through at most three pixels, the areas of its three cases are chosen by
/// masks rather than branches (the widths of a line's pieces alternate unpredictably) and each
/// piece adds four cells from ⌊min⌋ at once; cells a piece does not reach get 0, which leaves
/// them as they are. Rows are stride ≥ 3 cells apart, and their adds go one after the other, so
/// that the 0s of one may fall on the next row's cells.
static inline void deposit_four(
    __m128 x, __m128 x_next, __m128 d, float *cells, ptrdiff_t stride, __m128i row_offsets) {
  const __m128 ones = _mm_set1_ps(1.0f);
  const __m128 halves = _mm_set1_ps(0.5f);
  // minps gives its first operand where it is the lower, maxps where it is the higher: these
  // are `x < xNext ? x : xNext` and `x < xNext ? xNext : x` exactly.
  __m128 xa = _mm_min_ps(x, x_next);
  __m128 xb = _mm_max_ps(x_next, x);
  __m128i ia = _mm_cvttps_epi32(xa);  // xa ≥ 0: truncation is floor
  __m128 ia_float = _mm_cvtepi32_ps(ia);
  __m128 ia3 = _mm_add_ps(ia_float, _mm_set1_ps(3.0f));
  if (_mm_movemask_ps(_mm_cmplt_ps(ia3, xb)) != 0) {
    float xs[4], nexts[4], ds[4];
    _mm_storeu_ps(xs, x);
    _mm_storeu_ps(nexts, x_next);
    _mm_storeu_ps(ds, d);
    deposit_pieces(xs, nexts, ds, 4, cells, stride);
    return;
  }
  __m128 one = _mm_cmple_ps(xb, _mm_add_ps(ia_float, ones));
  __m128 two = _mm_cmple_ps(xb, _mm_add_ps(ia_float, _mm_set1_ps(2.0f)));
  // One pixel.
  __m128 d_mid = _mm_mul_ps(d, _mm_sub_ps(_mm_mul_ps(halves, _mm_add_ps(x, x_next)), ia_float));
  // Two, or three (depositWidePiece, whose before_last is second + 0 · s); ⌈xb⌉ is ia + 2 or
  // ia + 3 (whole numbers: the subtraction is exact).
  __m128 s = _mm_div_ps(ones, _mm_sub_ps(xb, xa));
  __m128 xa_fraction = _mm_sub_ps(xa, ia_float);
  __m128 half_s = _mm_mul_ps(halves, s);
  __m128 left = _mm_sub_ps(ones, xa_fraction);
  __m128 first = _mm_mul_ps(_mm_mul_ps(half_s, left), left);
  __m128 xb_fraction = _mm_add_ps(_mm_sub_ps(xb, _mm_sub_ps(ia3, _mm_and_ps(two, ones))), ones);
  __m128 last = _mm_mul_ps(_mm_mul_ps(half_s, xb_fraction), xb_fraction);
  __m128 second = _mm_mul_ps(s, _mm_sub_ps(_mm_set1_ps(1.5f), xa_fraction));
  __m128 d_last = _mm_mul_ps(d, last);
  // d · a choice is the choice of the d · ….
  __m128 c0 = select_ps(one, _mm_sub_ps(d, d_mid), _mm_mul_ps(d, first));
  __m128 c1 = select_ps(
      one, d_mid,
      _mm_mul_ps(
          d, select_ps(two, _mm_sub_ps(_mm_sub_ps(ones, first), last), _mm_sub_ps(second, first))));
  __m128 c2 = _mm_andnot_ps(
      one, _mm_mul_ps(d, select_ps(two, last, _mm_sub_ps(_mm_sub_ps(ones, second), last))));
  __m128 c3 = _mm_andnot_ps(two, d_last);
  _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
  int32_t at[4];
  _mm_storeu_si128((__m128i *)at, _mm_add_epi32(ia, row_offsets));
  add_four(cells + at[0], c0);
  add_four(cells + at[1], c1);
  add_four(cells + at[2], c2);
  add_four(cells + at[3], c3);
}

/// deposit_piece for a piece of an edge at most 1 : 2 from horizontal: through three pixels
/// or more but for an edge's first and last rows. Up to sixteen cells (⌈max⌉ − ⌊min⌋ ≤ 15)
/// take the areas of depositWidePiece (the same values) by masks, without a loop whose length
/// changes from row to row; cells past ⌈max⌉ get 0. There must be 13 cells after a row's last.
static inline void deposit_flat_piece(float x, float x_next, float d, float *cells) {
  float xa = x < x_next ? x : x_next;
  float xb = x < x_next ? x_next : x;
  ptrdiff_t ia = floor_nonnegative(xa);
  float ia_float = (float)ia;
  ptrdiff_t ib = ceil_nonnegative(xb);
  ptrdiff_t m = ib - ia;
  if (xb <= ia_float + 2.0f || m > 15) {
    deposit_piece(x, x_next, d, cells);
    return;
  }
  float s = 1.0f / (xb - xa);
  float xa_fraction = xa - ia_float;
  float first = 0.5f * s * (1.0f - xa_fraction) * (1.0f - xa_fraction);
  float xb_fraction = xb - (float)ib + 1.0f;
  float last = 0.5f * s * xb_fraction * xb_fraction;
  float second = s * (1.5f - xa_fraction);
  float before_last = second + (float)(m - 3) * s;
  // Cell ia + j: d·first (j = 0), d·(second − first) (1), the step (2 ..< m − 1),
  // d·(1 − before_last − last) (m − 1), d·last (m), 0 after.
  const __m128 step = _mm_set1_ps(d * s);
  const __m128 next_to_last = _mm_set1_ps(d * (1.0f - before_last - last));
  const __m128 at_last = _mm_set1_ps(d * last);
  const __m128 m_lanes = _mm_set1_ps((float)m);
  const __m128 m1_lanes = _mm_set1_ps((float)(m - 1));
  float *p = cells + ia;
  for (int quad = 0; quad < 4; quad++) {
    __m128 j = _mm_add_ps(_mm_set1_ps((float)(4 * quad)), _mm_set_ps(3.0f, 2.0f, 1.0f, 0.0f));
    __m128 v = select_ps(_mm_cmpeq_ps(j, m1_lanes), next_to_last, step);
    v = select_ps(_mm_cmpeq_ps(j, m_lanes), at_last, v);
    v = _mm_and_ps(_mm_cmple_ps(j, m_lanes), v);
    if (quad == 0) {
      v = _mm_shuffle_ps(
          _mm_unpacklo_ps(_mm_set_ss(d * first), _mm_set_ss(d * (second - first))), v,
          _MM_SHUFFLE(3, 2, 1, 0));
    }
    add_four(p + 4 * quad, v);
  }
}

/// One edge at most 1 : 2 from horizontal, piece by piece.
static inline void deposit_edge_flat(
    const csk_edge *e, const edge_rows *r, float *cells, ptrdiff_t stride) {
  float upper_x = r->first_x;
  float upper_y = r->top;
  float boundary = r->row_top;
  for (ptrdiff_t k = 1; k < r->rows; k++) {
    boundary += 1.0f;
    float x = clamp(e->x0 + (boundary - e->y0) * e->dxdy, r->low_x, r->high_x);
    deposit_flat_piece(upper_x, x, (boundary - upper_y) * e->direction, cells);
    upper_x = x;
    upper_y = boundary;
    cells += stride;
  }
  deposit_flat_piece(upper_x, r->last_x, (r->bottom - upper_y) * e->direction, cells);
}

/// An edge's values for the crossings, in every lane.
typedef struct {
  __m128 x0, y0, dxdy, low_x, high_x, row_top, rows, last_x, bottom;
} edge_lanes;

static inline edge_lanes lanes_of(const csk_edge *e, const edge_rows *r) {
  edge_lanes l = {
      _mm_set1_ps(e->x0), _mm_set1_ps(e->y0), _mm_set1_ps(e->dxdy), _mm_set1_ps(r->low_x),
      _mm_set1_ps(r->high_x), _mm_set1_ps(r->row_top), _mm_set1_ps((float)r->rows),
      _mm_set1_ps(r->last_x), _mm_set1_ps(r->bottom)};
  return l;
}

/// The crossings `k0 ..< k0 + 4` of an edge with its rows' boundaries: x in `*x`, y in `*y`.
/// Crossing 0 is the first (top), `rows` and later the last (bottom); between them, at the
/// boundaries row_top + k (whole numbers below 2^24, which CoverageAccumulator reaches by adding
/// 1 at a time).
static inline void crossings(
    const edge_lanes *l, const edge_rows *r, ptrdiff_t k0, __m128 *x, __m128 *y) {
  __m128 k = _mm_add_ps(_mm_set1_ps((float)k0), _mm_set_ps(3.0f, 2.0f, 1.0f, 0.0f));
  __m128 ys = _mm_add_ps(l->row_top, k);
  __m128 xs = _mm_add_ps(l->x0, _mm_mul_ps(_mm_sub_ps(ys, l->y0), l->dxdy));
  // clamp: minps(v, high) is `v < high ? v : high`, maxps(below, low) `below > low ? below : low`.
  xs = _mm_max_ps(_mm_min_ps(xs, l->high_x), l->low_x);
  if (k0 + 4 > r->rows) {
    __m128 past = _mm_cmpge_ps(k, l->rows);
    xs = select_ps(past, l->last_x, xs);
    ys = select_ps(past, l->bottom, ys);
  }
  if (k0 == 0) {
    xs = _mm_move_ss(xs, _mm_set_ss(r->first_x));
    ys = _mm_move_ss(ys, _mm_set_ss(r->top));
  }
  *x = xs;
  *y = ys;
}

/// The lanes 1, 2, 3 of `a` and lane 0 of `b`.
static inline __m128 shifted(__m128 a, __m128 b) {
  __m128 t = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 3, 3));  // a3 a3 b0 b0
  return _mm_shuffle_ps(a, t, _MM_SHUFFLE(2, 0, 2, 1));      // a1 a2 a3 b0
}

/// One edge, four rows at a time; rows past its last get pieces of height 0 (adding 0), so up
/// to three rows past the band are written.
static inline void deposit_edge_by_fours(
    const csk_edge *e, const edge_rows *r, float *cells, ptrdiff_t stride, __m128i row_offsets) {
  const edge_lanes l = lanes_of(e, r);
  const __m128 direction = _mm_set1_ps(e->direction);
  __m128 upper_x, upper_y;
  crossings(&l, r, 0, &upper_x, &upper_y);
  for (ptrdiff_t k = 0; k < r->rows; k += 4) {
    // Past the last group only the last crossing is needed.
    __m128 next_x = l.last_x;
    __m128 next_y = l.bottom;
    if (k + 4 < r->rows) crossings(&l, r, k + 4, &next_x, &next_y);
    __m128 lower_x = shifted(upper_x, next_x);
    __m128 lower_y = shifted(upper_y, next_y);
    deposit_four(
        upper_x, lower_x, _mm_mul_ps(_mm_sub_ps(lower_y, upper_y), direction), cells, stride,
        row_offsets);
    upper_x = next_x;
    upper_y = next_y;
    cells += 4 * stride;
  }
}

void csk_deposit_band_sse2(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end) {
  // The rows' first cells from a group's first (stride < 2^28: the region is < 2^22 wide).
  const __m128i row_offsets =
      _mm_set_epi32((int32_t)(3 * stride), (int32_t)(2 * stride), (int32_t)stride, 0);
  for (ptrdiff_t i = 0; i < count; i++) {
    edge_rows r;
    if (!rows_of(&edges[i], row_start, row_end, &r)) continue;
    float *first = cells + (r.first_row - row_start) * stride;
    // Edges at most 1 : 2 from horizontal, whose pieces may run through four pixels or more,
    // go piece by piece.
    if (e_is_steep(&edges[i])) {
      deposit_edge_by_fours(&edges[i], &r, first, stride, row_offsets);
    } else {
      deposit_edge_flat(&edges[i], &r, first, stride);
    }
  }
}

// MARK: - Eight rows at a time (AVX)

#define AVX __attribute__((target("avx")))

static inline AVX void add_four_avx(float *p, __m128 values) {
  _mm_storeu_ps(p, _mm_add_ps(_mm_loadu_ps(p), values));
}

/// deposit_four for eight pieces, lane l in the row of cells from `cells + l * stride`; the
/// same expressions (selects by blends).
static inline AVX void deposit_eight(
    __m256 x, __m256 x_next, __m256 d, float *cells, ptrdiff_t stride, __m128i low_offsets,
    __m128i high_offsets) {
  const __m256 ones = _mm256_set1_ps(1.0f);
  const __m256 halves = _mm256_set1_ps(0.5f);
  // vminps / vmaxps as minps / maxps: `x < xNext ? x : xNext` and `x < xNext ? xNext : x`.
  __m256 xa = _mm256_min_ps(x, x_next);
  __m256 xb = _mm256_max_ps(x_next, x);
  __m256i ia = _mm256_cvttps_epi32(xa);
  __m256 ia_float = _mm256_cvtepi32_ps(ia);
  __m256 ia3 = _mm256_add_ps(ia_float, _mm256_set1_ps(3.0f));
  if (_mm256_movemask_ps(_mm256_cmp_ps(ia3, xb, _CMP_LT_OQ)) != 0) {
    float xs[8], nexts[8], ds[8];
    _mm256_storeu_ps(xs, x);
    _mm256_storeu_ps(nexts, x_next);
    _mm256_storeu_ps(ds, d);
    deposit_pieces(xs, nexts, ds, 8, cells, stride);
    return;
  }
  __m256 one = _mm256_cmp_ps(xb, _mm256_add_ps(ia_float, ones), _CMP_LE_OQ);
  __m256 two = _mm256_cmp_ps(xb, _mm256_add_ps(ia_float, _mm256_set1_ps(2.0f)), _CMP_LE_OQ);
  __m256 d_mid = _mm256_mul_ps(
      d, _mm256_sub_ps(_mm256_mul_ps(halves, _mm256_add_ps(x, x_next)), ia_float));
  __m256 s = _mm256_div_ps(ones, _mm256_sub_ps(xb, xa));
  __m256 xa_fraction = _mm256_sub_ps(xa, ia_float);
  __m256 half_s = _mm256_mul_ps(halves, s);
  __m256 left = _mm256_sub_ps(ones, xa_fraction);
  __m256 first = _mm256_mul_ps(_mm256_mul_ps(half_s, left), left);
  __m256 xb_fraction =
      _mm256_add_ps(_mm256_sub_ps(xb, _mm256_sub_ps(ia3, _mm256_and_ps(two, ones))), ones);
  __m256 last = _mm256_mul_ps(_mm256_mul_ps(half_s, xb_fraction), xb_fraction);
  __m256 second = _mm256_mul_ps(s, _mm256_sub_ps(_mm256_set1_ps(1.5f), xa_fraction));
  __m256 d_last = _mm256_mul_ps(d, last);
  // blendv(b, a, mask) is `mask ? a : b`.
  __m256 c0 = _mm256_blendv_ps(_mm256_mul_ps(d, first), _mm256_sub_ps(d, d_mid), one);
  __m256 c1 = _mm256_blendv_ps(
      _mm256_mul_ps(
          d, _mm256_blendv_ps(
                 _mm256_sub_ps(second, first),
                 _mm256_sub_ps(_mm256_sub_ps(ones, first), last), two)),
      d_mid, one);
  __m256 c2 = _mm256_andnot_ps(
      one, _mm256_mul_ps(
               d, _mm256_blendv_ps(
                      _mm256_sub_ps(_mm256_sub_ps(ones, second), last), last, two)));
  __m256 c3 = _mm256_andnot_ps(two, d_last);
  // Transposed in each half: piece l's four cells in the low half of q[l], piece l + 4's in the
  // high half.
  __m256 t0 = _mm256_unpacklo_ps(c0, c1);
  __m256 t1 = _mm256_unpackhi_ps(c0, c1);
  __m256 t2 = _mm256_unpacklo_ps(c2, c3);
  __m256 t3 = _mm256_unpackhi_ps(c2, c3);
  __m256 q0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 q1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 q2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 q3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  int32_t at[8];
  _mm_storeu_si128((__m128i *)at, _mm_add_epi32(_mm256_castsi256_si128(ia), low_offsets));
  _mm_storeu_si128(
      (__m128i *)(at + 4), _mm_add_epi32(_mm256_extractf128_si256(ia, 1), high_offsets));
  add_four_avx(cells + at[0], _mm256_castps256_ps128(q0));
  add_four_avx(cells + at[1], _mm256_castps256_ps128(q1));
  add_four_avx(cells + at[2], _mm256_castps256_ps128(q2));
  add_four_avx(cells + at[3], _mm256_castps256_ps128(q3));
  add_four_avx(cells + at[4], _mm256_extractf128_ps(q0, 1));
  add_four_avx(cells + at[5], _mm256_extractf128_ps(q1, 1));
  add_four_avx(cells + at[6], _mm256_extractf128_ps(q2, 1));
  add_four_avx(cells + at[7], _mm256_extractf128_ps(q3, 1));
}

/// crossings for eight.
static inline AVX void crossings_avx(
    const csk_edge *e, const edge_rows *r, ptrdiff_t k0, __m256 *x, __m256 *y) {
  __m256 k = _mm256_add_ps(
      _mm256_set1_ps((float)k0), _mm256_set_ps(7.0f, 6.0f, 5.0f, 4.0f, 3.0f, 2.0f, 1.0f, 0.0f));
  __m256 ys = _mm256_add_ps(_mm256_set1_ps(r->row_top), k);
  __m256 xs = _mm256_add_ps(
      _mm256_set1_ps(e->x0),
      _mm256_mul_ps(_mm256_sub_ps(ys, _mm256_set1_ps(e->y0)), _mm256_set1_ps(e->dxdy)));
  xs = _mm256_max_ps(_mm256_min_ps(xs, _mm256_set1_ps(r->high_x)), _mm256_set1_ps(r->low_x));
  if (k0 + 8 > r->rows) {
    __m256 past = _mm256_cmp_ps(k, _mm256_set1_ps((float)r->rows), _CMP_GE_OQ);
    xs = _mm256_blendv_ps(xs, _mm256_set1_ps(r->last_x), past);
    ys = _mm256_blendv_ps(ys, _mm256_set1_ps(r->bottom), past);
  }
  if (k0 == 0) {
    xs = _mm256_blend_ps(xs, _mm256_set1_ps(r->first_x), 1);
    ys = _mm256_blend_ps(ys, _mm256_set1_ps(r->top), 1);
  }
  *x = xs;
  *y = ys;
}

/// The lanes 1 ... 7 of `a` and lane 0 of `b`.
static inline AVX __m256 shifted_avx(__m256 a, __m256 b) {
  __m256 t = _mm256_permute2f128_ps(a, b, 0x21);              // a4 … a7 b0 … b3
  __m256 u = _mm256_shuffle_ps(a, t, _MM_SHUFFLE(0, 0, 3, 3));  // per half: a3 a3 t0 t0
  return _mm256_shuffle_ps(a, u, _MM_SHUFFLE(2, 0, 2, 1));      // per half: a1 a2 a3 t0
}

static inline AVX void deposit_edge_by_eights(
    const csk_edge *e, const edge_rows *r, float *cells, ptrdiff_t stride, __m128i low_offsets,
    __m128i high_offsets) {
  const __m256 direction = _mm256_set1_ps(e->direction);
  __m256 upper_x, upper_y;
  crossings_avx(e, r, 0, &upper_x, &upper_y);
  for (ptrdiff_t k = 0; k < r->rows; k += 8) {
    // Past the last group only the last crossing is needed.
    __m256 next_x = _mm256_set1_ps(r->last_x);
    __m256 next_y = _mm256_set1_ps(r->bottom);
    if (k + 8 < r->rows) crossings_avx(e, r, k + 8, &next_x, &next_y);
    __m256 lower_x = shifted_avx(upper_x, next_x);
    __m256 lower_y = shifted_avx(upper_y, next_y);
    deposit_eight(
        upper_x, lower_x, _mm256_mul_ps(_mm256_sub_ps(lower_y, upper_y), direction), cells,
        stride, low_offsets, high_offsets);
    upper_x = next_x;
    upper_y = next_y;
    cells += 8 * stride;
  }
}

/// deposit_flat_piece for eight pieces, lane l in the row of cells from `cells + l * stride`
/// (the first `count` lanes): their values computed together, then each piece's sixteen cells
/// added with two vectors of eight.
static inline AVX void deposit_flat_eight(
    __m256 x, __m256 x_next, __m256 d, float *cells, ptrdiff_t stride, ptrdiff_t count) {
  const __m256 ones = _mm256_set1_ps(1.0f);
  __m256 xa = _mm256_min_ps(x, x_next);
  __m256 xb = _mm256_max_ps(x_next, x);
  __m256i ia = _mm256_cvttps_epi32(xa);
  __m256 ia_float = _mm256_cvtepi32_ps(ia);
  __m256 below = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(xb));
  // ⌈xb⌉ as ceil_nonnegative: one up where truncation went down.
  __m256 ib_float = _mm256_add_ps(below, _mm256_and_ps(_mm256_cmp_ps(below, xb, _CMP_LT_OQ), ones));
  __m256 m = _mm256_sub_ps(ib_float, ia_float);
  int plain = _mm256_movemask_ps(_mm256_or_ps(
      _mm256_cmp_ps(xb, _mm256_add_ps(ia_float, _mm256_set1_ps(2.0f)), _CMP_LE_OQ),
      _mm256_cmp_ps(m, _mm256_set1_ps(15.0f), _CMP_GT_OQ)));
  __m256 s = _mm256_div_ps(ones, _mm256_sub_ps(xb, xa));
  __m256 xa_fraction = _mm256_sub_ps(xa, ia_float);
  __m256 half_s = _mm256_mul_ps(_mm256_set1_ps(0.5f), s);
  __m256 left = _mm256_sub_ps(ones, xa_fraction);
  __m256 first = _mm256_mul_ps(_mm256_mul_ps(half_s, left), left);
  __m256 xb_fraction = _mm256_add_ps(_mm256_sub_ps(xb, ib_float), ones);
  __m256 last = _mm256_mul_ps(_mm256_mul_ps(half_s, xb_fraction), xb_fraction);
  __m256 second = _mm256_mul_ps(s, _mm256_sub_ps(_mm256_set1_ps(1.5f), xa_fraction));
  __m256 before_last =
      _mm256_add_ps(second, _mm256_mul_ps(_mm256_sub_ps(m, _mm256_set1_ps(3.0f)), s));
  // Cell ia + j: d·first (j = 0), d·(second − first) (1), the step (2 ..< m − 1),
  // d·(1 − before_last − last) (m − 1), d·last (m), 0 after.
  float steps[8], next_to_lasts[8], lasts[8], firsts[8], seconds[8], ms[8];
  int32_t at[8];
  _mm256_storeu_ps(steps, _mm256_mul_ps(d, s));
  _mm256_storeu_ps(
      next_to_lasts, _mm256_mul_ps(d, _mm256_sub_ps(_mm256_sub_ps(ones, before_last), last)));
  _mm256_storeu_ps(lasts, _mm256_mul_ps(d, last));
  _mm256_storeu_ps(firsts, _mm256_mul_ps(d, first));
  _mm256_storeu_ps(seconds, _mm256_mul_ps(d, _mm256_sub_ps(second, first)));
  _mm256_storeu_ps(ms, m);
  _mm256_storeu_si256((__m256i *)at, ia);
  const __m256 j0 = _mm256_set_ps(7.0f, 6.0f, 5.0f, 4.0f, 3.0f, 2.0f, 1.0f, 0.0f);
  const __m256 j1 = _mm256_add_ps(j0, _mm256_set1_ps(8.0f));
  for (ptrdiff_t l = 0; l < count; l++) {
    float *row = cells + l * stride;
    if ((plain >> l) & 1) {
      float xs[8], nexts[8], ds[8];
      _mm256_storeu_ps(xs, x);
      _mm256_storeu_ps(nexts, x_next);
      _mm256_storeu_ps(ds, d);
      deposit_piece(xs[l], nexts[l], ds[l], row);
      continue;
    }
    const __m256 step = _mm256_broadcast_ss(&steps[l]);
    const __m256 next_to_last = _mm256_broadcast_ss(&next_to_lasts[l]);
    const __m256 at_last = _mm256_broadcast_ss(&lasts[l]);
    const __m256 m_lanes = _mm256_broadcast_ss(&ms[l]);
    const __m256 m1_lanes = _mm256_sub_ps(m_lanes, ones);
    __m256 low = _mm256_blendv_ps(step, next_to_last, _mm256_cmp_ps(j0, m1_lanes, _CMP_EQ_OQ));
    low = _mm256_blendv_ps(low, at_last, _mm256_cmp_ps(j0, m_lanes, _CMP_EQ_OQ));
    low = _mm256_and_ps(_mm256_cmp_ps(j0, m_lanes, _CMP_LE_OQ), low);
    low = _mm256_blend_ps(low, _mm256_broadcast_ss(&seconds[l]), 2);
    low = _mm256_blend_ps(low, _mm256_broadcast_ss(&firsts[l]), 1);
    __m256 high = _mm256_blendv_ps(step, next_to_last, _mm256_cmp_ps(j1, m1_lanes, _CMP_EQ_OQ));
    high = _mm256_blendv_ps(high, at_last, _mm256_cmp_ps(j1, m_lanes, _CMP_EQ_OQ));
    high = _mm256_and_ps(_mm256_cmp_ps(j1, m_lanes, _CMP_LE_OQ), high);
    float *p = row + at[l];
    _mm256_storeu_ps(p, _mm256_add_ps(_mm256_loadu_ps(p), low));
    _mm256_storeu_ps(p + 8, _mm256_add_ps(_mm256_loadu_ps(p + 8), high));
  }
}

/// deposit_edge_flat eight rows at a time (crossings as for the steep edges).
static inline AVX void deposit_edge_flat_by_eights(
    const csk_edge *e, const edge_rows *r, float *cells, ptrdiff_t stride) {
  const __m256 direction = _mm256_set1_ps(e->direction);
  __m256 upper_x, upper_y;
  crossings_avx(e, r, 0, &upper_x, &upper_y);
  for (ptrdiff_t k = 0; k < r->rows; k += 8) {
    __m256 next_x = _mm256_set1_ps(r->last_x);
    __m256 next_y = _mm256_set1_ps(r->bottom);
    if (k + 8 < r->rows) crossings_avx(e, r, k + 8, &next_x, &next_y);
    __m256 lower_x = shifted_avx(upper_x, next_x);
    __m256 lower_y = shifted_avx(upper_y, next_y);
    ptrdiff_t count = r->rows - k < 8 ? r->rows - k : 8;
    deposit_flat_eight(
        upper_x, lower_x, _mm256_mul_ps(_mm256_sub_ps(lower_y, upper_y), direction), cells,
        stride, count);
    upper_x = next_x;
    upper_y = next_y;
    cells += 8 * stride;
  }
}

AVX void csk_deposit_band_avx(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end) {
  const int32_t s = (int32_t)stride;
  const __m128i low_offsets = _mm_set_epi32(3 * s, 2 * s, s, 0);
  const __m128i high_offsets = _mm_set_epi32(7 * s, 6 * s, 5 * s, 4 * s);
  for (ptrdiff_t i = 0; i < count; i++) {
    edge_rows r;
    if (!rows_of(&edges[i], row_start, row_end, &r)) continue;
    float *first = cells + (r.first_row - row_start) * stride;
    if (e_is_steep(&edges[i])) {
      deposit_edge_by_eights(&edges[i], &r, first, stride, low_offsets, high_offsets);
    } else {
      deposit_edge_flat_by_eights(&edges[i], &r, first, stride);
    }
  }
}

int csk_has_avx(void) { return __builtin_cpu_supports("avx"); }
#endif

void csk_deposit_band(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end) {
#if defined(__x86_64__)
  if (csk_has_avx()) {
    csk_deposit_band_avx(cells, stride, edges, count, row_start, row_end);
  } else {
    csk_deposit_band_sse2(cells, stride, edges, count, row_start, row_end);
  }
#else
  csk_deposit_band_plainly(cells, stride, edges, count, row_start, row_end);
#endif
}

void csk_deposit_band_plainly(
    float *cells, ptrdiff_t stride, const csk_edge *edges, ptrdiff_t count, int32_t row_start,
    int32_t row_end) {
  for (ptrdiff_t i = 0; i < count; i++) {
    edge_rows r;
    if (!rows_of(&edges[i], row_start, row_end, &r)) continue;
    deposit_edge_plainly(&edges[i], &r, cells + (r.first_row - row_start) * stride, stride);
  }
}

// MARK: - The sweep into a solid colour (CoverageAccumulator.sweepRows with SolidColorRow)

/// Raster's `Kernels.scale`: each channel of `pixel` times `k` over 255, rounded to nearest, in
/// 16-bit lanes of one 64-bit word.
static inline uint32_t scale_pixel(uint32_t pixel, uint32_t k) {
  const uint64_t lanes = 0x00FF00FF00FF00FFull;
  const uint64_t wide = pixel;
  uint64_t t = ((wide | wide << 24) & lanes) * (uint64_t)k + 0x0080008000800080ull;
  t = ((t + ((t >> 8) & lanes)) >> 8) & lanes;
  return (uint32_t)(t | t >> 24);
}

/// Raster's `CoverageAccumulator.coverage` for the nonzero rule: |sum| at most 1, times 255,
/// rounded by adding 2^23 and keeping the low byte of the bits.
static inline uint32_t coverage_nonzero(float sum) {
  union {
    float f;
    uint32_t u;
  } a = {.f = sum};
  a.u &= 0x7FFFFFFFu;
  if (a.f > 1.0f) a.f = 1.0f;
  a.f = a.f * 255.0f + 8388608.0f;
  return a.u & 0xFFu;
}

/// Raster's `SolidColorRow.span` (`Kernels.sourceOver`): `count` pixels at one coverage. An
/// opaque source is stored as `Kernels.fill` stores it (1 to 3 pixels with three stores, 32 or
/// more by wmemset, the rest 16 bytes at a time, the last store ending at the last pixel); a
/// translucent one is blended
/// four pixels at a time in SSE2 (`Kernels.scale`'s rounding in 16-bit lanes).
static inline void blend_span(
    uint32_t *pixels, ptrdiff_t count, uint32_t coverage, const uint32_t *scaled) {
  const uint32_t src = scaled[coverage];
  const uint32_t alpha = src >> 24;
  if (alpha == 255u) {
    if (count < 4) {
      pixels[0] = src;
      pixels[count >> 1] = src;
      pixels[count - 1] = src;
      return;
    }
#if defined(__x86_64__)
    // Long spans (the inside of a large fill) by the C library's wmemset: glibc chooses its
    // stores for the processor at run time (32 bytes a store with AVX2), which halves the
    // stores of the loop below. wchar_t is 32 bits here (checked at compile time).
    if (count >= 32) {
      wmemset((wchar_t *)pixels, (wchar_t)src, (size_t)count);
      return;
    }
    const __m128i quad = _mm_set1_epi32((int)src);
    ptrdiff_t i = 0;
    for (; i + 32 <= count; i += 32) {
      for (int j = 0; j < 32; j += 4) _mm_storeu_si128((__m128i *)(pixels + i + j), quad);
    }
    for (; i + 8 <= count; i += 8) {
      _mm_storeu_si128((__m128i *)(pixels + i), quad);
      _mm_storeu_si128((__m128i *)(pixels + i + 4), quad);
    }
    if (i + 4 <= count) _mm_storeu_si128((__m128i *)(pixels + i), quad);
    _mm_storeu_si128((__m128i *)(pixels + count - 4), quad);
#else
    for (ptrdiff_t i = 0; i < count; i++) pixels[i] = src;
#endif
    return;
  }
  if (src == 0) return;
  const uint32_t inverse = 255u - alpha;
  ptrdiff_t i = 0;
#if defined(__x86_64__)
  const __m128i source = _mm_set1_epi32((int)src), k = _mm_set1_epi16((short)inverse);
  const __m128i zero = _mm_setzero_si128(), bias = _mm_set1_epi16(0x80);
  for (; i + 4 <= count; i += 4) {
    const __m128i dst = _mm_loadu_si128((const __m128i *)(pixels + i));
    __m128i lo = _mm_mullo_epi16(_mm_unpacklo_epi8(dst, zero), k);
    __m128i hi = _mm_mullo_epi16(_mm_unpackhi_epi8(dst, zero), k);
    lo = _mm_add_epi16(lo, bias);
    hi = _mm_add_epi16(hi, bias);
    lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
    hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
    _mm_storeu_si128((__m128i *)(pixels + i), _mm_add_epi32(source, _mm_packus_epi16(lo, hi)));
  }
#endif
  for (; i < count; i++) pixels[i] = src + scale_pixel(pixels[i], inverse);
}

/// The next cell of a run: added to the sum and zeroed with its owner; the colour scaled by
/// the coverage of the sum after it.
static inline uint32_t next_source(
    float *sum, float *cells, int32_t *owners, ptrdiff_t x, const uint32_t *scaled) {
  *sum += cells[x];
  cells[x] = 0.0f;
  owners[x] = 0;
  return scaled[coverage_nonzero(*sum)];
}

#if defined(__x86_64__)
/// Raster's `SolidColorRow.pixel` for the four pixels from `pixels`, whose scaled sources are
/// s0 ... s3: scale's rounding in 16-bit lanes, the sum in 32-bit lanes as Swift's `&+`. A
/// source of 0 (`scaled[0]`) leaves its pixel as it is.
static inline void blend_four(
    uint32_t *pixels, uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3) {
  const __m128i src = _mm_unpacklo_epi64(
      _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)s0), _mm_cvtsi32_si128((int)s1)),
      _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)s2), _mm_cvtsi32_si128((int)s3)));
  __m128i k = _mm_sub_epi32(_mm_set1_epi32(255), _mm_srli_epi32(src, 24));
  k = _mm_or_si128(k, _mm_slli_epi32(k, 16));
  const __m128i zero = _mm_setzero_si128(), bias = _mm_set1_epi16(0x80);
  const __m128i dst = _mm_loadu_si128((const __m128i *)pixels);
  __m128i lo = _mm_mullo_epi16(_mm_unpacklo_epi8(dst, zero), _mm_unpacklo_epi32(k, k));
  __m128i hi = _mm_mullo_epi16(_mm_unpackhi_epi8(dst, zero), _mm_unpackhi_epi32(k, k));
  lo = _mm_add_epi16(lo, bias);
  hi = _mm_add_epi16(hi, bias);
  lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
  hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
  _mm_storeu_si128((__m128i *)pixels, _mm_add_epi32(src, _mm_packus_epi16(lo, hi)));
}
#endif

/// One row: CoverageAccumulator.sweepRow by its steps.
static inline void sweep_solid_row(
    float *cells, int32_t *owners, uint64_t *bits, ptrdiff_t words, ptrdiff_t width,
    uint32_t *pixels, const uint32_t *scaled) {
  float sum = 0.0f;
  ptrdiff_t next = 0;  // first column not yet sent
  uint64_t *at = bits;
  for (;;) {
    while (*at == 0) at++;
#if defined(__GNUC__)
    // The word found is opaque to the compiler: otherwise it carries the run's column and the
    // row's pointers along in the scan, three more additions a word.
    __asm__("" : "+r"(at));
#endif
    const ptrdiff_t word = at - bits;
    if (word == words) break;
    uint64_t mask = *at;
    *at = 0;
    at++;
    const ptrdiff_t base = word << 6;
    do {
      const unsigned start = (unsigned)__builtin_ctzll(mask);
      // Adding the run's lowest bit carries through the run: the sum's lowest bit outside the
      // mask is the run's end (64 when the carry leaves the word).
      const uint64_t carried = mask + ((uint64_t)1 << start);
      const uint64_t beyond = carried & ~mask;
      const unsigned end = beyond ? (unsigned)__builtin_ctzll(beyond) : 64u;
      mask &= carried;
      const ptrdiff_t first = base | (ptrdiff_t)start;
      const ptrdiff_t last = base + (ptrdiff_t)end;
      const ptrdiff_t gap = (first < width ? first : width) - next;
      if (gap > 0) {
        const uint32_t c = coverage_nonzero(sum);
        if (c != 0) blend_span(pixels + next, gap, c, scaled);
      }
      const ptrdiff_t shown = last <= width ? last - 1 : width;
      ptrdiff_t x = first;
#if defined(__x86_64__)
      // Two pixels or more, four at a time while four lie in the region: the lanes past the
      // run have source 0.
      while (shown - x >= 2 && width - x >= 4) {
        const uint32_t s0 = next_source(&sum, cells, owners, x, scaled);
        const uint32_t s1 = next_source(&sum, cells, owners, x + 1, scaled);
        uint32_t s2 = 0, s3 = 0;
        ptrdiff_t n = 2;
        if (shown - x > 2) {
          s2 = next_source(&sum, cells, owners, x + 2, scaled);
          n = 3;
          if (shown - x > 3) {
            s3 = next_source(&sum, cells, owners, x + 3, scaled);
            n = 4;
          }
        }
        blend_four(pixels + x, s0, s1, s2, s3);
        x += n;
      }
#endif
      for (; x < shown; x++) {
        const uint32_t src = next_source(&sum, cells, owners, x, scaled);
        pixels[x] = src + scale_pixel(pixels[x], 255u - (src >> 24));
      }
      for (; x < last; x++) {
        sum += cells[x];
        cells[x] = 0.0f;
        owners[x] = 0;
      }
      next = shown;
    } while (mask != 0);
  }
  if (next < width) {
    const uint32_t c = coverage_nonzero(sum);
    if (c != 0) blend_span(pixels + next, width - next, c, scaled);
  }
}

void csk_sweep_solid(
    float *cells, int32_t *owners, uint64_t *bits, ptrdiff_t stride, ptrdiff_t words_per_row,
    ptrdiff_t cell_words, ptrdiff_t rows, ptrdiff_t width, uint32_t *pixels,
    ptrdiff_t row_pixels, const uint32_t *scaled) {
  for (ptrdiff_t row = 0; row < rows; row++) {
    sweep_solid_row(
        cells + row * stride, owners + row * stride, bits + row * words_per_row, cell_words, width,
        pixels + row * row_pixels, scaled);
  }
}
