import type { ClaimedJob } from '@dsched/domain';
import { createLogger } from '@dsched/runtime';
import { describe, expect, it } from 'vitest';
import { OutcomeBatcher } from '../src/core/outcome-batcher.ts';
import { settle } from '../src/core/transitions.ts';
import type { OutcomeWrite } from '../src/ports.ts';

const job = (over: Partial<ClaimedJob> = {}) =>
  ({
    id: 'j',
    attempt: 1,
    maxAttempts: 3,
    retry: { maxAttempts: 3, initialBackoffMs: 1000, maxBackoffMs: 10_000, rules: [] },
    ...over,
  }) as ClaimedJob;
const opts = { durationMs: 5, random: 0.5, park: { heartbeatSeconds: 90, deadlineSeconds: 900 } };

describe('settle', () => {
  it('maps responses to transitions and attempt rows', () => {
    expect(settle(job(), { kind: 'response', status: 204 }, opts)).toMatchObject({
      transition: { to: 'succeeded', lastStatus: 204 },
      attempt: { status: 204, errorClass: null },
      outcome: 'succeeded',
    });
    expect(settle(job(), { kind: 'response', status: 202 }, opts)).toMatchObject({
      transition: { to: 'parked', heartbeatSeconds: 90, deadlineSeconds: 900 },
      outcome: 'accepted',
    });
    expect(settle(job(), { kind: 'response', status: 404 }, opts)).toMatchObject({
      transition: { to: 'dead', lastStatus: 404 },
      attempt: { errorClass: 'http_status', error: 'HTTP 404' },
    });
    expect(settle(job(), { kind: 'response', status: 503, retryAfterMs: 4000 }, opts)).toMatchObject({
      transition: { to: 'retry', delayMs: 4000 },
    });
    expect(settle(job(), { kind: 'error', errorClass: 'refused', message: 'loopback' }, opts)).toMatchObject({
      transition: { to: 'dead' },
      attempt: { errorClass: 'refused' },
    });
  });

  it('turns the executor’s own aborts into cancel and give-back; a response that came first stands', () => {
    const aborted = { kind: 'error' as const, errorClass: 'aborted' as const, message: 'x' };
    expect(settle(job(), aborted, { ...opts, abortedBy: 'cancel' }).transition.to).toBe('cancelled');
    expect(settle(job(), aborted, { ...opts, abortedBy: 'shutdown' })).toMatchObject({
      transition: { to: 'give_back' },
      attempt: { errorClass: 'given_back' },
    });
    expect(settle(job(), { kind: 'response', status: 200 }, { ...opts, abortedBy: 'shutdown' }).outcome).toBe(
      'succeeded',
    );
  });

  it('dead-letters at the attempt cap (which a give-back raised by one)', () => {
    const result = { kind: 'response' as const, status: 500 };
    expect(settle(job({ attempt: 3, maxAttempts: 3 }), result, opts).transition.to).toBe('dead');
    expect(settle(job({ attempt: 3, maxAttempts: 4 }), result, opts).transition.to).toBe('retry');
  });
});

describe('OutcomeBatcher', () => {
  const logger = createLogger('test', 'silent');
  const write = (i: number) => ({ job: { id: `j${i}`, attempt: 1 } }) as OutcomeWrite;

  it('writes what arrives during a write as the next batch', async () => {
    const batches: number[] = [];
    const batcher = new OutcomeBatcher({
      write: async (w) => {
        batches.push(w.length);
        await new Promise((r) => setTimeout(r, 20));
        return [w[0]!];
      },
      maxBatch: 100,
      retryMs: 1,
      giveUpAfterMs: 1000,
      now: () => performance.now(),
      logger,
    });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.submit(write(i))));
    expect(batches).toEqual([1, 9]);
    expect(results.filter((r) => r === 'stale')).toHaveLength(2);
  });

  it('forms each batch from one group: the first waiting picks it, the others wait for their own', async () => {
    const batches: string[][] = [];
    const grouped = new OutcomeBatcher({
      write: async (w) => {
        batches.push(w.map((x) => x.job.id));
        await new Promise((r) => setTimeout(r, 20));
        return [];
      },
      maxBatch: 2,
      retryMs: 1,
      giveUpAfterMs: 1000,
      now: () => performance.now(),
      logger,
      groupOf: (w) => (Number(w.job.id.slice(1)) % 2 === 0 ? 'even' : 'odd'),
    });
    await Promise.all(Array.from({ length: 7 }, (_, i) => grouped.submit(write(i))));
    expect(batches).toEqual([['j0'], ['j1', 'j3'], ['j2', 'j4'], ['j5'], ['j6']]);
  });

  it('retries a failed write, then gives up after about a lease', async () => {
    let calls = 0;
    const flaky = new OutcomeBatcher({
      write: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return [];
      },
      maxBatch: 10,
      retryMs: 1,
      giveUpAfterMs: 1000,
      now: () => performance.now(),
      logger,
    });
    expect(await flaky.submit(write(1))).toBe('applied');
    let t = 0;
    const down = new OutcomeBatcher({
      write: async () => {
        t += 600;
        throw new Error('database down');
      },
      maxBatch: 10,
      retryMs: 1,
      giveUpAfterMs: 1000,
      now: () => t,
      logger,
    });
    expect(await down.submit(write(2))).toBe('failed');
  });
});
