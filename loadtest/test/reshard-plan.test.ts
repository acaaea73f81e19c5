import { partitionGroups } from '@dsched/domain';
import { describe, expect, it } from 'vitest';
import { equalShards, lastJson } from '../src/harness/vitess-reshard.ts';

// The reshard scenario's plan (harness/vitess-reshard.ts): the shard names it asks Vitess for are
// scripts/vitess cluster's (`shard_names`), and a 2 → 4 split gives each new shard exactly half of
// an old shard's partitions (reverse_bits on the partition: docs/sharding.md), so the workers' new
// groups after the cut-over are the old ones halved.

describe('the reshard plan', () => {
  it('names equal key ranges as Vitess and scripts/vitess cluster spell them', () => {
    expect(equalShards(1)).toEqual(['0']);
    expect(equalShards(2)).toEqual(['-80', '80-']);
    expect(equalShards(4)).toEqual(['-40', '40-80', '80-c0', 'c0-']);
    expect(equalShards(8)[1]).toBe('20-40');
    expect(() => equalShards(3)).toThrow(/power of two/);
  });

  it('splits each shard of 2 into two of 4, each with half its partitions', () => {
    const before = partitionGroups(64, equalShards(2));
    const after = partitionGroups(64, equalShards(4));
    expect(after.map((g) => g.partitions.length)).toEqual([16, 16, 16, 16]);
    // -80 (the even partitions) becomes -40 and 40-80; 80- (the odd) becomes 80-c0 and c0-.
    expect([...after[0]!.partitions, ...after[1]!.partitions].sort((a, b) => a - b)).toEqual(
      before[0]!.partitions,
    );
    expect([...after[2]!.partitions, ...after[3]!.partitions].sort((a, b) => a - b)).toEqual(
      before[1]!.partitions,
    );
  });

  it("reads the last of vtctldclient's JSON documents, nested or after text", () => {
    const out =
      'waiting…\n{"State":"started","Reports":{"t":{"-40":{"x":1}}}}\n{"State":"completed","RowsCompared":64}\n';
    expect(lastJson<{ State: string; RowsCompared: number }>(out)).toEqual({
      State: 'completed',
      RowsCompared: 64,
    });
    expect(lastJson<{ Reports: unknown }>('{"Reports":{"t":{"-40":{"x":1}}}}')).toEqual({
      Reports: { t: { '-40': { x: 1 } } },
    });
    expect(() => lastJson('no json')).toThrow();
  });
});
