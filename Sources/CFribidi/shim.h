// GNU FriBidi for Swift: the Unicode Bidirectional Algorithm (UAX #9), for the embedding levels of
// mixed-direction text.
#ifndef RENDER_ANIM_CFRIBIDI_SHIM_H
#define RENDER_ANIM_CFRIBIDI_SHIM_H

#include <fribidi.h>

static const FriBidiParType cfb_par_ltr = FRIBIDI_PAR_LTR;
static const FriBidiParType cfb_par_rtl = FRIBIDI_PAR_RTL;
static const FriBidiParType cfb_par_on = FRIBIDI_PAR_ON;

#endif
