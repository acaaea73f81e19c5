#!/usr/bin/env bash
# One Cassandra 5.0 node in the foreground: writes its cassandra.yaml from
# deploy/cassandra/cassandra.yaml, then becomes the JVM (exec), so its pid is the node's and a
# kill -9 of it is a crash of the node. scripts/stack starts the shared single node and the nodes of
# DSCHED_CASSANDRA_NODES=3 through it; the load harness starts its own cluster's nodes the same way
# (loadtest/src/harness/cassandra-cluster.ts).
#
#   CASSANDRA_NODE_DIR          the node's folder: cassandra.yaml, data/, logs/, tmp/ (required)
#   CASSANDRA_NODE_ADDRESS      listen and native address (127.0.0.1)
#   CASSANDRA_NODE_NATIVE_PORT  CQL port (9042)
#   CASSANDRA_NODE_STORAGE_PORT internode port (7000), the same on every node of a cluster
#   CASSANDRA_NODE_SEEDS        address:port of the seed (itself, alone)
#   CASSANDRA_NODE_INDEX / CASSANDRA_NODE_COUNT  its place in the ring: tokens evenly spaced (0 alone)
#   CASSANDRA_NODE_CLUSTER      cluster name (dsched-local): nodes of another name refuse to gossip
#   CASSANDRA_NODE_HEAP         -Xms and -Xmx (2G)
#   CASSANDRA_NODE_COMMITLOG    periodic (2 s, the single node's) or group (acknowledged = on disk)
#   CASSANDRA_NODE_HINTS        true (hinted handoff, the default) or false
#   CASSANDRA_LIB               the cassandra-all jar folder (scripts/stack cassandra-jars)
#   CASSANDRA_JAVA              OpenJDK 17's java
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${CASSANDRA_NODE_DIR:?CASSANDRA_NODE_DIR is required}"
address="${CASSANDRA_NODE_ADDRESS:-127.0.0.1}"
native="${CASSANDRA_NODE_NATIVE_PORT:-9042}"
storage="${CASSANDRA_NODE_STORAGE_PORT:-7000}"
seeds="${CASSANDRA_NODE_SEEDS:-$address:$storage}"
index="${CASSANDRA_NODE_INDEX:-0}"
count="${CASSANDRA_NODE_COUNT:-1}"
cluster="${CASSANDRA_NODE_CLUSTER:-dsched-local}"
heap="${CASSANDRA_NODE_HEAP:-2G}"
commitlog="${CASSANDRA_NODE_COMMITLOG:-periodic}"
hints="${CASSANDRA_NODE_HINTS:-true}"
lib="${CASSANDRA_LIB:?CASSANDRA_LIB is required}"
java="${CASSANDRA_JAVA:?CASSANDRA_JAVA is required}"

die() { echo "cassandra-node: $*" >&2; exit 2; }
[[ "$index" =~ ^[0-9]+$ && "$count" =~ ^[1-9][0-9]*$ && "$index" -lt "$count" ]] || die "bad index $index of $count"
[[ "$cluster" =~ ^[A-Za-z0-9_-]+$ ]] || die "bad cluster name $cluster"
case "$hints" in true | false) ;; *) die "CASSANDRA_NODE_HINTS must be true or false" ;; esac

# One token per node (num_tokens 1), evenly spaced over Murmur3's range; a single node keeps 0.
token=0
if [ "$count" -gt 1 ]; then
  step=$(((9223372036854775807 / count) * 2))
  token=$((-9223372036854775807 - 1 + index * step))
fi

mkdir -p "$dir/logs" "$dir/data" "$dir/tmp"
sed -e "s/__CLUSTER__/$cluster/" -e "s/__ADDRESS__/$address/g" -e "s/__SEEDS__/$seeds/" \
  -e "s/__NATIVE_PORT__/$native/" -e "s/__STORAGE_PORT__/$storage/" -e "s/__HINTS__/$hints/" \
  "$ROOT/deploy/cassandra/cassandra.yaml" >"$dir/cassandra.yaml"
case "$commitlog" in
  periodic) ;;
  # A write is acknowledged once its commit log entry is on disk (fsyncs grouped over 15 ms): a
  # node killed -9 keeps everything it acknowledged, so whatever it lacks after a restart is what
  # it missed while down, for hints or repair to bring.
  group) sed -i -e 's/^commitlog_sync: periodic$/commitlog_sync: group/' \
    -e 's/^commitlog_sync_period: .*$/commitlog_sync_group_window: 15ms/' "$dir/cassandra.yaml" ;;
  *) die "CASSANDRA_NODE_COMMITLOG must be periodic or group" ;;
esac

# The --add-exports/--add-opens list is the 5.0 branch's conf/jvm17-server.options.
exec "$java" -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -Xss512k \
  -Djava.io.tmpdir="$dir/tmp" -Djava.net.preferIPv4Stack=true \
  -Dcassandra-foreground=yes -Dcassandra.config="file://$dir/cassandra.yaml" \
  -Dcassandra.storagedir="$dir/data" -Dcassandra.logdir="$dir/logs" \
  -Dlogback.configurationFile="$ROOT/deploy/cassandra/logback.xml" \
  -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.ring_delay_ms=1000 \
  -Dcassandra.initial_token="$token" \
  -Djdk.attach.allowAttachSelf=true -Dio.netty.tryReflectionSetAccessible=true \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED \
  --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED \
  --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED \
  --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED \
  --add-exports java.sql/java.sql=ALL-UNNAMED \
  --add-exports java.base/java.lang.ref=ALL-UNNAMED \
  --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED \
  --add-opens java.base/java.lang.module=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.loader=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.math=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.module=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.base/java.io=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
  --add-opens java.base/java.util=ALL-UNNAMED \
  --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/java.util.concurrent.atomic=ALL-UNNAMED \
  -cp "$lib/*" org.apache.cassandra.service.CassandraDaemon
