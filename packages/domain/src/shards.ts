// Which partitions live on which shard of the `dsched` keyspace (docs/sharding.md). Every sharded
// table's primary vindex is Vitess's `reverse_bits` on `partition`: a row's keyspace id is its
// partition's 64 bits reversed, so a partition's low bits pick its shard. A worker serves a shard
// as the group of partitions on it, and keys every hot statement by that group (`partition IN
// (group)`), so each statement, and each transaction, reaches one shard. On one primary there is
// one group: every partition.

/** A group of partitions that live on one shard (on one primary: all of them, shard `-`). */
export interface PartitionGroup {
  /** The shard's name as Vitess names it (`-80`, `80-`, `40-80`), or `-` for one primary. */
  shard: string;
  /** Its partitions, ascending. */
  partitions: number[];
}

/** The keyspace id `reverse_bits` gives a partition: 16 lowercase hex digits (8 bytes). */
export function keyspaceIdOfPartition(partition: number): string {
  if (!Number.isInteger(partition) || partition < 0 || partition > 0xffff) {
    throw new RangeError(`partition must be an integer in [0, 65535], got ${partition}`);
  }
  return `${reverseByte(partition & 0xff)}${reverseByte(partition >>> 8)}000000000000`;
}

function reverseByte(b: number): string {
  let r = 0;
  for (let i = 0; i < 8; i++) r |= ((b >>> i) & 1) << (7 - i);
  return r.toString(16).padStart(2, '0');
}

const SHARD_NAME = /^([0-9a-f]*)-([0-9a-f]*)$/;

/** A shard name's key range [start, end) as 16-digit hex bounds ('' start: the lowest; '' end: past the highest). */
export function shardRange(name: string): { start: string; end: string } {
  const m = SHARD_NAME.exec(name.toLowerCase());
  if (
    m === null ||
    m[1]!.length % 2 !== 0 ||
    m[2]!.length % 2 !== 0 ||
    m[1]!.length > 16 ||
    m[2]!.length > 16
  ) {
    throw new Error(`not a Vitess shard range: ${JSON.stringify(name)} (like "-80", "80-", "40-80")`);
  }
  return { start: m[1]!.padEnd(16, '0'), end: m[2] === '' ? '' : m[2]!.padEnd(16, '0') };
}

/** The shard of `shards` that holds `partition`, by its keyspace id. */
export function shardOfPartition(partition: number, shards: readonly string[]): string {
  const ksid = keyspaceIdOfPartition(partition);
  for (const name of shards) {
    const { start, end } = shardRange(name);
    if (ksid >= start && (end === '' || ksid < end)) return name;
  }
  throw new Error(`no shard of [${shards.join(', ')}] holds partition ${partition} (keyspace id ${ksid})`);
}

/**
 * The partitions 0..partitions-1 grouped by the shard that holds them, in the order of `shards`
 * (shards that hold none are left out). An empty list, or the unsharded names `-` and `0`, is one
 * primary: one group of every partition. Throws when a partition falls in no shard (the list does
 * not cover the key space) or in two (ranges overlap).
 */
export function partitionGroups(partitions: number, shards: readonly string[]): PartitionGroup[] {
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > 0x10000) {
    throw new RangeError(`partitions must be an integer in [1, 65536], got ${partitions}`);
  }
  const all = Array.from({ length: partitions }, (_, p) => p);
  if (shards.length === 0 || (shards.length === 1 && (shards[0] === '-' || shards[0] === '0'))) {
    return [{ shard: '-', partitions: all }];
  }
  const byShard = new Map<string, number[]>(shards.map((s) => [s, []]));
  for (const p of all) {
    const holders = shards.filter((s) => {
      const { start, end } = shardRange(s);
      const ksid = keyspaceIdOfPartition(p);
      return ksid >= start && (end === '' || ksid < end);
    });
    if (holders.length !== 1) {
      throw new Error(
        holders.length === 0
          ? `no shard of [${shards.join(', ')}] holds partition ${p}: the shards do not cover the key space`
          : `partition ${p} falls in ${holders.length} shards (${holders.join(', ')}): the shard ranges overlap`,
      );
    }
    byShard.get(holders[0]!)!.push(p);
  }
  return shards
    .map((shard) => ({ shard, partitions: byShard.get(shard)! }))
    .filter((g) => g.partitions.length > 0);
}

/** Every partition, 0..partitions-1: the one group of one primary. */
export function allPartitions(partitions: number): number[] {
  return partitionGroups(partitions, [])[0]!.partitions;
}
