/* curve/keylabel.c - placeholder, being written. */
#include "curve.h"
