# syntax=docker/dockerfile:1
# Kestrel Aerial Survey: one Node process serving Remix through Express, with SQLite
# and uploaded files on a volume mounted at /data (see fly.toml).

FROM node:20-bookworm-slim AS base
WORKDIR /app

# Everything the build needs, dev dependencies included (remix, esbuild, tsx for
# scripts/build-data.ts). python3/make/g++ let better-sqlite3 compile from source
# if its prebuilt binary can't be downloaded.
FROM base AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

FROM base AS runtime
# GDAL's command-line tools (gdal-bin) read and convert raster deliverables and measure them.
RUN apt-get update \
  && apt-get install -y --no-install-recommends gdal-bin \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_PATH=/data/kestrel.sqlite \
    DATA_DIR=/data/files \
    MAIL_OUTBOX_DIR=/data/outbox
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/server-build ./server-build
# `npm run backup` / `npm run restore` (the launcher runs the bundled server-build/scripts/backup-cli.js).
COPY --from=build /app/scripts/run-backup-cli.mjs ./scripts/run-backup-cli.mjs
# The start: under Litestream's replication when LITESTREAM_REPLICA_URL is set (README, "Recovery drill").
COPY --from=build /app/scripts/start.sh ./scripts/start.sh
COPY --from=build /app/litestream.yml ./litestream.yml
# `npm run files -- verify | restore` (the bucket; bundled server-build/scripts/files-cli.js).
COPY --from=build /app/scripts/run-files-cli.mjs ./scripts/run-files-cli.mjs
# Applied at start, before the server listens (the database lives on the volume).
COPY --from=build /app/db/migrations ./db/migrations
# Reference data read at run time (the national airspace dataset).
COPY --from=build /app/db/data ./db/data
RUN mkdir -p /data && chown -R node:node /data
USER node
EXPOSE 8080
CMD ["sh", "scripts/start.sh"]
