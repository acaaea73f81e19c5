import { describe, expect, it } from 'vitest';
import { type ApplyPlan, applyTasksSchema, planApply } from '../src/decisions/task-apply.ts';
import { DschedError } from '../src/errors.ts';
import type { Task } from '../src/model.ts';

// The plan of an apply (schedules as code), pure: what a file does to a tenant's keyed tasks.

const TENANT = '0190a0d0-0000-7000-8000-000000000001';
const NOW = new Date('2026-03-28T10:00:00Z');

const entry = (key: string, over: Record<string, unknown> = {}) => ({
  key,
  name: key,
  schedule: { type: 'cron', expression: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
  target: { url: `https://example.test/${key}` },
  ...over,
});

function plan(
  tasks: unknown[],
  existing: Task[],
  options: { prune?: boolean; dryRun?: boolean } = {},
  now = NOW,
) {
  const request = applyTasksSchema.parse({ tasks, ...options });
  return planApply({ tenantId: TENANT, request, existing, now });
}

/** The tasks as stored after a plan: what the next apply reads (a round trip through JSON, as MySQL). */
function after(p: ApplyPlan, before: Task[] = []): Task[] {
  const changed = new Map(p.changes.map((c) => [c.change.task.id, c.change.task]));
  const all = [...before.map((t) => changed.get(t.id) ?? t), ...p.creates].filter(
    (t) => t.state !== 'deleted',
  );
  return all.map((t) => ({
    ...(JSON.parse(JSON.stringify(t), (k, v) =>
      ['at', 'startAt', 'createdAt', 'updatedAt', 'nextFireAt'].includes(k) && typeof v === 'string'
        ? new Date(v)
        : v,
    ) as Task),
  }));
}

describe('planApply', () => {
  const file = [
    entry('billing.nightly', {
      schedule: { type: 'text', text: 'every day at 2:00', timezone: 'Europe/Berlin' },
    }),
    entry('reports.weekly'),
    entry('ping', { schedule: { type: 'interval', every: '90m' }, metadata: { team: 'ops' } }),
    entry('report.flow', {
      target: undefined,
      workflow: { name: 'etl', nodes: [{ id: 'a', target: { url: 'https://example.test/a' } }] },
    }),
  ];

  it('creates every task of a first apply, then a second apply of the same file changes nothing', () => {
    const first = plan(file, []);
    expect(first.result.created).toEqual(['billing.nightly', 'reports.weekly', 'ping', 'report.flow']);
    expect(first.creates.map((t) => [t.key, t.schedule.type, t.state, t.version])).toEqual([
      ['billing.nightly', 'cron', 'active', 1],
      ['reports.weekly', 'cron', 'active', 1],
      ['ping', 'interval', 'active', 1],
      ['report.flow', 'cron', 'active', 1],
    ]);
    expect(first.result.plan[0]!.description).toBe('At 02:00, Europe/Berlin');
    const second = plan(file, after(first), {}, new Date(NOW.getTime() + 86_400_000));
    expect(second.result).toMatchObject({
      created: [],
      updated: [],
      deleted: [],
      unchanged: file.map((e) => e.key),
    });
    expect(second.creates).toEqual([]);
    expect(second.changes).toEqual([]);
  });

  it('an edited cron is one update, field by field', () => {
    const first = plan(file, []);
    const edited = file.map((e) =>
      e.key === 'reports.weekly'
        ? entry('reports.weekly', {
            schedule: { type: 'cron', expression: '0 10 * * 1-5', timezone: 'Europe/Berlin' },
          })
        : e,
    );
    const second = plan(edited, after(first));
    expect(second.result.updated).toEqual(['reports.weekly']);
    expect(second.result.unchanged).toEqual(['billing.nightly', 'ping', 'report.flow']);
    expect(second.changes).toHaveLength(1);
    const { change } = second.changes[0]!;
    expect(change.task.version).toBe(2);
    expect(change.unstarted).toBe('cancel'); // a schedule edit, as PATCH makes it
    expect(second.result.plan.find((s) => s.key === 'reports.weekly')!.changes).toEqual([
      { field: 'schedule.expression', from: '0 9 * * 1-5', to: '0 10 * * 1-5' },
    ]);
    // A field a file drops goes back to its default.
    const dropped = plan(
      file.map((e) =>
        e.key === 'ping' ? entry('ping', { schedule: { type: 'interval', every: '90m' } }) : e,
      ),
      after(first),
    );
    expect(dropped.result.plan.find((s) => s.key === 'ping')!.changes).toEqual([
      { field: 'metadata', from: { team: 'ops' } },
    ]);
  });

  it('--prune deletes exactly the keyed tasks the file no longer lists', () => {
    const first = plan(file, []);
    const existing = after(first);
    const second = plan(file.slice(0, 2), existing, { prune: true });
    expect(second.result.deleted).toEqual(['ping', 'report.flow']);
    expect(second.changes.map((c) => [c.change.task.key, c.change.task.state])).toEqual([
      ['ping', 'deleted'],
      ['report.flow', 'deleted'],
    ]);
    expect(plan(file.slice(0, 2), existing).result.deleted).toEqual([]); // no prune, no delete
  });

  it('keeps the schedule words gave when the words are the same, even relative ones', () => {
    const relative = [entry('soon', { schedule: { type: 'text', text: 'in 3 hours' } })];
    const first = plan(relative, []);
    expect(first.creates[0]!.schedule).toMatchObject({ type: 'once', at: new Date('2026-03-28T13:00:00Z') });
    const later = plan(relative, after(first), {}, new Date(NOW.getTime() + 3_600_000));
    expect(later.result.unchanged).toEqual(['soon']);
  });

  it('names every bad entry and field, with its key, and plans nothing', () => {
    const bad = [
      entry('ok'),
      entry('words', { schedule: { type: 'text', text: 'every day at 9' } }),
      { ...entry('x'), key: undefined },
      entry('ok'),
    ];
    let error: unknown;
    try {
      plan(bad, []);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DschedError);
    expect((error as DschedError).details).toEqual([
      {
        field: 'tasks.1.schedule.text',
        issue: expect.stringMatching(/^"9" \(word 4 of 4\).*\(key "words"\)$/),
      },
      { field: 'tasks.2.key', issue: expect.stringContaining('every task of an apply has a key') },
      { field: 'tasks.3.key', issue: '"ok" is also the key of tasks.0' },
    ]);
  });

  it('refuses to turn a target task into a workflow task, naming the entry', () => {
    const first = plan(file, []);
    const swapped = file.map((e) =>
      e.key === 'ping'
        ? entry('ping', {
            target: undefined,
            workflow: { name: 'w', nodes: [{ id: 'a', target: { url: 'https://example.test/a' } }] },
          })
        : e,
    );
    expect(() => plan(swapped, after(first))).toThrow(
      expect.objectContaining({
        details: [{ field: 'tasks.2.workflow', issue: expect.stringContaining('(key "ping")') }],
      }),
    );
  });
});
