#!/usr/bin/env bash
# Makes the images that Dockerfile and compose.yaml name, from Debian's packages,
# on a machine that cannot reach an image registry, and tags each under the name
# the files use (an image that already exists is left alone):
#
#   docker.io/library/debian:bookworm-slim   debootstrap --variant=minbase bookworm
#   docker.io/library/rust:1.95-slim-bookworm that + gcc, libc6-dev and this
#                                            machine's own Rust toolchain (copied
#                                            from `rustc --print sysroot`, nothing
#                                            downloaded) and its extra certificate
#                                            authorities (/usr/local/share/ca-certificates)
#   docker.io/library/postgres:15-bookworm   that + Debian's postgresql-15, with an
#                                            entrypoint honouring POSTGRES_USER,
#                                            POSTGRES_PASSWORD and POSTGRES_DB as
#                                            the official image does
#   docker.io/library/redis:7-bookworm       that + Debian's redis-server (7.0)
#   docker.io/library/haproxy:2.6-bookworm   that + Debian's haproxy (2.6)
#
# The stand-ins do what compose.yaml asks of the official images, no more.
# Needs root, podman and debootstrap (Debian's packages; installed when absent).
#
#   bash deploy/container/base-images.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# runc and lowered ulimits where the sandbox needs them (see containers.conf).
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/container/containers.conf}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
WORK=${BASE_IMAGES_WORK:-/var/tmp/tonne-base}
mkdir -p "$WORK"

need() { command -v "$1" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }; }
need podman podman
need debootstrap debootstrap
need runc runc

have() { podman image exists "$1"; }

DEBIAN=docker.io/library/debian:bookworm-slim
if ! have "$DEBIAN"; then
  root="$WORK/debian"
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    rm -rf "$root"
    debootstrap --variant=minbase bookworm "$root" "$MIRROR"
  fi
  cat > "$root/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar --numeric-owner -C "$root" -c . | podman import \
    --change 'CMD ["bash"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - "$DEBIAN" >/dev/null
  echo "made $DEBIAN"
fi

# Builds a stand-in FROM the Debian image: build NAME CONTEXT (Containerfile on stdin).
build() { podman build --quiet --format docker -t "$1" -f - "$2" >/dev/null && echo "made $1"; }

RUST=docker.io/library/rust:1.95-slim-bookworm
if ! have "$RUST"; then
  ctx="$WORK/rust"
  rm -rf "$ctx" && mkdir -p "$ctx/rust"
  sysroot=$(rustc --print sysroot)
  cp -a "$sysroot/bin" "$sysroot/lib" "$ctx/rust/"
  # The certificate authorities this machine adds to Debian's (an egress proxy's,
  # say), so that cargo inside the build stage reaches crates.io as it does here.
  mkdir -p "$ctx/ca"
  cp /usr/local/share/ca-certificates/*.crt "$ctx/ca/" 2>/dev/null || true
  build "$RUST" "$ctx" <<CONTAINERFILE
FROM $DEBIAN
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gcc libc6-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY ca /usr/local/share/ca-certificates
RUN update-ca-certificates >/dev/null
COPY rust /usr/local/rust
ENV PATH=/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin CARGO_HOME=/usr/local/cargo
CONTAINERFILE
fi

POSTGRES=docker.io/library/postgres:15-bookworm
if ! have "$POSTGRES"; then
  ctx="$WORK/postgres"
  rm -rf "$ctx" && mkdir -p "$ctx"
  cat > "$ctx/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/bin/bash
# initdb on an empty data directory, with POSTGRES_USER / POSTGRES_PASSWORD /
# POSTGRES_DB, then PostgreSQL in the foreground listening on every address.
set -euo pipefail
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
user=${POSTGRES_USER:-postgres} db=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql && chown -R postgres:postgres "$PGDATA" /run/postgresql && chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  pwfile=$(mktemp) && printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    postgres --single -D "$PGDATA" postgres <<< "CREATE DATABASE \"$db\" OWNER \"$user\";" >/dev/null
  fi
fi
exec postgres -c listen_addresses='*' "$@"
ENTRYPOINT
  chmod +x "$ctx/docker-entrypoint.sh"
  build "$POSTGRES" "$ctx" <<CONTAINERFILE
FROM $DEBIAN
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD []
CONTAINERFILE
fi

REDIS=docker.io/library/redis:7-bookworm
if ! have "$REDIS"; then
  ctx="$WORK/empty" && mkdir -p "$ctx"
  build "$REDIS" "$ctx" <<CONTAINERFILE
FROM $DEBIAN
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*
USER redis
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no"]
CONTAINERFILE
fi

HAPROXY=docker.io/library/haproxy:2.6-bookworm
if ! have "$HAPROXY"; then
  ctx="$WORK/empty" && mkdir -p "$ctx"
  build "$HAPROXY" "$ctx" <<CONTAINERFILE
FROM $DEBIAN
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /usr/local/etc/haproxy
EXPOSE 8080
CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg", "-db"]
CONTAINERFILE
fi
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'debian|rust|postgres|redis|haproxy' || true
