// Decodes a JPEG held in memory with libjpeg-turbo. libjpeg reports errors by longjmp from its
// error handler; here the setjmp and every libjpeg call live in one C function, so no jump ever
// crosses a Swift frame. Each call returns 0 on success, or -1 with a message in `message`.
#ifndef RENDER_ANIM_JPEG_DECODER_H
#define RENDER_ANIM_JPEG_DECODER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most scans a progressive JPEG may have (as TurboJPEG's TJFLAG_LIMITSCANS): more are a
/// known way to make decoding take minutes.
#define RAJPEG_MAXIMUM_SCANS 500

/// The most bytes before a marker that are taken as padding rather than corrupt scan data.
#define RAJPEG_MAXIMUM_EXTRANEOUS_BYTES 16

/// The image's size in pixels, from its header.
int rajpeg_read_size(const unsigned char *data, size_t size, int *width, int *height,
                     char *message, size_t message_size);

/// Decodes the image into `rgba` (width × height × 4 bytes, opaque RGBA, rows top down);
/// `width` and `height` must be what `rajpeg_read_size` gave.
int rajpeg_decode_rgba(const unsigned char *data, size_t size, unsigned char *rgba, int width,
                       int height, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
