#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for gammon's tests and print the URL to use.
#
#   eval "$(scripts/start_postgres.sh)"      # exports GAMMON_TEST_POSTGRES_URL
#   scripts/start_postgres.sh stop           # stops it again
#
# Installs Debian's postgresql package when no server binaries are found (needs root and apt).
# The cluster lives in a temporary directory, listens on 127.0.0.1 only (port GAMMON_PG_PORT,
# default 55432) with trust authentication, and runs as the 'postgres' user when started by root
# (PostgreSQL refuses to run as root). Only the export line goes to stdout; progress goes to stderr.
set -euo pipefail

PORT="${GAMMON_PG_PORT:-55432}"
DIR="${GAMMON_PG_DIR:-${TMPDIR:-/tmp}/gammon-pg-$PORT}"
DB="${GAMMON_PG_DB:-gammon_test}"
say() { echo "start_postgres: $*" >&2; }
cd /  # the 'postgres' user may not be able to read the caller's directory

find_bin() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    done
    command -v pg_ctl >/dev/null 2>&1 && { dirname "$(command -v pg_ctl)"; return 0; }
    return 1
}

BIN="$(find_bin || true)"
if [ -z "$BIN" ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        say "no PostgreSQL server found; install it (apt-get install -y postgresql) and run again"
        exit 1
    fi
    say "installing postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN="$(find_bin)"
fi

# Run PostgreSQL's programs as 'postgres' when we are root.
if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir "$DIR" --shell /bin/sh postgres
    as_pg() { runuser -u postgres -- "$@"; }
else
    as_pg() { "$@"; }
fi

if [ "${1:-}" = "stop" ]; then
    if [ -f "$DIR/postmaster.pid" ]; then
        as_pg "$BIN/pg_ctl" -D "$DIR" -m fast -w stop >&2 || true
    fi
    exit 0
fi

if [ ! -s "$DIR/PG_VERSION" ]; then
    say "creating a cluster in $DIR"
    rm -rf "$DIR"
    mkdir -p "$DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres "$DIR"
    chmod 700 "$DIR"
    as_pg "$BIN/initdb" -D "$DIR" -U postgres -A trust -E UTF8 --no-sync >/dev/null
fi

if ! as_pg "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
    say "starting PostgreSQL on 127.0.0.1:$PORT"
    # fsync off: a test database needs speed, not crash safety.
    as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200" \
        start >&2
fi

if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"
fi

echo "export GAMMON_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:$PORT/$DB"
