// FreeType for Swift: the face, outline and glyph-loading API, and the load flags as constants.
#ifndef RENDER_ANIM_CFREETYPE_SHIM_H
#define RENDER_ANIM_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H

static const FT_Int32 cft_load_outline_only =
    FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP;
static const FT_Int32 cft_load_color = FT_LOAD_COLOR;

#endif
