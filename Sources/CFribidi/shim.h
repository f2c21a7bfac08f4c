// GNU FriBidi for Swift: the Unicode Bidirectional Algorithm (UAX #9), for the embedding levels of
// mixed-direction text.
#ifndef RENDER_ANIM_CFRIBIDI_SHIM_H
#define RENDER_ANIM_CFRIBIDI_SHIM_H

#include <fribidi.h>

static const FriBidiParType cfb_par_ltr = FRIBIDI_PAR_LTR;
static const FriBidiParType cfb_par_rtl = FRIBIDI_PAR_RTL;
static const FriBidiParType cfb_par_on = FRIBIDI_PAR_ON;
static const FriBidiCharType cfb_type_ltr = FRIBIDI_TYPE_LTR;
static const FriBidiCharType cfb_type_rtl = FRIBIDI_TYPE_RTL;
static const FriBidiCharType cfb_type_al = FRIBIDI_TYPE_AL;
static const FriBidiCharType cfb_type_lri = FRIBIDI_TYPE_LRI;
static const FriBidiCharType cfb_type_rli = FRIBIDI_TYPE_RLI;
static const FriBidiCharType cfb_type_fsi = FRIBIDI_TYPE_FSI;
static const FriBidiCharType cfb_type_pdi = FRIBIDI_TYPE_PDI;

#endif
