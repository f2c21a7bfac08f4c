#include "cpixelkernels.h"

#include <string.h>

// Each pixel: shadowed = s + scale(scale(color, c), 255 − s.a); S = scale(shadowed, opacity);
// out = S + scale(d, 255 − S.a). Without branches it equals Kernels.compositeRowPlainly's
// cases: scale by 0 gives 0 and scale by 255 leaves a value (so no shadow, an opaque source, a
// clear source and full opacity each fall out of the same arithmetic), and no sum passes 255
// for premultiplied inputs, so neither the packed adds nor the saturating pack ever carry.

/// Every channel of `pixel` times k/255 rounded to nearest (0 ≤ k ≤ 255): Kernels.scale.
static inline uint32_t scale_pixel(uint32_t pixel, uint32_t k) {
  const uint64_t lanes = 0x00FF00FF00FF00FFull;
  uint64_t wide = pixel;
  uint64_t t = ((wide | wide << 24) & lanes) * k + 0x0080008000800080ull;
  t = ((t + ((t >> 8) & lanes)) >> 8) & lanes;
  return (uint32_t)(t | t >> 24);
}

static inline uint32_t composite_pixel(
    uint32_t s, uint8_t c, uint32_t color, uint32_t d, uint32_t opacity) {
  uint32_t shadowed = s + scale_pixel(scale_pixel(color, c), 255u - (s >> 24));
  uint32_t scaled = scale_pixel(shadowed, opacity);
  return scaled + scale_pixel(d, 255u - (scaled >> 24));
}

/// A block of eight pixels from `src` that needs no arithmetic: all clear without shadow (dst
/// stays) or all opaque at full opacity (copied: no shadow shows through). Whether it was one.
static inline int block_done(
    const uint32_t *src, const uint8_t *shadow, uint32_t *dst, uint32_t opacity) {
  const uint64_t opaque_bits = 0xFF000000FF000000ull;
  uint64_t p[4], cast;
  memcpy(p, src, 32);
  memcpy(&cast, shadow, 8);
  if ((p[0] | p[1] | p[2] | p[3]) == 0 && cast == 0) return 1;
  if (opacity == 255 && (p[0] & p[1] & p[2] & p[3] & opaque_bits) == opaque_bits) {
    memcpy(dst, src, 32);
    return 1;
  }
  return 0;
}

#if defined(__SSE2__)
#include <immintrin.h>

/// v·k/255 rounded to nearest in each 16-bit lane (v, k ≤ 255): t = v·k + 128 < 2^16 and
/// (t + (t >> 8)) >> 8, as scale_pixel does in its wider lanes.
static inline __m128i scale_lanes(__m128i v, __m128i k) {
  __m128i t = _mm_add_epi16(_mm_mullo_epi16(v, k), _mm_set1_epi16(128));
  return _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
}

/// Each pixel's alpha (lanes 3 and 7) in its four lanes.
static inline __m128i alpha_lanes(__m128i v) {
  return _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xFF), 0xFF);
}

/// composite_pixel for two pixels in 16-bit lanes; `c` holds each one's coverage in its lanes.
static inline __m128i composite_lanes(
    __m128i s, __m128i c, __m128i color, __m128i d, __m128i opacity, int opaque) {
  const __m128i full = _mm_set1_epi16(255);
  __m128i shadowed =
      _mm_add_epi16(s, scale_lanes(scale_lanes(color, c), _mm_sub_epi16(full, alpha_lanes(s))));
  __m128i scaled = opaque ? shadowed : scale_lanes(shadowed, opacity);
  return _mm_add_epi16(scaled, scale_lanes(d, _mm_sub_epi16(full, alpha_lanes(scaled))));
}

/// Four pixels from `src`.
static inline void composite_four(
    const uint32_t *src, const uint8_t *shadow, __m128i color, uint32_t *dst, __m128i opacity,
    int opaque) {
  const __m128i zero = _mm_setzero_si128();
  __m128i s = _mm_loadu_si128((const __m128i *)src);
  __m128i d = _mm_loadu_si128((const __m128i *)dst);
  uint32_t four;
  memcpy(&four, shadow, 4);
  // c0 c1 c2 c3 → c0 c0 c1 c1 c2 c2 c3 c3 → each pixel's coverage in its four lanes.
  __m128i c = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)four), zero);
  c = _mm_unpacklo_epi16(c, c);
  __m128i low = composite_lanes(
      _mm_unpacklo_epi8(s, zero), _mm_unpacklo_epi32(c, c), color, _mm_unpacklo_epi8(d, zero),
      opacity, opaque);
  __m128i high = composite_lanes(
      _mm_unpackhi_epi8(s, zero), _mm_unpackhi_epi32(c, c), color, _mm_unpackhi_epi8(d, zero),
      opacity, opaque);
  _mm_storeu_si128((__m128i *)dst, _mm_packus_epi16(low, high));
}

// MARK: - Eight pixels at a time (AVX2, where the processor has it)

#define AVX2 __attribute__((target("avx2")))

