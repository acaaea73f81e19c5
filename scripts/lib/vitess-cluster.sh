#!/usr/bin/env bash
# The Vitess local-cluster shape (the module's examples/local), for the load harness: etcd (Debian's
# etcd-server, taken from its package into the cache), vtctld, one mysqld (MySQL 9.7, durable
# settings, binary log on for VReplication) and one vttablet per shard, vtorc, vtgate. Keyspaces
# `dsched` (sharded, DSCHED_VITESS_SHARDS shards, default 2) and `dsched_global` (unsharded). Data
# under $DSCHED_STACK_DIR/vitess/cluster survives `down`/`up`; `reset` deletes it.
#
#   scripts/vitess cluster up                  start what is not running (creates it the first time)
#   scripts/vitess cluster down                stop every process it started, by the pids it recorded
#   scripts/vitess cluster status              processes, ports, shards
#   scripts/vitess cluster reset               stop every process at once, then delete the data
#   scripts/vitess cluster tablet KS SHARD     start a tablet (and its mysqld) for a new shard: Reshard's targets
#   scripts/vitess cluster ctl ARGS…           vtctldclient against this cluster
#   scripts/vitess cluster pids                the recorded pids, one "name pid" a line (cgroups, taskset)
#
# Ports from DSCHED_VITESS_CLUSTER_PORT (B, default 15400): vtctld http B, grpc B+1; vtgate http
# B+2, grpc B+3, MySQL protocol B+6 (DSCHED_VITESS_CLUSTER_MYSQL_PORT); vtorc B+4; etcd B+79/B+80;
# tablet uid U: vttablet http B+U, grpc B+U+100, mysqld B+U+200 (uids from 100).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DSCHED_CACHE="${DSCHED_CACHE:-$HOME/.cache/dsched}"
STACK="${DSCHED_STACK_DIR:-$ROOT/.stack}"
VITESS_BIN="$("$ROOT/scripts/vitess" path vtgate 2>/dev/null | xargs -r dirname)" || true
B="${DSCHED_VITESS_CLUSTER_PORT:-15400}"
VTCTLD_HTTP=$B VTCTLD_GRPC=$((B + 1))
VTGATE_HTTP=$((B + 2)) VTGATE_GRPC=$((B + 3)) VTORC_HTTP=$((B + 4))
VTGATE_MYSQL="${DSCHED_VITESS_CLUSTER_MYSQL_PORT:-$((B + 6))}"
ETCD_CLIENT=$((B + 79)) ETCD_PEER=$((B + 80))
SHARDS="${DSCHED_VITESS_SHARDS:-2}"
CELL=zone1
ETCD_VERSION_WANTED=3.4
TOPO=(--topo-implementation etcd2 --topo-global-server-address "127.0.0.1:$ETCD_CLIENT" --topo-global-root /vitess/global)

