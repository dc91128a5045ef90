#!/usr/bin/env bash
# The scaled set-up on one machine, in the foreground (`make cluster`):
#
#   - PostgreSQL (.ci/postgres.sh, database hukum_cluster; HUKUM_CLUSTER_DATABASE_URL for
#     another database),
#   - a private redis-server (port 6379, or the next free one; nothing saved to disk),
#   - two `hukum serve` processes (ports 8001 and 8002) on that database and that Redis,
#   - HAProxy in front of them on port 8000 (HUKUM_CLUSTER_PORT): WebSockets pass through,
#     processes that fail GET /api/health get no new connections.
#
# Prints the URL, then runs until Ctrl-C (or SIGTERM), which stops every process it started.
# Logs and HAProxy's configuration are in .cluster/ (HUKUM_CLUSTER_DIR). Arguments are given
# to each `hukum serve` (e.g. `scripts/cluster.sh --bot-delay 0.3`). kill -9 one of the
# `hukum serve` processes to watch the other take its tables over.
#
# Installs what is missing (postgresql, redis-server, haproxy) with apt-get when it can
# (root, or sudo without a password); else says in one line what to install.
#
#   HUKUM_CLUSTER_PORT     the load balancer's port (default 8000)
#   HUKUM_CLUSTER_HOST     the load balancer's address (default 127.0.0.1; 0.0.0.0 for all)
#   HUKUM_CLUSTER_SERVERS  the ports of the hukum serve processes (default "8001 8002")
#   HUKUM_CLUSTER_DIR      the run directory (default .cluster)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PORT="${HUKUM_CLUSTER_PORT:-8000}"
HOST="${HUKUM_CLUSTER_HOST:-127.0.0.1}"
read -r -a SERVERS <<<"${HUKUM_CLUSTER_SERVERS:-8001 8002}"
RUN_DIR="${HUKUM_CLUSTER_DIR:-.cluster}"
mkdir -p "$RUN_DIR"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"
HUKUM="$ROOT/.venv/bin/hukum"
[ -x "$HUKUM" ] || HUKUM="$(command -v hukum || true)"
if [ -z "$HUKUM" ]; then
    echo "cluster.sh: hukum is not installed: run 'make cluster' (it makes .venv) or pip install -e ." >&2
    exit 1
fi

say() { echo "cluster.sh: $*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi

# --- what is missing -------------------------------------------------------------------
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; }
missing=()
have redis-server || missing+=(redis-server)
have haproxy || missing+=(haproxy)
if [ -z "${HUKUM_CLUSTER_DATABASE_URL:-}" ] &&
    { ! have pg_lsclusters || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; }; then
    missing+=(postgresql)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$SUDO" = "none" ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "cluster.sh: install ${missing[*]} first (Debian: sudo apt-get install -y ${missing[*]})" >&2
        exit 1
    fi
    say "installing ${missing[*]} (apt-get)"
    $SUDO apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export PATH="$PATH:/usr/sbin"

