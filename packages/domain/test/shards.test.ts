import { describe, expect, it } from 'vitest';
import { keyspaceIdOfPartition, partitionGroups, shardOfPartition, shardRange } from '../src/shards.ts';

describe('keyspaceIdOfPartition (reverse_bits)', () => {
  it('reverses the 64 bits: the low bit of the partition is the top bit of the keyspace id', () => {
    expect(keyspaceIdOfPartition(0)).toBe('0000000000000000');
    expect(keyspaceIdOfPartition(1)).toBe('8000000000000000');
    expect(keyspaceIdOfPartition(2)).toBe('4000000000000000');
    expect(keyspaceIdOfPartition(3)).toBe('c000000000000000');
    expect(keyspaceIdOfPartition(63)).toBe('fc00000000000000');
    expect(keyspaceIdOfPartition(256)).toBe('0080000000000000');
    expect(keyspaceIdOfPartition(0xffff)).toBe('ffff000000000000');
  });
  it('refuses what is not a 16-bit partition', () => {
    expect(() => keyspaceIdOfPartition(-1)).toThrow(/partition/);
    expect(() => keyspaceIdOfPartition(65536)).toThrow(/partition/);
    expect(() => keyspaceIdOfPartition(1.5)).toThrow(/partition/);
  });
});

describe('shardRange', () => {
  it('pads the bounds to 8 bytes; an open end is empty', () => {
    expect(shardRange('-80')).toEqual({ start: '0000000000000000', end: '8000000000000000' });
    expect(shardRange('80-')).toEqual({ start: '8000000000000000', end: '' });
    expect(shardRange('40-80')).toEqual({ start: '4000000000000000', end: '8000000000000000' });
  });
  it('refuses a name that is not a range', () => {
    expect(() => shardRange('0')).toThrow(/shard range/);
    expect(() => shardRange('8-')).toThrow(/shard range/);
    expect(() => shardRange('x-80')).toThrow(/shard range/);
  });
});

describe('partitionGroups', () => {
  it('one primary: one group of every partition', () => {
    expect(partitionGroups(4, [])).toEqual([{ shard: '-', partitions: [0, 1, 2, 3] }]);
    expect(partitionGroups(4, ['0'])).toEqual([{ shard: '-', partitions: [0, 1, 2, 3] }]);
    expect(partitionGroups(4, ['-'])).toEqual([{ shard: '-', partitions: [0, 1, 2, 3] }]);
  });
  it('two shards: even partitions on -80, odd on 80-', () => {
    const groups = partitionGroups(64, ['-80', '80-']);
    expect(groups.map((g) => g.shard)).toEqual(['-80', '80-']);
    expect(groups[0]!.partitions).toEqual(Array.from({ length: 32 }, (_, i) => 2 * i));
    expect(groups[1]!.partitions).toEqual(Array.from({ length: 32 }, (_, i) => 2 * i + 1));
  });
  it('splitting a shard splits its partitions exactly in half, by the next bit', () => {
    const groups = partitionGroups(64, ['-40', '40-80', '80-']);
    expect(groups[0]!.partitions).toEqual(Array.from({ length: 16 }, (_, i) => 4 * i));
    expect(groups[1]!.partitions).toEqual(Array.from({ length: 16 }, (_, i) => 4 * i + 2));
    expect(groups[2]!.partitions).toHaveLength(32);
    for (const g of groups)
      for (const p of g.partitions) expect(shardOfPartition(p, ['-40', '40-80', '80-'])).toBe(g.shard);
  });
  it('every partition in exactly one group, for 2, 4 and 8 equal shards', () => {
    for (const shards of [
      ['-80', '80-'],
      ['-40', '40-80', '80-c0', 'c0-'],
      ['-20', '20-40', '40-60', '60-80', '80-a0', 'a0-c0', 'c0-e0', 'e0-'],
    ]) {
      const groups = partitionGroups(64, shards);
      expect(groups).toHaveLength(shards.length);
      expect(groups.flatMap((g) => g.partitions).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 64 }, (_, p) => p),
      );
      for (const g of groups) expect(g.partitions).toHaveLength(64 / shards.length);
    }
  });
  it('refuses shards that leave a gap or overlap', () => {
    expect(() => partitionGroups(64, ['-80'])).toThrow(/do not cover/);
    expect(() => partitionGroups(64, ['-80', '40-'])).toThrow(/overlap/);
  });
});
