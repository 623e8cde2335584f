# syntax=docker/dockerfile:1
# The sidecar of one bot. Build from the repository root:
#   docker build -f deploy/docker/sidecar.Dockerfile -t eleven-sidecar .
# Run it read-only with its home as a volume (deploy/compose.yaml does).

FROM node:20-bookworm-slim AS build
ENV CI=true
RUN npm install --global pnpm@12.4.2
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile
RUN pnpm exec turbo run build --filter=@eleven-integrations/sidecar...
RUN node scripts/deploy-app.mjs sidecar /out --no-node

FROM node:20-bookworm-slim
# The sidecar's own user; its group is the callers' group (the bot's user joins it to reach
# the socket and the caller token, nothing else: docs/operating.md).
RUN groupadd --system eleven-bots \
 && useradd --system --gid eleven-bots --home-dir /var/lib/eleven-sidecar --no-create-home --shell /usr/sbin/nologin eleven-sidecar \
 && install -d -o eleven-sidecar -g eleven-bots -m 0710 /var/lib/eleven-sidecar
# Owned by root: the app cannot change its own code.
COPY --from=build /out /opt/eleven-sidecar
ENV SIDECAR_HOME=/var/lib/eleven-sidecar
ENV SIDECAR_CALLER_GROUP=eleven-bots
ENV SIDECAR_METRICS_PORT=9464
USER eleven-sidecar
# The home: the only writable path.
VOLUME ["/var/lib/eleven-sidecar"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/opt/eleven-sidecar/dist/server.js"]
