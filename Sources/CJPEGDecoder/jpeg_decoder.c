#include "jpeg_decoder.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct failure {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  int too_many_scans;
  int truncated;
  int corrupt;
};

static void fail(j_common_ptr info) {
  struct failure *failure = (struct failure *)info->err;
  longjmp(failure->jump, 1);
}

/// Warnings about the file's form (a few extraneous bytes between markers, an unknown JFIF
/// version, a bad ICC profile) are not errors: the image decodes whole. But data that ends before the image
/// does, or whose entropy-coded data is corrupt (a marker inside a scan, a bad Huffman or
/// arithmetic code, scans out of order), is refused, as a damaged PNG is: libjpeg would go on
/// and make up the rest (grey, or garbage).
static void ignore(j_common_ptr info) { (void)info; }

static void warn(j_common_ptr info, int level) {
  if (level >= 0) return;
  switch (info->err->msg_code) {
  case JWRN_JPEG_EOF:
    ((struct failure *)info->err)->truncated = 1;
    fail(info);
    break;
  case JWRN_EXTRANEOUS_DATA:
    // A byte or two before a marker is padding some writers leave (the image is whole); more
    // is entropy-coded data the decoder could not use: codes that match no Huffman code are
    // skipped by libjpeg-turbo's fast path and only show as bytes left over at the next marker.
    if (info->err->msg_parm.i[0] <= RAJPEG_MAXIMUM_EXTRANEOUS_BYTES) break;
    ((struct failure *)info->err)->corrupt = 1;
    fail(info);
    break;
  case JWRN_HIT_MARKER:
  case JWRN_HUFF_BAD_CODE:
  case JWRN_ARITH_BAD_CODE:
  case JWRN_MUST_RESYNC:
  case JWRN_NOT_SEQUENTIAL:
  case JWRN_BOGUS_PROGRESSION:
    ((struct failure *)info->err)->corrupt = 1;
    fail(info);
    break;
  default:
    break;
  }
}

static void limit_scans(j_common_ptr info) {
  j_decompress_ptr decompress = (j_decompress_ptr)info;
  if (decompress->is_decompressor && decompress->input_scan_number > RAJPEG_MAXIMUM_SCANS) {
    ((struct failure *)info->err)->too_many_scans = 1;
    fail(info);
  }
}

/// Reads the header and, when `rgba` is not NULL, decodes the image into it. The setjmp and every
/// libjpeg call are in this one function.
static int run(const unsigned char *data, size_t size, unsigned char *rgba, int *width,
               int *height, char *message, size_t message_size) {
  struct jpeg_decompress_struct info;
  struct failure failure;
  struct jpeg_progress_mgr progress;
  failure.too_many_scans = 0;
  failure.truncated = 0;
  failure.corrupt = 0;
  info.err = jpeg_std_error(&failure.manager);
  failure.manager.error_exit = fail;
  failure.manager.output_message = ignore;
  failure.manager.emit_message = warn;
  jpeg_create_decompress(&info);
  if (setjmp(failure.jump)) {
    if (failure.truncated) {
      snprintf(message, message_size, "truncated: the data ends before the image does");
    } else if (failure.corrupt) {
      char text[JMSG_LENGTH_MAX];
      (*info.err->format_message)((j_common_ptr)&info, text);
      snprintf(message, message_size, "%s", text);
    } else if (failure.too_many_scans) {
      snprintf(message, message_size, "a progressive JPEG with more than %d scans",
               RAJPEG_MAXIMUM_SCANS);
    } else {
      char text[JMSG_LENGTH_MAX];
      (*info.err->format_message)((j_common_ptr)&info, text);
      snprintf(message, message_size, "%s", text);
    }
    jpeg_destroy_decompress(&info);
    return -1;
  }
  progress.progress_monitor = limit_scans;
  info.progress = &progress;
  jpeg_mem_src(&info, data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
    snprintf(message, message_size, "a CMYK JPEG (save it as RGB)");
    jpeg_destroy_decompress(&info);
    return -1;
  }
  if (rgba == NULL) {
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return 0;
  }
  if ((int)info.image_width != *width || (int)info.image_height != *height) {
    snprintf(message, message_size, "the image's size changed between reads");
    jpeg_destroy_decompress(&info);
    return -1;
  }
  info.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&info);
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = rgba + (size_t)info.output_scanline * (size_t)*width * 4;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  return 0;
}

int rajpeg_read_size(const unsigned char *data, size_t size, int *width, int *height,
                     char *message, size_t message_size) {
  return run(data, size, NULL, width, height, message, message_size);
}

int rajpeg_decode_rgba(const unsigned char *data, size_t size, unsigned char *rgba, int width,
                       int height, char *message, size_t message_size) {
  if (rgba == NULL) {
    snprintf(message, message_size, "no pixels to decode into");
    return -1;
  }
  return run(data, size, rgba, &width, &height, message, message_size);
}