port_busy() { (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1") 2>/dev/null; }  # PORT [HOST]
SHOWN="$HOST"  # where the load balancer is reached
[ "$HOST" = "0.0.0.0" ] && SHOWN="127.0.0.1"

for p in "$PORT" "${SERVERS[@]}"; do
    if port_busy "$p" || { [ "$p" = "$PORT" ] && port_busy "$p" "$SHOWN"; }; then
        echo "cluster.sh: port $p is taken (see ss -ltnp); set HUKUM_CLUSTER_PORT / HUKUM_CLUSTER_SERVERS" >&2
        exit 1
    fi
done

# --- stopping everything it started ----------------------------------------------------
PIDS=()
NAMES=()
PG_STARTED=()  # the PostgreSQL cluster this script started (version, name)
stop_group() {  # stop_group PATTERN: SIGTERM the processes so named, SIGKILL after 10 s
    local i group=()
    for i in "${!PIDS[@]}"; do
        # shellcheck disable=SC2053  # a glob pattern
        [[ "${NAMES[$i]}" == $1 ]] && group+=("$i")
    done
    for i in "${group[@]}"; do
        kill -TERM "${PIDS[$i]}" 2>/dev/null || true
    done
    for _ in $(seq 1 100); do
        local alive=0
        for i in "${group[@]}"; do
            kill -0 "${PIDS[$i]}" 2>/dev/null && alive=1
        done
        [ "$alive" -eq 0 ] && return 0
        sleep 0.1
    done
    for i in "${group[@]}"; do
        if kill -0 "${PIDS[$i]}" 2>/dev/null; then
            say "${NAMES[$i]} did not stop: killed"
            kill -KILL "${PIDS[$i]}" 2>/dev/null || true
        fi
    done
}
stop_all() {  # the load balancer, then the servers, then Redis (which they need to stop)
    trap - INT TERM EXIT
    stop_group haproxy
    stop_group 'serve-*'
    stop_group redis
    if [ "${#PG_STARTED[@]}" -gt 0 ] && [ "$SUDO" != none ]; then  # it was stopped before
        $SUDO pg_ctlcluster "${PG_STARTED[@]}" stop || true
    fi
}
on_exit() {
    local status=$?
    stop_all
    exit "$status"
}
trap on_exit EXIT
trap 'echo >&2; say "stopping"; exit 0' INT TERM

# Start a child process in the background, its output in the run directory, in a process
# group of its own (set -m): Ctrl-C reaches this script alone, which stops them in order.
set -m
spawn() {
    local name="$1"
    shift
    "$@" >"$RUN_DIR/$name.log" 2>&1 &
    PIDS+=("$!")
    NAMES+=("$name")
    disown "$!"  # watched below with kill -0: no job messages from bash
}

# --- PostgreSQL ------------------------------------------------------------------------
if [ -n "${HUKUM_CLUSTER_DATABASE_URL:-}" ]; then
    DATABASE_URL="$HUKUM_CLUSTER_DATABASE_URL"
else
    read -r VERSION CLUSTER _ STATUS _ < <(pg_lsclusters -h 2>/dev/null | head -n 1) || true
    if ! DATABASE_URL="$(HUKUM_PG_DATABASE=hukum_cluster "$ROOT/.ci/postgres.sh" 2>"$RUN_DIR/postgres.log")"; then
        echo "cluster.sh: PostgreSQL did not start (.ci/postgres.sh needs root or sudo; see $RUN_DIR/postgres.log); or set HUKUM_CLUSTER_DATABASE_URL" >&2
        exit 1
    fi
    if [ -n "${VERSION:-}" ] && [ "${STATUS:-}" != "online" ]; then
        PG_STARTED=("$VERSION" "$CLUSTER")
    fi
fi

# --- Redis -----------------------------------------------------------------------------
REDIS_PORT="${HUKUM_CLUSTER_REDIS_PORT:-6379}"
while port_busy "$REDIS_PORT"; do REDIS_PORT=$((REDIS_PORT + 1)); done
spawn redis redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$RUN_DIR" --daemonize no
REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"

wait_for() {  # wait_for NAME TEST...: until TEST succeeds, or NAME's process has exited
    local name="$1" i
    shift
    for _ in $(seq 1 300); do
        "$@" && return 0
        for i in "${!NAMES[@]}"; do
            if [ "${NAMES[$i]}" = "$name" ] && ! kill -0 "${PIDS[$i]}" 2>/dev/null; then
                say "$name exited; the end of $RUN_DIR/$name.log:"
                tail -n 20 "$RUN_DIR/$name.log" >&2
                exit 1
            fi
        done
        sleep 0.1
    done
    say "$name did not start within 30 s; see $RUN_DIR/$name.log"
    exit 1
}
wait_for redis port_busy "$REDIS_PORT"

# --- the hukum serve processes ---------------------------------------------------------
healthy() {  # PORT [HOST]
    local url="http://${2:-127.0.0.1}:$1/api/health"
    if command -v curl >/dev/null 2>&1; then
        curl -fsS -m 2 -o /dev/null "$url" 2>/dev/null
    else
        "$ROOT/.venv/bin/python" -c 'import sys, urllib.request as u; u.urlopen(sys.argv[1], timeout=2)' \
            "$url" 2>/dev/null
    fi
}
for p in "${SERVERS[@]}"; do
    spawn "serve-$p" "$HUKUM" serve --host 127.0.0.1 --port "$p" --database-url "$DATABASE_URL" \
        --redis-url "$REDIS_URL" --forwarded-allow-ips 127.0.0.1 "$@"
done
for p in "${SERVERS[@]}"; do
    wait_for "serve-$p" healthy "$p"
done

# --- HAProxy ---------------------------------------------------------------------------
CONFIG="$RUN_DIR/haproxy.cfg"
{
    cat <<EOF
# Generated by scripts/cluster.sh: overwritten at each start.
global
    log stdout format raw local0 info

defaults
    mode http
    log global
    option httplog
    option dontlognull
    # The client's address for the servers (hukum serve --forwarded-allow-ips 127.0.0.1).
    option forwardfor
    # A request to a process that just died is sent to another one.
    option redispatch
    retries 2
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout http-keep-alive 10s
    # An open WebSocket may stay quiet for long (a player thinking).
    timeout tunnel 1h
    timeout client-fin 10s
    timeout server-fin 10s

frontend hukum
    bind $HOST:$PORT
    default_backend servers

backend servers
    # Least connections: the long-lived game sockets spread evenly.
    balance leastconn
    option httpchk
    http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
    default-server check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
EOF
    for p in "${SERVERS[@]}"; do
        echo "    server serve-$p 127.0.0.1:$p"
    done
} >"$CONFIG"
haproxy -c -q -f "$CONFIG" >"$RUN_DIR/haproxy-check.log" 2>&1 || {
    say "HAProxy refused its configuration $CONFIG:"
    cat "$RUN_DIR/haproxy-check.log" >&2
    exit 1
}
spawn haproxy haproxy -db -f "$CONFIG"
wait_for haproxy port_busy "$PORT" "$SHOWN"
wait_for haproxy healthy "$PORT" "$SHOWN"
echo "hukum: the cluster is up at http://$SHOWN:$PORT/ (${#SERVERS[@]} processes, Redis on port $REDIS_PORT, logs in $RUN_DIR; Ctrl-C stops it)"

# --- until stopped ---------------------------------------------------------------------
declare -A told=()
while true; do
    for i in "${!PIDS[@]}"; do
        if ! kill -0 "${PIDS[$i]}" 2>/dev/null; then
            case "${NAMES[$i]}" in
            serve-*)
                if [ -z "${told[${NAMES[$i]}]:-}" ]; then
                    say "${NAMES[$i]} exited (see $RUN_DIR/${NAMES[$i]}.log); the other processes take its tables over"
                    told[${NAMES[$i]}]=1
                fi
                ;;
            *)
                say "${NAMES[$i]} exited; the end of $RUN_DIR/${NAMES[$i]}.log:"
                tail -n 20 "$RUN_DIR/${NAMES[$i]}.log" >&2
                exit 1
                ;;
            esac
        fi
    done
    sleep 1 &
    wait $! || true
done
