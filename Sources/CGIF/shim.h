// giflib for Swift: gif_lib.h plus the macros Swift's importer cannot see.
#ifndef RENDER_ANIM_CGIF_SHIM_H
#define RENDER_ANIM_CGIF_SHIM_H

#include <gif_lib.h>

static const int cgif_error = GIF_ERROR;
static const int cgif_ok = GIF_OK;
static const int cgif_no_transparent_color = NO_TRANSPARENT_COLOR;
static const int cgif_disposal_unspecified = DISPOSAL_UNSPECIFIED;
static const int cgif_disposal_do_not = DISPOSE_DO_NOT;
static const int cgif_disposal_background = DISPOSE_BACKGROUND;
static const int cgif_application_ext = APPLICATION_EXT_FUNC_CODE;
static const int cgif_graphics_ext = GRAPHICS_EXT_FUNC_CODE;
static const int cgif_continue_ext = CONTINUE_EXT_FUNC_CODE;

#endif
