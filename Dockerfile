# chessbot container image.
#
#   docker build -t chessbot .
#   docker run -d --name chessbot -e DISCORD_TOKEN -v chessbot:/data chessbot
#
# Two stages: a Rust toolchain builds the binary (dependencies in a layer of
# their own, rebuilt only when Cargo.toml or Cargo.lock change), then a slim
# Debian image runs it as an unprivileged user with the SQLite file in /data.

# Bookworm on both sides, so the binary's glibc matches the runtime's.
FROM rust:1.95-bookworm AS builder
WORKDIR /build
# A smaller binary; keeps Cargo.toml's profile untouched.
ENV CARGO_PROFILE_RELEASE_STRIP=true

# 1. Dependencies: build them against a placeholder crate with the real
#    manifest and lock file.
COPY Cargo.toml Cargo.lock ./
RUN mkdir src \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs \
    && cargo build --release --locked \
    && rm -rf src

# 2. The bot. Embedded at compile time: the migrations (sqlx::migrate!), the
#    message catalogues (build.rs reads locales/) and the bundled fonts and
#    data (assets/).
COPY build.rs ./
COPY src ./src
COPY migrations ./migrations
COPY locales ./locales
COPY assets ./assets
# COPY keeps the files' old timestamps: touch the crate roots so cargo
# rebuilds the crate instead of keeping the placeholder.
RUN touch src/main.rs src/lib.rs && cargo build --release --locked

FROM debian:bookworm-slim
# ca-certificates: TLS to Discord. sqlite3: online backups from inside the
# container (`docker exec chessbot sqlite3 /data/chessbot.db ".backup /data/backup.db"`).
# stockfish: the engine for /play and /analyze (installed as /usr/games/stockfish,
# where the bot looks for it); fairy-stockfish: the same for lichess's variants
# (/usr/games/fairy-stockfish). fonts-noto-cjk: every CJK character on boards
# and charts (the binary's bundled subset has the 8,105 common ones; the
# system font is tried first and has the rare ones too).
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates sqlite3 stockfish fairy-stockfish fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin chessbot \
    && mkdir -p /data /etc/chessbot \
    && chown chessbot:chessbot /data
COPY --from=builder /build/target/release/chessbot /usr/local/bin/chessbot
COPY config.example.toml /etc/chessbot/config.example.toml

# A named volume starts as a copy of this folder, owned by chessbot.
VOLUME ["/data"]
WORKDIR /data
ENV DATABASE_URL=sqlite:/data/chessbot.db
# Metrics (/metrics) and health (/healthz, /readyz) on port 9100: the health
# check below asks /readyz (Discord gateway connected, database answering).
# Publish the port only to your Prometheus; unset the variable to turn the
# server (and the health check's answer) off.
ENV CHESSBOT_METRICS_ADDR=0.0.0.0:9100
EXPOSE 9100
USER chessbot:chessbot

# `chessbot health` is a plain HTTP GET built into the binary (the slim
# image has no curl). start-period: logging in to Discord takes a few seconds.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["chessbot", "health"]

ENTRYPOINT ["chessbot"]
CMD ["run"]
