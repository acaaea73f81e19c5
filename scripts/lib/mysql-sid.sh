#!/usr/bin/env bash
# MySQL 9.7 LTS for a Debian 12 host, which ships only MariaDB: Debian unstable's `mysql-server-core`
# in a minimal unstable ("sid") root file system made with debootstrap and cached outside the repo
# ($DSCHED_CACHE/mysql-sid/sid). Nothing from unstable is installed on the host (only the host's own
# `debootstrap` package). mysqld runs from that tree by its own dynamic loader and libraries, so its
# data directory, socket and logs live wherever the caller says (the stack's .stack/mysql, a fault
# scenario's private directory), as an ordinary process: no chroot at run time, no mounts.
#
#   mysql-sid.sh ensure              build what is missing (debootstrap, install), print the version
#   mysql-sid.sh up                  ensure, initialise $DATADIR if new, start on 127.0.0.1:$PORT, users
#   mysql-sid.sh down                stop the mysqld of $DATADIR by its pid file
#   mysql-sid.sh status              say whether it runs
#   mysql-sid.sh mysqld ARGS…        run the cached mysqld with ARGS (the tree's paths filled in)
#   mysql-sid.sh client ARGS…        the cached mysql client, root over $DATADIR's socket
#   mysql-sid.sh bin NAME            print a command line that runs the tree's program NAME here
#
# Environment: DSCHED_CACHE, DSCHED_MYSQL_SID_DIR (the cache: default $DSCHED_CACHE/mysql-sid),
# DSCHED_MYSQL_DATA (up/down/status/client: the server's own directory, default
# $DSCHED_STACK_DIR/mysql or .stack/mysql), DSCHED_MYSQL_PORT (3307), DSCHED_MYSQL_BUFFER_POOL (2G, as the stack's MariaDB),
# DSCHED_MYSQL_BINLOG=1 (a binary log; off by default, like the stack's MariaDB),
# DSCHED_MYSQL_EXTRA_ARGS (more mysqld options), DSCHED_MYSQL_MIRROR (a Debian mirror).
#
# Version: unstable moves. The package version verified with the project is pinned below; when
# unstable no longer has it, the newest is installed with a warning and the version is recorded in
# $DSCHED_MYSQL_SID_DIR/version (docs/sql-portability.md lists what is verified). The cached tree is
# kept, so a machine that built it once keeps running the verified version.
set -euo pipefail

DSCHED_MYSQL_SID_VERIFIED="${DSCHED_MYSQL_SID_VERIFIED:-9.7.4-2}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${DSCHED_CACHE:-$HOME/.cache/dsched}"
SID_DIR="${DSCHED_MYSQL_SID_DIR:-$CACHE/mysql-sid}"
TREE="$SID_DIR/sid"
PORT="${DSCHED_MYSQL_PORT:-3307}"
DATA_HOME="${DSCHED_MYSQL_DATA:-${DSCHED_STACK_DIR:-$ROOT/.stack}/mysql}"
BUFFER_POOL="${DSCHED_MYSQL_BUFFER_POOL:-2G}"
PACKAGES="mysql-server-core mysql-client"

