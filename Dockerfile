# syntax=docker/dockerfile:1
# Production image: compiled JavaScript and production dependencies only, run as the unprivileged `node` user.
# Build: docker build -t vtu-wallet .   Run: see compose.yaml and docs/operations.md.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim
# MALLOC_ARENA_MAX=2: two malloc arenas instead of glibc's 8 per core (docs/scaling.md, "Memory").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/vtu
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
RUN mkdir -p /var/lib/vtu && chown node:node /var/lib/vtu
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Young generation capped at 16 MB a semi-space, as on Node 20 (Node 24 grows it to 64 MB); the old generation
# collected once it is 30 % over what the last full GC kept, not up to 4x (docs/scaling.md, "Memory").
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=30", "dist/main.js"]
