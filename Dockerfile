# The image docs/sharding.md's Kubernetes Jobs run: `site` on Node.js 24 with production dependencies
# only, as a user without root, and no browser (the build never starts one; the browser tests run
# elsewhere). Build: docker build -t registry.example/institute-site:$(git rev-parse --short HEAD) .
#
# The files the image holds are exactly the COPY lines below without --from:
# tests/integration/container-files.test.ts copies the same set into a clean folder, runs
# `npm ci --omit=dev` there, and builds and dry-run publishes the site from it.

# 1. Production dependencies (the `node` package included: the Node.js 24 binary npm scripts run).
FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 2. The sources, and the CLI compiled once (bin/compile-cli.js) into node_modules/.cache/site-cli, so
#    the running container needs no write access to node_modules and never falls back to tsx.
FROM deps AS build
COPY bin ./bin
COPY cli ./cli
COPY runtime ./runtime
COPY site ./site
COPY templates ./templates
COPY backend ./backend
COPY rollup.config.ts tsconfig.json tsconfig.base.json ./
RUN node bin/site.js --version

# 3. What runs: the project owned by root and read-only to the `node` user (uid 1000, from the base
#    image); the build cache and the default output folder are the only places it writes in /app.
#    Mount volumes over /app/.site-cache (or pass --cache-dir) and wherever --out points.
FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /app/.site-cache /app/dist && chown node:node /app/.site-cache /app/dist
USER node
ENTRYPOINT ["node", "bin/site.js"]
CMD ["--help"]