log() { echo "vitess cluster: $*" >&2; }
die() { echo "vitess cluster: $*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

VT_UID="${DSCHED_VITESS_UID:-65534}"
VT_GID="${DSCHED_VITESS_GID:-65534}"
vt_user() {
  if [ "$(id -u)" -eq 0 ]; then
    echo setpriv --reuid="$VT_UID" --regid="$VT_GID" --clear-groups \
      --inh-caps=+dac_read_search --ambient-caps=+dac_read_search
  fi
}
own_vt() { if [ "$(id -u)" -eq 0 ]; then chown -R "$VT_UID:$VT_GID" "$@"; fi; }
# shellcheck source=vitess-dir.sh
. "$ROOT/scripts/lib/vitess-dir.sh"
VSTACK="$(vitess_stack_dir "$STACK" "$VT_UID" "$VT_GID")"
CL="$VSTACK/cluster"
vt_env() {
  echo "PATH=$CL/vtroot/bin:/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8" "HOME=$VSTACK/home" \
    "VTROOT=$CL/vtroot" "VTDATAROOT=$CL/data" "VT_MYSQL_ROOT=$VSTACK/mysql-root" "EXTRA_MY_CNF=$CL/durable.cnf"
}
# shellcheck disable=SC2046 # the environment and the user prefix split into words on purpose
as_vt() { env -i $(vt_env) $(vt_user) "$@"; }
# start NAME CMD…: runs CMD as the Vitess user in its own session, records its pid in run/NAME.pid
start() {
  local name="$1"; shift
  # shellcheck disable=SC2046
  ( cd "$CL" && exec setsid env -i $(vt_env) $(vt_user) "$@" </dev/null >"$CL/logs/$name.log" 2>&1 ) &
  echo $! >"$CL/run/$name.pid"
}
pid_of() { local p; p="$(cat "$CL/run/$1.pid" 2>/dev/null)" || return 1; [ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"; }
wait_http() { # wait_http PORT NAME SECONDS
  local i
  for i in $(seq 1 $(($3 * 4))); do
    curl -fsS -o /dev/null "http://127.0.0.1:$1/debug/status" 2>/dev/null && return 0
    pid_of "$2" >/dev/null || { tail -20 "$CL/logs/$2.log" >&2; die "$2 exited (log: $CL/logs/$2.log)"; }
    sleep 0.25
  done
  tail -20 "$CL/logs/$2.log" >&2; die "$2 did not answer on $1 in $3 s"
}
ctl() { as_vt "$VITESS_BIN/vtctldclient" --server "127.0.0.1:$VTCTLD_GRPC" "$@"; }

# etcd from Debian's etcd-server package, unpacked into the cache rather than installed (installing
# it would add a service that starts on 2379).
etcd_bin() {
  local dir="$DSCHED_CACHE/tools/etcd"
  if [ ! -x "$dir/etcd" ]; then
    log "fetching etcd (Debian package etcd-server) into $dir"
    local work; work="$(mktemp -d)"
    (cd "$work" && apt-get download etcd-server >/dev/null 2>&1) || {
      if [ "$(id -u)" -eq 0 ]; then apt-get update -qq >/dev/null; else sudo apt-get update -qq >/dev/null; fi
      (cd "$work" && apt-get download etcd-server >/dev/null)
    }
    dpkg-deb -x "$work"/etcd-server_*.deb "$work/root"
    mkdir -p "$dir"; cp "$work/root/usr/bin/etcd" "$dir/etcd"; rm -rf "$work"
  fi
  local version; version="$("$dir/etcd" --version 2>/dev/null | head -1)"
  case "$version" in *"Version: $ETCD_VERSION_WANTED".*) ;; *) log "WARNING: etcd is not $ETCD_VERSION_WANTED.x: $version" ;; esac
  echo "$dir/etcd"
}

# Durable settings (each write is on disk when its commit returns) and the project's server
# settings; the binary log stays on (mysqlctl's default), VReplication reads it.
durable_cnf() {
  cat >"$CL/durable.cnf" <<CNF
[mysqld]
secure-file-priv = NULL
character-set-server = utf8mb4
collation-server = utf8mb4_bin
transaction-isolation = READ-COMMITTED
innodb_flush_log_at_trx_commit = 1
sync_binlog = 1
innodb_doublewrite = ON
innodb_buffer_pool_size = ${DSCHED_VITESS_BUFFER_POOL:-512M}
innodb_redo_log_capacity = 512M
innodb_lock_wait_timeout = 10
max_connections = 2000
binlog_row_image = full
CNF
}

# The tablets: uid, keyspace, shard, one a line, in $CL/tablets.
shard_names() { # shard_names N: the N equal key ranges, Vitess's spelling (-80,80- for 2)
  local n="$1" i lo hi out=()
  for i in $(seq 0 $((n - 1))); do
    lo=""; hi=""
    [ "$i" -gt 0 ] && lo="$(printf '%02x' $((256 * i / n)))"
    [ "$i" -lt $((n - 1)) ] && hi="$(printf '%02x' $((256 * (i + 1) / n)))"
    out+=("$lo-$hi")
  done
  # One shard is `-` (the whole range), the name the services parse (shards.ts), not `0`.
  (IFS=,; echo "${out[*]}")
}

tablet_ports() { local u="$1"; echo "$((B + u)) $((B + u + 100)) $((B + u + 200))"; }

tablet_up() { # tablet_up UID KEYSPACE SHARD
  local uid="$1" ks="$2" shard="$3" alias http grpc mport dir
  alias="$(printf '%s-%010d' "$CELL" "$uid")"
  read -r http grpc mport <<<"$(tablet_ports "$uid")"
  dir="$CL/data/$(printf 'vt_%010d' "$uid")"
  if ! pid_of "mysqld-$uid" >/dev/null; then
    local action=init
    [ -d "$dir" ] && action=start
    log "mysqld for $alias ($ks/$shard): mysqlctl $action, port $mport"
    as_vt "$VITESS_BIN/mysqlctl" --tablet-uid "$uid" --mysql-port "$mport" --log-format text "$action" \
      >"$CL/logs/mysqlctl-$uid.log" 2>&1 || { tail -20 "$CL/logs/mysqlctl-$uid.log" >&2; die "mysqlctl $action failed for $alias"; }
    cp "$dir/mysql.pid" "$CL/run/mysqld-$uid.pid"
  fi
  grep -qx "$uid $ks $shard" "$CL/tablets" 2>/dev/null || echo "$uid $ks $shard" >>"$CL/tablets"
  pid_of "vttablet-$uid" >/dev/null && return 0
  start "vttablet-$uid" "$VITESS_BIN/vttablet" "${TOPO[@]}" --tablet-path "$alias" --tablet-hostname 127.0.0.1 \
    --init-keyspace "$ks" --init-shard "$shard" --init-tablet-type replica \
    --port "$http" --grpc-port "$grpc" --bind-address 127.0.0.1 --grpc-bind-address 127.0.0.1 \
    --service-map grpc-queryservice,grpc-tabletmanager,grpc-updatestream \
    --health-check-interval 2s --heartbeat-on-demand-duration 5s \
    --queryserver-config-pool-size 48 --queryserver-config-transaction-cap 400 \
    --queryserver-config-txpool-timeout 30s --queryserver-config-max-result-size 100000 \
    --queryserver-config-query-timeout 60s --queryserver-config-transaction-timeout 60s \
    --db-charset utf8mb4 --log-format text --pid-file "$dir/vttablet.pid"
  wait_http "$http" "vttablet-$uid" 60
}

first_primary() { # first_primary KS SHARD UID: the only tablet of a new shard becomes its primary
  if ctl GetShard "$1/$2" 2>/dev/null | grep -q '"primary_alias": null\|"primary_alias": {}' \
     || ! ctl GetShard "$1/$2" 2>/dev/null | grep -q '"primary_alias"'; then
    local alias; alias="$(printf '%s-%010d' "$CELL" "$3")"
    log "$1/$2: $alias becomes primary (PlannedReparentShard)"
    local i
    for i in $(seq 1 60); do
      ctl PlannedReparentShard "$1/$2" --new-primary "$alias" >>"$CL/logs/reparent.log" 2>&1 && return 0
      sleep 1
    done
    tail -20 "$CL/logs/reparent.log" >&2; die "no primary for $1/$2"
  fi
}

up() {
  [ -n "$VITESS_BIN" ] || { "$ROOT/scripts/vitess" build; VITESS_BIN="$(dirname "$("$ROOT/scripts/vitess" path vtgate)")"; }
  "$ROOT/scripts/vitess" mysql-root >/dev/null
  mkdir -p "$CL/run" "$CL/logs" "$CL/data" "$CL/etcd" "$VSTACK/home" "$CL/vtroot/bin"
  local c
  for c in "$VITESS_BIN"/*; do ln -sfn "$c" "$CL/vtroot/bin/$(basename "$c")"; done
  [ -d "$CL/vtroot/config" ] || cp -r "$VITESS_BIN/../config" "$CL/vtroot/config"
  durable_cnf
  own_vt "$CL" "$VSTACK/home"
  local started=$SECONDS fresh=0
  [ -f "$CL/tablets" ] || fresh=1

  if ! pid_of etcd >/dev/null; then
    port_open "$ETCD_CLIENT" && die "something else answers on etcd's port $ETCD_CLIENT"
    start etcd "$(etcd_bin)" --name dsched --data-dir "$CL/etcd" \
      --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT" --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT" \
      --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
      --initial-cluster "dsched=http://127.0.0.1:$ETCD_PEER"
    local i
    for i in $(seq 1 120); do curl -fsS "http://127.0.0.1:$ETCD_CLIENT/health" >/dev/null 2>&1 && break; sleep 0.25; done
    curl -fsS "http://127.0.0.1:$ETCD_CLIENT/health" >/dev/null || { tail "$CL/logs/etcd.log" >&2; die "etcd did not start"; }
  fi
  if [ "$fresh" = 1 ]; then
    as_vt "$VITESS_BIN/vtctldclient" --server internal "${TOPO[@]}" AddCellInfo \
      --root "/vitess/$CELL" --server-address "127.0.0.1:$ETCD_CLIENT" "$CELL" >>"$CL/logs/setup.log" 2>&1 || true
  fi
  if ! pid_of vtctld >/dev/null; then
    start vtctld "$VITESS_BIN/vtctld" "${TOPO[@]}" --service-map grpc-vtctl,grpc-vtctld \
      --port "$VTCTLD_HTTP" --grpc-port "$VTCTLD_GRPC" --bind-address 127.0.0.1 --grpc-bind-address 127.0.0.1 \
      --log-format text
    wait_http "$VTCTLD_HTTP" vtctld 60
  fi
  if [ "$fresh" = 1 ]; then
    ctl CreateKeyspace --durability-policy=none dsched_global >>"$CL/logs/setup.log" 2>&1 || true
    ctl CreateKeyspace --durability-policy=none dsched >>"$CL/logs/setup.log" 2>&1 || true
    : >"$CL/tablets.new"
    echo "100 dsched_global 0" >>"$CL/tablets.new"
    local s uid=101
    for s in $(shard_names "$SHARDS" | tr , ' '); do echo "$uid dsched $s" >>"$CL/tablets.new"; uid=$((uid + 1)); done
  else
    cp "$CL/tablets" "$CL/tablets.new"
  fi
  local uid ks shard
  while read -r uid ks shard; do tablet_up "$uid" "$ks" "$shard"; done <"$CL/tablets.new"
  rm -f "$CL/tablets.new"
  if [ "$fresh" = 1 ]; then
    while read -r uid ks shard; do first_primary "$ks" "$shard" "$uid"; done <"$CL/tablets"
    # The VSchemas of deploy/vitess (docs/sharding.md); the migrations then go through vtgate.
    local v
    for v in dsched dsched_global; do
      ctl ApplyVSchema --vschema-file "$ROOT/deploy/vitess/vschema-$v.json" "$v" >>"$CL/logs/setup.log" 2>&1 \
        || { tail -5 "$CL/logs/setup.log" >&2; die "ApplyVSchema $v failed"; }
    done
  fi
  if ! pid_of vtorc >/dev/null; then
    start vtorc "$VITESS_BIN/vtorc" "${TOPO[@]}" --cell "$CELL" --port "$VTORC_HTTP" --bind-address 127.0.0.1 \
      --instance-poll-time 1s --recovery-poll-duration 1s --topo-information-refresh-duration 15s \
      --log-format text
  fi
  if ! pid_of vtgate >/dev/null; then
    start vtgate "$VITESS_BIN/vtgate" "${TOPO[@]}" --cell "$CELL" --cells-to-watch "$CELL" \
      --port "$VTGATE_HTTP" --grpc-port "$VTGATE_GRPC" --bind-address 127.0.0.1 --grpc-bind-address 127.0.0.1 \
      --mysql-server-port "$VTGATE_MYSQL" --mysql-server-bind-address 127.0.0.1 \
      --mysql-auth-server-impl none --tablet-types-to-wait PRIMARY --service-map grpc-vtgateservice \
      --enable-buffer --buffer-window 30s --buffer-max-failover-duration 60s --buffer-size 10000 \
      --vschema-ddl-authorized-users % --log-format text
    wait_http "$VTGATE_HTTP" vtgate 60
    local i
    for i in $(seq 1 120); do port_open "$VTGATE_MYSQL" && break; sleep 0.25; done
  fi
  log "up in $((SECONDS - started)) s: vtgate mysql://127.0.0.1:$VTGATE_MYSQL/dsched, vtctld 127.0.0.1:$VTCTLD_GRPC"
}

# Processes stop in reverse order of start; mysqld by mysqlctl shutdown (a clean InnoDB stop).
down() {
  local name p
  for name in vtgate vtorc; do stop_pid "$name"; done
  if [ -f "$CL/tablets" ]; then
    local uid ks shard
    while read -r uid ks shard; do stop_pid "vttablet-$uid"; done <"$CL/tablets"
    while read -r uid ks shard; do
      if pid_of "mysqld-$uid" >/dev/null; then
        as_vt "$VITESS_BIN/mysqlctl" --tablet-uid "$uid" --log-format text shutdown >>"$CL/logs/mysqlctl-$uid.log" 2>&1 \
          || stop_pid "mysqld-$uid"
        rm -f "$CL/run/mysqld-$uid.pid"
      fi
    done <"$CL/tablets"
  fi
  stop_pid vtctld
  stop_pid etcd
  log "stopped"
}
stop_pid() {
  local p; p="$(pid_of "$1")" || { rm -f "$CL/run/$1.pid"; return 0; }
  kill -TERM "$p"
  local i; for i in $(seq 1 120); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
  if kill -0 "$p" 2>/dev/null; then log "$1 (pid $p) did not stop in 30 s: SIGKILL"; kill -KILL "$p"; fi
  rm -f "$CL/run/$1.pid"
}

# For reset, whose data goes: every recorded process signalled at once (a clean InnoDB stop is
# not needed), SIGKILL for what still runs after 30 s. `down` stops them one by one in 3 min.
stop_all() {
  local name p all=() i alive
  while read -r name p; do if kill -TERM "$p" 2>/dev/null; then all+=("$p"); fi; done < <(pids)
  for i in $(seq 1 120); do
    alive=0
    for p in "${all[@]}"; do if kill -0 "$p" 2>/dev/null; then alive=1; fi; done
    [ "$alive" = 0 ] && break
    sleep 0.25
  done
  for p in "${all[@]}"; do
    if kill -0 "$p" 2>/dev/null; then log "pid $p did not stop in 30 s: SIGKILL"; kill -KILL "$p" || true; fi
  done
  rm -f "$CL"/run/*.pid
  log "stopped ${#all[@]} processes"
}

pids() {
  local f name
  for f in "$CL"/run/*.pid; do
    [ -e "$f" ] || continue
    name="$(basename "$f" .pid)"
    p="$(pid_of "$name")" && echo "$name $p"
  done
}

status() {
  if ! pid_of vtgate >/dev/null; then echo "vitess cluster: vtgate down"; else echo "vitess cluster: vtgate up, mysql://127.0.0.1:$VTGATE_MYSQL"; fi
  local name p
  while read -r name p; do
    printf '  %-14s pid %-8s RSS %5d MiB\n' "$name" "$p" $(($(ps -o rss= -p "$p" | tr -d ' ') / 1024))
  done < <(pids)
  [ -f "$CL/tablets" ] && sed 's/^/  tablet /' "$CL/tablets"
  return 0
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  reset) stop_all; rm -rf "$CL"; log "deleted $CL" ;;
  tablet) shift; [ $# = 2 ] || die "usage: cluster tablet KEYSPACE SHARD"
    uid=$(( $(awk '{print $1}' "$CL/tablets" | sort -n | tail -1) + 1 ))
    tablet_up "$uid" "$1" "$2"; first_primary "$1" "$2" "$uid" ;;
  ctl) shift; ctl "$@" ;;
  pids) pids ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 64 ;;
esac
