/* curve/nonce.c - placeholder, being written. */
#include "curve.h"
