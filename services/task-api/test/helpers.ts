import { dueBatchDecision } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { Pool, RowDataPacket } from '@dsched/mysql/pool';
import { materialiseDueBatch } from '@dsched/mysql/scheduler';
import type { FastifyInstance } from 'fastify';
import { TEST_ADMIN_TOKEN } from './test-app.ts';

/** A tenant made through the admin API; returns a request helper bound to its key. */
export async function tenantClient(app: FastifyInstance, quotas: Record<string, number> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/admin/tenants',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { name: 'acme', ...quotas },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const tenant = res.json() as { id: string; apiKey: string };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = {}) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tenant.apiKey}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { ...tenant, call };
}

export const cronBody = (expression: string, overrides: Record<string, unknown> = {}) => ({
  name: `cron ${expression}`,
  schedule: { type: 'cron', expression, timezone: 'UTC' },
  target: { url: 'https://example.test/hook' },
  ...overrides,
});

/**
 * What a scheduler pass would materialise now (or at `now`, a test's stepped instant), with a
 * lookahead (the scheduler's own code).
 */
export function schedulerPass(pool: Pool, lookaheadMs: number, now?: Date) {
  return materialiseDueBatch(pool, {
    ...(now ? { now } : {}),
    scope: { unleased: Array.from({ length: 64 }, (_, i) => i) },
    lookaheadMs,
    limit: 1000,
    decide: dueBatchDecision({
      maxJobs: 5000,
      plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
    }),
  });
}

export interface JobRow {
  occurrence: string;
  kind: string;
  state: string;
  attempt: number;
  scheduledFor: string;
  url: string;
}

export async function jobsOf(pool: Pool, taskId: string): Promise<JobRow[]> {
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT occurrence, kind, state, attempt, scheduled_for, target FROM jobs WHERE task_id = ? ORDER BY scheduled_for, occurrence',
    [idToBin(taskId)],
  );
  return rows.map((r) => ({
    occurrence: String(r.occurrence),
    kind: String(r.kind),
    state: String(r.state),
    attempt: Number(r.attempt),
    scheduledFor: (r.scheduled_for as Date).toISOString(),
    url: (typeof r.target === 'string' ? JSON.parse(r.target) : r.target).url,
  }));
}
