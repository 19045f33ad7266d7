# The hnsight command line in a Linux image, for the fleet Job (deploy/k8s/fleet-job.yaml) and for
# running `hnsight inspect|trace|fleet` where the bundles are. Build from the repository root:
#   docker build -f deploy/hnsight.Dockerfile -t <registry>/hnsight:0.1.0 .
# The CLI runs its TypeScript through tsx (bin/hnsight.mjs), so the install keeps the dev dependencies;
# install scripts are skipped (no Electron or browser download: the CLI needs neither).
FROM node:20-bookworm-slim AS install
WORKDIR /opt/hnsight
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
WORKDIR /opt/hnsight
COPY --from=install /opt/hnsight/node_modules ./node_modules
COPY package.json tsconfig.json tsconfig.base.json ./
COPY bin ./bin
COPY cli ./cli
COPY parsers ./parsers
COPY analysis ./analysis
COPY contract ./contract
COPY services ./services
RUN ln -s /opt/hnsight/bin/hnsight.mjs /usr/local/bin/hnsight && chmod +x /opt/hnsight/bin/hnsight.mjs
# The node image's unprivileged user (uid 1000), matching the Job's securityContext.
USER node
ENTRYPOINT ["hnsight"]
CMD ["help"]
