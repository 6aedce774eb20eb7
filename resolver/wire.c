/* resolver/wire.c - placeholder. */
#include "wire.h"
