#!/usr/bin/env bash
# A PostgreSQL server for the tests: install it with apt-get if missing, start the first
# cluster (creating one if there is none), create a role and a database, and print the
# SQLAlchemy URL on stdout (everything else goes to stderr):
#
#     export HUKUM_TEST_POSTGRES_URL="$(.ci/postgres.sh)"
#
# Idempotent: run it again and it prints the same URL. Needs root (or sudo).
set -euo pipefail

ROLE="${HUKUM_PG_ROLE:-hukum}"
PASSWORD="${HUKUM_PG_PASSWORD:-hukum}"
DATABASE="${HUKUM_PG_DATABASE:-hukum_test}"

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    echo "postgres.sh: installing PostgreSQL" >&2
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
fi

# The first cluster, or a new one for the newest installed version.
read -r VERSION CLUSTER PORT STATUS _ < <(pg_lsclusters -h | head -n 1) || true
if [ -z "${VERSION:-}" ]; then
    VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
    CLUSTER=main
    echo "postgres.sh: creating cluster $VERSION/$CLUSTER" >&2
    $SUDO pg_createcluster "$VERSION" "$CLUSTER" >&2
    read -r VERSION CLUSTER PORT STATUS _ < <(pg_lsclusters -h | head -n 1)
fi
if [ "$STATUS" != "online" ]; then
    echo "postgres.sh: starting cluster $VERSION/$CLUSTER on port $PORT" >&2
    $SUDO pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi

psql_su() {
    (cd / && $SUDO -u postgres psql -p "$PORT" -v ON_ERROR_STOP=1 -qAt "$@")
}
if [ "$(id -u)" -eq 0 ]; then
    psql_su() {
        (cd / && su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -qAt $(printf '%q ' "$@")")
    }
fi

for _ in $(seq 1 50); do
    psql_su -c "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.2
done

if [ "$(psql_su -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != "1" ]; then
    psql_su -c "CREATE ROLE \"$ROLE\" LOGIN PASSWORD '$PASSWORD'" >&2
fi
if [ "$(psql_su -c "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != "1" ]; then
    psql_su -c "CREATE DATABASE \"$DATABASE\" OWNER \"$ROLE\"" >&2
fi

echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DATABASE"
