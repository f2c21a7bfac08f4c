// Little CMS 2 (lcms2): the colour-management engine that converts an image's embedded ICC
// profile (Display P3, Adobe RGB, a camera's) to sRGB. Its errors are return values (NULL or
// FALSE), never a longjmp, so Swift calls it directly.
#ifndef RENDER_ANIM_CLCMS2_SHIM_H
#define RENDER_ANIM_CLCMS2_SHIM_H

#include <lcms2.h>

// lcms2's pixel formats and flags are macros built from other macros, which Swift does not
// import: the values the converter uses, as constants.
static const cmsUInt32Number ra_lcms_rgba_8 = TYPE_RGBA_8;
static const cmsUInt32Number ra_lcms_rgba_16 = TYPE_RGBA_16;
static const cmsUInt32Number ra_lcms_gray_float = TYPE_GRAY_FLT;
static const cmsUInt32Number ra_lcms_rgb_float = TYPE_RGB_FLT;
static const cmsUInt32Number ra_lcms_no_optimize = cmsFLAGS_NOOPTIMIZE;
static const cmsUInt32Number ra_lcms_copy_alpha = cmsFLAGS_COPY_ALPHA;
static const cmsUInt32Number ra_lcms_intent_perceptual = INTENT_PERCEPTUAL;

#endif
