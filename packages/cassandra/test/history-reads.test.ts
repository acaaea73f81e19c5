import { firstCursor, type JobView, newId } from '@dsched/domain';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archivedOccurrenceJobs, archivedTaskRuns, archivedTenantJobs } from '../src/history-reads.ts';
import { writeJobHistory } from '../src/job-history.ts';

let ks: TestKeyspace;
beforeAll(async () => {
  ks = await createTestKeyspace(import.meta.url);
});
afterAll(async () => {
  await ks.close();
});

function view(taskId: string, at: Date, state: JobView['state'] = 'succeeded', kind = 'scheduled'): JobView {
  return {
    id: newId(),
    taskId,
    kind,
    state,
    attempt: 1,
    maxAttempts: 3,
    attemptGroup: 1,
    priority: 'normal',
    scheduledFor: at.toISOString(),
    attempts: [{ attempt: 1, startedAt: at.toISOString(), executor: 'e', status: 200, durationMs: 1 }],
  };
}

describe('archived lists', () => {
  const tenantId = newId();
  const taskId = newId();
  // 60 runs every 47 minutes: they cross UTC days and tenant buckets, with empty buckets between.
  const start = Date.UTC(2026, 10, 27, 22, 0);
  const runs = Array.from({ length: 60 }, (_, i) =>
    view(taskId, new Date(start + i * 47 * 60_000), i % 5 === 0 ? 'dead' : 'succeeded'),
  );
  const newestFirst = [...runs].reverse();
  const from = new Date(start);
  const to = new Date(start + 60 * 47 * 60_000);

  beforeAll(async () => {
    await writeJobHistory(
      ks.client,
      runs.map((v) => ({ tenantId, view: v })),
      { ttlSeconds: 3600, concurrency: 16 },
    );
  });

  it('page a task’s runs newest first across days, stopping at `from`', async () => {
    const seen: string[] = [];
    let cursor = firstCursor(to);
    for (let i = 0; i < 20; i++) {
      const page = await archivedTaskRuns(ks.client, { tenantId, taskId, from, cursor, limit: 7 });
      seen.push(...page.items.map((v) => v.id));
      if (!page.more) break;
      const last = page.items.at(-1)!;
      cursor = { at: new Date(last.scheduledFor), id: last.id };
    }
    expect(seen).toEqual(newestFirst.map((v) => v.id));
    const later = await archivedTaskRuns(ks.client, {
      tenantId,
      taskId,
      from: new Date(runs[50]!.scheduledFor),
      cursor: firstCursor(to),
      limit: 100,
    });
    expect(later.items.map((v) => v.id)).toEqual(newestFirst.slice(0, 10).map((v) => v.id));
  });

  it('page a tenant’s jobs through the bucket directory, by state too', async () => {
    const all = await archivedTenantJobs(ks.client, { tenantId, from, cursor: firstCursor(to), limit: 500 });
    expect(all.items.map((v) => v.id)).toEqual(newestFirst.map((v) => v.id));
    expect(all.more).toBe(false);
    const dead = await archivedTenantJobs(ks.client, {
      tenantId,
      state: 'dead',
      from,
      cursor: firstCursor(to),
      limit: 5,
    });
    expect(dead.items.map((v) => v.id)).toEqual(
      newestFirst
        .filter((v) => v.state === 'dead')
        .slice(0, 5)
        .map((v) => v.id),
    );
    expect(dead.more).toBe(true);
    const other = await archivedTenantJobs(ks.client, {
      tenantId: newId(),
      from,
      cursor: firstCursor(to),
      limit: 500,
    });
    expect(other.items).toEqual([]);
  });

  it('list a task’s scheduled occurrences for the audit', async () => {
    const got = await archivedOccurrenceJobs(ks.client, { tenantId, taskId, from, to });
    expect(got.map((j) => j.id).sort()).toEqual(runs.map((v) => v.id).sort());
    expect(new Set(got.map((j) => j.kind))).toEqual(new Set(['scheduled']));
  });
});
