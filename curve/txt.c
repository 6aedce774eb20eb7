/* curve/txt.c - placeholder, being written. */
#include "curve.h"
