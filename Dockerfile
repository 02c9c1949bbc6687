# The shop in a container (docs/deployment.md, "Docker"): the same process, settings and
# data folder as the systemd service, as a non-root user. compose.yaml runs it with
# PostgreSQL 17.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first: the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/storefront
WORKDIR /app
# The code belongs to root and is read-only to the shop; only DATA_DIR is its own.
COPY --from=build /app /app
RUN mkdir -p /var/lib/storefront && chown node:node /var/lib/storefront
USER node
VOLUME /var/lib/storefront
# 3000: the shop (nginx in front); 9464: METRICS_PORT when set.
EXPOSE 3000 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Plain node, no npm in between: SIGTERM reaches the shop, which drains and exits.
CMD ["node", "apps/api/dist/main.js"]
