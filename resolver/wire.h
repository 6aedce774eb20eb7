/* resolver/wire.h - placeholder. */
#ifndef CURVECACHE_RESOLVER_WIRE_H
#define CURVECACHE_RESOLVER_WIRE_H
#endif
