// libpng for Swift: the simplified png_image API, plus the function-like and nested macros that
// Swift's importer cannot see, re-exported as constants.
#ifndef RENDER_ANIM_CPNG_SHIM_H
#define RENDER_ANIM_CPNG_SHIM_H

#include <png.h>

static const png_uint_32 cpng_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 cpng_format_gray = PNG_FORMAT_GRAY;
static const png_uint_32 cpng_format_linear_rgba = PNG_FORMAT_LINEAR_RGB_ALPHA;
static const png_uint_32 cpng_image_version = PNG_IMAGE_VERSION;
static const png_uint_32 cpng_image_flag_fast = PNG_IMAGE_FLAG_FAST;
static const png_uint_32 cpng_image_flag_16bit_srgb = PNG_IMAGE_FLAG_16BIT_sRGB;

#endif
