// libwebp's animation encoder (libwebpmux) and encoder configuration for Swift.
#ifndef RENDER_ANIM_CWEBP_SHIM_H
#define RENDER_ANIM_CWEBP_SHIM_H

#include <webp/encode.h>
#include <webp/mux.h>

#endif
