/* curve/internal.h - placeholder. */
#ifndef CURVECACHE_CURVE_INTERNAL_H
#define CURVECACHE_CURVE_INTERNAL_H
#include "curve.h"
#endif
