#!/bin/sh
# `npm start` runs Pictor through this launcher: settings that only work when given before Node starts
# (glibc reads its malloc settings at process start; V8 sizes its young generation at start). Measured
# by `npm run bench:memory` (docs/deploy.md, "Memory"). Each can be overridden from the environment.
#   MALLOC_ARENA_MAX=2           render threads' native allocations (libvips) share two malloc arenas
#                                instead of one per thread, each kept at its peak.
#   MALLOC_MMAP_THRESHOLD_=131072  allocations of 128 KiB and more (pixel and encode buffers) are mapped
#                                on their own and given back when freed; glibc otherwise raises this
#                                threshold to the largest block freed (up to 32 MiB), so the buffers of
#                                a scale-4 burst stayed in the heap for good.
#   --max-semi-space-size=4      4 MiB young-generation halves per thread instead of up to 16: the main
#                                thread grew 60 MB of them at start (PICTOR_NODE_OPTIONS replaces it).
# PICTOR_NODE picks the node binary (default: the first on PATH). pictor.js applies the same settings
# itself when `pictor serve` is started without this launcher (bin/launch-settings.js); PICTOR_LAUNCHED
# tells it they are applied here.
: "${MALLOC_ARENA_MAX:=2}"
: "${MALLOC_MMAP_THRESHOLD_:=131072}"
PICTOR_LAUNCHED=1
export MALLOC_ARENA_MAX MALLOC_MMAP_THRESHOLD_ PICTOR_LAUNCHED
here=$(dirname "$0")
# shellcheck disable=SC2086 # PICTOR_NODE_OPTIONS is a list of flags
exec "${PICTOR_NODE:-node}" ${PICTOR_NODE_OPTIONS:---max-semi-space-size=4} "$here/pictor.js" "$@"
