/* curve/sharedkey.c - placeholder, being written. */
#include "curve.h"