/// scale_lanes in sixteen lanes.
AVX2 static inline __m256i scale_lanes8(__m256i v, __m256i k) {
  __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(v, k), _mm256_set1_epi16(128));
  return _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
}

AVX2 static inline __m256i alpha_lanes8(__m256i v) {
  return _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(v, 0xFF), 0xFF);
}

/// composite_lanes for four pixels.
AVX2 static inline __m256i composite_lanes8(
    __m256i s, __m256i c, __m256i color, __m256i d, __m256i opacity, int opaque) {
  const __m256i full = _mm256_set1_epi16(255);
  __m256i shadowed = _mm256_add_epi16(
      s, scale_lanes8(scale_lanes8(color, c), _mm256_sub_epi16(full, alpha_lanes8(s))));
  __m256i scaled = opaque ? shadowed : scale_lanes8(shadowed, opacity);
  return _mm256_add_epi16(scaled, scale_lanes8(d, _mm256_sub_epi16(full, alpha_lanes8(scaled))));
}

/// Eight pixels from `src`. Unpacking and packing work within each 128-bit half, so the low
/// unpack holds pixels 0, 1 | 4, 5 and the high one 2, 3 | 6, 7; the coverages are spread the
/// same way, and the pack puts the pixels back in order.
AVX2 static inline void composite_eight(
    const uint32_t *src, const uint8_t *shadow, uint32_t color, uint32_t *dst, uint32_t opacity) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i color_lanes = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), zero);
  __m256i opacity_lanes = _mm256_set1_epi16((short)opacity);
  __m256i s = _mm256_loadu_si256((const __m256i *)src);
  __m256i d = _mm256_loadu_si256((const __m256i *)dst);
  __m128i c = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)shadow), _mm_setzero_si128());
  __m128i first = _mm_unpacklo_epi16(c, c);  // c0 c0 c1 c1 c2 c2 c3 c3
  __m128i second = _mm_unpackhi_epi16(c, c); // c4 c4 … c7 c7
  __m256i c_low =
      _mm256_set_m128i(_mm_unpacklo_epi32(second, second), _mm_unpacklo_epi32(first, first));
  __m256i c_high =
      _mm256_set_m128i(_mm_unpackhi_epi32(second, second), _mm_unpackhi_epi32(first, first));
  int opaque = opacity == 255;
  __m256i low = composite_lanes8(
      _mm256_unpacklo_epi8(s, zero), c_low, color_lanes, _mm256_unpacklo_epi8(d, zero),
      opacity_lanes, opaque);
  __m256i high = composite_lanes8(
      _mm256_unpackhi_epi8(s, zero), c_high, color_lanes, _mm256_unpackhi_epi8(d, zero),
      opacity_lanes, opaque);
  _mm256_storeu_si256((__m256i *)dst, _mm256_packus_epi16(low, high));
}

/// cpk_composite_row's blocks with AVX2: the same block choices and the same bytes.
AVX2 static void composite_row_avx2(
    const uint32_t *src, const uint8_t *shadow, uint32_t color, uint32_t *dst, ptrdiff_t count,
    uint32_t opacity) {
  ptrdiff_t i = 0;
  for (; i + 8 <= count; i += 8) {
    if (!block_done(src + i, shadow + i, dst + i, opacity))
      composite_eight(src + i, shadow + i, color, dst + i, opacity);
  }
  for (; i < count; i++) dst[i] = composite_pixel(src[i], shadow[i], color, dst[i], opacity);
}

#endif

int cpk_has_avx2(void) {
#if defined(__SSE2__)
  return __builtin_cpu_supports("avx2");
#else
  return 0;
#endif
}

void cpk_composite_row(
    const uint32_t *src, const uint8_t *shadow, uint32_t color, uint32_t *dst, ptrdiff_t count,
    uint32_t opacity) {
#if defined(__SSE2__)
  if (cpk_has_avx2()) {
    composite_row_avx2(src, shadow, color, dst, count, opacity);
    return;
  }
#endif
  cpk_composite_row_sse2(src, shadow, color, dst, count, opacity);
}

void cpk_composite_row_sse2(
    const uint32_t *src, const uint8_t *shadow, uint32_t color, uint32_t *dst, ptrdiff_t count,
    uint32_t opacity) {
  ptrdiff_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  __m128i color_lanes = _mm_unpacklo_epi8(_mm_set1_epi32((int)color), zero);
  __m128i opacity_lanes = _mm_set1_epi16((short)opacity);
  const int full_opacity = opacity == 255;
#endif
  for (; i + 8 <= count; i += 8) {
    if (block_done(src + i, shadow + i, dst + i, opacity)) continue;
#if defined(__SSE2__)
    composite_four(src + i, shadow + i, color_lanes, dst + i, opacity_lanes, full_opacity);
    composite_four(
        src + i + 4, shadow + i + 4, color_lanes, dst + i + 4, opacity_lanes, full_opacity);
#else
    for (ptrdiff_t j = i; j < i + 8; j++)
      dst[j] = composite_pixel(src[j], shadow[j], color, dst[j], opacity);
#endif
  }
  for (; i < count; i++) dst[i] = composite_pixel(src[i], shadow[i], color, dst[i], opacity);
}
