// libunibreak for Swift: UAX #14 line-break opportunities of UTF-8 text.
#ifndef RENDER_ANIM_CUNIBREAK_SHIM_H
#define RENDER_ANIM_CUNIBREAK_SHIM_H

#include <linebreak.h>

static const char cub_mustbreak = LINEBREAK_MUSTBREAK;
static const char cub_allowbreak = LINEBREAK_ALLOWBREAK;

#endif
