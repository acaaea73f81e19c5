# syntax=docker/dockerfile:1
# One image for the six services, the migration step and the demo target; the first argument
# chooses what runs: `docker run dsched task-api`, `docker run dsched migrate`.
# Node 24 runs the TypeScript sources directly (type stripping), so there is no build step: the
# image carries the sources and the production node_modules installed from the lockfile. Workspace
# packages stay symlinked to their real folders (not copied into node_modules, as `pnpm deploy`
# would), because Node refuses to strip types from files under node_modules.
ARG NODE_IMAGE=node:24-slim
ARG PNPM_VERSION=10.34.8

FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION
ENV CI=true
RUN npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}"
WORKDIR /app
# The lockfile alone fills the store, so this layer is rebuilt only when dependencies change.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=dsched-pnpm,target=/pnpm-store pnpm fetch --prod --store-dir /pnpm-store
COPY . .
RUN --mount=type=cache,id=dsched-pnpm,target=/pnpm-store \
    pnpm install --offline --prod --frozen-lockfile --store-dir /pnpm-store \
 && rm -rf /app/loadtest /app/bench

# The console's files (apps/console/dist, served by job-api under /ui) are built with esbuild, a dev
# dependency the runtime install leaves out: in a stage of their own, of which only dist is kept.
FROM ${NODE_IMAGE} AS console
ARG PNPM_VERSION
ENV CI=true
RUN npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}"
WORKDIR /app
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=dsched-pnpm,target=/pnpm-store pnpm fetch --store-dir /pnpm-store
COPY . .
RUN --mount=type=cache,id=dsched-pnpm,target=/pnpm-store \
    pnpm install --offline --frozen-lockfile --store-dir /pnpm-store --filter "@dsched/console..." \
 && pnpm console:build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and not writable by the service user: the code is immutable at run time, and the
# Kubernetes manifests also mount the root file system read-only.
COPY --from=build /app /app
COPY --from=console /app/apps/console/dist /app/apps/console/dist
# The node user of the official image, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 8081 9101 9102 9103 9104
# /healthz of whichever service this container runs (found from its command line).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "deploy/docker/healthcheck.ts"]
ENTRYPOINT ["/app/deploy/docker/entrypoint.sh"]
CMD ["help"]
