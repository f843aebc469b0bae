# Tonne's container image: built with the Rust toolchain, run on Debian slim as a
# non-root user, SQLite data on a volume, a health check on /ready.
#
#   podman build -t tonne .        (or: docker build -t tonne .)
#   podman run -p 8080:8080 -v tonne-data:/var/lib/tonne tonne
#
# Where no image registry can be reached, `bash deploy/container/base-images.sh`
# first makes the two base images below from Debian's packages (debootstrap) and
# tags them under these names. compose.yaml runs it with PostgreSQL and Redis.
ARG RUST_IMAGE=docker.io/library/rust:1.95-slim-bookworm
ARG RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${RUST_IMAGE} AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY crates crates
COPY migrations migrations
# The workspace lists every crate's tests' fixtures beside the sources; only the
# binary is built. `strip` keeps the image small (debug symbols stay in the build stage).
RUN cargo build --release --locked -p tonne --bin tonne \
 && strip target/release/tonne

FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 tonne \
 && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/tonne --create-home --shell /usr/sbin/nologin tonne
COPY --from=build /src/target/release/tonne /usr/local/bin/tonne
USER 10001:10001
WORKDIR /var/lib/tonne
# Every setting can be overridden with the environment (see .env.example) or a
# mounted configuration file (TONNE_CONFIG; see tonne.example.toml).
ENV DATABASE_URL=sqlite:///var/lib/tonne/tonne.db \
    TONNE_BIND=0.0.0.0:8080 \
    TONNE_LOG_FORMAT=json
VOLUME ["/var/lib/tonne"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/ready || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tonne"]
CMD ["serve"]
