// The GIF encoder's per-pixel choice of what a frame draws (Codecs' GIFFrame.coded): the
// Swift loop is its plain twin, and the tests compare the two on random frames.
#include "cpixelkernels.h"

#include <string.h>

/// Codecs' `Quantizer.distance`: the squared distance of two 0xRRGGBB colours.
static inline int32_t distance(uint32_t a, uint32_t b) {
  const int32_t dr = (int32_t)(a >> 16 & 0xFF) - (int32_t)(b >> 16 & 0xFF);
  const int32_t dg = (int32_t)(a >> 8 & 0xFF) - (int32_t)(b >> 8 & 0xFF);
  const int32_t db = (int32_t)(a & 0xFF) - (int32_t)(b & 0xFF);
  return dr * dr + dg * dg + db * db;
}

/// Codecs' `GIFPalette.rgb`: packed RGBA (red in the low byte) as 0xRRGGBB.
static inline uint32_t rgb(uint32_t packed) {
  return (packed & 0xFF) << 16 | (packed >> 8 & 0xFF) << 8 | (packed >> 16 & 0xFF);
}

/// `PaletteLookup.index(of:)`: the first index of `color`, or `missing`.
static inline uint8_t lookup_index(cpk_palette_lookup lookup, uint32_t color, uint8_t missing) {
  if (color > 0xFFFFFFu) return missing;
  uint32_t slot = (uint32_t)(color * 0x9E3779B1u) >> 22;
  for (;;) {
    const uint32_t key = lookup.keys[slot];
    if (key == color) return lookup.values[slot];
    if (key == 0xFFFFFFFFu) return missing;
    slot = (slot + 1) & 1023;
  }
}

/// Whether the eight bytes from `p` are all `value`.
static inline int all8_bytes(const uint8_t *p, uint8_t value) {
  uint64_t word;
  memcpy(&word, p, 8);
  return word == (uint64_t)value * 0x0101010101010101ull;
}

/// Whether the eight words from `p` are all `value`.
static inline int all8_words(const uint32_t *p, uint32_t value) {
  uint32_t differ = 0;
  for (int k = 0; k < 8; k++) differ |= p[k] ^ value;
  return differ == 0;
}

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2_CODED __attribute__((target("avx2")))

/// The scalar loop's test of whether each of the eight pixels from `index_row` is drawn, in
/// 32-bit lanes: its index is a colour (not 255, below `color_count`) other than the one shown,
/// and the shown one is none (above 0xFFFFFF) or farther from its true colour by squared
/// distance — `distance` and `rgb` lane by lane. Returns the pixels drawn as bits (pixel k, bit
/// k); when all eight are, their indices go to `coded_row` and `alternate_row` and their colours
/// to `shown_row`, and otherwise nothing is written.
AVX2_CODED static unsigned draws_eight(
    const uint8_t *index_row, const uint32_t *pixel_row, uint32_t *shown_row,
    const uint32_t *colors, ptrdiff_t color_count, uint8_t *coded_row, uint8_t *alternate_row) {
  const __m128i packed = _mm_loadl_epi64((const __m128i *)index_row);
  const __m256i index = _mm256_cvtepu8_epi32(packed);
  const __m256i valid = _mm256_andnot_si256(
      _mm256_cmpeq_epi32(index, _mm256_set1_epi32(255)),
      _mm256_cmpgt_epi32(_mm256_set1_epi32((int)color_count), index));
  if (_mm256_movemask_epi8(valid) == 0) return 0;
  const __m256i zero = _mm256_setzero_si256(), byte = _mm256_set1_epi32(0xFF);
  const __m256i color = _mm256_mask_i32gather_epi32(zero, (const int *)colors, index, valid, 4);
  const __m256i now = _mm256_loadu_si256((const __m256i *)shown_row);
  const __m256i none = _mm256_cmpgt_epi32(_mm256_srli_epi32(now, 24), zero);
  const __m256i same = _mm256_cmpeq_epi32(color, now);
  const __m256i pixel = _mm256_loadu_si256((const __m256i *)pixel_row);
  const __m256i tr = _mm256_and_si256(pixel, byte);
  const __m256i tg = _mm256_and_si256(_mm256_srli_epi32(pixel, 8), byte);
  const __m256i tb = _mm256_and_si256(_mm256_srli_epi32(pixel, 16), byte);
  const __m256i cr = _mm256_sub_epi32(tr, _mm256_and_si256(_mm256_srli_epi32(color, 16), byte));
  const __m256i cg = _mm256_sub_epi32(tg, _mm256_and_si256(_mm256_srli_epi32(color, 8), byte));
  const __m256i cb = _mm256_sub_epi32(tb, _mm256_and_si256(color, byte));
  const __m256i nr = _mm256_sub_epi32(tr, _mm256_and_si256(_mm256_srli_epi32(now, 16), byte));
  const __m256i ng = _mm256_sub_epi32(tg, _mm256_and_si256(_mm256_srli_epi32(now, 8), byte));
  const __m256i nb = _mm256_sub_epi32(tb, _mm256_and_si256(now, byte));
  const __m256i to_color = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_mullo_epi32(cr, cr), _mm256_mullo_epi32(cg, cg)),
      _mm256_mullo_epi32(cb, cb));
  const __m256i to_now = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_mullo_epi32(nr, nr), _mm256_mullo_epi32(ng, ng)),
      _mm256_mullo_epi32(nb, nb));
  const __m256i nearer = _mm256_cmpgt_epi32(to_now, to_color);
  const __m256i draws =
      _mm256_and_si256(valid, _mm256_andnot_si256(same, _mm256_or_si256(none, nearer)));
  const unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(draws));
  if (mask == 0xFFu) {
    _mm_storel_epi64((__m128i *)coded_row, packed);
    _mm_storel_epi64((__m128i *)alternate_row, packed);
    _mm256_storeu_si256((__m256i *)shown_row, color);
  }
  return mask;
}
#endif

