# One image for the server and the worker (docker-compose.yml picks the command).
# Node 20 (20.19 or newer, package.json engines; CI checks the same floor in .ci/run).
FROM node:20-bookworm-slim AS build
WORKDIR /app
# argon2 is compiled from source at install (its prebuilt binary is not trusted here).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
# pg_dump/pg_restore for backups (issue 25): at least the server's major version (PostgreSQL 16 in
# docker-compose.yml), from PostgreSQL's own Debian repository (bookworm ships 15).
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
  && install -d /usr/share/postgresql-common/pgdg \
  && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc https://www.postgresql.org/media/keys/ACCC4CF8.asc \
  && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" > /etc/apt/sources.list.d/pgdg.list \
  && apt-get update && apt-get install -y --no-install-recommends postgresql-client-16 \
  && apt-get purge -y curl && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data TZ=Africa/Nairobi
COPY --from=build /app /app
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "server/main.ts"]
