// libjpeg-turbo (the libjpeg 6.2 API) for the decoder in CJPEGDecoder. jpeglib.h needs stdio.h
// (FILE, size_t) before it.
#ifndef RENDER_ANIM_CJPEG_SHIM_H
#define RENDER_ANIM_CJPEG_SHIM_H

#include <stdio.h>
#include <jpeglib.h>

#endif
