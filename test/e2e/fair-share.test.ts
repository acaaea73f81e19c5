import { updateTenant } from '@dsched/mysql/tenants';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { type Fleet, startFleet } from '@dsched/testkit/fleet';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Weighted fair share with the executor as a process and a loopback target: every tenant is
// backlogged from the start, and the shares are counted where the calls land (the sink). The
// fleet's throughput is bounded by its concurrency and the target's delay, so the backlogs last the
// whole measurement on any machine; the shares do not depend on the throughput.

const CONCURRENCY = 8;
const CALL_MS = 40;
/** The idle-tenant test's flood: 60 of the tagger's passes of 500 in due order. */
const FLOOD = 30_000;

const db = useTestDatabase(import.meta.url);
let target: RecordingTarget;
let fleet: Fleet;

beforeAll(async () => {
  target = await startRecordingTarget(() => ({ status: 200, delayMs: CALL_MS }));
  fleet = await startFleet(
    {
      DATABASE_URL: db.url,
      EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
      EXECUTOR_POLL_MS: '50',
      EXECUTOR_DEFAULT_CONCURRENCY: String(CONCURRENCY),
      EXECUTOR_FAIR_SHARE: 'true',
    },
    ['executor'],
  );
});
afterAll(async () => {
  await fleet?.stop();
  await target?.close();
});
beforeEach(async () => {
  // What a test left pending is not the next test's load; calls still landing are told apart by tenant.
  await db.pool.query("DELETE FROM jobs WHERE state = 'pending'");
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tenantOf = (url: string) => url.split('/')[1]!;

async function backlog(name: string, weight: number, jobs: number): Promise<void> {
  const t = await createTenantWithKey(db.pool, name);
  await updateTenant(db.pool, t.id, { weight });
  await insertDueJobs(db.pool, { tenantId: t.id, target: { url: `${target.url}/${name}/` } }, jobs);
}

/** Calls per tenant among `names`, landed in [from, to) ms after `t0`. */
function countsIn(names: string[], t0: number, from: number, to: number): number[] {
  const counts = new Map(names.map((n) => [n, 0]));
  for (const c of target.calls) {
    const at = c.receivedAt - t0;
    const name = tenantOf(c.url);
    if (at >= from && at < to && counts.has(name)) counts.set(name, counts.get(name)! + 1);
  }
  return names.map((n) => counts.get(n)!);
}

/** When the first call of these tenants landed. */
async function firstCall(names: string[]): Promise<number> {
  for (;;) {
    const hit = target.calls.find((c) => names.includes(tenantOf(c.url)));
    if (hit) return hit.receivedAt;
    await sleep(20);
  }
}

describe('fair share between backlogged tenants, counted at the sink', () => {
  it('gives weights 1:2:5 12.5/25/62.5 % of the calls (±3 points) in every 10 s window after the first', async () => {
    const names = ['w1', 'w2', 'w5'];
    // Inserted one tenant after the other: in due order w1's would all go first.
    for (const [i, name] of names.entries()) await backlog(name, [1, 2, 5][i]!, 4000);
    const t0 = await firstCall(names);
    await sleep(t0 + 30_500 - Date.now());
    for (const from of [10_000, 20_000]) {
      const counts = countsIn(names, t0, from, from + 10_000);
      const total = counts.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(100);
      const shares = counts.map((c) => (100 * c) / total);
      expect(Math.abs(shares[0]! - 12.5), `w1 ${shares[0]} % in [${from}, +10 s)`).toBeLessThanOrEqual(3);
      expect(Math.abs(shares[1]! - 25), `w2 ${shares[1]} %`).toBeLessThanOrEqual(3);
      expect(Math.abs(shares[2]! - 62.5), `w5 ${shares[2]} %`).toBeLessThanOrEqual(3);
    }
  }, 90_000);

  it('gives equal weights equal shares: Jain index ≥ 0.99', async () => {
    const names = ['e1', 'e2', 'e3', 'e4'];
    for (const name of names) await backlog(name, 1, 2000);
    const t0 = await firstCall(names);
    await sleep(t0 + 15_500 - Date.now());
    const counts = countsIn(names, t0, 5_000, 15_000);
    const sum = counts.reduce((a, b) => a + b, 0);
    const jain = (sum * sum) / (counts.length * counts.reduce((a, b) => a + b * b, 0));
    expect(sum).toBeGreaterThan(100);
    expect(jain, `counts ${counts.join(', ')}`).toBeGreaterThanOrEqual(0.99);
  }, 60_000);

  it('claims an idle tenant’s one job during another’s flood in the next claim, not behind the flood', async () => {
    // The quiet tenant exists before the count starts: only its job's insert is inside it.
    const quiet = await createTenantWithKey(db.pool, 'quiet');
    await backlog('flood', 1, FLOOD);
    await firstCall(['flood']);
    // Inserted at once, when at most a few of the tagger's passes have run: almost all of the
    // flood is untagged and due before it (FLOOD / 500 passes' worth in due order).
    const before = target.calls.length;
    await insertDueJobs(db.pool, { tenantId: quiet.id, target: { url: `${target.url}/quiet/` } }, 1);
    for (;;) {
      if (target.calls.slice(before).some((c) => tenantOf(c.url) === 'quiet')) break;
      await sleep(10);
    }
    const landed = target.calls.slice(before);
    const floodBefore = landed.findIndex((c) => tenantOf(c.url) === 'quiet');
    // Landing after the insert, before it: the flood's calls already claimed but not yet landed
    // (at most CONCURRENCY), those of a claim whose tagging pass had read the queue just before
    // the insert (at most CONCURRENCY: the slots the first ones free), then in its own claim the
    // one flood job with the same tag (V) and an earlier due time. The next pass tags it at the
    // head whatever the flood's size; tagging in due order only, it would wait for the FLOOD / 500
    // passes that tag the flood's earlier-due rows first, a claim (one call or more) after each.
    expect(floodBefore, `${floodBefore} flood calls before it`).toBeLessThanOrEqual(2 * CONCURRENCY + 1);
  }, 60_000);
});
