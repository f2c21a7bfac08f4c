#include "cpixelkernels.h"

#include <string.h>

// The shadow resample's horizontal pass (Raster's `GaussianBlur.resampleRowPlainly`, its
// twin): each output byte is the low byte of the Float (1 − w)·line[t] + w·line[t + 1] + 2^23,
// the products and sums rounded one at a time as Swift rounds them (never fused: the AVX2
// path is compiled without FMA, and the plain loop computes each step in its own statement).
#pragma STDC FP_CONTRACT OFF

void cpk_resample_row_plain(
    const float *line, const int32_t *taps, const float *weights, uint8_t *out,
    ptrdiff_t count) {
  for (ptrdiff_t i = 0; i < count; i++) {
    float w = weights[i];
    float left = (1.0f - w) * line[taps[i]];
    float right = w * line[taps[i] + 1];
    float sum = left + right;
    float value = sum + 8388608.0f;
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    out[i] = (uint8_t)bits;
  }
}

#if defined(__SSE2__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/// Eight outputs a step: the taps gathered, the same operations in eight Float lanes, and each
/// lane's low byte packed in order.
AVX2 static void resample_row_avx2(
    const float *line, const int32_t *taps, const float *weights, uint8_t *out,
    ptrdiff_t count) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 magic = _mm256_set1_ps(8388608.0f);
  // Byte 0 of each 32-bit lane to bytes 0…3 of its 128-bit half; the two halves' first
  // dwords then joined.
  const __m256i low_bytes = _mm256_setr_epi8(
      0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i join = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0);
  ptrdiff_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m256i t = _mm256_loadu_si256((const __m256i *)(taps + i));
    __m256 w = _mm256_loadu_ps(weights + i);
    __m256 a = _mm256_i32gather_ps(line, t, 4);
    __m256 b = _mm256_i32gather_ps(line + 1, t, 4);
    __m256 left = _mm256_mul_ps(_mm256_sub_ps(one, w), a);
    __m256 right = _mm256_mul_ps(w, b);
    __m256 value = _mm256_add_ps(_mm256_add_ps(left, right), magic);
    __m256i bytes = _mm256_shuffle_epi8(_mm256_castps_si256(value), low_bytes);
    bytes = _mm256_permutevar8x32_epi32(bytes, join);
    _mm_storel_epi64((__m128i *)(out + i), _mm256_castsi256_si128(bytes));
  }
  cpk_resample_row_plain(line, taps + i, weights + i, out + i, count - i);
}
#endif

void cpk_resample_row(
    const float *line, const int32_t *taps, const float *weights, uint8_t *out,
    ptrdiff_t count) {
#if defined(__SSE2__)
  if (cpk_has_avx2()) {
    resample_row_avx2(line, taps, weights, out, count);
    return;
  }
#endif
  cpk_resample_row_plain(line, taps, weights, out, count);
}
