#!/bin/sh
# The container recipe built and run for real with podman (Debian's package), as the optional part of
# `npm run test:container`: it runs when podman is installed (PICTOR_CONTAINER_ENGINE=none skips it).
# Without a registry the recipe's base image (node:24-bookworm-slim) is stood in for by Debian bookworm
# made by debootstrap from the apt mirror, with this machine's Node and npm and the image's `node`
# user (uid 1000), tagged under the base image's name so the Containerfile builds unchanged.
# Checks: the image builds (npm ci from a copy of this machine's npm cache, the editor built in it);
# the first account made with `pictor accounts create` in a one-off container on the data volume;
# then the served container: `/` is the prebuilt editor, /healthz and /readyz answer 200, the image's
# HEALTHCHECK passes (`podman healthcheck run`), its logs hold no API key, and `podman stop` (SIGTERM)
# ends it with exit 0 inside the stop timeout.
# This machine's quirks, each a flag below: the cgroup layout is hybrid (cgroup2 with a controller),
# which crun refuses, so runc runs the containers when it is installed; podman's default ulimits
# exceed this sandbox's hard limits (no CAP_SYS_RESOURCE), so they are set low explicitly.
set -eu
cd "$(dirname "$0")/.."
BASE_IMAGE="docker.io/library/node:24-bookworm-slim"
IMAGE="localhost/pictor:container-test"
NAME="pictor-container-test-$$"
ULIMITS="--ulimit nofile=1024:1024 --ulimit nproc=4096:4096"
NODE="${PICTOR_NODE:-$(command -v node)}"
scratch=$(mktemp -d /var/tmp/pictor-podman-XXXXXX)
cleanup() {
  podman $RUNTIME rm -f "$NAME" >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
RUNTIME=""
trap cleanup EXIT

# crun refuses a hybrid cgroup layout; runc runs there.
if [ -n "$(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null)" ]; then
  if command -v runc >/dev/null; then RUNTIME="--runtime runc"; else
    echo "test:container (podman): SKIPPED: hybrid cgroups (cgroup2 with controllers: $(cat /sys/fs/cgroup/unified/cgroup.controllers)), which crun refuses; apt-get install runc"
    exit 0
  fi
fi
pm() { podman $RUNTIME "$@"; }

if ! pm image exists "$BASE_IMAGE"; then
  if ! command -v debootstrap >/dev/null; then
    echo "test:container (podman): SKIPPED: no $BASE_IMAGE and no registry; apt-get install debootstrap to make a stand-in"
    exit 0
  fi
  rootfs=/var/tmp/pictor-debootstrap-bookworm
  mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
  if [ ! -x "$rootfs/bin/sh" ]; then
    echo "test:container (podman): debootstrap bookworm from ${mirror:-http://deb.debian.org/debian}"
    debootstrap --variant=minbase bookworm "$rootfs" "${mirror:-http://deb.debian.org/debian}" >"$scratch/debootstrap.log" 2>&1 ||
      { tail -n 5 "$scratch/debootstrap.log"; echo "test:container (podman): debootstrap failed"; exit 1; }
  fi
  tar -C "$rootfs" -c . | pm import - localhost/pictor-debootstrap:bookworm >/dev/null
  mkdir "$scratch/base"
  cp "$NODE" "$scratch/base/node"
  cp -a "$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")" "$scratch/base/npm"
  cat >"$scratch/base/Containerfile" <<'EOF'
FROM localhost/pictor-debootstrap:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/sh node
EOF
  pm build --pull=never $ULIMITS -t "$BASE_IMAGE" "$scratch/base" >"$scratch/base.log" 2>&1 ||
    { tail -n 20 "$scratch/base.log"; echo "test:container (podman): the stand-in base image did not build"; exit 1; }
fi

