// HarfBuzz for Swift: shaping with its built-in OpenType font functions.
#ifndef RENDER_ANIM_CHARFBUZZ_SHIM_H
#define RENDER_ANIM_CHARFBUZZ_SHIM_H

#include <hb.h>
#include <hb-ot.h>

#endif
