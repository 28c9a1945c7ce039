#!/bin/sh
# `npm run test:container`: the container recipe's steps (deploy/container/Containerfile) without a
# container engine: the editor built as root (the image's RUN step), then `pictor serve` run as an
# unprivileged user (nobody) over this root-owned, for it read-only, code with a data directory of its
# own (the image's /data volume). Checks: `/` serves the prebuilt editor (not 503), /healthz answers
# (the HEALTHCHECK's request), nothing was written into the code, no API key in the JSON logs (stderr;
# the embedded default's first start shows its trial key once on stdout, the newcomer's path), and
# SIGTERM ends it with exit 0. Then, where podman is installed, the image itself is built and run
# (scripts/test-container-podman.sh; PICTOR_CONTAINER_ENGINE=none skips it).
set -eu
cd "$(dirname "$0")/.."
NODE="${PICTOR_NODE:-$(command -v node)}"
if [ "$(id -u)" != 0 ]; then echo "test:container: run as root (it switches to nobody)"; exit 1; fi
scratch=$(mktemp -d /tmp/pictor-container-XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$scratch"' EXIT
cp "$NODE" "$scratch/node"
mkdir "$scratch/data" && chown 65534:65534 "$scratch/data"
chmod 755 "$scratch"

echo "test:container: building the editor as root (the image's build step)"
npm run build >/dev/null
marker="$scratch/started"
touch "$marker"

setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin HOME="$scratch" \
  PICTOR_LOG_LEVEL=info PICTOR_DRAIN_DELAY_SECONDS=1 \
  "$scratch/node" packages/server/bin/pictor.js serve --port 0 --data "$scratch/data" --workers 1 \
  >"$scratch/stdout" 2>"$scratch/stderr" &
pid=$!
url=""
for _ in $(seq 1 300); do
  url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$scratch/stdout" | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$scratch/stderr"; echo "test:container: serve exited"; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { echo "test:container: serve did not listen"; exit 1; }
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
root_status=$(curl -s -o "$scratch/index.html" -w '%{http_code}' "$url/")
check "GET / serves the prebuilt editor (got $root_status)" '[ "$root_status" = 200 ] && grep -qi "<html" "$scratch/index.html"'
health=$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz")
check "GET /healthz answers 200 (got $health)" '[ "$health" = 200 ]'
# Not ready until the render threads have loaded, as a readiness probe sees it: polled.
for _ in $(seq 1 150); do
  ready=$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")
  [ "$ready" = 200 ] && break
  sleep 0.2
done
check "GET /readyz answers 200 once the render threads are up (got $ready)" '[ "$ready" = 200 ]'
written=$(find packages examples -newer "$marker" -not -path '*/node_modules/*' 2>/dev/null | head -n 5)
check "nothing written into the code${written:+: $written}" '[ -z "$written" ]'
check "no API key in the logs (stderr)" '! grep -q "sk_live_" "$scratch/stderr"'
check "no EACCES in the logs" '! grep -q "EACCES" "$scratch/stderr"'
start=$(date +%s.%N)
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
check "SIGTERM: exit 0 (got $code) after ${took} s (drain delay 1 s)" '[ "$code" = 0 ]'
[ "$fail" = 0 ] || { echo "--- stderr"; tail -n 20 "$scratch/stderr"; exit 1; }
echo "test:container: the recipe's steps passed"
if [ "${PICTOR_CONTAINER_ENGINE:-podman}" = none ]; then
  echo "test:container: PICTOR_CONTAINER_ENGINE=none: the image itself was not built"
elif command -v podman >/dev/null; then
  sh scripts/test-container-podman.sh
else
  echo "test:container: podman is not installed: the image itself was not built (apt-get install podman debootstrap runc)"
fi
echo "test:container: passed"
