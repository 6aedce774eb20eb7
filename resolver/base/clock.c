/*
 * resolver/base/clock.c - the daemon's one clock (clock.h).
 */
#include "clock.h"

#include <uv.h>

/** Nanoseconds per millisecond (uv_hrtime is in nanoseconds). */
#define CLOCK_NS_PER_MS 1000000u

uint64_t clock_ms(void)
{
	return uv_hrtime() / CLOCK_NS_PER_MS;
}

time_t clock_wall_s(void)
{
	return time(NULL);
}
