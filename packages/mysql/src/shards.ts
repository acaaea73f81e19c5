import { type PartitionGroup, partitionGroups } from '@dsched/domain';
import type { Pool, RowDataPacket } from './pool.ts';

// The groups of partitions a worker keys its hot statements by, one per shard (docs/sharding.md).
// On one primary: one group of every partition, never refreshed. On Vitess: the shards vtgate
// serves for the sharded keyspace (`SHOW VITESS_SHARDS`: the serving shards, the targets once a
// resharding's SwitchTraffic returns), read at start and again every `refreshMs` (2 s), and at
// once when a batch formed from a group fails (`refresh()`, `refreshOnFailure`): a group a moment
// old reaches two shards.

import type { MysqlTopology } from './migrations.ts';

export type { MysqlTopology };

export interface ShardMap {
  /** The current groups; never empty. */
  groups(): readonly PartitionGroup[];
  /** The group that holds `partition`. */
  groupOf(partition: number): PartitionGroup;
  /** Reads the shards again (on one primary a no-op); resolves with the new groups. */
  refresh(): Promise<readonly PartitionGroup[]>;
  /** Stops the periodic refresh. */
  close(): void;
}

interface ShardRow extends RowDataPacket {
  Shards: string;
}

/** The shard names vtgate serves for `keyspace` (`SHOW VITESS_SHARDS`), in key order. */
export async function readVitessShards(pool: Pool, keyspace: string): Promise<string[]> {
  const [rows] = await pool.query<ShardRow[]>('SHOW VITESS_SHARDS');
  const names = rows
    .map((r) => String(r.Shards ?? Object.values(r)[0]))
    .filter((s) => s.startsWith(`${keyspace}/`))
    .map((s) => s.slice(keyspace.length + 1));
  if (names.length === 0) {
    throw new Error(`vtgate serves no shard of keyspace ${JSON.stringify(keyspace)} (SHOW VITESS_SHARDS)`);
  }
  return names.sort((a, b) => a.split('-')[0]!.localeCompare(b.split('-')[0]!));
}

export interface ShardMapOptions {
  topology: MysqlTopology;
  /** SCHEDULER_PARTITIONS: must be a power of two on Vitess (docs/sharding.md). */
  partitions: number;
  /** The sharded keyspace (`dsched`). */
  keyspace?: string;
  /** How often to read the shards again on Vitess (default 2 s); 0 never. */
  refreshMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * The shard map's periodic read on Vitess: one `SHOW VITESS_SHARDS` per process every 2 s, which
 * vtgate answers from memory. It bounds how long after a resharding's cut-over a worker still forms
 * batches from the old groups, each then reaching two shards (the reshard scenario: locks taken on
 * two shards in either order, lock waits until innodb_lock_wait_timeout).
 */
const REFRESH_MS = 2_000;

/**
 * `fn`, with the map read again (in the background) whenever it fails, its error passed on: a
 * batch formed from a group a moment old (a resharding's cut-over) fails at the second shard in
 * single transaction mode, or meets a shard that is gone; the caller's retry is then formed from
 * the new groups rather than waiting for the periodic read (docs/sharding.md "Resharding").
 */
export function refreshOnFailure<A extends unknown[], R>(
  map: Pick<ShardMap, 'refresh'>,
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      map.refresh().catch(() => undefined);
      throw err;
    }
  };
}

function indexed(groups: readonly PartitionGroup[]): Map<number, PartitionGroup> {
  const m = new Map<number, PartitionGroup>();
  for (const g of groups) for (const p of g.partitions) m.set(p, g);
  return m;
}

/** The shard map's options from a service's configuration (runtime's mysqlConfigShape). */
export function shardMapOptions(
  config: { MYSQL_TOPOLOGY: MysqlTopology; SCHEDULER_PARTITIONS: number; VITESS_KEYSPACE: string },
  onError?: (err: unknown) => void,
): ShardMapOptions {
  return {
    topology: config.MYSQL_TOPOLOGY,
    partitions: config.SCHEDULER_PARTITIONS,
    keyspace: config.VITESS_KEYSPACE,
    ...(onError ? { onError } : {}),
  };
}

/** A ShardMap read from `pool` (see the top of this file). */
export async function createShardMap(pool: Pool, options: ShardMapOptions): Promise<ShardMap> {
  const { topology, partitions } = options;
  if (topology === 'vitess' && (partitions & (partitions - 1)) !== 0) {
    throw new Error(
      `SCHEDULER_PARTITIONS must be a power of two on Vitess (got ${partitions}): docs/sharding.md`,
    );
  }
  const keyspace = options.keyspace ?? 'dsched';
  const read = async () =>
    topology === 'vitess'
      ? partitionGroups(partitions, await readVitessShards(pool, keyspace))
      : partitionGroups(partitions, []);
  let groups = await read();
  let byPartition = indexed(groups);
  const refresh = async () => {
    if (topology !== 'vitess') return groups;
    groups = await read();
    byPartition = indexed(groups);
    return groups;
  };
  const timer =
    topology === 'vitess' && (options.refreshMs ?? REFRESH_MS) > 0
      ? setInterval(() => {
          refresh().catch((err) => options.onError?.(err));
        }, options.refreshMs ?? REFRESH_MS)
      : undefined;
  timer?.unref();
  return {
    groups: () => groups,
    groupOf: (p) => {
      const g = byPartition.get(p);
      if (g === undefined) throw new RangeError(`partition ${p} is outside 0..${partitions - 1}`);
      return g;
    },
    refresh,
    close: () => {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
