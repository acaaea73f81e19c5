import { createRegistry } from '@dsched/runtime';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { beforeEach, describe, expect, it } from 'vitest';
import { mysqlPartitionLeases } from '../src/adapters/mysql.ts';
import { PartitionLeaseKeeper } from '../src/core/partition-leases.ts';
import { SchedulerMetrics } from '../src/metrics.ts';

// Lease keepers of several replicas, in one process, against a real MariaDB: the database clock
// decides expiry, so these tests only pace themselves.

const db = useTestDatabase(import.meta.url);
const TTL = 1_500;

beforeEach(async () => {
  await db.pool.query('DELETE FROM leases');
});

function keeper(holder: string, monotonicNow?: () => number) {
  const metrics = new SchedulerMetrics(createRegistry('scheduler'));
  const k = new PartitionLeaseKeeper({
    store: mysqlPartitionLeases(db.pool),
    metrics,
    holder,
    partitions: 64,
    ttlMs: TTL,
    ...(monotonicNow ? { monotonicNow } : {}),
  });
  return { k, metrics };
}

async function passes(keepers: PartitionLeaseKeeper[], n: number) {
  for (let i = 0; i < n; i++) for (const k of keepers) await k.runOnce();
}

function partitionsOf(k: PartitionLeaseKeeper): number[] {
  return k.held().map((h) => h.partition);
}

describe('partition leases', () => {
  it('spread over three replicas, about P/N each, disjoint, covering every partition', async () => {
    const ks = ['a', 'b', 'c'].map((h) => keeper(h).k);
    for (const k of ks) await k.start();
    await passes(ks, 3);
    const sizes = ks.map((k) => k.held().length).sort();
    expect(sizes).toEqual([20, 22, 22]);
    const all = ks.flatMap(partitionsOf);
    expect(new Set(all).size).toBe(64);
  });

  it('rebalance when a replica joins and when one leaves', async () => {
    const [a, b] = [keeper('a').k, keeper('b').k];
    await a.start();
    expect(a.held()).toHaveLength(64);
    await b.start();
    await passes([a, b], 3);
    expect([a.held().length, b.held().length]).toEqual([32, 32]);
    await b.stop();
    await passes([a], 2);
    expect(a.held()).toHaveLength(64);
  });

  it('a replica that stops renewing loses its partitions to the others after the TTL', async () => {
    const dead = keeper('dead');
    const live = keeper('live');
    await dead.k.start();
    await live.k.start();
    await passes([dead.k, live.k], 3);
    const deadHeld = dead.k.held();
    expect(deadHeld.length).toBe(32);
    // `dead` stops making passes; `live` keeps going until it holds everything.
    const started = Date.now();
    while (live.k.held().length < 64) {
      if (Date.now() - started > 30_000) throw new Error('no takeover within 30 s');
      await new Promise((r) => setTimeout(r, 100));
      await live.k.runOnce();
    }
    // New tokens fence the old holder: its renewal comes back empty and counts the failures.
    const tokens = new Map(live.k.held().map((h) => [h.partition, BigInt(h.token)]));
    for (const h of deadHeld) expect(tokens.get(h.partition)! > BigInt(h.token)).toBe(true);
    await dead.k.runOnce();
    expect(deadHeld.every((h) => !partitionsOf(dead.k).includes(h.partition))).toBe(true);
    expect((await dead.metrics.leaseRenewFailures.get()).values[0]!.value).toBe(32);
  });

  it('drops a lease whose token was bumped behind its back at the next renewal', async () => {
    const { k, metrics } = keeper('a');
    await k.start();
    const [victim] = k.held();
    await db.pool.query("UPDATE leases SET token = token + 1 WHERE name = 'scheduler.partition.0005'");
    // Past a third of the TTL, the next pass renews (and finds partition 5 gone).
    await new Promise((r) => setTimeout(r, TTL / 3 + 50));
    await k.runOnce();
    expect(partitionsOf(k)).not.toContain(5);
    expect(victim).toBeDefined();
    expect((await metrics.leaseRenewFailures.get()).values[0]!.value).toBe(1);
  });

  it('expires locally after a whole TTL without a renewal, dropping every lease', async () => {
    let mono = 0;
    const { k } = keeper('a', () => mono);
    await k.start();
    expect(k.held()).toHaveLength(64);
    mono = TTL - 1;
    expect(k.expired()).toBe(false);
    mono = TTL + 1;
    expect(k.expired()).toBe(true);
    expect(k.held()).toEqual([]);
  });
});
