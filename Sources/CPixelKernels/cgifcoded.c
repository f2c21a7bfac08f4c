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
