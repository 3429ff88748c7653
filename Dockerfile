# syntax=docker/dockerfile:1
# avalanche-exporter image. Build: docker build -t avalanche-exporter .
# Multi-arch (amd64 and arm64, e.g. for a registry the Helm chart pulls from):
#   docker buildx build --platform linux/amd64,linux/arm64 -t REGISTRY/avalanche-exporter:VERSION --push .
# Run (Linux, node on the same host):  docker run --rm --network host --read-only avalanche-exporter
# Run (node elsewhere):                docker run --rm -p 10650:10650 --read-only avalanche-exporter --node.url http://NODE:9650

# Build stage: compile the simulated node (a workspace package the exporter's `demo` imports) and the exporter
# with the dev dependencies (no source maps: src/ is not shipped; no declarations for the exporter). The
# backtest, the third workspace, is neither installed nor compiled here.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY simulated-node/package.json ./simulated-node/
RUN npm ci --no-audit --no-fund --ignore-scripts --workspace=@avalanche-exporter/simulated-node --include-workspace-root
COPY tsconfig.json ./
COPY simulated-node/tsconfig.json ./simulated-node/
COPY simulated-node/src ./simulated-node/src
COPY src ./src
RUN npx tsc -p simulated-node/tsconfig.json --sourceMap false \
 && npx tsc -p tsconfig.json --sourceMap false --composite false --declaration false

# Runtime stage: production dependencies only, non-root, read-only root file system friendly
# (the exporter writes nothing to disk; logs go to stdout).
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY simulated-node/package.json ./simulated-node/
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts --workspace=@avalanche-exporter/simulated-node --include-workspace-root \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/simulated-node/dist ./simulated-node/dist
COPY alerts ./alerts
COPY dashboards ./dashboards
COPY examples ./examples
COPY docs/metrics.md docs/runbook.md ./docs/
USER node
EXPOSE 10650
# `healthcheck --pid 1` reads the flags of the running exporter (PID 1, or the child of docker-init with
# --init) and the container's AVAX_EXPORTER_* environment: it follows --web.listen-address and the TLS
# of --web.config.file, and /healthz needs no password with basic auth. Exit 0 healthy, 1 unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "dist/cli.js", "healthcheck", "--pid", "1"]
# --v8-pool-size=1: one V8 helper thread for background GC, not four (src/runtime-flags.ts NODE_FLAGS: measured).
ENTRYPOINT ["node", "--v8-pool-size=1", "dist/cli.js"]
# The node's API on 127.0.0.1: with --network host (Linux) that is the host's node, no --add-host needed.
CMD ["--node.url", "http://127.0.0.1:9650"]
