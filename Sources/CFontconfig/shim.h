// fontconfig for Swift: font matching by family and weight, with the property names as constants.
#ifndef RENDER_ANIM_CFONTCONFIG_SHIM_H
#define RENDER_ANIM_CFONTCONFIG_SHIM_H

#include <fontconfig/fontconfig.h>

static const char *const cfc_family = FC_FAMILY;
static const char *const cfc_weight = FC_WEIGHT;
static const char *const cfc_slant = FC_SLANT;
static const char *const cfc_file = FC_FILE;
static const char *const cfc_index = FC_INDEX;
static const char *const cfc_charset = FC_CHARSET;

#endif
