# syntax=docker/dockerfile:1
# The connect broker. Build from the repository root:
#   docker build -f deploy/docker/broker.Dockerfile -t eleven-broker .
# Run it read-only with its home as a volume holding config.json (deploy/compose.yaml does).

FROM node:20-bookworm-slim AS build
ENV CI=true
RUN npm install --global pnpm@12.4.2
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile
RUN pnpm exec turbo run build --filter=@eleven-integrations/broker...
RUN node scripts/deploy-app.mjs broker /out --no-node

FROM node:20-bookworm-slim
RUN groupadd --system eleven-broker \
 && useradd --system --gid eleven-broker --home-dir /var/lib/eleven-broker --no-create-home --shell /usr/sbin/nologin eleven-broker \
 && install -d -o eleven-broker -g eleven-broker -m 0700 /var/lib/eleven-broker
# Owned by root: the app cannot change its own code.
COPY --from=build /out /opt/eleven-broker
ENV NODE_ENV=production
# Inside the container only: the container's loopback is unreachable from outside, so the
# broker listens on every interface of its own network namespace; publish the port on the
# host's loopback (compose.yaml) behind the TLS proxy.
ENV HOST=0.0.0.0
ENV PORT=8080
ENV BROKER_METRICS_PORT=9465
ENV BROKER_CONFIG_FILE=/var/lib/eleven-broker/config.json
USER eleven-broker
# The home: the only writable path.
VOLUME ["/var/lib/eleven-broker"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9465/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/opt/eleven-broker/dist/server.js"]