int cpk_gif_coded(
    const uint8_t *indices, const uint32_t *pixels, const uint32_t *colors,
    ptrdiff_t color_count, uint32_t *shown, cpk_gif_rect rect, cpk_palette_lookup lookup,
    uint8_t blank, uint8_t *coded, uint8_t *alternates, ptrdiff_t bounds[4]) {
  const uint8_t unchanged = 255;
  ptrdiff_t min_x = PTRDIFF_MAX, min_y = PTRDIFF_MAX, max_x = -1, max_y = -1;
  // The last shown colour looked up and its index: runs of one colour look up once.
  uint32_t last_shown = 0xFFFFFFFFu;
  uint8_t last_index = blank;
  const ptrdiff_t w = rect.width;
#if defined(__x86_64__)
  const int vectors = cpk_has_avx2();
#endif
  for (ptrdiff_t y = rect.y; y < rect.y + rect.height; y++) {
    const uint8_t *index_row = indices + (y - rect.y) * w;
    uint8_t *coded_row = coded + (y - rect.y) * w;
    uint8_t *alternate_row = alternates + (y - rect.y) * w;
    uint32_t *shown_row = shown + y * rect.frame_width + rect.x;
    const uint32_t *pixel_row = pixels + y * rect.frame_width + rect.x;
    ptrdiff_t first = -1, last = -1;
    ptrdiff_t i = 0;
    while (i < w) {
      // Eight pixels unchanged that show the colour last looked up: kept, the same alternate.
      if (i + 8 <= w && all8_bytes(index_row + i, unchanged) &&
          all8_words(shown_row + i, last_shown)) {
        memset(coded_row + i, blank, 8);
        memset(alternate_row + i, last_index, 8);
        i += 8;
        continue;
      }
#if defined(__x86_64__)
      // Eight pixels at a time in vectors: which are drawn (most of a frame's changed pixels
      // are); all eight drawn are written there, and otherwise each is as below.
      if (vectors && i + 8 <= w) {
        const unsigned mask = draws_eight(
            index_row + i, pixel_row + i, shown_row + i, colors, color_count, coded_row + i,
            alternate_row + i);
        if (mask != 0) {
          if (first < 0) first = i + __builtin_ctz(mask);
          last = i + 31 - __builtin_clz(mask);
        }
        if (mask != 0xFFu) {
          for (int k = 0; k < 8; k++, i++) {
            if (mask >> k & 1u) {
              const uint8_t index = index_row[i];
              coded_row[i] = index;
              alternate_row[i] = index;
              shown_row[i] = colors[index];
            } else {
              const uint32_t now = shown_row[i];
              if (now != last_shown) {
                last_shown = now;
                last_index = lookup_index(lookup, now, blank);
              }
              coded_row[i] = blank;
              alternate_row[i] = last_index;
            }
          }
        } else {
          i += 8;
        }
        continue;
      }
#endif
      const ptrdiff_t block = i + 8 < w ? i + 8 : w;
      for (; i < block; i++) {
        const uint8_t index = index_row[i];
        const uint32_t now = shown_row[i];
        int draws = 0;
        if (index != unchanged && index < color_count) {
          const uint32_t color = colors[index];
          if (color != now) {
            if (now <= 0xFFFFFFu) {
              const uint32_t truth = rgb(pixel_row[i]);
              draws = distance(truth, color) < distance(truth, now);
            } else {
              draws = 1;
            }
          }
        }
        if (draws) {
          coded_row[i] = index;
          alternate_row[i] = index;
          shown_row[i] = colors[index];
          if (first < 0) first = i;
          last = i;
        } else {
          if (now != last_shown) {
            last_shown = now;
            last_index = lookup_index(lookup, now, blank);
          }
          coded_row[i] = blank;
          alternate_row[i] = last_index;
        }
      }
    }
    if (first >= 0) {
      if (rect.x + first < min_x) min_x = rect.x + first;
      if (rect.x + last > max_x) max_x = rect.x + last;
      if (y < min_y) min_y = y;
      if (y > max_y) max_y = y;
    }
  }
  bounds[0] = min_x;
  bounds[1] = min_y;
  bounds[2] = max_x;
  bounds[3] = max_y;
  return max_x >= 0;
}
