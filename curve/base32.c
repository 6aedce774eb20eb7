/* curve/base32.c - placeholder, being written. */
#include "curve.h"