# npm ci reads a copy of this machine's npm cache (the recipe's last step cleans the cache it is given).
mkdir "$scratch/npm-cache"
if [ -d "$HOME/.npm" ]; then
  cp -a "$HOME/.npm/." "$scratch/npm-cache/"
  # An index entry whose content is gone fails npm ci (ENOENT): verify drops it.
  npm cache verify --cache "$scratch/npm-cache" >/dev/null
fi
echo "test:container (podman): building the image (deploy/container/Containerfile)"
start=$(date +%s)
# The registry through this machine's trust store (a TLS-inspecting proxy's CA is in it, not in the
# image): npm in the build reads the host's CA bundle.
printf 'cafile=/etc/ssl/certs/ca-certificates.crt\n' >"$scratch/npmrc"
# Docker format: the OCI format has no HEALTHCHECK, which podman would drop.
pm build --format docker --pull=never --network=host $ULIMITS -v "$scratch/npm-cache:/root/.npm" \
  -v "$scratch/npmrc:/root/.npmrc:ro" -v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro \
  -f deploy/container/Containerfile -t "$IMAGE" . >"$scratch/build.log" 2>&1 ||
  { tail -n 30 "$scratch/build.log"; echo "test:container (podman): the image did not build"; exit 1; }
echo "test:container (podman): built in $(($(date +%s) - start)) s"

port=$("$NODE" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir "$scratch/data" && chown 1000:1000 "$scratch/data"
run() { pm run $ULIMITS --network=host -e PICTOR_HOST=127.0.0.1 -e PICTOR_PORT="$port" -v "$scratch/data:/data" "$@"; }
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

# The operator's first account, before the first start: the server then prints no key.
created=$(run --rm --entrypoint sh "$IMAGE" packages/server/bin/pictor.sh accounts create --name ops --no-starters --json 2>/dev/null)
check "pictor accounts create in a one-off container" 'echo "$created" | grep -q "\"api_key\":\"sk_live_"'
key=$(echo "$created" | sed -n 's/.*"api_key":"\([^"]*\)".*/\1/p')

run -d --name "$NAME" -e PICTOR_DRAIN_DELAY_SECONDS=1 -e PICTOR_WORKERS=1 "$IMAGE" >/dev/null
url="http://127.0.0.1:$port"
for _ in $(seq 1 300); do
  ready=$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz" || true)
  [ "$ready" = 200 ] && break
  [ "$(pm inspect -f '{{.State.Running}}' "$NAME")" = true ] || break
  sleep 0.2
done
check "GET /readyz answers 200 (got $ready)" '[ "$ready" = 200 ]'
root_status=$(curl -s -o "$scratch/index.html" -w '%{http_code}' "$url/")
check "GET / serves the prebuilt editor (got $root_status)" '[ "$root_status" = 200 ] && grep -qi "<html" "$scratch/index.html"'
health=$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz")
check "GET /healthz answers 200 (got $health)" '[ "$health" = 200 ]'
account=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "$url/v1/account")
check "the account made before the start answers (got $account)" '[ "$account" = 200 ]'
check "the image's HEALTHCHECK passes" 'pm healthcheck run "$NAME" >/dev/null 2>&1'
pm logs "$NAME" >"$scratch/logs" 2>&1
check "no API key in the container's logs" '! grep -q "sk_live_" "$scratch/logs"'
check "no EACCES in the container's logs" '! grep -q "EACCES" "$scratch/logs"'
start=$(date +%s.%N)
pm stop -t 60 "$NAME" >/dev/null
took=$(echo "$(date +%s.%N) - $start" | bc)
code=$(pm inspect -f '{{.State.ExitCode}}' "$NAME")
check "podman stop (SIGTERM): exit 0 (got $code) after ${took} s (drain delay 1 s, stop timeout 60 s)" '[ "$code" = 0 ]'
pm rmi -f "$IMAGE" >/dev/null 2>&1 || true
[ "$fail" = 0 ] || { echo "--- logs"; tail -n 20 "$scratch/logs"; exit 1; }
echo "test:container (podman): passed"
