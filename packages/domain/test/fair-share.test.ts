import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FairClock,
  type FairTenant,
  fleetVirtualTime,
  type RunnableJob,
  strideOf,
  tagRunnableJobs,
} from '../src/decisions/fair-share.ts';

// A model of the fair claim: jobs are tagged when they become runnable (tagRunnableJobs), the
// claimer takes the smallest tag first (ties in id order), as claim-select-fair.sql does. The
// model keeps the stored state the way the MySQL adapter does: the lane clock and one finish tag
// per tenant.

interface Queued {
  id: string;
  tenantId: string;
  tag: number;
}

class FairModel {
  clock: FairClock = { vt: 0, maxTag: 0 };
  tenants = new Map<string, FairTenant>();
  queue: Queued[] = [];
  private seq = 0;

  constructor(weights: Record<string, number>) {
    for (const [id, weight] of Object.entries(weights)) this.tenants.set(id, { weight, vt: 0 });
  }

  arrive(tenantId: string, count: number): string[] {
    const jobs: RunnableJob[] = [];
    for (let i = 0; i < count; i++) jobs.push({ id: `j${String(this.seq++).padStart(8, '0')}`, tenantId });
    const head = this.queue.length === 0 ? null : Math.min(...this.queue.map((q) => q.tag));
    const t = tagRunnableJobs(this.clock, head, this.tenants, jobs);
    for (const job of jobs) this.queue.push({ ...job, tag: t.tags.get(job.id)! });
    for (const [id, vt] of t.tenantVts) this.tenants.get(id)!.vt = vt;
    this.clock = t.clock;
    return jobs.map((j) => j.id);
  }

  claim(n: number): Queued[] {
    this.queue.sort((a, b) => a.tag - b.tag || (a.id < b.id ? -1 : 1));
    return this.queue.splice(0, n);
  }
}

function shares(claimed: Queued[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of claimed) out[q.tenantId] = (out[q.tenantId] ?? 0) + 1 / claimed.length;
  return out;
}

describe('tagRunnableJobs', () => {
  it('gives backlogged tenants of weights 1:2:5 their shares in every window of claims', () => {
    const m = new FairModel({ a: 1, b: 2, c: 5 });
    for (const t of ['a', 'b', 'c']) m.arrive(t, 5000);
    for (let window = 0; window < 20; window++) {
      const s = shares(m.claim(400));
      expect(s.a).toBeCloseTo(0.125, 2);
      expect(s.b).toBeCloseTo(0.25, 2);
      expect(s.c).toBeCloseTo(0.625, 2);
    }
  });

  it('puts an idle tenant’s one job at the head of a flood: it is in the next claim batch', () => {
    const m = new FairModel({ flood: 1, quiet: 1 });
    m.arrive('flood', 100_000);
    m.claim(5000);
    const [quiet] = m.arrive('quiet', 1);
    const next = m.claim(10).map((q) => q.id);
    expect(next).toContain(quiet);
  });

  it('banks no credit for idle time: a tenant back after idling starts at V, not at its old tag', () => {
    const m = new FairModel({ a: 1, b: 1 });
    m.arrive('a', 10);
    m.arrive('b', 10);
    m.claim(20);
    // b is idle while a's flood is served.
    m.arrive('a', 10_000);
    m.claim(5000);
    m.arrive('b', 1000);
    // From here on, the two alternate: b does not get the 5,000 claims it sat out.
    const s = shares(m.claim(200));
    expect(s.a).toBeCloseTo(0.5, 1);
    expect(s.b).toBeCloseTo(0.5, 1);
  });

  it('takes a weight change for jobs tagged after it', () => {
    const m = new FairModel({ a: 1, b: 1 });
    m.arrive('a', 100);
    m.arrive('b', 100);
    m.tenants.get('b')!.weight = 3;
    // Already-tagged jobs keep their tags; b's new jobs cost a third.
    m.claim(200);
    m.arrive('a', 400);
    m.arrive('b', 1200);
    const s = shares(m.claim(400));
    expect(s.b).toBeCloseTo(0.75, 1);
  });

  it('is deterministic, never tags below V, and each tenant’s tags advance by its stride', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tenant: fc.constantFrom('x', 'y', 'z'), n: fc.integer({ min: 1, max: 5 }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 1e9 }),
        fc.option(fc.integer({ min: 0, max: 2e9 }), { nil: null }),
        (batches, vt, head) => {
          const tenants = new Map<string, FairTenant>([
            ['x', { weight: 0.5, vt: 7 }],
            ['y', { weight: 3, vt: 1.5e9 }],
          ]);
          const jobs = batches.flatMap((b, i) =>
            Array.from({ length: b.n }, (_, k) => ({ id: `${i}-${k}`, tenantId: b.tenant })),
          );
          const clock = { vt, maxTag: vt };
          const one = tagRunnableJobs(clock, head, tenants, jobs);
          const two = tagRunnableJobs(clock, head, tenants, jobs);
          expect([...one.tags]).toEqual([...two.tags]);
          const v = fleetVirtualTime(clock, head);
          const last = new Map<string, number>();
          for (const job of jobs) {
            const tag = one.tags.get(job.id)!;
            expect(tag).toBeGreaterThanOrEqual(v);
            const prev = last.get(job.tenantId);
            const weight = tenants.get(job.tenantId)?.weight ?? 1;
            if (prev !== undefined) expect(tag - prev).toBe(strideOf(weight));
            last.set(job.tenantId, tag);
          }
          expect(one.clock.vt).toBeGreaterThanOrEqual(clock.vt);
        },
      ),
    );
  });
});

describe('strideOf', () => {
  it('is K / weight over the allowed weights, at least 1', () => {
    expect(strideOf(1)).toBe(1_000_000);
    expect(strideOf(1000)).toBe(1000);
    expect(strideOf(0.001)).toBe(1_000_000_000);
    expect(strideOf(2)).toBe(500_000);
  });
});
