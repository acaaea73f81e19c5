import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import type { RunningService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptRows, jobRow, metric, metricReaches, startExecutor, waitForState } from './executor-kit.ts';

// HTTP outcomes through a real executor process: the DLQ at once for a 4xx, Retry-After honoured,
// the attempt cap, and the SSRF guard refusing (and recording) a loopback target when no
// operator allowed it.

const db = useTestDatabase(import.meta.url);
let target: ScriptedTarget;
let executor: RunningService;
let tenant: Awaited<ReturnType<typeof createTenantWithKey>>;
const fast = { initialBackoffMs: 50, maxBackoffMs: 100 };

beforeAll(async () => {
  target = await startScriptedTarget((call) => {
    if (call.path === '/missing') return { status: 404 };
    if (call.path === '/busy')
      return call.attempt === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 };
    if (call.path === '/broken') return { status: 500 };
    if (call.path === '/conflict') return call.attempt === 1 ? { status: 409 } : { status: 200 };
    return { status: 200 };
  });
  executor = await startExecutor(db);
  tenant = await createTenantWithKey(db.pool);
});
afterAll(async () => {
  await executor?.stop('SIGKILL');
  await target?.close();
});

const seed = (path: string, retry = {}) =>
  insertDueJobs(db.pool, {
    tenantId: tenant.id,
    target: { url: `${target.url}${path}` },
    retry: { ...fast, ...retry },
  });

describe('outcomes', () => {
  it('dead-letters a 404 at once, with its attempt recorded', async () => {
    const dlq = await metric(executor, 'dsched_dlq_additions_total');
    const [id] = await seed('/missing');
    await waitForState(db, [id!], 'dead');
    expect(await jobRow(db, id!)).toMatchObject({ attempt: 1, last_status: 404 });
    expect(await attemptRows(db, id!)).toMatchObject([
      { attempt: 1, status: 404, error_class: 'http_status' },
    ]);
    await metricReaches(executor, 'dsched_dlq_additions_total', dlq + 1);
  });

  it('retries a 503 no sooner than its Retry-After', async () => {
    const [id] = await seed('/busy');
    await waitForState(db, [id!], 'succeeded');
    const [first, second] = await attemptRows(db, id!);
    expect(first).toMatchObject({ status: 503 });
    expect(second).toMatchObject({ status: 200 });
    // On the database clock, the second attempt started 2 s after the first ended (less the few
    // milliseconds between the two statements of the outcome write that stamp them).
    expect(
      (second!.started_at as Date).getTime() - (first!.finished_at as Date).getTime(),
    ).toBeGreaterThanOrEqual(1950);
  });

  it('stops at the attempt cap and dead-letters', async () => {
    const [id] = await seed('/broken', { maxAttempts: 3 });
    await waitForState(db, [id!], 'dead');
    expect((await attemptRows(db, id!)).map((r) => r.status)).toEqual([500, 500, 500]);
    expect((await jobRow(db, id!)).last_error).toContain('attempt cap 3');
    expect(target.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(3);
  });

  it('applies the task’s rules before the defaults (retry a 409)', async () => {
    const [id] = await seed('/conflict', { rules: [{ status: 409, action: 'retry' }] });
    await waitForState(db, [id!], 'succeeded');
    expect((await attemptRows(db, id!)).map((r) => r.status)).toEqual([409, 200]);
  });
});

describe('the SSRF guard in a running executor', () => {
  it('refuses 127.0.0.1 when no allow-list permits it, records why, and never calls it', async () => {
    // The permissive executor of the tests above stops first, so only the strict one can claim
    // (the same database: through vtgate a test file has one, D55).
    await executor.stop();
    const guarded = db;
    const strict = await startExecutor(guarded, { EXECUTOR_ALLOWED_TARGETS: '' }, 'exec-strict');
    try {
      const t = await createTenantWithKey(guarded.pool);
      const [id] = await insertDueJobs(guarded.pool, {
        tenantId: t.id,
        target: { url: `${target.url}/ssrf` },
      });
      await waitForState(guarded, [id!], 'dead');
      expect(await attemptRows(guarded, id!)).toMatchObject([
        { attempt: 1, status: null, error_class: 'refused' },
      ]);
      expect((await jobRow(guarded, id!)).last_error).toMatch(/refused: .*127\.0\.0\.1.*loopback/);
      await metricReaches(strict, 'dsched_executor_targets_refused_total', 1);
      expect(target.calls.filter((c) => c.path === '/ssrf')).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });
});
