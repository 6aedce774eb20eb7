/*
 * resolver/base/clock.h - the daemon's one clock: monotonic milliseconds
 * (timeouts, ages, rate limits, uptime) and wall seconds (cache expiry,
 * TTLs). Every part of resolver/ reads time through these two; unit tests
 * may call them too. Neither can fail.
 */
#ifndef CURVECACHE_RESOLVER_CLOCK_H
#define CURVECACHE_RESOLVER_CLOCK_H

#include <stdint.h>
#include <time.h>

/** Monotonic milliseconds since an arbitrary start (libuv's uv_hrtime);
 * never goes back, unaffected by changes of the system time. */
uint64_t clock_ms(void);

/** Wall-clock seconds since the epoch, time(NULL). */
time_t clock_wall_s(void);

#endif /* CURVECACHE_RESOLVER_CLOCK_H */
