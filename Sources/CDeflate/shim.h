// libdeflate for Swift: whole-buffer zlib decompression for the PNG decoder's fast path.
#ifndef RENDER_ANIM_CDEFLATE_SHIM_H
#define RENDER_ANIM_CDEFLATE_SHIM_H

#include <libdeflate.h>

#endif
