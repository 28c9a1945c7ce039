#!/usr/bin/env bash
# Installs the services the scale-out suites run against, from Debian's packages: a PostgreSQL server
# (the tests start a throwaway cluster with its initdb/pg_ctl in a temp dir; the packaged system
# cluster is not used) and OpenStack Swift with the s3api middleware (an S3-compatible server that
# really verifies SigV4 signatures). Without them those suites are skipped outside CI; under CI=true
# they fail, so CI calls this first.
set -euo pipefail

packages=(postgresql swift swift-proxy swift-object swift-container swift-account python3-swift)

have_all() {
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 &&
    [ -d /usr/lib/python3/dist-packages/swift/common/middleware/s3api ]
}

if have_all; then
  echo "postgresql and swift (s3api) already installed"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${packages[@]}"
fi
ls -d /usr/lib/postgresql/*/bin | sed -n 1p
/usr/bin/python3 -c 'import swift, swift.common.middleware.s3api; print("swift", swift.__version__)'
