// zlib for Swift: deflate and crc32 for the APNG writer. deflateInit2 is a macro Swift's importer
// cannot see; czlib_deflate_init2 is it as a function.
#ifndef RENDER_ANIM_CZLIB_SHIM_H
#define RENDER_ANIM_CZLIB_SHIM_H

#include <zlib.h>

static inline int czlib_deflate_init2(z_stream *stream, int level, int windowBits, int memLevel,
                                      int strategy) {
  return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

#endif
