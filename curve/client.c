/* curve/client.c - placeholder, being written. */
#include "curve.h"
