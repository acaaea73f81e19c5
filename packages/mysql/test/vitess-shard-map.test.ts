import { createShardMap, readVitessShards, refreshOnFailure } from '@dsched/mysql/shards';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { describe, expect, it, vi } from 'vitest';

// The shard map a worker keys its statements by, read from vtgate (docs/sharding.md). Vitess leg
// only (vitess-*.test.ts): vttestserver serves `dsched` as two shards.
const db = useTestDatabase(import.meta.url);

describe('the shard map through vtgate', () => {
  it('reads the shards of the sharded keyspace and groups the partitions by them', async () => {
    expect(await readVitessShards(db.pool, 'dsched')).toEqual(['-80', '80-']);
    const map = await createShardMap(db.pool, { topology: 'vitess', partitions: 64, refreshMs: 0 });
    try {
      expect(map.groups().map((g) => g.shard)).toEqual(['-80', '80-']);
      expect(map.groupOf(4).shard).toBe('-80');
      expect(map.groupOf(63).shard).toBe('80-');
      expect((await map.refresh()).map((g) => g.partitions.length)).toEqual([32, 32]);
    } finally {
      map.close();
    }
  });

  it('reads the shards again when a call through refreshOnFailure fails, and passes its error on', async () => {
    const map = await createShardMap(db.pool, { topology: 'vitess', partitions: 64, refreshMs: 0 });
    try {
      const before = map.groups();
      const double = refreshOnFailure(map, async (x: number) => x * 2);
      expect(await double(2)).toBe(4);
      expect(map.groups()).toBe(before);
      const batch = refreshOnFailure(map, async () => {
        throw new Error('the batch reached a second shard');
      });
      await expect(batch()).rejects.toThrow('the batch reached a second shard');
      // Read again: new groups (the same two shards here; a cut-over's four after a resharding).
      await vi.waitFor(() => expect(map.groups()).not.toBe(before));
      expect(map.groups()).toEqual(before);
    } finally {
      map.close();
    }
  });

  it('refuses a keyspace vtgate does not serve, and a partition count that is not a power of two', async () => {
    await expect(readVitessShards(db.pool, 'nope')).rejects.toThrow(/serves no shard of keyspace "nope"/);
    await expect(createShardMap(db.pool, { topology: 'vitess', partitions: 48 })).rejects.toThrow(
      /power of two/,
    );
  });
});
