#!/bin/sh
# `npm start` and the image's CMD. Without LITESTREAM_REPLICA_URL: the server alone. With it:
# on a machine with no database, the latest replica is restored first (before the server
# migrates), then the server runs as Litestream's child, so every committed write is copied
# to the replica within a second and Litestream stops (after a last sync) when the server does.
set -eu

if [ -z "${LITESTREAM_REPLICA_URL:-}" ]; then
  exec node server-build/server.js
fi

# The default of DATABASE_PATH in app/lib/config/env.server.ts, for litestream.yml.
export DATABASE_PATH="${DATABASE_PATH:-data/kestrel.sqlite}"
# Where Litestream serves its metrics (litestream.yml); the server's health reads the replica's position there.
export LITESTREAM_METRICS_ADDR="${LITESTREAM_METRICS_ADDR:-127.0.0.1:9090}"

case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "start.sh: no Litestream binary for $(uname -m)" >&2 && exit 1 ;;
esac
os=$(uname -s | tr '[:upper:]' '[:lower:]')
# The binary @flydotio/litestream ships (its own launcher neither passes signals on nor exits
# with the binary's status).
litestream="node_modules/@flydotio/litestream-$os-$arch/litestream"

mkdir -p "$(dirname "$DATABASE_PATH")"
"$litestream" restore -config litestream.yml -if-db-not-exists -if-replica-exists "$DATABASE_PATH"
exec "$litestream" replicate -config litestream.yml -exec "node server-build/server.js"
