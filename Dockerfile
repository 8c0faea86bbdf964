# trawl API (and in-process worker). Build: docker build -t trawl .  Run the worker alone with
# `docker run … trawl node dist/worker.js`, the CLI with `docker run … trawl node dist/cli/trawl.js status <id>`.
# DATABASE_URL must point at a PostgreSQL server: the image carries no embedded one.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: see .ci/run (the lock cannot list optional builds the registry lacks)
RUN npm install
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY web ./web
RUN npm run build

FROM node:20-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional leaves out embedded-postgres and its server binaries; the other optional packages it drops
# (msgpackr-extract, @napi-rs/nice) are native speed-ups their users do without
RUN npm install --omit=dev --omit=optional && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY migrations ./migrations
RUN useradd --system --create-home trawl && mkdir -p /data && chown trawl /data
USER trawl
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server.js"]

# The same image with Debian's Chromium, for workers that render pages (a crawl's `render`):
#   docker build --target render -t trawl:render .   (about 400 MB more; workers find it at /usr/bin/chromium)
FROM runtime AS render
USER root
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-liberation \
  && rm -rf /var/lib/apt/lists/*
USER trawl

# The default image (the last stage): no Chromium, so its workers do not render.
FROM runtime
