import type { CallResult, ClaimedJob, ClaimResult, OutcomeWrite } from '@dsched/domain';
import { createLogger, createRegistry } from '@dsched/runtime';
import { expect, it } from 'vitest';
import { LaneWorker } from '../src/core/lane-worker.ts';
import { OutcomeBatcher } from '../src/core/outcome-batcher.ts';
import { ExecutorMetrics } from '../src/metrics.ts';
import type { CallAbort } from '../src/ports.ts';

// A lane's claim ahead (LaneOptions.ahead): it claims its slots and `ahead` more; the extra claims
// wait for a slot in claim order, start the moment a call returns (no claim in between), and are
// held (leases renewed) meanwhile; one aborted while it waits never calls.

function job(n: number): ClaimedJob {
  return {
    id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
    tenantId: '00000000-0000-7000-8000-000000000001',
    taskId: null,
    kind: 'once',
    workflowId: null,
    nodeId: null,
    scheduledFor: new Date(0),
    priority: 'normal',
    lane: 'default',
    attempt: 1,
    maxAttempts: 3,
    target: { url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, timeoutMs: 1000 },
    retry: { maxAttempts: 3, initialBackoffMs: 1000, maxBackoffMs: 60_000, rules: [] },
    signingSecret: 's',
    tenantSlot: null,
    claimedAt: new Date(0),
    dueInMs: 0,
    owner: 'exec-ahead',
    followUps: null,
  };
}

function lane(ahead: number) {
  const claims: number[] = [];
  let next = 0;
  const calls: { id: string; aborted: boolean; answer: (r: CallResult) => void }[] = [];
  const written: OutcomeWrite[] = [];
  const outcomes = new OutcomeBatcher({
    write: async (w) => {
      written.push(...w);
      return [];
    },
    maxBatch: 100,
    retryMs: 10,
    giveUpAfterMs: 1000,
    now: () => performance.now(),
    logger: createLogger('executor', 'silent'),
  });
  const worker = new LaneWorker(
    { lane: 'default', concurrency: 2, maxBatch: 10, refillAt: 1, ahead },
    {
      claim: async (_lane, limit): Promise<ClaimResult> => {
        claims.push(limit);
        const jobs = Array.from({ length: limit }, () => job(++next));
        return { jobs, locked: limit, cursor: null, deferred: 0, cancelled: 0, flowDeferred: 0 };
      },
      call: (j, abort: CallAbort) =>
        new Promise<CallResult>((resolve) => {
          const entry = { id: j.id, aborted: false, answer: resolve };
          calls.push(entry);
          abort.onAbort(() => {
            entry.aborted = true;
            resolve({ kind: 'error', errorClass: 'aborted', message: 'aborted' });
          });
        }),
      outcomes,
      metrics: new ExecutorMetrics(createRegistry('executor')),
      random: () => 0.5,
      monotonicMs: () => performance.now(),
      park: { heartbeatSeconds: 60, deadlineSeconds: 600 },
    },
  );
  return { worker, claims, calls, written };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

it('claims its slots and as many ahead, calls only as many as it has slots, and starts the next on a return', async () => {
  const { worker, claims, calls } = lane(2);
  await worker.runOnce();
  await tick();
  expect(claims).toEqual([4]); // 2 slots + 2 ahead
  expect(worker.held()).toHaveLength(4); // all four leases renewed
  expect(calls.map((c) => c.id.slice(-1))).toEqual(['1', '2']); // two calls at once
  calls[0]!.answer({ kind: 'response', status: 200 });
  await tick();
  // The third started on the first's return, with no claim in between.
  expect(calls.map((c) => c.id.slice(-1))).toEqual(['1', '2', '3']);
  expect(claims).toEqual([4]);
  for (const c of calls.slice(1)) c.answer({ kind: 'response', status: 200 });
  await tick();
  calls[3]!.answer({ kind: 'response', status: 200 });
  await tick();
  expect(worker.held()).toHaveLength(0);
});

it('without a claim ahead claims only into free slots', async () => {
  const { worker, claims } = lane(0);
  await worker.runOnce();
  expect(claims).toEqual([2]);
});

it('never calls a claim aborted while it waits for a slot', async () => {
  const { worker, calls, written } = lane(2);
  await worker.runOnce();
  await tick();
  const waiting = worker.held()[3]!;
  expect(worker.abort(waiting, 'cancel')).toBe(true);
  await tick();
  expect(written.map((w) => [w.job.id, w.transition.to])).toEqual([[waiting.id, 'cancelled']]);
  for (const c of calls) c.answer({ kind: 'response', status: 200 });
  await tick();
  calls[2]?.answer({ kind: 'response', status: 200 });
  await tick();
  expect(calls.map((c) => c.id)).not.toContain(waiting.id);
  expect(worker.held()).toHaveLength(0);
});
