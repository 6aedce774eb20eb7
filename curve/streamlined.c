/* curve/streamlined.c - placeholder, being written. */
#include "curve.h"