log() { echo "mysql-sid: $*" >&2; }
die() { echo "mysql-sid: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The host's own Debian mirror (from its apt sources), unless DSCHED_MYSQL_MIRROR names one.
host_mirror() {
  {
    awk '/^URIs:/ {print $2}' /etc/apt/sources.list.d/*.sources 2>/dev/null
    awk '$1 == "deb" {print $2}' /etc/apt/sources.list 2>/dev/null
  } | grep -v security | head -n 1
}

in_tree() { as_root chroot "$TREE" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"; }

# 1. A minbase unstable tree (about 20 s, 1.4 GB with MySQL).
build_tree() {
  [ -f "$TREE/.dsched-debootstrap-done" ] && return
  command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || {
    log "installing debootstrap (apt)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 || {
      as_root apt-get update -qq >/dev/null 2>&1
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    }
  }
  local mirror="${DSCHED_MYSQL_MIRROR:-$(host_mirror)}"
  [ -n "$mirror" ] || die "no Debian mirror found in the apt sources (set DSCHED_MYSQL_MIRROR)"
  mkdir -p "$SID_DIR"
  # A half-built tree from an interrupted run is started over.
  [ -d "$TREE" ] && as_root rm -rf --one-file-system "$TREE"
  log "debootstrap --variant=minbase sid $TREE $mirror"
  as_root nice -n 19 /usr/sbin/debootstrap --variant=minbase sid "$TREE" "$mirror" >"$SID_DIR/debootstrap.log" 2>&1 \
    || { tail -30 "$SID_DIR/debootstrap.log" >&2; die "debootstrap failed (log: $SID_DIR/debootstrap.log)"; }
  touch "$TREE/.dsched-debootstrap-done"
}

# 2. The MySQL packages in the tree (the verified version when unstable still has it); no service
# is started by the maintainer scripts.
install_mysql() {
  [ -x "$TREE/usr/sbin/mysqld" ] && [ -x "$TREE/usr/bin/mysql" ] && [ -f "$SID_DIR/version" ] && return
  cp /etc/resolv.conf "$TREE/etc/resolv.conf"
  printf '#!/bin/sh\nexit 101\n' >"$TREE/usr/sbin/policy-rc.d"; chmod 755 "$TREE/usr/sbin/policy-rc.d"
  printf 'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n' >"$TREE/etc/apt/apt.conf.d/99dsched"
  local mounted=0
  if ! mountpoint -q "$TREE/proc"; then as_root mount -t proc proc "$TREE/proc"; mounted=1; fi
  local pinned="" p
  for p in $PACKAGES; do pinned="$pinned $p=$DSCHED_MYSQL_SID_VERIFIED"; done
  log "apt-get install$pinned (in the tree)"
  local rc=0
  {
    in_tree apt-get update -q
    in_tree env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pinned || {
      echo "mysql-sid: $DSCHED_MYSQL_SID_VERIFIED is no longer in unstable: installing the newest" >&2
      in_tree env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PACKAGES
    }
  } >"$SID_DIR/install.log" 2>&1 || rc=$?
  [ "$mounted" = 1 ] && { as_root umount "$TREE/proc" || as_root umount -l "$TREE/proc"; }
  [ "$rc" = 0 ] || { tail -30 "$SID_DIR/install.log" >&2; die "install failed (log: $SID_DIR/install.log)"; }
  local got
  got="$(in_tree dpkg-query -W -f '${Version}' mysql-server-core)"
  echo "$got" >"$SID_DIR/version"
  [ "$got" = "$DSCHED_MYSQL_SID_VERIFIED" ] \
    || log "WARNING: installed mysql-server-core $got; the project verified $DSCHED_MYSQL_SID_VERIFIED (docs/sql-portability.md)"
}

ensure() {
  if [ -x "$TREE/usr/sbin/mysqld" ] && [ -f "$SID_DIR/version" ]; then return; fi
  local t0; t0=$(date +%s)
  build_tree
  install_mysql
  log "MySQL tree ready in $(($(date +%s) - t0)) s: mysql-server-core $(cat "$SID_DIR/version")"
}

# The tree's programs run by the tree's own dynamic loader and libraries (its libc is newer than
# the host's), with every compiled-in path that points into /usr given as an option instead.
loader() {
  local ld
  for ld in "$TREE/usr/lib64/ld-linux-x86-64.so.2" "$TREE/lib64/ld-linux-x86-64.so.2"; do
    [ -e "$ld" ] && { echo "$ld"; return; }
  done
  die "no dynamic loader in $TREE"
}
libpath() {
  local a="x86_64-linux-gnu"
  echo "$TREE/usr/lib/$a:$TREE/lib/$a:$TREE/usr/lib/mysql/private:$TREE/usr/lib"
}
bin_cmd() { # prints the argv prefix that runs the tree's program $1
  local prog
  for prog in "$TREE/usr/sbin/$1" "$TREE/usr/bin/$1"; do
    [ -x "$prog" ] && { printf '%s --library-path %s %s\n' "$(loader)" "$(libpath)" "$prog"; return; }
  done
  die "no program $1 in $TREE"
}
run_mysqld() {
  # shellcheck disable=SC2046
  exec $(bin_cmd mysqld) --no-defaults --basedir="$TREE/usr" --lc-messages-dir="$TREE/usr/share/mysql" \
    --character-sets-dir="$TREE/usr/share/mysql/charsets" --plugin-dir="$TREE/usr/lib/mysql/plugin" "$@"
}
run_client() { # run_client PROGRAM ARGS…
  local prog="$1"; shift
  # shellcheck disable=SC2046
  $(bin_cmd "$prog") --no-defaults --character-sets-dir="$TREE/usr/share/mysql/charsets" "$@"
}

DATADIR="$DATA_HOME/data"
SOCKET="$DATA_HOME/mysqld.sock"
PIDFILE="$DATA_HOME/mysqld.pid"
ERRLOG="$DATA_HOME/error.log"

running_pid() {
  local p
  [ -f "$PIDFILE" ] || return 1
  p="$(cat "$PIDFILE")"
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}

# The project's MariaDB flags (scripts/stack) in MySQL's spellings: innodb-log-file-size is
# innodb-redo-log-capacity; no binary log (MySQL's default is on; the MariaDB leg has none); X
# Protocol off; secure-file-priv NULL (the project reads and writes no server-side files, and the
# package's compiled-in directory does not exist). EXPLAIN prints MariaDB's shapes (tabular; JSON
# format version 1), which the plan tests read.
server_flags() {
  local binlog=(--disable-log-bin)
  [ "${DSCHED_MYSQL_BINLOG:-0}" = 1 ] && binlog=(--log-bin=binlog --server-id="${DSCHED_MYSQL_SERVER_ID:-1}")
  printf '%s\n' --datadir="$DATADIR" --socket="$SOCKET" --port="$PORT" --bind-address=127.0.0.1 \
    --pid-file="$PIDFILE" --log-error="$ERRLOG" --user="$(id -un)" \
    --mysqlx=OFF --secure-file-priv=NULL "${binlog[@]}" \
    --skip-name-resolve --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
    --transaction-isolation=READ-COMMITTED --max-connections=2000 \
    --innodb-buffer-pool-size="$BUFFER_POOL" --innodb-redo-log-capacity=512M \
    --innodb-flush-log-at-trx-commit=1 --innodb-lock-wait-timeout=10 --max-allowed-packet=64M \
    --explain-format=TRADITIONAL --explain-json-format-version=1
}

up() {
  ensure
  if running_pid >/dev/null; then log "MySQL already running (pid $(running_pid)) on $PORT"; return; fi
  port_open "$PORT" && { log "something already answers on 127.0.0.1:$PORT: reusing it"; return; }
  mkdir -p "$DATA_HOME"
  if [ ! -d "$DATADIR/mysql" ]; then
    rm -rf "$DATADIR"
    log "initialising MySQL in $DATADIR"
    ( run_mysqld --initialize-insecure --user="$(id -un)" --datadir="$DATADIR" --log-error="$ERRLOG" \
        --innodb-redo-log-capacity=512M --secure-file-priv=NULL ) \
      || { tail -30 "$ERRLOG" >&2; die "mysqld --initialize-insecure failed"; }
  fi
  log "starting MySQL $(cat "$SID_DIR/version") on 127.0.0.1:$PORT"
  local flags=() extra=()
  mapfile -t flags < <(server_flags)
  read -r -a extra <<<"${DSCHED_MYSQL_EXTRA_ARGS:-}"
  ( setsid nohup "$0" mysqld "${flags[@]}" "${extra[@]}" </dev/null >"$DATA_HOME/stdout.log" 2>&1 & )
  local i
  for i in $(seq 1 240); do
    run_client mysqladmin --socket="$SOCKET" -uroot ping >/dev/null 2>&1 && break
    sleep 0.25
  done
  run_client mysqladmin --socket="$SOCKET" -uroot ping >/dev/null 2>&1 \
    || { tail -30 "$ERRLOG" >&2; die "MySQL did not start (log: $ERRLOG)"; }
  run_client mysql --socket="$SOCKET" -uroot <<'SQL'
CREATE USER IF NOT EXISTS 'dsched'@'127.0.0.1' IDENTIFIED BY 'dsched';
CREATE USER IF NOT EXISTS 'dsched'@'localhost' IDENTIFIED BY 'dsched';
GRANT ALL PRIVILEGES ON *.* TO 'dsched'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'dsched'@'localhost' WITH GRANT OPTION;
CREATE DATABASE IF NOT EXISTS dsched;
SQL
  log "MySQL up: pid $(running_pid), $(run_client mysql --socket="$SOCKET" -uroot -N -e 'SELECT VERSION()')"
}

down() {
  local p
  if p="$(running_pid)"; then
    log "stopping MySQL (pid $p)"
    kill "$p"
    local i; for i in $(seq 1 240); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$p" 2>/dev/null && die "MySQL (pid $p) still running after 60 s"
  fi
  return 0
}

case "${1:-}" in
  ensure) ensure; cat "$SID_DIR/version" ;;
  up) up ;;
  down) down ;;
  status) if p="$(running_pid)"; then echo "mysql      up    127.0.0.1:$PORT (pid $p)"; else echo "mysql      down"; fi ;;
  mysqld) shift; ensure; run_mysqld "$@" ;;
  client) shift; run_client mysql --socket="$SOCKET" -uroot "$@" ;;
  bin) ensure; bin_cmd "$2" ;;
  *) echo "usage: $0 ensure|up|down|status|mysqld ARGS|client ARGS|bin NAME" >&2; exit 2 ;;
esac
